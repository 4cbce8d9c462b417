"""The error guard of every command: a library error becomes `error: ...` and a hint, exit 2."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from compmath.course.params import ParamError
from compmath.errors import CompmathError, ExitCode


@contextmanager
def guard() -> Iterator[None]:
    """Turn library errors into `error: ...` plus a hint, exit code 2, no traceback."""
    try:
        yield
    except CompmathError as exc:
        from compmath.present.output import emit_error

        emit_error(exc.message, exc.hint, exc.suggestions, exc.located)
        raise typer.Exit(ExitCode.USAGE) from None
    except ParamError as exc:
        from compmath.present.output import emit_error

        emit_error(str(exc), exc.hint)
        raise typer.Exit(ExitCode.USAGE) from None
