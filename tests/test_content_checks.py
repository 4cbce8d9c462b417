"""Lint's mechanical content checks: each one fires on a fixture written to trigger it and stays
quiet on its honest twin, both on its own and through `compmath lint`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compmath.authoring.content_checks import (
    _decimal_tuples,
    _lookalikes,
    capitalised_nouns,
    content_problems,
)
from compmath.authoring.lint import lint_course
from compmath.authoring.literal_claims import literal_claims
from compmath.course.tree import load_course
from tests.conftest import FAKE_PART, REPO

NB_HYPHEN = "\u2011"
README = (
    "# 901 — Un laboratorio que pasa\n\n## Desarrollo\n\n{}\n\n## Ejemplo trabajado\n\nTexto.\n"
)


@pytest.mark.parametrize(
    "text",
    [
        f"con tolerancia 1e{NB_HYPHEN}12",
        f"el triángulo 0{NB_HYPHEN}1{NB_HYPHEN}2",
        "umbral 1e\u221212",  # a typographic minus in an exponent cannot be pasted as a number
        "vale 0\u201a5",  # a low quotation mark posing as the decimal comma
        "vale 1\u200b000",
        "unos 2\u041e0 pasos",  # Cyrillic O between digits
        "cifra \uff13",
    ],
)
def test_lookalike_inside_a_number_is_found(text: str) -> None:
    assert len(list(_lookalikes(text))) == 1


@pytest.mark.parametrize(
    "text",
    ["con tolerancia 1e-12", "pp. 679–684", "vale −1,948657", "con 200\u00a0000 muestras", "2−3"],
)
def test_honest_numbers_pass(text: str) -> None:
    assert list(_lookalikes(text)) == []


def test_lookalike_message_names_the_character() -> None:
    [(line, message)] = _lookalikes(f"a\nb 1e{NB_HYPHEN}12 c")
    assert line == 2
    assert message == "«1e‑12» lleva U+2011 (guion no separable) dentro de un número"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("salida 0,767918·(1,1) + 0,045388·(2,1)", ["(1,1)", "(2,1)"]),
        ("X = [[1,0,1,0], [0,1,0,1]]", ["[1,0,1,0]", "[0,1,0,1]"]),
        ("Q = [[2,0], [0,2]]", ["[2,0]", "[0,2]"]),
        ("las parejas (0,1), (2,3), …", ["(0,1)", "(2,3)"]),
        ("(1/3)(1,0) + …", ["(1,0)"]),
        ("h = (0,3)·W", ["(0,3)"]),
        ("en [0,1]", ["[0,1]"]),
    ],
)
def test_integer_tuples_that_read_as_decimals_are_found(text: str, found: list[str]) -> None:
    assert list(_decimal_tuples(text)) == found


@pytest.mark.parametrize(
    "text",
    [
        "salida 0,767918·(1; 1) + 0,045388·(2; 1)",
        "X = [[1, 0, 1, 0], [0, 1, 0, 1]]",
        "s(0,5) = ½ tanh 0,5 y N(0,5; 5)",
        "la media (0,5) y la varianza",
        "en código `[[1,0],[0,1]]` no cuenta",
        "ni en TeX: $0{,}767918 \\cdot (1,1)$ y $$W = [[1,0],[0,1]]$$",
        "e^(−0,231059) y √(1,13/200 000)",
    ],
)
def test_decimals_and_spaced_tuples_pass(text: str) -> None:
    assert list(_decimal_tuples(text)) == []


def test_capitalised_common_nouns_in_titles() -> None:
    assert capitalised_nouns("Espectro del Laplaciano: Fiedler y Fourier en grafos") == [
        "Laplaciano"
    ]
    assert capitalised_nouns("Grafos y Laplaciano normalizado") == ["Laplaciano"]
    assert capitalised_nouns("Grafos y laplaciano normalizado") == []
    assert capitalised_nouns("Laplaciano normalizado") == []  # the opening word
    assert capitalised_nouns("El bloque Transformer: LayerNorm, RMSNorm y residuales") == []
    assert capitalised_nouns("MDP, ecuación de Bellman e iteración de valor") == []


HOSTILE_LAB = """
import numpy as np

SIEMPRE = True
TOL = 1e-12
MEDIA = 1.0


def run(umbral: float = 0.5) -> dict:
    x = np.arange(3)
    fijo = 1 == 1
    return {
        "literal": True,
        "convertido": bool(1),
        "comparacion": 2 > 1,
        "constante": SIEMPRE,
        "de_constantes": TOL < 1,
        "anidado": {"iguales": False},
        "de_numpy": np.True_,
        "condicional": True if x.sum() > 0 else True,
        "nombre_fijo": fijo,
        "negado": not 0,
    }
"""

HONEST_LAB = """
import numpy as np

