"""Rich, for colour terminals only: styled lines and the live spinner (the only Rich import)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from compmath.present.layout import StyledLine


def console_for(stream: TextIO, *, colour: bool = True) -> Console:
    """A Rich console that writes to `stream` and never wraps (layout already did); `colour`
    is present.output's decision."""
    return Console(
        file=stream,
        force_terminal=True,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
        no_color=not colour,
    )


def write_styled(lines: list[StyledLine], stream: TextIO) -> None:
    """Print laid-out lines with their styles."""
    console = console_for(stream)
    out = Text(end="")
    for styled in lines:
        merged: list[list[str]] = []
        for text, style in styled:  # one escape sequence per run of equal style
            if merged and merged[-1][1] == style:
                merged[-1][0] += text
            else:
                merged.append([text, style])
        for text, style in merged:
            out.append(text, style=style or None)
        out.append("\n")
    console.print(out, end="")


def _live_console(stream: TextIO, *, colour: bool) -> Console:
    """A console for a live line two columns short of the terminal: room for the `^C` a
    terminal echoes, so the line never wraps and is erased whole."""
    console = console_for(stream, colour=colour)
    console.width = max(console.width - 2, 20)
    return console


def shortened(text: str, width: int) -> str:
    """`text` in `width` columns, its least useful part dropped first: whole, or without its
    parentheses, last one first (`espera a 321-tokenizacion-bpe…` for `… (y 17 más)`: never a
    bracket left open), then cut after its last whole word, a name's words being split at its
    hyphens too (`espera a 321-tokenizacion…`), all marked `…` (a word too long for the width
    alone is cut, marked the same way)."""
    from rich.cells import cell_len

    if cell_len(text) <= width:
        return text
    kept = text
    while (opening := _last_parenthesis(kept)) is not None:
        kept = kept[:opening].rstrip() + kept[kept.index(")", opening) + 1 :]
        if cell_len(kept) + 1 <= width:
            return kept.rstrip(" ,;:·") + "…"
    ends = [k for k, c in enumerate(kept) if c in " -" and k] + [len(kept)]
    for end in reversed(ends):
        head = kept[:end].rstrip(" (,;:·-")
        if "(" in head and head.count("(") > head.count(")"):
            continue  # never a bracket left open
        if head and cell_len(head) + 1 <= width:
            return head + "…"
    return text[: max(width - 1, 0)] + "…"


def _last_parenthesis(text: str) -> int | None:
    """Where the last `(…)` of `text` opens, when it closes (and holds no other)."""
    opening = text.rfind("(")
    return opening if opening >= 0 and ")" in text[opening:] else None


class Words:
    """A renderable line of text that fits the width it is given by cutting at a word."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield Text(shortened(self.text, options.max_width), no_wrap=True, end="")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.cells import cell_len

        return Measurement(1, max(cell_len(self.text), 1))


@contextmanager
def spinner(
    stream: TextIO, total: int, label: str, *, colour: bool
) -> Iterator[Callable[[str], None]]:
    """A live line on the terminal: spinner, `k/N`, elapsed time and the labs still running.

    Yields `advance(description)`; the line disappears when the block ends.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        SpinnerColumn,
        Task,
        TextColumn,
    )
    from rich.table import Column

    from compmath.wording import seconds

    class Elapsed(ProgressColumn):
        """The time so far as every screen writes it (`1,94 s`), not Rich's `0:00:01`."""

        def render(self, task: Task) -> Text:
            return Text(seconds(task.elapsed or 0.0))

    class Note(ProgressColumn):
        """The note beside the count: shortened at a word, never inside one."""

        def render(self, task: Task) -> Words:
            return Words(task.description)

    from rich.cells import cell_len

    console = _live_console(stream, colour=colour)
    progress_bar = BarColumn()
    # what is not the bar or the note: spinner, label, `k/N`, the time (up to `10,00 s`), gaps
    fixed = 2 + cell_len(label) + 1 + 2 * len(str(total)) + 2 + 7 + 2

    def advance(description: str) -> None:
        # the bar gives way first (40 columns down to 3), then the note, at a word
        room = console.width - fixed - cell_len(description)
        progress_bar.bar_width = max(3, min(40, room))
        bar.update(task, advance=1, description=description)

    bar = Progress(
        SpinnerColumn(),
        TextColumn(f"[bold]{label}", table_column=Column(no_wrap=True)),  # never «laboratori…»
        progress_bar if total > 1 else TextColumn(""),
        # `12/200` whole too: only the note gives way
        MofNCompleteColumn(table_column=Column(no_wrap=True)) if total > 1 else TextColumn(""),
        Elapsed(table_column=Column(no_wrap=True)),  # `5,30 s` whole: the note gives way
        Note(table_column=Column(ratio=1)),  # the one column that gives way (at a word)
        transient=True,
        console=console,
    )
    with bar:
        task = bar.add_task("", total=total)
        yield advance


def ticker(stream: TextIO, *, colour: bool, text: Callable[[], str], done: threading.Event) -> None:
    """A live line on `stream`, a spinner and `text()`, refreshed until `done`; then erased."""
    from rich.progress import Progress, SpinnerColumn, TextColumn

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        transient=True,
        console=_live_console(stream, colour=colour),
    )
    with bar:
        task = bar.add_task(text())
        while not done.wait(0.1):
            bar.update(task, description=text())
