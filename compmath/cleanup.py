"""Remove a lab's folder whatever it left there, without recursion and without ever raising.

shutil.rmtree recurses once per level (3,000 nested folders raise RecursionError, which
`ignore_errors` does not catch) and builds paths that outgrow PATH_MAX. Here the tree is
flattened instead: the top folder is held open, each subfolder's entries are renamed up into it
and the emptied subfolder removed, so every step is one level deep, by descriptor, whatever the
depth. A folder the lab made unreadable is given back its permissions first. The work comes
in bounded slices: the worker removes a lab's folder a slice at a time between its other tasks
(`discard`, `tidy`), so a deep tree never holds up a reply or a heartbeat.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

MAX_STEPS = 1_000_000  # entries moved or removed in one call, at most
SLICE = 50  # entries per slice of the worker's cleanup (a few milliseconds on a slow disk)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_pending: list[str] = []
_serial = 0


def remove_tree(path: str, budget: int = MAX_STEPS) -> bool:
    """Remove `path` and everything beneath it, in at most about `budget` steps; True if it is
    gone. Never raises; a later call goes on where this one stopped."""
    try:
        return _remove(path, budget)
    except Exception:
        return False


def discard(path: str) -> None:
    """Start removing a lab's folder; what one slice does not remove waits for `tidy`."""
    if not remove_tree(path, SLICE):
        _pending.append(path)


def tidy() -> bool:
    """One slice of the pending removals; True while some remain."""
    if _pending and remove_tree(_pending[0], SLICE):
        _pending.pop(0)
    return bool(_pending)


def _remove(path: str, budget: int) -> bool:
    try:
        top = os.open(path, _DIR_FLAGS)
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.unlink(path)  # a file or a link where a folder was expected
            return True
        except OSError:
            return False
    global _serial
    steps, before = 0, None
    try:
        while steps < budget:
            names = os.listdir(top)
            if not names or names == before:  # empty, or a pass that changed nothing
                break
            before = names
            for name in names[: max(1, budget - steps)]:
                steps += 1
                _serial = _take_apart(top, name, _serial)
    finally:
        os.close(top)
    try:
        os.rmdir(path)
    except OSError:
        return False
    return True


def _take_apart(top: int, name: str, serial: int) -> int:
    """Remove the entry `name` of the folder `top`, or move its entries up into `top`."""
    try:
        info = os.stat(name, dir_fd=top, follow_symlinks=False)
    except OSError:
        return serial
    if not stat.S_ISDIR(info.st_mode):
        _quietly(lambda: os.unlink(name, dir_fd=top))
        return serial
    try:
        os.rmdir(name, dir_fd=top)
        return serial
    except OSError:
        pass
    _quietly(lambda: os.chmod(name, 0o700, dir_fd=top))
    try:
        inner = os.open(name, _DIR_FLAGS, dir_fd=top)
    except OSError:
        return serial
    try:
        for child in os.listdir(inner):
            serial += 1
            try:
                os.rename(child, f".cm{serial}", src_dir_fd=inner, dst_dir_fd=top)
            except OSError:
                pass
    finally:
        os.close(inner)
    _quietly(lambda: os.rmdir(name, dir_fd=top))
    return serial


def _quietly(action: Callable[[], object]) -> None:
    try:
        action()
    except OSError:
        pass
