"""Where a lab failed, as the `run` screen shows it: the lab's own frames, paths relative to the
course, each frame's line of code; frames of libraries are counted, not listed.

The worker sends Python's traceback text (or faulthandler's stack for a timeout, innermost frame
first), already without compmath's frames; judging/stack.py reads its frames. A syntax error's
place arrives as fields (`LabReport.error_at`), drawn at the screen's width with its caret.
"""

from __future__ import annotations

import linecache
import re
from pathlib import PurePath

from compmath.errors_es import Located
from compmath.judging.stack import frames
from compmath.present.layout import Block, Command, line, para
from compmath.present.output import excerpt_chart

FAULTHANDLER_HEADS = (
    "Stack (most recent call first)",
    "Current thread",
    "Thread 0x",
    "Traceback (most recent call last)",
)
EXCEPTION_LINE = re.compile(r"[A-Za-z_][\w.]*(: |$)")  # `MemoryError: …`, as a traceback ends


def relative(path: str, root: str) -> str | None:
    """`path` relative to the course `root`, or None when it lies outside the course."""
    if not root:
        return None
    try:
        return PurePath(path).relative_to(root).as_posix()
    except ValueError:
        return None


def trace_blocks(
    traceback: str, root: str, *, stopped: bool, located: Located | None = None
) -> list[Block]:
    """The lab's frames as blocks: `ruta:línea, en función` and its code, under a title; a
    syntax error (`located`) as its line and a caret."""
    title = "Dónde estaba el laboratorio al detenerse:" if stopped else "Dónde falló:"
    if located is not None:
        return [line((title, "bold red")), excerpt_chart(located)]
    found = frames(traceback)
    if not found:  # a stack without frames: as it came
        shown = [
            t
            for t in traceback.rstrip().splitlines()
            if t.strip() and not t.startswith(FAULTHANDLER_HEADS) and not EXCEPTION_LINE.match(t)
        ]  # no frames: the header and `Error: …` (the message above says it) show nowhere
        return [line((title, "bold red")), *(line((t, "red")) for t in shown)] if shown else []
    blocks: list[Block] = [line((title, "bold red"))]
    elsewhere: list[str] = []
    current = ""
    for frame in found:
        shown_path = relative(frame.path, root) if root else frame.path
        if shown_path is None:
            elsewhere.append(PurePath(frame.path).name)
            continue
        if shown_path != current:  # consecutive frames of one file under its path, once
            blocks.append(Command(shown_path, style="cyan", whole=True))  # a path: never split
            current = shown_path
        blocks.append(para(f"línea {frame.line}, en {frame.function}", indent=4, hang=2))
        if not frame.code:
            linecache.checkcache(frame.path)  # the file as it is now, not as first read
        code = frame.code or linecache.getline(frame.path, frame.line).strip()
        if code:  # a timeout's stack names lines without their code: read from the lab's file
            blocks.append(line(("      " + code, "")))
    if elsewhere:
        names = ", ".join(dict.fromkeys(elsewhere))
        what = "marco" if len(elsewhere) == 1 else "marcos"
        blocks.append(
            para((f"(y {len(elsewhere)} {what} fuera del curso: {names})", "dim"), indent=2)
        )
    return blocks
