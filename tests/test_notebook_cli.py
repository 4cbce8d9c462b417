"""`compmath notebook CLASE... [--out DIR] [--all] [--practice] [--check]` on the fake course:
what it writes, when it leaves a file alone, how it reports stale notebooks, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

NOTEBOOK = Path("cuadernos") / "901-pasa.ipynb"


def test_it_writes_a_valid_notebook_and_leaves_an_unchanged_one_alone(cli, fake_course) -> None:
    result = cli("notebook", "901", "--root", str(fake_course))
    assert result.code == 0, result.err
    assert result.out == "✓ escrito: cuadernos/901-pasa.ipynb\n"
    written = (fake_course / NOTEBOOK).read_text(encoding="utf-8")
    nbformat.validate(nbformat.reads(written, as_version=4))
    assert json.loads(written)["cells"][0]["source"][0] == "# 901 — Un laboratorio que pasa\n"
    again = cli("notebook", "901", "--root", str(fake_course))
    assert again.code == 0 and again.out == "· sin cambios: cuadernos/901-pasa.ipynb\n"


def test_check_reports_current_stale_and_missing_notebooks(cli, fake_course) -> None:
    assert cli("notebook", "901", "902", "--root", str(fake_course)).code == 0
    current = cli("notebook", "901", "--check", "--root", str(fake_course))
    assert current.code == 0 and current.out == "· al día: cuadernos/901-pasa.ipynb\n"
    meta = fake_course / "classes" / "part-90-curso-de-prueba" / "901-pasa" / "class.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("Todo cuadra.", "Todo cuadra, otra vez."),
        encoding="utf-8",
    )
    (fake_course / "cuadernos" / "902-lanza.ipynb").unlink()
    stale = cli("notebook", "901", "902", "903", "--check", "--root", str(fake_course))
    assert stale.code == 1
    assert "✗ no está al día: cuadernos/901-pasa.ipynb" in stale.out
    assert "✗ falta: cuadernos/902-lanza.ipynb" in stale.out
    assert "✗ falta: cuadernos/903-forma-erronea.ipynb" in stale.out
    assert "compmath notebook --all" in stale.out
    assert not (fake_course / "cuadernos" / "902-lanza.ipynb").exists()  # --check never writes


def test_practice_notebooks_go_to_their_own_folder_and_out_moves_both(
    cli, make_lab, tmp_path
) -> None:
    root = make_lab(
        950,
        '''
        def doble(n: int) -> int:
            """El doble de n."""
            ### BEGIN SOLUTION
            m = 2 * n
            ### END SOLUTION
            return m


        def run(n: int = 3) -> dict:
            return {"n": n, "mitad": n / 2, "vector": [doble(n)]}
        ''',
        expected={"n": 3, "mitad": 1.5, "vector": [6]},
        slug="doble",
    )
    folder = root / "classes" / "part-90-curso-de-prueba" / "950-doble"
    pasa = (folder.parent / "901-pasa" / "class.toml").read_text(encoding="utf-8")
    pasa = pasa.split("[[huecos]]")[0] + "[[bibliografia]]" + pasa.split("[[bibliografia]]")[1]
    (folder / "class.toml").write_text(
        pasa.replace("numero = 901", "numero = 950")
        + '\n[[huecos]]\ntarea = "Calcula m = 2n."\nsalidas = ["vector"]\n'
        + 'pistas = ["Multiplica por dos."]\n',
        encoding="utf-8",
    )
    out = tmp_path / "fuera"
    # 901's variant names a parameter 950's run() does not take: the course's lab cannot be
    # recorded there, and the notebook says so (the practice notebook runs it at each variant)
    refused = cli("notebook", "950", "--practice", "--out", str(out), "--root", str(root))
    assert refused.code == 2 and "Traceback" not in refused.err
    assert "con los parámetros escala = 2.0 al grabar lo que compara el cuaderno" in refused.err
    toml = folder / "class.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("escala = 2.0", "n = 5"), "utf-8")
    result = cli("notebook", "950", "--practice", "--out", str(out), "--root", str(root))
    assert result.code == 0, result.err
    text = (out / "practica" / "950-doble.ipynb").read_text(encoding="utf-8")
    assert "### HUECO 1 ###" in text and "m = 2 * n" not in text
    assert "<details><summary>Pista 1 del hueco 1</summary>" in text
    assert not (root / "cuadernos").exists()


def test_with_ci_set_it_does_not_write_into_the_course(
    cli, fake_course, monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("CI", "true")
    refused = cli("notebook", "--all", "--root", str(fake_course))
    assert refused.code == 2
    assert "error: compmath notebook no escribe en el repositorio con CI definido" in refused.err
    assert "--out CARPETA" in refused.err and "Traceback" not in refused.err
    assert not (fake_course / "cuadernos").exists()
    outside = cli("notebook", "901", "--out", str(tmp_path / "web"), "--root", str(fake_course))
    assert outside.code == 0 and (tmp_path / "web" / "901-pasa.ipynb").exists()
    assert cli("notebook", "901", "--check", "--root", str(fake_course)).code == 1


@pytest.mark.parametrize(
    ("args", "message", "hint"),
    [
        ((), "error: indica las clases o --all", "ejemplo: compmath notebook NUMERO (o --all)"),
        (("999",), "error: no existe la clase «999»", "prueba: compmath list"),
        (("906", "--practice"), "error: la clase 906 no tiene huecos", "compmath notebook 906"),
    ],
    ids=["sin-clases", "clase-desconocida", "sin-huecos"],
)
def test_usage_errors_are_one_spanish_line_and_a_hint(
    cli, fake_course, args, message, hint
) -> None:
    result = cli("notebook", *args, "--root", str(fake_course))
    assert result.code == 2
    assert result.err.startswith(message) and hint in result.err
    assert "Traceback" not in result.err + result.out


LAB = """
def run(n: int = 4) -> dict:
    return {"n": n, "mitad": n / 2, "vector": [1.0]}
