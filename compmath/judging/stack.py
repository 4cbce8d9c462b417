"""A lab's stack as frames: read once from the text Python wrote, in one place.

A lab's process sends Python's own text: a traceback (innermost frame last) when it raised,
faulthandler's dump (innermost first) when it was stopped. Its `File "…", line N, in f` lines
are read here and nowhere else; `run`'s screen, practice and the timeout's `stopped_at` take
the frames.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import PurePath

FRAME = re.compile(r'\s*File "([^"]+)", line (\d+),? in (\S+)')  # Python's own format, not ours
CARETS = re.compile(r"\s*[\^~]+\s*$")  # the carets under a line of code (3.11+)
INNERMOST_FIRST = "most recent call first"  # faulthandler's heading


@dataclass(frozen=True)
class Frame:
    """One frame of a lab's stack: its file, line and function, and the line's code ("" when
    the text gives none: faulthandler writes no code)."""

    path: str
    line: int
    function: str
    code: str = ""

    @property
    def file(self) -> str:
        return PurePath(self.path).name

    def __str__(self) -> str:
        return f"{self.file}, línea {self.line}, en {self.function}"


def frames(stack: str) -> list[Frame]:
    """The frames of a traceback or a faulthandler dump, in the order they are written."""
    found: list[Frame] = []
    for text in stack.splitlines():
        match = FRAME.match(text)
        if match:
            found.append(Frame(match.group(1), int(match.group(2)), match.group(3)))
        elif found and not found[-1].code and text.startswith("    ") and not CARETS.match(text):
            found[-1] = replace(found[-1], code=text.strip())
    return found


def innermost(stack: str) -> Frame | None:
    """The frame the lab was running when its stack was dumped (None: no stack in the text)."""
    found = frames(stack)
    if not found:
        return None
    return found[0 if INNERMOST_FIRST in stack else -1]
