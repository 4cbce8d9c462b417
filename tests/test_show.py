"""`compmath show`: the class page with the seed page's sections, in order, plain or Rich."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from compmath.course import load_course
from compmath.page import abridge, class_page, markdown_to_plain, readme_sections
from compmath.render import render_page
from tests.conftest import REPO

SECTIONS_323 = [
    "Inicio · Parte 16 — Matemática de Transformers, modelos generativos, grafos y RL",
    "323 — Positional encoding",
    "experto · clase 3 de 20 · 4 horas · demostración positional_encoding",
    "Sin una señal de posición, la atención ve una bolsa de tokens",
    "\nFórmulas\n",
    "PE(pos, 2i)   = sin(pos / 10000^{2i/d})",
    "\nDesarrollo\n",
    "Una capa de atención compara cada token",
    "\nEjemplo trabajado\n",
    "Con d = 8 las frecuencias son",
    "\nQué calcula el laboratorio\n",
    "python classes/part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl/"
    "323-positional-encoding/lab.py",
    "compmath run 323\n",
    "dimension (int, entero) = 8",
    "Ejemplo: compmath run 323 --set dimension=16",
    "\nSalidas del laboratorio (9)\n",
    "- la_similitud_decae_con_la_distancia: Verdadero si",
    "\nMuestra de la ejecución\n",
    '"producto_pos0_pos1": 3.535256',
    "\nErrores comunes\n",
    "\nDónde se usa\n",
    "\nIdea rectora de la parte\n",
    "\nError a evitar\n",
    "\nConexión con IA\n",
    "\nBibliografía de la clase\n",
    "Vaswani, A. et al. Attention Is All You Need, NeurIPS, 2017",
    "DOI 10.48550/arXiv.1706.03762",
    "\nArchivos de la clase\n",
    "- lab.py: el laboratorio",
    "- schemas/323-positional-encoding.schema.json: el contrato de las salidas",
    "← 322 Embeddings y similitud coseno · 324 Query, Key y Value →",
]


def test_show_prints_every_section_in_the_seed_order(cli) -> None:
    result = cli("show", "323", "--root", str(REPO))
    assert result.code == 0, result.err
    position = 0
    for phrase in SECTIONS_323:
        found = result.out.find(phrase, position)
        assert found >= 0, f"falta o está fuera de orden: {phrase!r}"
        position = found + len(phrase)


def test_plain_page_has_no_markdown_markup(cli) -> None:
    out = cli("show", "323", "--root", str(REPO)).out
    assert "```" not in out and "**" not in out and "\n## " not in out and "\\_" not in out
    assert "la_similitud_decae_con_la_distancia" in out


@pytest.mark.parametrize(("name", "phrase"), [
    ("321", "← 320 Última clase de la parte 15 · 322 Embeddings y similitud coseno →"),
    ("340", "← 339 Q-learning · 341 Primera clase de la parte 17 →"),
    ("321", "A New Algorithm for Data Compression, C Users Journal 12(2), 1994"),
    ("321", "sin confirmar"),
    ("335", "ISBN 978-0-8218-0315-8"),
])
def test_links_and_bibliography(cli, name: str, phrase: str) -> None:
    assert phrase in cli("show", name, "--root", str(REPO)).out


def test_sample_abridges_long_values() -> None:
    text = abridge({"v": list(range(20)), "d": {f"k{i}": i for i in range(12)}, "s": "x" * 200})
    assert '"v": [0, 1, 2, 3, 4, 5, … (20 en total)]' in text
    assert '"k5": 5' in text and '"k6"' not in text and "… (12 claves en total)" in text
    assert len(text.splitlines()[-2]) < 100


def test_class_without_page_files_still_shows(cli, fake_course: Path) -> None:
    result = cli("show", "902", "--root", str(fake_course))
    assert result.code == 0
    assert "902 — Un laboratorio que lanza" in result.out
    assert "(por escribir en README.md)" in result.out
    assert "← 901 Un laboratorio que pasa · 903 Una salida con forma errónea →" in result.out


def test_show_never_imports_the_lab(cli, make_lab) -> None:
    root = make_lab(950, """
        raise SystemExit("importado")

        def run(pasos: int = 3, activo: bool = True) -> dict:
            return {}
    """)
    result = cli("show", "950", "--root", str(root))
    assert result.code == 0, result.err
    assert "pasos (int, entero) = 3" in result.out and "activo (bool, booleano) = true" in result.out
    assert "compmath run 950 --set pasos=6" in result.out


def test_unknown_class_is_a_usage_error(cli) -> None:
    result = cli("show", "999", "--root", str(REPO))
    assert result.code == 2
    assert "error: no existe la clase «999»" in result.err and "Traceback" not in result.err


def test_readme_sections_split_on_level_two_headings(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n## Desarrollo\n\nuno\n### sub\ndos\n\n## Ejemplo trabajado\n\ntres\n",
                      encoding="utf-8")
    assert readme_sections(readme) == {"Desarrollo": "uno\n### sub\ndos", "Ejemplo trabajado": "tres"}


def test_terminal_gets_rich_markdown_and_pipes_get_plain_text(monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    course = load_course(REPO)
    markdown = class_page(course, course.resolve("323"))
    rich = Console(file=StringIO(), width=100, force_terminal=True, color_system="truecolor")
    render_page(rich, markdown)
    shown = rich.file.getvalue()
    assert "\x1b[" in shown and "Fórmulas" in shown and "Positional encoding" in shown
    piped = Console(file=StringIO(), width=100, force_terminal=False)
    render_page(piped, markdown)
    assert piped.file.getvalue() == markdown_to_plain(markdown)
    assert "\x1b[" not in piped.file.getvalue()


def test_no_color_terminal_gets_plain_text() -> None:
    course = load_course(REPO)
    markdown = class_page(course, course.resolve("323"))
    console = Console(file=StringIO(), width=100, force_terminal=True)  # NO_COLOR is set
    render_page(console, markdown)
    assert console.file.getvalue() == markdown_to_plain(markdown)


def test_markdown_to_plain_strips_only_markup() -> None:
    text = markdown_to_plain("## Título\n\n*cursiva* y **negrita** con `codigo` y a\\_b\n\n"
                             "```\nx * y = z\n```\n")
    assert text == "Título\n\ncursiva y negrita con codigo y a_b\n\n    x * y = z\n"
