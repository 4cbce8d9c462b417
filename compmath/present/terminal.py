"""Rich, for colour terminals only: styled lines and the live spinner (the only Rich import)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.text import Text

from compmath.present.layout import StyledLine


def console_for(stream: TextIO, colour: bool = True) -> Console:
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


@contextmanager
def spinner(
    stream: TextIO, total: int, label: str, colour: bool
) -> Iterator[Callable[[str], None]]:
    """A live line on the terminal: spinner, `k/N`, elapsed time and the labs still running.

    Yields `advance(description)`; the line disappears when the block ends.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(
        SpinnerColumn(),
        TextColumn(f"[bold]{label}"),
        BarColumn() if total > 1 else TextColumn(""),
        MofNCompleteColumn() if total > 1 else TextColumn(""),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        transient=True,
        console=console_for(stream, colour),
    )
    with bar:
        task = bar.add_task("", total=total)
        yield lambda description: bar.update(task, advance=1, description=description)
