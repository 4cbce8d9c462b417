"""Heatmaps in `compmath run`: which outputs get one, and when colour is off."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from compmath.render import heat_colour, matrix_rows, render_run
from compmath.report import LabReport

INFO = {"numero": 950, "titulo": "Mapa", "parte": 90, "nivel": "inicial", "k": 1, "n": 1,
        "duracion": "1 hora"}
OUTPUTS = {"pesos": [[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]], "n": 3,
           "filas": {"a": [1, 2, 3], "b": [4, 5, 6]}}


def report(outputs: dict) -> LabReport:
    return LabReport(class_id="950-mapa", number=950, title="Mapa", outcome="coincide",
                     outputs=outputs, expected=outputs)


def screen(heatmaps: bool = True, **console: object) -> str:
    target = Console(file=StringIO(), width=100, **console)  # type: ignore[arg-type]
    render_run(target, report(OUTPUTS), INFO, heatmaps=heatmaps)
    return target.file.getvalue()  # type: ignore[attr-defined]


@pytest.fixture
def colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR")


@pytest.mark.parametrize(("value", "labels"), [
    ([[1, 2], [3, 4.5]], ["0", "1"]),
    ({"x": [0.0, 1.0], "y": [2.0, 3.0]}, ["x", "y"]),
    ([[-1e-3, 2], [3, 4], [5, 6]], ["0", "1", "2"]),
])
def test_two_dimensional_numeric_outputs_are_matrices(value: object, labels: list[str]) -> None:
    rows = matrix_rows(value)
    assert rows is not None and [label for label, _ in rows] == labels


@pytest.mark.parametrize("value", [
    [1, 2, 3], [[1, 2], [3]], [[True, False], [False, True]], [["a", "b"], ["c", "d"]],
    [[1], [2]], [[1, 2]], {"x": [1, 2], "y": 3}, 7, None, [[1, None], [2, 3]],
])
def test_other_outputs_are_not(value: object) -> None:
    assert matrix_rows(value) is None


def test_colour_scale_runs_from_dark_to_bright() -> None:
    assert heat_colour(0.0) == (68, 1, 84) and heat_colour(1.0) == (253, 231, 37)
    assert heat_colour(-5) == heat_colour(0.0) and heat_colour(0.5) == (33, 145, 140)


def test_colour_terminal_draws_each_matrix_with_its_scale(colour: None) -> None:
    out = screen(force_terminal=True, color_system="truecolor")
    assert "pesos (3×2)" in out and "filas (2×3)" in out
    assert "escala: mín 0.0" in out and "máx 1.0" in out and "escala: mín 1" in out and "máx 6" in out
    assert "48;2;68;1;84" in out and "48;2;253;231;37" in out  # the scale's two ends as backgrounds
    assert out.index("pesos (3×2)") > out.index("salida") and "n (" not in out


@pytest.mark.parametrize("setting", [
    {"heatmaps": False, "force_terminal": True, "color_system": "truecolor"},  # --plain
    {"force_terminal": False, "color_system": "truecolor"},                    # piped
    {"force_terminal": True, "color_system": None},                            # no colours
    {"force_terminal": True, "color_system": "truecolor", "no_color": True},   # NO_COLOR
])
def test_no_heatmap_without_a_colour_terminal(colour: None, setting: dict) -> None:
    out = screen(**setting)
    assert "escala:" not in out and "pesos (3×2)" not in out
    assert "3/3 salidas coinciden" in out


def test_no_heatmap_with_no_color_in_the_environment() -> None:
    out = screen(force_terminal=True, color_system="truecolor")  # NO_COLOR=1 from the fixture
    assert "escala:" not in out


def test_too_wide_matrix_is_left_to_the_table(colour: None) -> None:
    target = Console(file=StringIO(), width=40, force_terminal=True, color_system="truecolor")
    render_run(target, report({"m": [[1.0] * 12, [0.0] * 12]}), INFO)
    assert "escala:" not in target.file.getvalue()  # type: ignore[attr-defined]


def test_cli_run_never_draws_on_a_pipe(cli, make_lab) -> None:
    root: Path = make_lab(951, """
        def run() -> dict:
            return {"n": 2, "mitad": 1.0, "vector": [1.0, 2.0], "m": [[1.0, 2.0], [3.0, 4.0]]}
    """, schema={"type": "object"})
    for extra in ([], ["--plain"]):
        result = cli("run", "951", "--root", str(root), *extra)
        assert "[[1.0, 2.0], [3.0, 4.0]]" in result.out and "escala:" not in result.out
