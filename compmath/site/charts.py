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

from compmath.course.records import ChartSpec
from compmath.mathtext import math_pieces, plain_prose, tex_plain
from compmath.wording import count

WIDTH = 640
BAR_LIMIT = 32  # longer vectors draw as a line
LEVELS = 9  # colour levels of a heatmap: classes .s0–.s8 and .d0–.d8 (palette.py)


@dataclass(frozen=True)
class Series:
    """A numeric output fit to draw: its rows (one for a vector) and their labels."""

    name: str
    rows: tuple[tuple[float, ...], ...]
    row_labels: tuple[str, ...]
    vector: bool


@dataclass(frozen=True)
class Look:
    """What class.toml says of a chart, fitted to its data: its title (the output's
    description), the names of its rows and columns (or entries), its axes' titles, and the
    colour scale it shares with another output (low, high)."""

    title: str = ""
    caption: str = ""  # the title as HTML, its formulas as MathML
    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    vertical: str = ""
    horizontal: str = ""
    scale: tuple[float, float] | None = None


TITLE_LIMIT = 140  # characters of the description a chart's title keeps


def _first_sentence(description: str, limit: int | None = TITLE_LIMIT) -> str:
    """The description's first sentence, at most `limit` characters as read (cut at a word,
    with «…»; whole without a limit), still with its `$…$`: a formula is kept whole or left
    out, never cut."""
    limit = limit if limit is not None else len(description)
    pieces = math_pieces(description.strip()) if "$" in description else [description.strip()]
    kept, length = "", 0
    for i, piece in enumerate(pieces):
        if i % 2:  # math: as long as its plain text
            length += len(tex_plain(piece))
            if length > limit:
                return kept.rstrip(" ,;:") + "…"
            kept += f"${piece}$"
            continue
        end = piece.find(". ")
        if end < 0 and piece.endswith(".") and i == len(pieces) - 1:
            end = len(piece) - 1
        text = piece if end < 0 else piece[:end]
        if length + len(text) > limit:
            text = text[: max(0, limit - length)].rsplit(" ", 1)[0]
            return (kept + text).rstrip(" ,;:") + "…"
        kept, length = kept + text, length + len(text)
        if end >= 0:
            return kept.rstrip(".")
    return kept.rstrip(".")


def chart_title(description: str) -> str:
    """A chart's title: the output's description, its first sentence, at most TITLE_LIMIT
    characters (cut at a word, with «…»), its `$…$` as plain text (the SVG's name)."""
    return plain_prose(_first_sentence(description))


def chart_caption(description: str) -> str:
    """The figure's caption as HTML: the description's whole first sentence (a caption wraps;
    only the SVG's name is kept short), its `$…$` as the prose's MathML."""
    from compmath.site.markdown import inline_html

    return inline_html(_first_sentence(description, None))


def look_of(
    series: Series, spec: ChartSpec, description: str, scale: tuple[float, float] | None
) -> Look:
    """The Look of a series: labels kept only where their count matches the data's."""
    n_rows, n_cols = len(series.rows), len(series.rows[0])
    axes = spec.axes if len(spec.axes) == 2 else ("", "")
    return Look(
        title=chart_title(description) if description else "",
        caption=chart_caption(description) if description else "",
        rows=spec.rows if len(spec.rows) == n_rows and not series.vector else (),
        columns=spec.columns if len(spec.columns) == n_cols else (),
        vertical=axes[0],
        horizontal=axes[1],
        scale=scale,
    )


def extent(series: Series) -> tuple[float, float]:
    flat = [v for r in series.rows for v in r]
    return min(flat), max(flat)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _numbers(values: Any, at_least: int = 1) -> bool:
    return isinstance(values, list) and len(values) >= at_least and all(map(_number, values))


def series_of(name: str, value: Any) -> Series | None:
    """The drawable form of an output: a vector (3+ numbers), a matrix (equal numeric rows) or a
    dict of equal numeric rows; None for anything else (scalars, text, dicts of scalars) and for
    one value repeated (an all-zero vector draws an empty chart)."""
    if _numbers(value, 3):
        return None if len(set(value)) == 1 else Series(name, (tuple(value),), ("",), True)
    rows: list[Any] = []
    labels: list[str] = []
    if isinstance(value, list) and len(value) >= 2:
        rows, labels = value, [str(i) for i in range(len(value))]
    elif isinstance(value, dict) and len(value) >= 2:
        rows, labels = list(value.values()), list(value)
    equal = rows and all(_numbers(r) for r in rows) and len({len(r) for r in rows}) == 1
    if equal and len({v for r in rows for v in r}) > 1:  # a table of one value says nothing
        return Series(name, tuple(tuple(r) for r in rows), tuple(labels), False)
    return None


