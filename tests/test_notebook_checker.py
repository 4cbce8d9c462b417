"""The notebook's rules (compmath/notebook/rules.py, embedded in every notebook) agree with the
runner: canonical rounding as base/encode.py does it, comparison as judging/compare.py does it,
a difference worded as the run screen words it, case by case; and the tools import nothing but
the standard library (matplotlib when it is there)."""

from __future__ import annotations

import ast
import sys

import numpy as np
import pytest

from compmath.base.encode import EncodeError, normalize
from compmath.course.records import Tolerance
from compmath.judging.compare import compare
from compmath.judging.report import describe_difference as difference_text
from compmath.notebook.rules import Reglas
from compmath.notebook.toolcode import tools_source

DEFAULT = {"atol": 1e-6, "rtol": 1e-6}

# (case id, expected, obtained, the class's tolerance, per-output tolerances)
COMPARISONS = [
    ("iguales", {"x": 1.5, "n": 3, "s": "a"}, {"x": 1.5, "n": 3, "s": "a"}, DEFAULT, {}),
    ("real-dentro", {"x": 1.0}, {"x": 1.0000015}, DEFAULT, {}),
    ("real-fuera", {"x": 1.0}, {"x": 1.00001}, DEFAULT, {}),
    ("real-justo-en-el-borde", {"x": 0.0}, {"x": 1e-6}, DEFAULT, {}),
    ("real-negativo-rtol", {"x": -200.0}, {"x": -200.0003}, DEFAULT, {}),
    ("entero-exacto", {"n": 7}, {"n": 8}, DEFAULT, {}),
    (
        "entero-con-tolerancia-propia",
        {"n": 100, "m": 100},
        {"n": 103, "m": 110},
        DEFAULT,
        {"n": {"atol": 5.0, "rtol": 0.0}, "m": {"atol": 5.0, "rtol": 0.0}},
    ),
    (
        "rtol-propia",
        {"v": [16.0, 64.0]},
        {"v": [17.5, 80.0]},
        DEFAULT,
        {"v": {"atol": 1e-6, "rtol": 0.15}},
    ),
    ("tolerancia-de-clase", {"x": 1.0}, {"x": 1.05}, {"atol": 0.1, "rtol": 0.0}, {}),
    ("booleano-no-es-entero", {"b": True, "c": 1}, {"b": 1, "c": True}, DEFAULT, {}),
    ("entero-no-es-real", {"n": 1}, {"n": 1.0}, DEFAULT, {}),
    ("booleanos", {"b": True}, {"b": False}, DEFAULT, {}),
    ("textos", {"s": "RoPE"}, {"s": "ALiBi"}, DEFAULT, {}),
    ("null", {"z": None}, {"z": 0}, DEFAULT, {}),
    ("longitud", {"v": [1.0, 2.0]}, {"v": [1.0, 2.0, 3.0]}, DEFAULT, {}),
    (
        "lista-anidada",
        {"m": [[1.0, 2.0], [3.0, 4.0]]},
        {"m": [[1.0, 2.0], [3.0, 4.1]]},
        DEFAULT,
        {},
    ),
    ("claves-anidadas", {"d": {"a": 1, "b": 2}}, {"d": {"a": 1, "c": 2}}, DEFAULT, {}),
    ("salida-que-falta-y-sobra", {"a": 1, "b": 2}, {"a": 1, "c": 3}, DEFAULT, {}),
    ("objeto-frente-a-lista", {"d": {"a": 1}}, {"d": [1]}, DEFAULT, {}),
    ("cero-negativo", {"x": 0.0}, {"x": -0.0}, DEFAULT, {}),
]


def _runner_tolerances(default: dict, per_output: dict) -> tuple[Tolerance, dict]:
    base = Tolerance(default["atol"], default["rtol"])
    return base, {k: Tolerance(t["atol"], t["rtol"], declared=True) for k, t in per_output.items()}


@pytest.mark.parametrize(
    ("expected", "obtained", "default", "per_output"),
    [case[1:] for case in COMPARISONS],
    ids=[case[0] for case in COMPARISONS],
)
def test_the_checker_compares_as_the_runner_does(expected, obtained, default, per_output) -> None:
    base, own = _runner_tolerances(default, per_output)
    runner = [
        (d.path, str(d.kind), d.expected, d.obtained, d.abs_error, d.tolerance, d.output)
        for d in compare(expected, obtained, base, own)
    ]
    notebook = [tuple(d) for d in Reglas.diferencias(expected, obtained, default, per_output)]
    assert notebook == runner


def test_the_table_covers_matches_and_every_kind_of_difference() -> None:
    kinds = set()
    empty = 0
    for _, expected, obtained, default, per_output in COMPARISONS:
        found = Reglas.diferencias(expected, obtained, default, per_output)
        kinds |= {d.tipo for d in found}
        empty += not found
    assert kinds == {"valor", "tipo", "falta", "sobra", "longitud"}
    assert 0 < empty < len(COMPARISONS)


VALUES = [
    1.23456789,
    -0.0,
    1e-13,
    -3e-16,
    0.00012345678,
    0.0015,
    0.00099999951,
    123456.78912345,
    np.float32(0.1),
    np.float64(2.5e-7),
    np.int64(42),
    np.bool_(True),
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.linspace(0.0, 1.0, 7),
    (1, 2.0000001, "tres"),
    {"a": [np.float64(1 / 3), None, False], "b": {"c": np.array([1e-20, -1e-9])}},
]


@pytest.mark.parametrize("decimals", [6, 4, 8])
@pytest.mark.parametrize("value", VALUES, ids=[f"valor-{i}" for i in range(len(VALUES))])
def test_the_checker_rounds_as_the_runner_does(value, decimals: int) -> None:
    ours = Reglas.canonico(value, decimals)
    theirs = normalize(value, decimals)
    assert ours == theirs
    assert repr(ours) == repr(theirs)  # the same types: a bool stays a bool, -0.0 is folded


@pytest.mark.parametrize("bad", [float("nan"), np.array([1.0, np.inf]), {"x": object()}])
def test_the_checker_refuses_what_the_runner_refuses(bad) -> None:
    with pytest.raises(EncodeError):
        normalize(bad)
    with pytest.raises(ValueError, match="salida"):
        Reglas.canonico(bad, 6)


def test_the_tools_cell_imports_only_the_standard_library() -> None:
    modules = set()
    for node in ast.walk(ast.parse(tools_source())):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add((node.module or "").split(".")[0])
    optional = {"matplotlib"}  # imported inside try: a missing matplotlib draws nothing
    assert modules - optional <= set(sys.stdlib_module_names)
    assert "compmath" not in modules and "numpy" not in modules


@pytest.mark.parametrize(
    ("expected", "obtained", "default", "per_output"),
    [case[1:] for case in COMPARISONS],
    ids=[case[0] for case in COMPARISONS],
)
def test_a_difference_reads_as_the_run_screen_words_it(
    expected, obtained, default, per_output
) -> None:
    base, own = _runner_tolerances(default, per_output)
    runner = [difference_text(d) for d in compare(expected, obtained, base, own)]
    notebook = [
        Reglas.explicar(d) for d in Reglas.diferencias(expected, obtained, default, per_output)
    ]
    assert notebook == runner


def test_a_value_difference_says_by_how_much() -> None:
    (found,) = Reglas.diferencias({"p": 3.535256}, {"p": 3.6}, DEFAULT, {})
    assert Reglas.explicar(found) == (
        "salida.p: esperado 3,535256, obtenido 3,6 · Δ 0,064744 (1,83 %) > tolerancia 4,54·10⁻⁶"
    )
