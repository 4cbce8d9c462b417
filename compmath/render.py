"""Everything the terminal shows: the only module that imports Rich."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from compmath import screen
from compmath.report import LabReport, count_phrase
from compmath.screen import BAD, OK

MAX_CELL = 46


def make_console(file: TextIO | None = None, width: int | None = None) -> Console:
    """A console honouring NO_COLOR and plain output when not a terminal."""
    stream = file or sys.stdout
    return Console(
        file=stream,
        width=width,
        highlight=False,
        soft_wrap=False,
        no_color="NO_COLOR" in os.environ,
    )


def error_console() -> Console:
    return make_console(sys.stderr)


def styled(lines: list[screen.Line]) -> Text:
    """Screen lines as one Rich Text."""
    out = Text()
    for line in lines:
        for text, style in line:
            out.append(text, style=style or None)
        out.append("\n")
    return out


def render_run(
    console: Console, report: LabReport, info: dict[str, Any], heatmaps: bool = True
) -> None:
    """The `run` screen on a terminal: the screen's lines with styles, heatmaps below the table."""
    top, bottom = screen.run_screen(report, info, console.width)
    console.print(styled(top), soft_wrap=True, end="")
    if (
        heatmaps
        and report.outputs is not None
        and console.is_terminal
        and not console.no_color
        and console.color_system is not None
    ):
        for name, value in report.outputs.items():
            heatmap(console, name, value)
    console.print(styled(bottom), soft_wrap=True, end="")


VIRIDIS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
HEAT_CELL = 8


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
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for _, r in rows for x in r):
        return None
    return rows


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


def _short(x: float) -> str:
    text = json.dumps(x)
    return text if len(text) < HEAT_CELL else f"{x:.{HEAT_CELL - 4}g}"


def heatmap(console: Console, name: str, value: Any) -> bool:
    """Draw a 2-D numeric output as a colour grid with a min/max legend; False if not drawn."""
    rows = matrix_rows(value)
    if rows is None:
        return False
    label = min(max(len(k) for k, _ in rows), 12)
    columns = len(rows[0][1])
    if label + 1 + columns * HEAT_CELL > console.width or len(rows) > 40:
        return False  # too wide for this terminal: the table above already shows the values
    low = min(x for _, r in rows for x in r)
    high = max(x for _, r in rows for x in r)
    span = high - low
    out = Text("\n")
    out.append(f"{name} ({len(rows)}×{columns})\n", style="bold")
    for key, row in rows:
        out.append(key[:label].rjust(label) + " ", style="dim")
        for x in row:
            shade = (x - low) / span if span else 0.5
            out.append(_short(x).rjust(HEAT_CELL - 1) + " ", style=_heat_style(shade))
        out.append("\n")
    out.append("escala: mín " + json.dumps(low) + " ", style="dim")
    for step in range(12):
        out.append("  ", style=_heat_style(step / 11))
    out.append(" máx " + json.dumps(high), style="dim")
    console.print(out, soft_wrap=True)
    return True


def render_error(message: str, hint: str = "", suggestions: list[str] | None = None) -> None:
    """`error: ...` in bold red on stderr, then suggestions and the next command."""
    console = error_console()
    console.print(Text.assemble(("error: ", "bold red"), message), soft_wrap=True)
    if suggestions:
        console.print(Text(f"¿quisiste decir {' o '.join(suggestions)}?"), soft_wrap=True)
    if hint:
        console.print(Text(hint), soft_wrap=True)


@contextmanager
def progress(total: int, enabled: bool) -> Iterator[Any]:
    """A progress bar on a terminal; a no-op elsewhere. Yields `advance(label)`."""
    if not enabled:
        yield lambda label: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("[bold]laboratorios"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        transient=True,
        console=make_console(sys.stderr),
    )
    with bar:
        task = bar.add_task("", total=total)
        yield lambda label: bar.update(task, advance=1, description=label)


def print_lines(console: Console, lines: list[screen.Line]) -> None:
    """Screen lines on a terminal, with their styles."""
    console.print(styled(lines), soft_wrap=True, end="")


def render_diff(
    console: Console,
    title: str,
    columns: tuple[str, ...],
    rows: list[tuple[list[Any], bool]],
    footer: list[str],
    real: bool,
) -> None:
    """The `diff` screen: per class a heading and a table of moved outputs, then the summary.

    `rows` carry the class label in their first cell; a row whose output is "—" is a change of
    the whole class (new, deleted, reordered) and prints as a line under its heading.
    """
    plain = not console.is_terminal or console.no_color
    console.print(Text(title, style="bold"))
    groups: dict[str, list[tuple[list[Any], bool]]] = {}
    for cells, is_real in rows:
        groups.setdefault(str(cells[0]), []).append((cells, is_real))
    for label, group in groups.items():
        console.print()
        console.print(Text(label, style="bold"))
        table = Table(box=None if plain else box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for name in columns[1:]:
            table.add_column(
                name,
                overflow="fold",
                max_width=24 if name == "cambio" else None,
                no_wrap=name != "cambio",
                justify="right" if "Δ" in name else "left",
            )
        lines: list[Text] = []
        for cells, is_real in group:
            mark, style = (BAD, "bold red") if is_real else (OK, "green")
            if cells[1] == "—":
                console.print(Text(f"  {mark} {cells[2]}", style=style))
                continue
            table.add_row(*[str(c) for c in cells[1:-1]], Text(f"{mark} {cells[-1]}", style=style))
            change = " · ".join(str(c) for c in cells[6:8] if c)
            lines += [
                Text(f"  {mark} {cells[1]}: {cells[2]}", style=style),
                Text(
                    f"      {cells[3]}: {cells[4] or '—'} → {cells[5] or '—'}"
                    + (f" · Δ {change}" if change else "")
                    + f" · {cells[-1]}"
                ),
            ]
        natural = Measurement.get(console, console.options.update_width(10_000), table).maximum
        if table.row_count and natural <= console.width:
            console.print(table)
        else:  # a narrow terminal: two lines per output instead of a squeezed table
            for text in lines:
                console.print(text, soft_wrap=True)
    console.print()
    for note in footer[:-1]:
        console.print(Text(note, style="dim"), soft_wrap=True)
    console.print(Text(footer[-1], style="bold red" if real else "bold green"), soft_wrap=True)


def render_page(console: Console, markdown: str) -> None:
    """The `show` screen: Rich Markdown on a colour terminal, plain text otherwise."""
    if not console.is_terminal or console.no_color:
        from compmath.page import markdown_to_plain

        console.file.write(markdown_to_plain(markdown))
        return
    from rich.markdown import Markdown

    console.print(Markdown(markdown, code_theme="ansi_dark", hyperlinks=False))


def render_lint(console: Console, problems: list[Any], classes: int) -> None:
    """The `lint` report: one line per problem (file: what — hint), then a count."""
    for p in problems:
        console.print(
            Text.assemble((f"{p.file}: ", "bold"), (p.what, "red"), f" — {p.hint}"), soft_wrap=True
        )
    checked = count_phrase(classes, "clase revisada", "clases revisadas")
    if problems:
        console.print(
            Text(
                f"{count_phrase(len(problems), 'problema', 'problemas')} · {checked}",
                style="bold red",
            )
        )
    else:
        console.print(Text(f"{OK} el curso está en orden · {checked}", style="bold green"))