def shown(x: float) -> str:
    """A data value for a reader of the page: the JSON's digits with the course's decimal comma
    and a true minus sign, as the prose writes them (the JSON sample keeps the JSON's form)."""
    return json.dumps(x).replace("-", "\u2212").replace(".", ",")


# what every label shares is said once, on the <svg> (SVG's presentation attributes are
# inherited): the text's colour and size; a shape takes its colour from its class or says
# fill="none", and the axes' strokes have no area to fill
SHARED = 'fill="currentColor" font-size="11" text-anchor="middle"'


def _n(v: float) -> str:
    """A coordinate with one decimal, without a «.0» that says nothing: 68, 103.5."""
    return f"{v:.1f}".removesuffix(".0")


def _text(x: float, y: float, label: str, anchor: str = "middle", size: int = 11) -> str:
    anchored = "" if anchor == "middle" else f' text-anchor="{anchor}"'
    sized = "" if size == 11 else f' font-size="{size}"'
    return f'<text x="{_n(x)}" y="{_n(y)}"{anchored}{sized}>{escape(label)}</text>'


def _axis_title(x: float, y: float, label: str, vertical: bool = False) -> str:
    turn = f' transform="rotate(-90 {_n(x)} {_n(y)})"' if vertical else ""
    return f'<text x="{_n(x)}" y="{_n(y)}" font-style="italic"{turn}>{escape(label)}</text>'


def _bars(values: tuple[float, ...], name: str, look: Look) -> tuple[str, int]:
    height, left, top, bottom = 240, 72, 12, 46
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
    names = look.columns or tuple(str(i) for i in range(len(values)))
    parts += [
        _text(left + (i + 0.5) * step, top + plot_h + 16, names[i], size=12)
        for i in range(0, len(values), every)
    ]
    parts += [
        _axis_title(left + plot_w / 2, height - 6, look.horizontal or "índice en el vector"),
        _axis_title(14, top + plot_h / 2, look.vertical or name, vertical=True),
    ]
    return "".join(parts), height


def _heatmap(series: Series, look: Look) -> tuple[str, int, int, str]:
    rows, labels = series.rows, look.rows or series.row_labels
    n_rows, n_cols = len(rows), len(rows[0])
    columns = look.columns or tuple(str(c) for c in range(n_cols))
    left = 34 + 7 * max(len(label) for label in labels)
    legend_w = 110
    cell = max(4.0, min(64.0, (WIDTH - left - legend_w) / n_cols, 400 / n_rows))
    top = 38
    flat = [v for r in rows for v in r]
    low, high = look.scale or (min(flat), max(flat))
    kind = "d" if low < 0 < high else "s"
    if kind == "d":  # symmetric around zero, so the middle (grey) level means 0
        high = max(abs(low), abs(high))
        low = -high
    span = (high - low) or 1.0

    def level(v: float) -> int:
        return min(LEVELS - 1, int((v - low) / span * LEVELS))

    paths: dict[int, list[str]] = {}
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            x, y = left + c * cell, top + r * cell
            paths.setdefault(level(v), []).append(
                f"M{x:.1f} {y:.1f}h{cell:.1f}v{cell:.1f}h{-cell:.1f}Z"
            )
    parts = [f'<path class="{kind}{k}" d="{"".join(d)}"/>' for k, d in sorted(paths.items())]
    grid_w, grid_h = n_cols * cell, n_rows * cell
    parts.append(
        f'<rect x="{left}" y="{top}" width="{grid_w:.1f}" height="{grid_h:.1f}" fill="none" '
        'stroke="currentColor" stroke-width="0.5"/>'
    )
    parts += _grid_labels(labels, columns, look, (left, top, cell))
    lx = left + grid_w + 16
    box = max(grid_h, 120) / LEVELS
    for k in range(LEVELS):
        parts.append(
            f'<rect class="{kind}{LEVELS - 1 - k}" x="{lx:.1f}" y="{top + k * box:.1f}" '
            f'width="12" height="{box:.1f}"/>'
        )
    # the scale's ticks: its ends as they are, its middle (0 on a signed scale) rounded
    ticks = [
        (shown(high), top),
        (shown(_round((high + low) / 2)), top + LEVELS * box / 2),
        (shown(low), top + LEVELS * box),
    ]
    for label, y in ticks:
        parts.append(f'<path stroke="currentColor" d="M{lx + 12:.1f} {y:.1f}h4"/>')
        parts.append(_text(lx + 19, y + 4, label, "start", 10))
    parts.append(_text(lx, top - 8, "valor", "start", 10))
    height = int(top + max(grid_h, LEVELS * box) + 8)
    width = int(lx + 24 + 6 * max(len(t) for t, _ in ticks))  # as wide as drawn
    shared = " (la misma escala de color que la tabla con que se compara)" if look.scale else ""
    return "".join(parts), width, height, f"de {shown(min(flat))} a {shown(max(flat))}{shared}"


