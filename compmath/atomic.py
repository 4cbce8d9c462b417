"""Write a file atomically: the old bytes or the new ones, never half of each, mode kept.

The one writer of the runner: snapshots, reports, notebooks, the site's pages and the cache's
JSON files all go through `write_atomic`.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from pathlib import Path

from compmath.errors import CompmathError, not_a_file, os_reason

TEMP_SUFFIX = ".compmath-tmp"
WRITE_HINT = "revisa los permisos y el espacio libre"


class WriteError(CompmathError):
    """A file that cannot be written: the message names it, `reason` says why on its own."""

    def __init__(self, path: Path, reason: str, hint: str = WRITE_HINT) -> None:
        super().__init__(f"no se puede escribir {path}: {reason}", hint)
        self.path = path
        self.reason = reason


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
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise WriteError(path, os_reason(exc)) from None
    if why := not_a_file(mode):
        raise WriteError(path, why)
    return target


def _locked_temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside `target`, locked while open so that no cleaner removes it."""
    while True:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            return fd, tmp  # a file system without locks: no cleaner can lock (delete) it either
        if os.fstat(fd).st_nlink:
            return fd, tmp
        os.close(fd)  # a cleaner took it between its creation and our lock: make another


def write_atomic(path: Path, content: str | bytes, *, durable: bool = True) -> bool:
    """Write `content` (text as UTF-8) to `path` atomically; return False (and touch nothing)
    if it already holds those bytes.

    The new file keeps the mode of the one it replaces (a new file follows the umask). With
    `durable`, the data and the rename reach the disk before this returns (fsync); files that
    can be made again (the site, the cache) skip it. Errors are WriteErrors naming the file and
    the reason in Spanish.
    """
    target = regular_target(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode)
        if target.read_bytes() == data:
            return False
    except FileNotFoundError:
        old_mode = 0o666 & ~_umask()
    except OSError as exc:
        raise WriteError(path, f"no se puede leer el archivo actual ({os_reason(exc)})") from None
    tmp = ""
    try:
        fd, tmp = _locked_temporary(target)
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), old_mode)
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
            os.replace(tmp, target)  # still locked: a cleaner never sees it half-renamed
        tmp = ""
        if durable:
            _sync_folder(target.parent)
    except OSError as exc:
        raise WriteError(path, os_reason(exc)) from None
    finally:
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return True


def _sync_folder(folder: Path) -> None:
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def stale_temporaries(folder: Path) -> list[Path]:
    """Temporary files an interrupted write left in a folder."""
    return sorted(folder.glob(f".*{TEMP_SUFFIX}"))


def remove_stale_temporaries(folder: Path) -> None:
    """Delete what interrupted writes left in `folder`; a temporary that another write still
    holds (locked) stays, and one that cannot be deleted is left for `compmath lint` to name."""
    for tmp in stale_temporaries(folder):
        try:
            fd = os.open(tmp, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.stat(tmp, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                os.unlink(tmp)
        except OSError:
            pass  # in use by another write, already renamed, or a read-only folder
        finally:
            os.close(fd)
