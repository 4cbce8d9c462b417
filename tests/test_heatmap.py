"""Charts in `compmath run`: which outputs get one, colour or shades, and when they are left out."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from compmath.judging.report import LabReport, Outcome
from compmath.present.charts import heat_colour, matrix_rows, slices, vector
from compmath.present.layout import lay_out, plain_text
from compmath.present.run_screen import Header, run_screen
from compmath.present.terminal import write_styled

INFO = Header(950, "Mapa", 90, "inicial", 1, 1, "1 hora")
OUTPUTS = {
    "pesos": [[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]],
    "n": 3,
    "filas": {"a": [1, 2, 3], "b": [4, 5, 6]},
}


def report(outputs: dict) -> LabReport:
    return LabReport(
        class_id="950-mapa",
        number=950,
        title="Mapa",
        outcome=Outcome.MATCHES,
        outputs=outputs,
        expected=outputs,
    )


def screen(
    width: int | None = 100, colour: bool = False, charts: bool = True, outputs: dict = OUTPUTS
) -> str:
    lines = lay_out(run_screen(report(outputs), INFO, width, charts=charts), width, colour=colour)
    if not colour:
        return plain_text(lines)
    out = StringIO()
    write_styled(lines, out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("value", "labels"),
    [
        ([[1, 2], [3, 4.5]], ["0", "1"]),
        ({"x": [0.0, 1.0], "y": [2.0, 3.0]}, ["x", "y"]),
        ([[-1e-3, 2], [3, 4], [5, 6]], ["0", "1", "2"]),
    ],
)
def test_two_dimensional_numeric_outputs_are_matrices(value: object, labels: list[str]) -> None:
    rows = matrix_rows(value)
    assert rows is not None and [label for label, _ in rows] == labels


@pytest.mark.parametrize(
    "value",
    [
        [1, 2, 3],
        [[1, 2], [3]],
        [[True, False], [False, True]],
        [["a", "b"], ["c", "d"]],
        [[1], [2]],
        [[1, 2]],
        {"x": [1, 2], "y": 3},
        7,
        None,
        [[1, None], [2, 3]],
    ],
)
def test_other_outputs_are_not(value: object) -> None:
    assert matrix_rows(value) is None


def test_vectors_and_three_dimensional_tensors_are_recognised() -> None:
    assert (
        vector([1, 2.5, 3]) == [1, 2.5, 3]
        and vector([1, 2]) is None
        and vector([True, 1, 2]) is None
    )
    parts = slices([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    assert parts is not None and [label for label, _ in parts] == ["[0]", "[1]"]


def test_colour_scale_runs_from_dark_to_bright() -> None:
    assert heat_colour(0.0) == (68, 1, 84) and heat_colour(1.0) == (253, 231, 37)
    assert heat_colour(-5) == heat_colour(0.0) and heat_colour(0.5) == (33, 145, 140)


def test_colour_terminal_draws_each_matrix_with_its_scale(monkeypatch) -> None:
    monkeypatch.setenv("COLORTERM", "truecolor")
    out = screen(colour=True)
    assert "pesos (3×2)" in out and "filas (2×3)" in out
    assert (
        "escala: mín 0,0" in out and "máx 1,0" in out and "escala: mín 1" in out and "máx 6" in out
    )
    assert "48;2;68;1;84" in out and "48;2;253;231;37" in out  # the scale's two ends as backgrounds
    assert out.index("pesos (3×2)") > out.index("salida") and "n (" not in out


def test_terminal_without_colour_draws_with_shades() -> None:
    out = screen(colour=False)
    assert "pesos (3×2)" in out and "escala: mín 0,0 [  ░░▒▒▓▓██] máx" in out and "\x1b[" not in out
    assert "██" in out  # the largest value, shaded full


@pytest.mark.parametrize("setting", [{"charts": False}, {"width": None}])
def test_no_chart_with_plain_or_on_a_pipe(setting: dict) -> None:
    out = screen(**setting)
    assert "escala:" not in out and "pesos (3×2)" not in out
    assert "3/3 salidas coinciden" in out


def test_too_wide_matrix_says_so() -> None:
    out = screen(width=60, outputs={"m": [[1.0] * 30, [0.0] * 30]})
    assert "escala:" not in out
    assert "el mapa de calor de «m» necesita" in out and "hay 60" in out


def test_a_tight_matrix_gets_shorter_labels_before_giving_up() -> None:
    m = [[0.841471, -0.416147, 0.0011, 0.999944] * 2 for _ in range(3)]
    wide = screen(width=120, outputs={"m": m})
    assert "0,841471" in wide.split("m (3×8)")[1]
    narrow = screen(width=70, outputs={"m": m})
    drawn = narrow.split("m (3×8)")[1].split("escala")[0]
    assert "0,84" in drawn and "-0,42" in drawn and "0,841471" not in drawn


def test_vector_gets_a_bar_row_and_a_tensor_one_map_per_slice() -> None:
    out = screen(
        outputs={"v": [0.0, 0.5, 1.0], "t": [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]}
    )
    assert "v (3) ▁▅█" in out
    assert "t[0] (2×2)" in out and "t[1] (2×2)" in out


def test_failing_cells_are_marked() -> None:
    bad = LabReport(
        class_id="950-mapa",
        number=950,
        title="Mapa",
        outcome=Outcome.DIFFERS,
        outputs={"m": [[1.0, 2.0], [3.0, 4.0]]},
        expected={"m": [[1.0, 2.0], [3.0, 4.5]]},
    )
    from compmath.course.records import Tolerance
    from compmath.judging.compare import compare

    diffs = compare(bad.expected, bad.outputs, Tolerance())
    bad = LabReport(**{**bad.__dict__, "differences": diffs})
    out = plain_text(lay_out(run_screen(bad, INFO, 100), 100))
    assert "4,0✗" in out and "1 celda fuera de tolerancia" in out
    named = LabReport(
        **{
            **bad.__dict__,
            "outputs": {"m": {"a": [1.0, 2.0], "b": [3.0, 4.0]}},
            "differences": compare(
                {"m": {"a": [1.0, 2.0], "b": [3.0, 4.5]}},
                {"m": {"a": [1.0, 2.0], "b": [3.0, 4.0]}},
                Tolerance(),
            ),
        }
    )
    assert "4,0✗" in plain_text(lay_out(run_screen(named, INFO, 100), 100))


def test_cli_run_never_draws_on_a_pipe(cli, make_lab, monkeypatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    root: Path = make_lab(
        951,
        """
        def run() -> dict:
            return {"n": 2, "mitad": 1.0, "vector": [1.0, 2.0], "m": [[1.0, 2.0], [3.0, 4.0]]}
    """,
        schema={"type": "object"},
    )
    for extra in ([], ["--plain"]):
        result = cli("run", "951", "--root", str(root), *extra)
        assert "[[1,0; 2,0]; [3,0; 4,0]]" in result.out and "escala:" not in result.out
