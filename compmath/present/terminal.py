"""Rich, for colour terminals only: styled lines and the live spinner (the only Rich import)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
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

    bar = Progress(
        SpinnerColumn(),
        TextColumn(f"[bold]{label}"),
        BarColumn() if total > 1 else TextColumn(""),
        # `12/200` whole too: only the note gives way
        MofNCompleteColumn(table_column=Column(no_wrap=True)) if total > 1 else TextColumn(""),
        Elapsed(table_column=Column(no_wrap=True)),  # `5,30 s` whole: the note gives way
        TextColumn(
            "{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1)
        ),
        transient=True,
        console=_live_console(stream, colour=colour),
    )
    with bar:
        task = bar.add_task("", total=total)
        yield lambda description: bar.update(task, advance=1, description=description)


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
