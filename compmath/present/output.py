"""Where every screen goes: the one place that decides colour and width, then prints.

Colour: `--color` / `--no-color` win; else NO_COLOR turns it off and FORCE_COLOR on; else a
terminal gets colour and a pipe or a file does not. Width: COLUMNS when set, else the terminal's;
a pipe or a file gets no width at all, so nothing it receives is hard-wrapped. Height (for a
screen that folds its details to fit): LINES, else the terminal's, else none. A long page on
a terminal goes through the user's pager (`page`).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

from compmath.errors_es import Located, excerpt
from compmath.present.layout import (
    Block,
    Chart,
    Para,
    StyledLine,
    cell_width,
    cut_end,
    lay_out,
    line,
    plain_text,
)
from compmath.visible import visible
from compmath.wording import alternatives, seconds

# `--color` / `--no-color` / `--plain` of the command being run: one value per call of the
# command line (entry.main runs each in a context of its own), never shared between calls.
CHOICE: ContextVar[bool | None] = ContextVar("compmath_colour", default=None)


def choose_colour(choice: bool | None) -> None:
    """Record `--color` (True) or `--no-color` (False); None leaves it to the environment."""
    CHOICE.set(choice)


def colour_for(stream: TextIO) -> bool:
    """Whether `stream` gets colour (the one decision every command shares)."""
    choice = CHOICE.get()
    if choice is not None:
        return choice
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


SPINNER_COLUMNS = 5  # the spinner and its space, the 2 columns kept for `^C`, one spare


def width_for(stream: TextIO) -> int | None:
    """Columns to lay out for: COLUMNS, else the terminal's; None for a pipe or a file."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return max(int(given), 20)
    if is_terminal(stream):
        try:  # this stream's own terminal: stderr's width holds while stdout goes to a pipe
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            columns = shutil.get_terminal_size((100, 24)).columns
        return max(columns, 20)
    return None


def height_for(stream: TextIO) -> int | None:
    """Rows a screen has, found as its width is: LINES, else the terminal's; None for a pipe
    or a file (nothing is folded to fit it)."""
    given = os.environ.get("LINES", "")
    if given.isdigit() and int(given) > 0:
        return max(int(given), 10)
    if is_terminal(stream):
        try:
            rows = os.get_terminal_size(stream.fileno()).lines
        except (AttributeError, OSError, ValueError):
            rows = shutil.get_terminal_size((100, 24)).lines
        return max(rows, 10)
    return None


def emit(blocks: Sequence[Block], stream: TextIO | None = None) -> None:
    """Lay out and print a screen: styled through Rich when colour is on, plain text otherwise."""
    target = stream or sys.stdout
    colour = colour_for(target)
    _write(lay_out(blocks, width_for(target), colour=colour), target, colour=colour)


def printable_streams() -> None:
    """Let a stdout or stderr that cannot encode UTF-8 (PYTHONIOENCODING=ascii, a Windows
    code page) print `?` for a character it lacks (✓, —, «, á) instead of a traceback."""
    for stream in (sys.stdout, sys.stderr):
        encoding = str(getattr(stream, "encoding", "") or "utf-8").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding == "utf8" or reconfigure is None or getattr(stream, "errors", "") == "replace":
            continue
        try:  # `?`, also on stderr (whose default, `\xab`, reads worse)
            reconfigure(errors="replace")
        except (OSError, ValueError):
            pass


def _write(lines: list[StyledLine], target: TextIO, *, colour: bool) -> None:
    printable_streams()
    # Every segment is one line's text: a lab's string in it shows its control characters.
    lines = [[(visible(text), style) for text, style in line] for line in lines]
    if colour:
        from compmath.present.terminal import write_styled

        write_styled(lines, target)
    else:
        target.write(plain_text(lines))


def clear_screen(stream: TextIO) -> None:
    """Start a fresh screen on a terminal (a pipe keeps the whole history)."""
    if is_terminal(stream):
        stream.write("\x1b[2J\x1b[H")


