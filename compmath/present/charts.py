"""Terminal charts of numeric outputs: heatmaps for matrices (one per slice of a 3-D tensor) and
a bar row for vectors; failing cells marked; drawn with colour or, without it, with shades.

A chart that does not fit the width says so in one line instead of disappearing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from compmath.judging.compare import Difference
from compmath.present.layout import Chart, StyledLine, cell_width
from compmath.wording import count, number

VIRIDIS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
SHADES = " ░▒▓█"
BARS = "▁▂▃▄▅▆▇█"
MAX_ROWS = 40
MAX_CELL = 9  # widest value text before it is shortened to 3 significant digits


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def matrix_rows(value: Any) -> list[tuple[str, list[float]]] | None:
    """The labelled rows of a 2-D numeric output (a list of equal-length numeric lists or a dict
    of equal-length numeric rows), or None when the value is not one."""
    if isinstance(value, list):
        rows = [(str(i), r) for i, r in enumerate(value)]
    elif isinstance(value, dict):
        rows = [(str(k), r) for k, r in value.items()]
    else:
        return None
    if len(rows) < 2 or not all(isinstance(r, list) for _, r in rows):
        return None
    if len({len(r) for _, r in rows}) != 1 or len(rows[0][1]) < 2:
        return None
    if not all(_number(x) for _, r in rows for x in r):
        return None
    return rows


def vector(value: Any) -> list[float] | None:
    """A 1-D numeric output of at least 3 numbers, or None."""
    if isinstance(value, list) and len(value) >= 3 and all(_number(x) for x in value):
        return value
    return None


def slices(value: Any) -> list[tuple[str, list[tuple[str, list[float]]]]] | None:
    """The 2-D slices of a 3-D numeric output (a list of matrices), or None."""
    if not isinstance(value, list) or len(value) < 2:
        return None
    found = [matrix_rows(item) for item in value]
    if any(rows is None for rows in found):
        return None
    return [(f"[{i}]", rows) for i, rows in enumerate(found) if rows is not None]


def heat_colour(t: float) -> tuple[int, int, int]:
    """The viridis colour at t in [0, 1]."""
    t = min(max(t, 0.0), 1.0) * (len(VIRIDIS) - 1)
    i = min(int(t), len(VIRIDIS) - 2)
    a, b, f = VIRIDIS[i], VIRIDIS[i + 1], t - i
    return (
        round(a[0] + (b[0] - a[0]) * f),
        round(a[1] + (b[1] - a[1]) * f),
        round(a[2] + (b[2] - a[2]) * f),
    )


def _heat_style(t: float) -> str:
    r, g, b = heat_colour(t)
    ink = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"
    return f"{ink} on rgb({r},{g},{b})"


def _text(x: float, digits: int | None = 0) -> str:
    """A cell's label: the value as written (3 significant digits past MAX_CELL), or with
    `digits` significant digits when the full labels do not fit, or none at all (None); a
    decimal comma, as every number shown to people (wording.number)."""
    if digits is None:
        return ""
    if digits:
        return number(x, digits)
    text = number(x)
    return text if len(text) <= MAX_CELL else number(x, 3)


def _notice(name: str, needed: int, width: int) -> list[StyledLine]:
    return [
        [
            (
                f"(el mapa de calor de «{name}» necesita {needed} columnas y hay {width}: "
                "los valores están en la tabla)",
                "dim",
            )
        ]
    ]


@dataclass(frozen=True)
class _Grid:
    """How a heatmap's cells are drawn: digits shown (None: none), shade width, cell width."""

    digits: int | None
    shade: int
    cell: int
    texts: list[list[str]]
    needed: int  # columns the whole grid takes


def _grid(
    rows: list[tuple[str, list[float]]], width: int | None, label: int, *, colour: bool, marks: bool
) -> _Grid:
    """The widest way of drawing the cells that fits: exact labels, else shorter ones (the
    table keeps the values), else a narrower shade, else the colours (or shades) and marks."""
    columns = len(rows[0][1])
    options: tuple[tuple[int | None, int], ...] = ((0, 2), (3, 2), (2, 2), (2, 1), (None, 2))
    for digits, wanted in options:
        shade = 0 if colour or digits is None else wanted
        texts = [[_text(x, digits) for x in r] for _, r in rows]
        cell = max(len(t) for row in texts for t in row) + (2 if marks else 1)
        if digits is None:  # a coloured cell, or a pair of shades, with room for its ✗
            cell = 3 if colour else 4
        grid = _Grid(digits, shade, cell, texts, label + 1 + columns * (cell + shade))
        if width is None or grid.needed <= width:
            break
    return grid


def _cell(grid: _Grid, t: float, text: str, mark: str, *, colour: bool) -> tuple[str, str]:
    """One cell (its text and style) of a value at `t` between the minimum (0) and maximum (1)."""
    level = SHADES[min(int(t * (len(SHADES) - 1) + 0.5), len(SHADES) - 1)]
    if grid.digits is None:
        body = f" {mark or ' '} " if colour else f"{level * 2}{mark or ' '} "
    else:
        body = (level * grid.shade if not colour else "") + (text + mark).rjust(grid.cell)
    if colour:
        return body, _heat_style(t) + (" bold" if mark else "")
    return body, "bold red" if mark else ""


