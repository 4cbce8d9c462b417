"""Write a file atomically: the old bytes or the new ones, never half of each, mode kept."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from compmath.errors import CompmathError

TEMP_SUFFIX = ".compmath-tmp"
REASONS = {
    errno.EACCES: "no hay permiso de escritura",
    errno.EPERM: "no hay permiso de escritura",
    errno.EROFS: "el sistema de archivos es de solo lectura",
    errno.ENOSPC: "no queda espacio en el disco",
    errno.EDQUOT: "se agotó la cuota de disco",
    errno.ENOENT: "la carpeta no existe",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.EISDIR: "es una carpeta",
}


def reason(exc: OSError) -> str:
    """A Spanish reason for an OSError (the system's own text when there is no better one)."""
    return REASONS.get(exc.errno or 0, exc.strerror or str(exc))


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def regular_target(path: Path) -> Path:
    """The file a write to `path` replaces: a symlink is followed; anything but a regular file
    (a folder, a FIFO, a device) is refused, so it is never replaced nor read."""
    target = path.resolve() if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise CompmathError(
            f"no se puede escribir {path}: {reason(exc)}", "elige otra ruta"
        ) from None
    if not stat.S_ISREG(mode):
        what = "una carpeta" if stat.S_ISDIR(mode) else "un archivo especial"
        raise CompmathError(
            f"no se puede escribir {path}: es {what}, no un archivo normal", "elige otra ruta"
        )
    return target


def write_atomic(path: Path, text: str) -> bool:
    """Write `text` to `path` atomically; return False (and touch nothing) if already equal.

    The new file keeps the mode of the one it replaces (a new file follows the umask). Errors
    are CompmathErrors naming the file and the reason in Spanish.
    """
    target = regular_target(path)
    data = text.encode("utf-8")
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode)
        if target.read_bytes() == data:
            return False
    except FileNotFoundError:
        old_mode = 0o666 & ~_umask()
    except OSError as exc:
        raise CompmathError(
            f"no se puede leer {path}: {reason(exc)}", "revisa el archivo"
        ) from None
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), old_mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        tmp = ""
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as exc:
        raise CompmathError(
            f"no se puede escribir {path}: {reason(exc)}", "revisa los permisos y el espacio libre"
        ) from None
    finally:
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return True


def stale_temporaries(folder: Path) -> list[Path]:
    """Temporary files an interrupted write left in a folder."""
    return sorted(folder.glob(f".*{TEMP_SUFFIX}"))