TOL = 1e-12
MEDIA = 1.0


def run(umbral: float = 0.5) -> dict:
    x = np.arange(3)
    paso = int(np.argmax(x))
    ok = True
    for v in x:
        ok = ok and bool(v >= 0)
    return {
        "media": MEDIA,
        "cerca": bool(abs(x.mean() - 1.0) < TOL),
        "maximo_al_final": paso == 2,
        "todos": ok,
        "umbral": umbral < 1,
        "anidado": {"positivos": bool(np.all(x >= 0)), "n": 3},
        "lista": [1, 2],
    }
"""


def test_literal_claims_are_found(tmp_path: Path) -> None:
    lab = tmp_path / "lab.py"
    lab.write_text(HOSTILE_LAB, encoding="utf-8")
    found = {path: source for path, _, source in literal_claims(lab)}
    assert set(found) == {
        "literal",
        "convertido",
        "comparacion",
        "constante",
        "de_constantes",
        "anidado.iguales",
        "de_numpy",
        "condicional",
        "nombre_fijo",
        "negado",
    }
    assert found["comparacion"] == "2 > 1"


def test_computed_claims_and_numeric_constants_pass(tmp_path: Path) -> None:
    lab = tmp_path / "lab.py"
    lab.write_text(HONEST_LAB, encoding="utf-8")
    assert literal_claims(lab) == []


@pytest.fixture
def course(fake_course: Path) -> Path:
    """The fake course cut down to 901-pasa with a README."""
    part = fake_course / "classes" / FAKE_PART
    for folder in part.iterdir():
        if folder.is_dir() and folder.name != "901-pasa":
            shutil.rmtree(folder)
            (fake_course / "schemas" / f"{folder.name}.schema.json").unlink()
    (part / "901-pasa" / "README.md").write_text(README.format("Texto."), encoding="utf-8")
    return fake_course


def _whats(root: Path) -> list[str]:
    return [f"{p.file}: {p.what}" for p in lint_course(load_course(root), run_labs=False)]


def test_lint_reports_each_content_problem(course: Path) -> None:
    cls = course / "classes" / FAKE_PART / "901-pasa"
    (cls / "README.md").write_text(
        README.format(f"Con 1e{NB_HYPHEN}12 y W = [[1,0],[0,1]]."), encoding="utf-8"
    )
    toml = cls / "class.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8")
        .replace('titulo = "Un laboratorio que pasa"', 'titulo = "Un laboratorio que pasa"', 1)
        .replace('descripcion = "El tamaño."', 'descripcion = "El tamaño, (1,1)·W."', 1),
        encoding="utf-8",
    )
    lab = cls / "lab.py"
    lab.write_text(
        lab.read_text(encoding="utf-8").replace('"n": n,', '"n": n, "cierto": True,'),
        encoding="utf-8",
    )
    whats = "\n".join(_whats(course))
    rel = f"classes/{FAKE_PART}/901-pasa"
    assert f"{rel}/README.md: línea 5: «1e‑12» lleva U+2011" in whats
    assert f"{rel}/README.md: línea 5: «[1,0]», «[0,1]» se leen como decimales" in whats
    assert f"{rel}/class.toml: salidas[0].descripcion: «(1,1)» se lee como un decimal" in whats
    assert f"{rel}/lab.py: línea 12: la afirmación «cierto» es un valor fijo (True)" in whats


def test_code_blocks_and_display_math_are_not_prose(course: Path) -> None:
    readme = course / "classes" / FAKE_PART / "901-pasa" / "README.md"
    readme.write_text(
        README.format("```\nW = [[1,0],[0,1]]\n```\n\n$$\nW = [[1,0],[0,1]]\n$$\n\nY (1,1)·W."),
        encoding="utf-8",
    )
    assert _whats(course) == [
        f"classes/{FAKE_PART}/901-pasa/README.md: línea 13: «(1,1)» se lee como un decimal con "
        "la coma decimal del curso"
    ]


def test_lint_reports_a_capitalised_title_in_the_plan(course: Path) -> None:
    part = course / "classes" / FAKE_PART / "part.toml"
    part.write_text(
        part.read_text(encoding="utf-8") + '\n[[plan]]\nnumero = 909\nslug = "x"\n'
        'titulo = "Grafos y Laplaciano normalizado"\n',
        encoding="utf-8",
    )
    whats = _whats(course)
    assert any("escribe «Laplaciano» con mayúscula" in w for w in whats), whats


def test_fake_course_has_no_content_problems(course: Path) -> None:
    assert _whats(course) == []


def test_part_16_classes_331_to_340_are_clean() -> None:
    problems = content_problems(load_course(REPO))
    mine = [
        p
        for p in problems
        if p.file.endswith("part.toml") or any(f"/{n}-" in p.file for n in range(331, 341))
    ]
    assert mine == []