"""


@pytest.mark.parametrize(
    ("source", "expected", "problem"),
    [
        (LAB, None, "la clase 950 no tiene instantánea"),
        ("from compmath.labmain import main\n" + LAB, {"n": 4}, "importa compmath"),
        ("Comprobacion = 1\n" + LAB, {"n": 4}, "define Comprobacion, que el cuaderno usa"),
        ("def run(:\n", {"n": 4}, "no es Python válido"),
    ],
    ids=["sin-instantanea", "importa-compmath", "choca-con-la-comprobacion", "sintaxis"],
)
def test_a_class_that_cannot_be_a_notebook_is_named_and_the_others_are_written(
    cli, make_lab, source, expected, problem
) -> None:
    root = make_lab(950, source, expected=expected)
    alone = cli("notebook", "950", "--root", str(root))
    assert alone.code == 2 and problem in alone.err and "Traceback" not in alone.err
    several = cli("notebook", "901", "950", "--root", str(root))
    assert several.code == 2
    assert "✓ escrito: cuadernos/901-pasa.ipynb" in several.out
    assert (
        "✗ no se puede generar: cuadernos/950-ad-hoc.ipynb: " in several.out
        and problem in several.out
    )


def test_a_notebook_links_only_the_neighbours_that_were_generated(cli, tmp_path) -> None:
    """#29: a notebook made for one class does not link notebooks that are not beside it."""
    from tests.conftest import REPO

    def closing(number: str) -> str:
        written = next(tmp_path.glob(f"{number}-*.ipynb")).read_text(encoding="utf-8")
        return "".join(json.loads(written)["cells"][-1]["source"])

    assert cli("notebook", "323", "--out", str(tmp_path), "--root", str(REPO)).code == 0
    alone = closing("323")
    assert "322 Embeddings" in alone and "324 Query" in alone and ".ipynb)" not in alone
    assert cli("notebook", "324", "--out", str(tmp_path), "--root", str(REPO)).code == 0
    assert "(323-positional-encoding.ipynb)" in closing("324")
    assert cli("notebook", "323", "--out", str(tmp_path), "--root", str(REPO)).code == 0
    beside = closing("323")
    assert "(324-query-key-value.ipynb)" in beside and "322-embeddings" not in beside
