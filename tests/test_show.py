"""`compmath show`: the class page document, every section in the seed page's order, drawn for the
terminal (plain on a pipe, styled with colour) without importing or running the lab."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.present.layout import lay_out, plain_text
from compmath.present.page import abridge, class_page, readme_sections
from compmath.present.page_screen import page_blocks
from compmath.present.terminal import write_styled
from tests.conftest import REPO

SECTIONS_323 = [
    "Inicio · Parte 16 — Matemática de Transformers, modelos generativos, grafos y RL",
    "323 — Positional encoding",
    "experto · clase 3 de 20 · 4 horas · demostración · positional_encoding\n",
    "Sin una señal de posición, la atención ve una bolsa de tokens",
    "\nFórmulas\n",
    "PE(pos, 2i)   = sin(pos / 10000^(2i/d))",  # scripts as the prose writes them
    "\nDesarrollo\n",
    "Una capa de atención compara cada token",
    "\nEjemplo trabajado\n",
    "Con d = 8 las frecuencias son",
    "\nQué calcula el laboratorio\n",
    "python classes/part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl/"
    "323-positional-encoding/lab.py",
    "compmath run 323\n",
    "dimension (int, entero) = 8",
    "compmath run 323 --set dimension=16",
    "\nSalidas del laboratorio (9)\n",
    "• la_similitud_decae_con_la_distancia: Verdadero si",
    "\nMuestra de la ejecución\n",
    '"producto_pos0_pos1": 3.535256',
    "\nErrores comunes\n",
    "\nDónde se usa\n",
    "\nIdea rectora de la parte\n",
    "\nError a evitar\n",
    "\nConexión con IA\n",
    "\nBibliografía de la clase\n",
    "Attention Is All You Need, NeurIPS, 2017",
    "DOI 10.48550/arXiv.1706.03762",
    "\nArchivos de la clase\n",
    "• lab.py: el laboratorio",
    "schemas/323-positional-encoding.schema.json",
    "← 322 Embeddings y similitud coseno · 324 Query, Key y Value →",
]


@pytest.fixture(autouse=True)
def unwrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe: no width, so phrases are never split by wrapping."""
    monkeypatch.delenv("COLUMNS", raising=False)


def test_show_prints_every_section_in_the_seed_order(cli) -> None:
    result = cli("show", "323", "--root", str(REPO))
    assert result.code == 0, result.err
    position = 0
    for phrase in SECTIONS_323:
        found = result.out.find(phrase, position)
        assert found >= 0, f"falta o está fuera de orden: {phrase!r}"
        position = found + len(phrase)
    assert result.out.count("demostración · positional_encoding") == 1  # the seed's header


def test_plain_page_has_no_markdown_markup(cli) -> None:
    out = cli("show", "323", "--root", str(REPO)).out
    assert "```" not in out and "**" not in out and "\n## " not in out and "\\_" not in out
    assert "la_similitud_decae_con_la_distancia" in out and "*equivariante*" not in out


def test_formulas_are_numbered_as_on_the_site(cli) -> None:
    """The site numbers each formula, (1), (2)… (compmath.site.numbering), and the prose refers to
    them by number: the terminal lists them with the same numbers, in the same order."""
    out = cli("show", "332", "--root", str(REPO)).out
    listed = out.split("\nFórmulas\n")[1].split("\nDesarrollo\n")[0]
    assert re.findall(r"^  \((\d+)\) ", listed, re.M) == [str(n) for n in range(1, 10)]
    assert "  (2) q(xₜ | x₀) = N(√ᾱₜ x₀" in listed
    prose = out.split("\nDesarrollo\n")[1].split("\nQué calcula el laboratorio\n")[0]
    assert "la forma cerrada (2)" in prose
    assert {int(n) for n in re.findall(r" \((\d+)\)", prose)} <= set(range(1, 10))  # not rng(0)


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        (
            "321",
            "← 320 Última clase de la parte 15 (fuera de este curso) · 322 Embeddings y similitud coseno →",
        ),
        ("340", "← 339 Q-learning · 341 Primera clase de la parte 17 (fuera de este curso) →"),
        ("321", "A New Algorithm for Data Compression, C Users Journal 12(2), 1994"),
        ("335", "ISBN 978-0-8218-0315-8"),
    ],
)
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
    root = make_lab(
        950,
        """
        raise SystemExit("importado")

        def run(pasos: int = 3, activo: bool = True, tasa: float = 0.9, x: float = 2 * 3.0) -> dict:
            return {}
    """,
    )
    result = cli("show", "950", "--root", str(root))
    assert result.code == 0, result.err
    assert (
        "pasos (int, entero) = 3" in result.out and "activo (bool, booleano) = true" in result.out
    )
    assert "compmath run 950 --set pasos=6" in result.out
    assert "tasa (float, real) = 0.9" in result.out
    assert "x (float, real) = 2 * 3.0" in result.out  # an expression, shown as written


def test_unknown_class_is_a_usage_error(cli) -> None:
    result = cli("show", "999", "--root", str(REPO))
    assert result.code == 2
    assert "error: no existe la clase «999»" in result.err and "Traceback" not in result.err


def test_readme_sections_split_on_level_two_headings(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        "# T\n\n## Desarrollo\n\nuno\n### sub\ndos\n\n## Ejemplo trabajado\n\ntres\n",
        encoding="utf-8",
    )
    assert readme_sections(readme) == {
        "Desarrollo": "uno\n### sub\ndos",
        "Ejemplo trabajado": "tres",
    }


def test_the_page_is_data_drawn_with_colour_or_plain() -> None:
    course = load_course(REPO)
    page = class_page(course, course.resolve("323"))
    assert page.formulas[0].text.startswith("PE(pos, 2i)")
    assert page.position == (3, 20) and page.previous and page.previous.number == 322
    lines = lay_out(page_blocks(page), 100, colour=True)
    coloured = StringIO()
    write_styled(lines, coloured)
    plain = plain_text(lay_out(page_blocks(page), 100))
    assert "\x1b[" in coloured.getvalue() and "\x1b[" not in plain
    assert all(len(line) <= 100 for line in plain.splitlines())
