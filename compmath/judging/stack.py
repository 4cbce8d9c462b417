"""Where a lab was when it stopped: the innermost frame of the stack its reply carries.

Read once, when the reply is judged, from the text Python wrote (faulthandler's dump for a
timeout, innermost frame first; a traceback, innermost last); what shows it reads the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

FRAME = re.compile(r'File "([^"]+)", line (\d+),? in (\S+)')  # Python's own format, not ours
INNERMOST_FIRST = "most recent call first"  # faulthandler's heading


@dataclass(frozen=True)
class Frame:
    """One frame of a lab's stack: the file's name, the line and the function."""

    file: str
    line: int
    function: str

    def __str__(self) -> str:
        return f"{self.file}, línea {self.line}, en {self.function}"


def innermost(stack: str) -> Frame | None:
    """The frame the lab was running when its stack was dumped (None: no stack in the text)."""
    frames = FRAME.findall(stack)
    if not frames:
        return None
    path, number, function = frames[0 if INNERMOST_FIRST in stack else -1]
    return Frame(PurePath(path).name, int(number), function)
