"""Where every screen goes: the one place that decides colour and width, then prints.

Colour: `--color` / `--no-color` win; else NO_COLOR turns it off and FORCE_COLOR on; else a
terminal gets colour and a pipe or a file does not. Width: COLUMNS when set, else the terminal's;
a pipe or a file gets no width at all, so nothing it receives is hard-wrapped.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from typing import TextIO

from compmath.present.layout import Block, Para, lay_out, line, plain_text

_choice: bool | None = None


def choose_colour(choice: bool | None) -> None:
    """Record `--color` (True) or `--no-color` (False); None leaves it to the environment."""
    global _choice
    _choice = choice


def colour_for(stream: TextIO) -> bool:
    """Whether `stream` gets colour (the one decision every command shares)."""
    if _choice is not None:
        return _choice
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def width_for(stream: TextIO) -> int | None:
    """Columns to lay out for: COLUMNS, else the terminal's; None for a pipe or a file."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return max(int(given), 20)
    if is_terminal(stream):
        return max(shutil.get_terminal_size((100, 24)).columns, 20)
    return None


def emit(blocks: Sequence[Block], stream: TextIO | None = None) -> None:
    """Lay out and print a screen: styled through Rich when colour is on, plain text otherwise."""
    target = stream or sys.stdout
    colour = colour_for(target)
    lines = lay_out(blocks, width_for(target), colour)
    if colour:
        from compmath.present.terminal import write_styled

        write_styled(lines, target)
    else:
        target.write(plain_text(lines))


def clear_screen(stream: TextIO) -> None:
    """Start a fresh screen on a terminal (a pipe keeps the whole history)."""
    if is_terminal(stream):
        stream.write("\x1b[2J\x1b[H")


def error_blocks(message: str, hint: str = "", suggestions: Sequence[str] = ()) -> list[Block]:
    """`error: ...` in bold red, then the closest names and the next command."""
    blocks: list[Block] = [Para((("error: ", "bold red"), (message, "")), hang=2)]
    if suggestions:
        blocks.append(Para(((f"¿quisiste decir {' o '.join(suggestions)}?", ""),), hang=2))
    if hint:
        blocks.append(line(hint))
    return blocks


def emit_error(message: str, hint: str = "", suggestions: Sequence[str] = ()) -> None:
    """Print a usage or setup error on stderr."""
    emit(error_blocks(message, hint, suggestions), sys.stderr)
