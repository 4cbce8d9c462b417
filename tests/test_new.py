"""`compmath new`: scaffold a class, plan it, and take it through update, run and lint."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

from compmath import contracts
from compmath.authoring.scaffold import plan_entry, with_plan_entry
from tests.conftest import FAKE_PART, REPO

LAB = '''"""Suma de cubos.

    c(n) = Σ_{k=1}^{n} k³ = (n(n+1)/2)²
"""

import numpy as np


def run(n: int = 5) -> dict:
    ### BEGIN SOLUTION
    k = np.arange(1, n + 1)  # (n,)
    s = float(np.sum(k**3))
    ### END SOLUTION
    return {
        "n": n,
        "suma_de_cuadrados": s,
        "coincide_con_la_formula_cerrada": bool(np.isclose(s, (n * (n + 1) / 2) ** 2)),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
'''


def finish_scaffold(root: Path, folder: Path) -> None:
    """Write what an instructor writes after `compmath new`: the prose, the part's data."""
    meta = folder / "class.toml"
    text = meta.read_text(encoding="utf-8")
    for old, new in (
        ("Por escribir: la idea de la clase en una frase.", "La suma de cubos es un cuadrado."),
        (
            "Por escribir: qué calcula el laboratorio y con qué ejemplo fijo.",
            "La suma de los $k^3$ para $n = 4$.",
        ),
        ("Por escribir: un error frecuente y cómo evitarlo.", "Olvidar el cuadrado."),
        (
            "Por escribir: dónde aparece esta idea en la práctica.",
            "En los ejercicios de inducción.",
        ),
        (
            "bibliografia = []",
            'bibliografia = [{autores = "Nicómaco", titulo = "Introducción a la '
            'aritmética", anio = 1600}]',
        ),
    ):
        text = text.replace(old, new)
    meta.write_text(text, encoding="utf-8")
    (folder / "README.md").write_text(
        "# 341 — Suma de cubos\n\n## Desarrollo\n\nTexto.\n\n## Ejemplo trabajado\n\nTexto.\n",
        encoding="utf-8",
    )
    part = root / "classes" / "part-17-parte-17" / "part.toml"
    text = part.read_text(encoding="utf-8").replace('titulo = "Parte 17"', 'titulo = "Sumas"')
    part.write_text(text.replace("Por escribir: ", ""), encoding="utf-8")


@pytest.fixture
def real_copy(tmp_path: Path) -> Path:
    """A writable copy of the real course (classes/ and schemas/)."""
    root = tmp_path / "curso"
    for name in ("classes", "schemas"):
        shutil.copytree(REPO / name, root / name)
    return root


@pytest.mark.lento  # the whole real course is copied, updated and linted
def test_new_class_goes_through_update_run_and_lint(cli, real_copy: Path) -> None:
    root = str(real_copy)
    result = cli(
        "new", "341", "suma-de-cubos", "--title", "Suma de cubos", "--part", "17", "--root", root
    )
    assert result.code == 0, result.err
    folder = real_copy / "classes" / "part-17-parte-17" / "341-suma-de-cubos"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "class.toml", "lab.py"]
    assert (real_copy / "schemas" / "341-suma-de-cubos.schema.json").exists()
    assert "siguiente: escribe lab.py, class.toml y README.md" in result.out
    assert "compmath update 341" in result.out

    # Before anything is written, lint lists what the scaffold left to do. (--no-run: the new
    # class has no holes, and the real course's hole checks are test_lint's real-course test.)
    result = cli("lint", "--no-run", "--root", root)
    assert result.code == 1
    for phrase in (
        "341-suma-de-cubos/expected.json: falta la instantánea",
        "part.toml: el título «Parte 17» es el de la plantilla",
        "part.toml: quedan textos «Por escribir…» de la plantilla en: «",
        "341-suma-de-cubos/class.toml: la bibliografía está vacía",
        "341-suma-de-cubos/class.toml: quedan textos «Por escribir…» de la plantilla en: "
        "«donde_se_usa», «errores_comunes», «lema», «que_calcula»",
        "341-suma-de-cubos/README.md: quedan textos «Por escribir…»",
    ):
        assert phrase in result.out, phrase
    finish_scaffold(real_copy, folder)

    (folder / "lab.py").write_text(LAB, encoding="utf-8")
    assert cli("update", "341", "--root", root).code == 0
    result = cli("run", "341", "--root", root)
    assert result.code == 0, result.out
    assert "3/3 salidas coinciden con la instantánea" in result.out
    assert "Parte 17 · clase 1 de 1" in result.out
    result = cli("lint", "--no-run", "--root", root)
    assert result.code == 0, result.out
    assert "21 clases revisadas" in result.out
    page = cli("show", "341", "--root", root).out
    assert "← 340 Gradiente de política (REINFORCE) y regularización KL" in page
    assert "## " not in page and "Desarrollo" in page


