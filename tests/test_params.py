"""Parameters read from lab.py without importing it, and `--set` parsing."""

from pathlib import Path

import pytest

from compmath.course.params import ParamError, ParamSpec, parse_assignments, specs_from_source


def test_specs_from_source_resolves_named_constants(tmp_path: Path) -> None:
    lab = tmp_path / "lab.py"
    lab.write_text(
        "D = 8\nNOMBRE: str = 'a'\n"
        "def run(d: int = D, x: float = 0.5, b: bool = True, s: str = NOMBRE,\n"
        "        z: int = 2 ** 3) -> dict:\n    return {}\n"
    )
    specs = specs_from_source(lab)
    assert specs == [
        ParamSpec("d", "int", 8, "D"),
        ParamSpec("x", "float", 0.5, "0.5"),
        ParamSpec("b", "bool", True, "True"),
        ParamSpec("s", "str", "a", "NOMBRE"),
        ParamSpec("z", "int", None, "2 ** 3"),
    ]


def test_no_run_gives_none(tmp_path: Path) -> None:
    (tmp_path / "lab.py").write_text("x = 1\n")
    assert specs_from_source(tmp_path / "lab.py") is None


SPECS = [
    ParamSpec("n", "int", 4),
    ParamSpec("e", "float", 0.5),
    ParamSpec("b", "bool", True),
    ParamSpec("s", "str", "x"),
]


def test_parse_typed_values() -> None:
    assert parse_assignments(SPECS, ["n=16", "e=1e-3", "b=no", "s=hola=mundo"]) == {
        "n": 16,
        "e": 0.001,
        "b": False,
        "s": "hola=mundo",
    }


@pytest.mark.parametrize(
    ("item", "phrase"),
    [
        ("n=x", "parámetro n (int: entero)"),
        ("e=nan", "parámetro e (float: real)"),
        ("b=quizas", "parámetro b (bool: booleano)"),
        ("nope=1", "no tiene el parámetro «nope»"),
        ("n", "NOMBRE=VALOR"),
    ],
)
def test_bad_assignments(item: str, phrase: str) -> None:
    with pytest.raises(ParamError) as info:
        parse_assignments(SPECS, [item])
    assert phrase in str(info.value)
