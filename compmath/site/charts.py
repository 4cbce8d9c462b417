"""Charts of a lab's numeric outputs as inline SVG: bars or a line for a vector, a heatmap for a
matrix; each with an accessible name and its data as a table on request.

Hand-written SVG: a 32 × 32 heatmap is one `<path>` per colour level (a few KB), strokes and text
use `currentColor` so dark mode keeps them readable, and nothing is loaded from anywhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from compmath.wording import count

WIDTH = 640
BAR_LIMIT = 32  # longer vectors draw as a line
# Diverging (signed data) and sequential palettes: readable on a light and on a dark page.
DIVERGING = (
    "#2166ac",
    "#4393c3",
    "#92c5de",
    "#d1e5f0",
    "#f7f7f7",
    "#fddbc7",
    "#f4a582",
    "#d6604d",
    "#b2182b",
)
SEQUENTIAL = (
    "#fff7bc",
    "#fee391",
    "#fec44f",
    "#fe9929",
    "#ec7014",
    "#cc4c02",
    "#993404",
    "#662506",
    "#3b1603",
)


@dataclass(frozen=True)
class Series:
    """A numeric output fit to draw: its rows (one for a vector) and their labels."""

    name: str
    rows: tuple[tuple[float, ...], ...]
    row_labels: tuple[str, ...]
    vector: bool


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _numbers(values: Any, at_least: int = 1) -> bool:
    return isinstance(values, list) and len(values) >= at_least and all(map(_number, values))


def series_of(name: str, value: Any) -> Series | None:
    """The drawable form of an output: a vector (3+ numbers), a matrix (equal numeric rows) or a
    dict of equal numeric rows; None for anything else (scalars, text, dicts of scalars)."""
    if _numbers(value, 3):
        return Series(name, (tuple(value),), ("",), True)
    rows: list[Any] = []
    labels: list[str] = []
    if isinstance(value, list) and len(value) >= 2:
        rows, labels = value, [str(i) for i in range(len(value))]
    elif isinstance(value, dict) and len(value) >= 2:
        rows, labels = list(value.values()), list(value)
    if rows and all(_numbers(r) for r in rows) and len({len(r) for r in rows}) == 1:
        return Series(name, tuple(tuple(r) for r in rows), tuple(labels), False)
    return None


def shown(x: float) -> str:
    """A data value as the JSON writes it (data keep their decimal point)."""
    return json.dumps(x)


def _text(x: float, y: float, label: str, anchor: str = "middle", size: int = 11) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'fill="currentColor">{escape(label)}</text>'
    )


def _bars(values: tuple[float, ...]) -> tuple[str, int]:
    height, left, top, bottom = 200, 56, 12, 24
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    plot_w, plot_h = WIDTH - left - 8, height - top - bottom

    def y(v: float) -> float:
        return top + (high - v) / span * plot_h

    step = plot_w / len(values)
    parts = []
    if len(values) <= BAR_LIMIT:
        shape = "".join(
            f"M{left + i * step + step * 0.15:.1f} {y(max(v, 0)):.1f}h{step * 0.7:.1f}"
            f"V{y(min(v, 0)):.1f}h{-step * 0.7:.1f}Z"
            for i, v in enumerate(values)
        )
        parts.append(f'<path class="serie" d="{shape}"/>')
    else:
        points = " ".join(f"{left + (i + 0.5) * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="linea" fill="none" points="{points}"/>')
    parts.append(
        f'<path stroke="currentColor" '
        f'd="M{left} {y(0):.1f}H{WIDTH - 8}M{left} {top}V{top + plot_h}"/>'
    )
    parts += [
        _text(left - 4, y(high) + 4, shown(high), "end"),
        _text(left - 4, y(low) + 4, shown(low), "end"),
    ]
    every = max(1, len(values) // 16)
    parts += [
        _text(left + (i + 0.5) * step, height - 8, str(i)) for i in range(0, len(values), every)
    ]
    return "".join(parts), height


def _heatmap(series: Series) -> tuple[str, int, int, str]:
    rows, labels = series.rows, series.row_labels
    n_rows, n_cols = len(rows), len(rows[0])
    left = 12 + 7 * max(len(label) for label in labels)
    legend_w = 70
    cell = max(4.0, min(40.0, (WIDTH - left - legend_w) / n_cols, 320 / n_rows))
    top = 18
    flat = [v for r in rows for v in r]
    low, high = min(flat), max(flat)
    palette = DIVERGING if low < 0 < high else SEQUENTIAL
    if palette is DIVERGING:  # symmetric around zero, so white means 0
        high = max(abs(low), abs(high))
        low = -high
    span = (high - low) or 1.0

    def level(v: float) -> int:
        return min(len(palette) - 1, int((v - low) / span * len(palette)))

    paths: dict[int, list[str]] = {}
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            x, y = left + c * cell, top + r * cell
            paths.setdefault(level(v), []).append(
                f"M{x:.1f} {y:.1f}h{cell:.1f}v{cell:.1f}h{-cell:.1f}Z"
            )
    parts = [f'<path fill="{palette[k]}" d="{"".join(d)}"/>' for k, d in sorted(paths.items())]
    grid_w, grid_h = n_cols * cell, n_rows * cell
    parts.append(
        f'<rect x="{left}" y="{top}" width="{grid_w:.1f}" height="{grid_h:.1f}" fill="none" '
        'stroke="currentColor" stroke-width="0.5"/>'
    )
    if n_rows <= 20:
        parts += [
            _text(left - 4, top + (r + 0.5) * cell + 4, label, "end")
            for r, label in enumerate(labels)
        ]
    if n_cols <= 20:
        parts += [_text(left + (c + 0.5) * cell, top - 5, str(c)) for c in range(n_cols)]
    lx = left + grid_w + 16
    box = max(grid_h, 120) / len(palette)
    for k, colour in enumerate(reversed(palette)):
        parts.append(
            f'<rect x="{lx:.1f}" y="{top + k * box:.1f}" width="12" height="{box:.1f}" '
            f'fill="{colour}"/>'
        )
    parts += [
        _text(lx + 16, top + 9, shown(high), "start", 10),
        _text(lx + 16, top + len(palette) * box, shown(low), "start", 10),
    ]
    height = int(top + max(grid_h, len(palette) * box) + 8)
    width = int(lx + 20 + 7 * max(len(shown(high)), len(shown(low))))  # as wide as drawn
    return "".join(parts), width, height, f"de {shown(min(flat))} a {shown(max(flat))}"


def _table(series: Series) -> str:
    n_cols = len(series.rows[0])
    head = "".join(f'<th scope="col">{c}</th>' for c in range(n_cols))
    corner = "<td></td>" if not series.vector else '<th scope="col">índice</th>'
    body = "".join(
        f'<tr><th scope="row">{escape(label or "valor")}</th>'
        + "".join(f"<td>{shown(v)}</td>" for v in row)
        + "</tr>"
        for label, row in zip(series.row_labels, series.rows)
    )
    return f"<table><thead><tr>{corner}{head}</tr></thead><tbody>{body}</tbody></table>"


def chart_html(series: Series, ident: str) -> str:
    """One output as a `<figure>`: the SVG (named for screen readers) and its data as a table."""
    if series.vector:
        values = series.rows[0]
        body, height = _bars(values)
        width = WIDTH
        kind = "barras" if len(values) <= BAR_LIMIT else "línea"
        label = (
            f"Gráfico de {kind} de {series.name}: {count(len(values), 'valor', 'valores')}, "
            f"de {shown(min(values))} a {shown(max(values))}"
        )
    else:
        body, width, height, extent = _heatmap(series)
        size = f"{len(series.rows)} × {len(series.rows[0])}"
        label = f"Mapa de calor de {series.name}: {size}, {extent}"
    svg = (
        f'<svg role="img" aria-labelledby="{ident}-t" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}"><title id="{ident}-t">{escape(label)}</title>'
        f"{body}</svg>"
    )
    return (
        f'<div class="grafica" id="{ident}"><figure>{svg}<figcaption>{escape(label)}</figcaption>'
        "</figure><details><summary>Ver los datos como tabla</summary>"
        f'<div class="tabla-ancha" tabindex="0">{_table(series)}</div></details></div>'
    )
