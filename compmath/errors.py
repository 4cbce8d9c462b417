"""The runner's error type and the problem record: a Spanish sentence plus the next thing to do."""

from __future__ import annotations

import errno
import stat
from enum import IntEnum
from typing import NamedTuple

from compmath.errors_es import Located

OS_REASONS = {
    errno.EACCES: "no hay permiso",
    errno.EPERM: "no hay permiso",
    errno.EROFS: "el sistema de archivos es de solo lectura",
    errno.ENOSPC: "no queda espacio en el disco",
    errno.EDQUOT: "se agotó la cuota de disco",
    errno.ENOENT: "la carpeta no existe",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.EISDIR: "es una carpeta",
    errno.ELOOP: "la ruta da vueltas entre enlaces simbólicos",
}


def not_a_file(mode: int) -> str:
    """Why a path with this st_mode cannot be read or replaced as a file ("" if it can)."""
    if stat.S_ISREG(mode):
        return ""
    what = "una carpeta" if stat.S_ISDIR(mode) else "un archivo especial"
    return f"es {what}, no un archivo normal"


def os_reason(exc: OSError) -> str:
    """A Spanish reason for an OSError (the system's own text when there is no better one)."""
    return OS_REASONS.get(exc.errno or 0, exc.strerror or str(exc))


class CompmathError(Exception):
    """A usage or setup error the CLI shows as `error: ...` plus a hint, with exit code 2."""

    def __init__(
        self,
        message: str,
        hint: str = "",
        *,
        suggestions: list[str] | None = None,
        located: Located | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.suggestions = suggestions or []
        self.located = located  # a parse error's line, shown under the message


class Problem(NamedTuple):
    """One thing wrong with a course file: the file (relative to the root), what, what to do.

    A NamedTuple rather than a dataclass: `python lab.py` imports this module, and a dataclass
    costs its import ~15 ms."""

    file: str
    what: str
    hint: str
    located: Located | None = None  # a parse error's line and column

    def line(self) -> str:
        """The problem as the one line `compmath lint` prints."""
        return f"{self.file}: {self.what} — {self.hint}"

    def error(self) -> CompmathError:
        """The problem as the error a command stops with."""
        return CompmathError(f"{self.file} {self.what}", self.hint, located=self.located)


class ExitCode(IntEnum):
    """The documented exit codes (docs/referencia.md, «Códigos de salida»)."""

    OK = 0
    FAILED = 1  # a lab failed: raised, timed out, invalid, differs from or lacks its snapshot
    USAGE = 2  # usage or setup error: unknown class, bad --set, no course root, broken files
    INTERRUPTED = 130  # Ctrl-C