def test_scaffolded_files_follow_the_contracts(cli, fake_course: Path) -> None:
    part = fake_course / "classes" / FAKE_PART
    (part / "part.toml").write_text(
        "# comentario que debe quedarse\n" + (part / "part.toml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    result = cli(
        "new", "910", "mi-clase", "--title", 'Mi «clase» "nueva"', "--root", str(fake_course)
    )
    assert result.code == 0, result.err
    folder = part / "910-mi-clase"
    meta = tomllib.loads((folder / "class.toml").read_text(encoding="utf-8"))
    schema = json.loads(contracts.path("class").read_text(encoding="utf-8"))
    jsonschema.validate(meta, schema)
    assert meta["titulo"] == 'Mi «clase» "nueva"' and meta["nivel"] == "inicial"
    outputs = json.loads(
        (fake_course / "schemas" / "910-mi-clase.schema.json").read_text(encoding="utf-8")
    )
    assert (
        [o["nombre"] for o in meta["salidas"]] == list(outputs["properties"]) == outputs["required"]
    )
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "\n## Desarrollo\n" in readme and "\n## Ejemplo trabajado\n" in readme
    lab = (folder / "lab.py").read_text(encoding="utf-8")
    assert lab.startswith('"""Mi «clase» "nueva".') and "from compmath.labmain import main" in lab
    text = (part / "part.toml").read_text(encoding="utf-8")
    assert text.startswith("# comentario que debe quedarse\n")
    plan = tomllib.loads(text)["plan"]
    assert plan[-1] == {
        "numero": 910,
        "slug": "mi-clase",
        "titulo": 'Mi «clase» "nueva"',
        "demo": "mi_clase",
    }
    # The placeholder output is computed from the parameter, not typed in.
    result = cli("run", "910", "--set", "n=3", "--root", str(fake_course))
    assert result.code == 0, result.out
    assert "14,0" in result.out


def test_planned_class_keeps_its_plan_entry(cli, fake_course: Path) -> None:
    part_toml = fake_course / "classes" / FAKE_PART / "part.toml"
    before = part_toml.read_text(encoding="utf-8")
    result = cli(
        "new",
        "909",
        "pendiente",
        "--title",
        "Una clase aún sin escribir",
        "--root",
        str(fake_course),
    )
    assert result.code == 0, result.err
    assert part_toml.read_text(encoding="utf-8") == before


def test_planned_class_with_other_title_is_refused(cli, fake_course: Path) -> None:
    result = cli("new", "909", "pendiente", "--title", "Otro", "--root", str(fake_course))
    assert result.code == 2
    assert "ya reserva la clase 909 como «pendiente» (Una clase aún sin escribir)" in result.err


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (
            ["901", "otra", "--title", "X"],
            "el número 901 ya lo usa classes/part-90-curso-de-prueba/901-pasa",
        ),
        (["34", "x", "--title", "X"], "el número «34» no tiene tres cifras"),
        (["3410", "x", "--title", "X"], "el número «3410» no tiene tres cifras"),
        (["9a1", "x", "--title", "X"], "el número «9a1» no tiene tres cifras"),
        (["911", "Mi_Clase", "--title", "X"], "el slug «Mi_Clase» solo admite"),
        (["911", "x-", "--title", "X"], "el slug «x-» solo admite"),
        (["911", "x", "--title", "  "], "el título está vacío"),
        (["500", "x", "--title", "X"], "no se sabe a qué parte pertenece la clase 500"),
    ],
)
def test_bad_requests_exit_2_and_write_nothing(
    cli, fake_course: Path, args: list[str], phrase: str
) -> None:
    before = sorted(str(p) for p in fake_course.rglob("*"))
    result = cli("new", *args, "--root", str(fake_course))
    assert result.code == 2
    assert phrase in result.err and "Traceback" not in result.err
    assert sorted(str(p) for p in fake_course.rglob("*")) == before


def test_new_refuses_to_write_under_ci(
    cli, fake_course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    result = cli("new", "910", "x", "--title", "X", "--root", str(fake_course))
    assert result.code == 2 and "con CI definido" in result.err
    assert not (fake_course / "classes" / FAKE_PART / "910-x").exists()


def test_existing_schema_is_not_overwritten(cli, fake_course: Path) -> None:
    (fake_course / "schemas" / "910-x.schema.json").write_text("{}", encoding="utf-8")
    result = cli("new", "910", "x", "--title", "X", "--root", str(fake_course))
    assert result.code == 2 and "ya existe schemas/910-x.schema.json" in result.err
    assert (fake_course / "schemas" / "910-x.schema.json").read_text(encoding="utf-8") == "{}"


def test_plan_entry_goes_in_number_order_with_comments_kept() -> None:
    text = (
        'numero = 5\ntitulo = "x"\n\n[[plan]]\nnumero = 501\nslug = "a"\ntitulo = "A"\n\n'
        '# la 503 va después\n[[plan]]\nnumero = 503\nslug = "c"\ntitulo = "C"\n'
    )
    new = with_plan_entry(text, 502, plan_entry(502, "b", "B", "b"))
    assert [e["numero"] for e in tomllib.loads(new)["plan"]] == [501, 502, 503]
    assert "# la 503 va después\n[[plan]]\nnumero = 503" in new
    appended = with_plan_entry(text, 504, plan_entry(504, "d", "D", "d"))
    assert appended.startswith(text) and appended.endswith('slug = "d"\ntitulo = "D"\ndemo = "d"\n')
