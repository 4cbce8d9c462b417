"""The runner's error type and the problem record: a Spanish sentence plus the next thing to do."""

from __future__ import annotations

from typing import NamedTuple


class CompmathError(Exception):
    """A usage or setup error the CLI shows as `error: ...` plus a hint, with exit code 2."""

    def __init__(self, message: str, hint: str = "", *, suggestions: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.suggestions = suggestions or []


class Problem(NamedTuple):
    """One thing wrong with a course file: the file (relative to the root), what, what to do.

    A NamedTuple rather than a dataclass: `python lab.py` imports this module, and a dataclass
    costs its import ~15 ms."""

    file: str
    what: str
    hint: str

    def line(self) -> str:
        """The problem as the one line `compmath lint` prints."""
        return f"{self.file}: {self.what} — {self.hint}"

    def error(self) -> CompmathError:
        """The problem as the error a command stops with."""
        return CompmathError(f"{self.file} {self.what}", self.hint)