def _grid_labels(
    labels: tuple[str, ...], columns: tuple[str, ...], look: Look, at: tuple[float, float, float]
) -> list[str]:
    """A heatmap's row and column names (up to 20 of each) and its axes' titles; `at` is the
    grid's left, top and cell size."""
    left, top, cell = at
    size = 12 if cell >= 24 else 11
    parts = []
    if len(labels) <= 20:
        parts += [
            _text(left - 5, top + (r + 0.5) * cell + 4, label, "end", size)
            for r, label in enumerate(labels)
        ]
    if len(columns) <= 20:
        parts += [
            _text(left + (c + 0.5) * cell, top - 6, name, size=size)
            for c, name in enumerate(columns)
        ]
    rows_title = look.vertical or ("fila" if labels[0] == "0" else "clave")
    parts.append(_axis_title(left + len(columns) * cell / 2, 12, look.horizontal or "columna"))
    parts.append(_axis_title(10, top + len(labels) * cell / 2, rows_title, vertical=True))
    return parts


def _round(value: float) -> float:
    """A scale's tick: the value to 4 significant digits, whole when it is whole."""
    rounded = float(f"{value:.4g}")
    return int(rounded) if rounded.is_integer() and abs(rounded) < 1e15 else rounded


def _row_label(label: str, *, named: bool) -> str:
    """A data table's row name: class.toml's word as text, an output's key (`q_pos3`) as code."""
    if not label:
        return "valor"
    return escape(label) if named or "_" not in label else f"<code>{escape(label)}</code>"


def _table(series: Series, look: Look) -> str:
    n_cols = len(series.rows[0])
    columns = look.columns or tuple(str(c) for c in range(n_cols))
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    corner = "<td></td>" if not series.vector else '<th scope="col">índice</th>'
    body = "".join(
        f'<tr><th scope="row">{_row_label(label, named=bool(look.rows))}</th>'
        + "".join(f"<td>{shown(v)}</td>" for v in row)
        + "</tr>"
        for label, row in zip(look.rows or series.row_labels, series.rows)
    )
    return f"<table><thead><tr>{corner}{head}</tr></thead><tbody>{body}</tbody></table>"


def chart_html(series: Series, ident: str, look: Look = Look()) -> str:
    """One output as a `<figure>`: the SVG (named for screen readers) and its data as a table,
    titled by the output's description."""
    if series.vector:
        values = series.rows[0]
        body, height = _bars(values, series.name, look)
        width = WIDTH
        kind = "barras" if len(values) <= BAR_LIMIT else "línea"
        label = (
            f"Gráfico de {kind} de {series.name}: {count(len(values), 'valor', 'valores')}, "
            f"de {shown(min(values))} a {shown(max(values))}"
        )
    else:
        body, width, height, span = _heatmap(series, look)
        # in words, as a reader says it (and a screen reader: «3 por 2» is a product)
        rows, columns = len(series.rows), len(series.rows[0])
        size = f"{count(rows, 'fila', 'filas')} y {count(columns, 'columna', 'columnas')}"
        label = f"Mapa de calor de {series.name}: {size}, {span}"
    # the caption names the output as code: `q_aprendido` is a key, not a subscript
    caption = escape(label).replace(escape(series.name), f"<code>{escape(series.name)}</code>", 1)
    if look.title:  # a title cut with «…» takes no full stop after it
        stop = "" if look.title.endswith("…") else "."
        caption = (
            f"{look.caption}. {caption}"
            if look.caption
            else f"{escape(look.title)}{stop} {caption}"
        )
        label = f"{look.title}{stop} {label}"
    svg = (
        f'<svg role="img" aria-labelledby="{ident}-t" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" {SHARED}>'
        f'<title id="{ident}-t">{escape(label)}</title>{body}</svg>'
    )
    return (
        f'<div class="grafica" id="{ident}"><figure>{svg}<figcaption>{caption}</figcaption>'
        "</figure><details><summary>Ver los datos como tabla</summary>"
        f'<div class="tabla-ancha" tabindex="0">{_table(series, look)}</div></details></div>'
    )
