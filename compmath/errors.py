"""The runner's error type: a one-line Spanish message and a hint naming the next command."""

from __future__ import annotations


class CompmathError(Exception):
    """A usage or setup error the CLI shows as `error: ...` plus a hint, with exit code 2."""

    def __init__(self, message: str, hint: str = "", *, suggestions: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.suggestions = suggestions or []