def _scale(low: float, high: float, *, colour: bool) -> StyledLine:
    scale: StyledLine = [("escala: mín " + number(low) + " ", "dim")]
    if colour:
        scale += [("  ", _heat_style(step / 11)) for step in range(12)]
    else:  # lightest to darkest, once, as the cells draw them (the blank one is the minimum)
        scale.append(("[" + "".join(shade * 2 for shade in SHADES) + "]", ""))
    scale.append((" máx " + number(high), "dim"))
    return scale


def heatmap_lines(
    name: str,
    rows: list[tuple[str, list[float]]],
    width: int | None,
    *,
    colour: bool,
    marked: frozenset[tuple[int, int]] = frozenset(),
) -> list[StyledLine]:
    """A matrix as a grid of cells coloured (or shaded) by value, with its scale; cells in
    `marked` (row, column) carry ✗."""
    label = min(max(cell_width(k) for k, _ in rows), 12)
    grid = _grid(rows, width, label, colour=colour, marks=bool(marked))
    if (width is not None and grid.needed > width) or len(rows) > MAX_ROWS:
        return _notice(name, grid.needed, width or grid.needed)
    values = [x for _, r in rows for x in r]
    low, high = min(values), max(values)
    span = high - low
    out: list[StyledLine] = [[], [(f"{name} ({len(rows)}×{len(rows[0][1])})", "bold")]]
    for i, ((key, row), row_texts) in enumerate(zip(rows, grid.texts)):
        line: StyledLine = [(key[:label].rjust(label) + " ", "dim")]
        for j, (x, text) in enumerate(zip(row, row_texts)):
            mark = "✗" if (i, j) in marked else ""
            line.append(_cell(grid, (x - low) / span if span else 0.5, text, mark, colour=colour))
        out.append(line)
    out.append(_scale(low, high, colour=colour))
    if marked:
        cells = count(len(marked), "celda fuera de tolerancia", "celdas fuera de tolerancia")
        out.append([(f"✗ {cells}", "red")])
    return out


def bar_lines(name: str, values: Sequence[float], width: int | None) -> list[StyledLine]:
    """A vector as one row of bars from its minimum to its maximum."""
    low, high = min(values), max(values)
    span = high - low
    bars = "".join(
        BARS[min(int(((x - low) / span if span else 0.5) * (len(BARS) - 1) + 0.5), len(BARS) - 1)]
        for x in values
    )
    head = f"{name} ({len(values)}) "
    needed = cell_width(head) + len(bars)
    if width is not None and needed > width:
        return _notice(name, needed, width)
    return [
        [(head, "bold"), (bars, "cyan")],
        [(" " * cell_width(head) + f"mín {number(low)} · máx {number(high)}", "dim")],
    ]


def marked_cells(
    failing: Sequence[Difference], name: str, keys: Sequence[str] = ()
) -> dict[str, frozenset[tuple[int, int]]]:
    """The differences in output `name` as cells per slice: m[1][2] and m[0][1][2] for lists,
    m.fila[2] for a matrix of named rows (`keys`, in order)."""
    out: dict[str, set[tuple[int, int]]] = {}
    rows = {key: i for i, key in enumerate(keys)}
    for d in failing:
        if d.output != name:
            continue
        steps = d.steps
        if len(steps) == 2 and isinstance(steps[0], str) and isinstance(steps[1], int):
            if steps[0] in rows:
                out.setdefault("", set()).add((rows[steps[0]], steps[1]))
            continue
        if not all(isinstance(step, int) for step in steps):
            continue
        indices = [int(step) for step in steps]
        if len(indices) == 2:
            out.setdefault("", set()).add((indices[0], indices[1]))
        elif len(indices) == 3:
            out.setdefault(f"[{indices[0]}]", set()).add((indices[1], indices[2]))
    return {k: frozenset(v) for k, v in out.items()}


def output_charts(outputs: dict[str, Any], failing: Sequence[Difference] = ()) -> list[Chart]:
    """A chart for each numeric vector, matrix or 3-D tensor among the outputs, in their order."""
    charts: list[Chart] = []
    for name, value in outputs.items():
        rows = matrix_rows(value)
        marks = marked_cells(failing, name, list(value) if isinstance(value, dict) else ())
        parts = None if rows is not None else slices(value)
        if rows is not None:
            parts = [("", rows)]
        if parts is not None:
            for label, part in parts:
                cells = marks.get(label, frozenset())
                charts.append(Chart(partial(_heatmap_chart, f"{name}{label}", part, cells)))
            continue
        numbers = vector(value)
        if numbers is not None:
            charts.append(Chart(partial(_bar_chart, name, numbers)))
    return charts


def _heatmap_chart(
    name: str,
    rows: list[tuple[str, list[float]]],
    marked: frozenset[tuple[int, int]],
    width: int | None,
    colour: bool,  # positional: Chart.draw(width, colour) calls it
) -> list[StyledLine]:
    return heatmap_lines(name, rows, width, colour=colour, marked=marked)


def _bar_chart(
    name: str,
    values: list[float],
    width: int | None,
    colour: bool,  # as Chart.draw calls it
) -> list[StyledLine]:
    return [[], *bar_lines(name, values, width)]