def pager_command() -> str | None:
    """The pager: $PAGER (run by the shell, as git does; empty or `cat` means none), else `less`
    when it is installed."""
    if "PAGER" in os.environ:
        command = os.environ["PAGER"].strip()
        return None if command in ("", "cat") else command
    return "less" if shutil.which("less") else None


def page(blocks: Sequence[Block]) -> None:
    """Print a screen through the pager when it is taller than the terminal; else as `emit`."""
    target = sys.stdout
    pager = pager_command() if is_terminal(target) else None
    colour = colour_for(target)
    lines = lay_out(blocks, width_for(target), colour=colour)
    if pager is None or len(lines) < shutil.get_terminal_size().lines:
        _write(lines, target, colour=colour)
        return
    from io import StringIO

    buffer = StringIO()
    _write(lines, buffer, colour=colour)
    _through(pager, buffer.getvalue())


def _through(command: str, text: str) -> None:
    """Feed `text` to the pager and wait for the reader to leave it (Ctrl-C belongs to it).
    LESS=FRX unless the user set LESS: colours pass and the screen is not cleared on leaving."""
    import subprocess

    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        sys.stdout.write(text)
        return
    try:
        if proc.stdin is not None:  # always, with stdin=PIPE
            proc.stdin.write(text.encode("utf-8"))
            proc.stdin.close()
    except (BrokenPipeError, OSError):  # the reader quit before the end
        pass
    while True:
        try:
            proc.wait()
            return
        except KeyboardInterrupt:
            continue


def live_text(label: str, elapsed: float, width: int | None) -> str:
    """`label · 2,16 s` for the live line: a label too long is cut, the time always shows."""
    tail = f" · {seconds(elapsed)}"
    if width is None:
        return label + tail
    room = max(width - SPINNER_COLUMNS - cell_width(tail), 8)
    return cut_end(label, room) + tail


def still_running(keys: Sequence[str]) -> str:
    """The live line's note of the labs not yet back: `espera a 905-cuelga (y 2 más)`."""
    if not keys:
        return ""
    more = f" (y {len(keys) - 1} más)" if len(keys) > 1 else ""
    return f"espera a {keys[0]}{more}"


@contextmanager
def waiting(label: str, *, live: bool = True, delay: float = 0.4) -> Iterator[None]:
    """While the block runs, and once it has taken `delay` seconds, a live line on a terminal's
    stderr: a spinner, `label` and the seconds elapsed (Rich loads only then, in that thread)."""
    stream = sys.stderr
    if not live or not is_terminal(stream):
        yield
        return
    started = time.monotonic()
    done = threading.Event()
    colour = colour_for(stream)  # decided here: the thread does not see this call's context

    def show() -> None:
        if done.wait(delay):
            return
        from compmath.present.terminal import ticker

        ticker(
            stream,
            colour=colour,
            text=lambda: live_text(label, time.monotonic() - started, width_for(stream)),
            done=done,
        )

    thread = threading.Thread(target=show, name="compmath-espera", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def error_blocks(
    message: str,
    hint: str = "",
    suggestions: Sequence[str] = (),
    located: Located | None = None,
) -> list[Block]:
    """`error: ...` in bold red, the offending line of a parse error with a caret under its
    column, then the closest names and the next command."""
    blocks: list[Block] = [Para((("error: ", "bold red"), (message, "")), hang=2)]
    if located is not None:
        blocks.append(excerpt_chart(located))
    if suggestions:
        blocks.append(Para(((f"¿quisiste decir {alternatives(list(suggestions))}?", ""),), hang=2))
    if hint:
        blocks.append(line(hint))
    return blocks


def emit_error(
    message: str,
    hint: str = "",
    suggestions: Sequence[str] = (),
    located: Located | None = None,
) -> None:
    """Print a usage or setup error on stderr."""
    emit(error_blocks(message, hint, suggestions, located), sys.stderr)


def excerpt_chart(located: Located) -> Chart:
    """The offending line and its caret, fitted to the width when drawn (errors_es.excerpt)."""
    return Chart(lambda width, _colour: [[(text, "dim")] for text in excerpt(located, width)])
