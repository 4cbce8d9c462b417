"""The lab's own view of the system: a read-only tree, a tmpfs folder, its own /proc, limits for
the whole lab.

Called in the lab's process while it is still trusted code, inside its own user, PID, mount
(and network) namespaces: there it holds every capability over those namespaces, and none
outside them. `/` is made private and read-only recursively (a metadata change outside the
folder fails with EROFS, as bubblewrap's `--ro-bind / /`), and a fresh size-limited tmpfs
becomes the lab's folder: it disappears with the namespace, whatever the lab left in it. The
paths a private lab must not see (`compmath grade`: the submissions, the grades, the course's
labs) are covered by an empty read-only tmpfs each.
"""

from __future__ import annotations

import ctypes
import os
import resource
from collections.abc import Sequence
from typing import Any

from compmath.execution import syscalls

TMPFS_BYTES = 256 * 1024**2  # what a lab may keep in its folder, all files together
FILE_BYTES = 256 * 1024**2  # the largest file a lab may write (RLIMIT_FSIZE), its stdout too
PROCESSES = 300  # processes and threads of one lab, all together (the kernel's least pid_max + 1)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 1 << 14, 1 << 18
SYS_MOUNT_SETATTR = 442  # the same on every architecture
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 1


class MountAttr(ctypes.Structure):
    _fields_ = (
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    )


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def read_only_view(folder: str, hidden: Sequence[str] = ()) -> None:
    """In this process's own mount namespace: every mount read-only, `folder` a fresh tmpfs,
    each `hidden` folder an empty one.

    OSError if the kernel refuses (the worker's probe found out first: see facilities)."""
    libc = syscalls.libc()
    _check(int(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None)), "montar / como privado")
    attr = MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    result = int(
        libc.syscall(
            SYS_MOUNT_SETATTR,
            AT_FDCWD,
            b"/",
            AT_RECURSIVE,
            ctypes.byref(attr),
            ctypes.c_size_t(ctypes.sizeof(attr)),
        )
    )
    _check(0 if result == 0 else -1, "montar / de solo lectura")
    options = f"size={TMPFS_BYTES},mode=0700".encode("ascii")
    _check(
        int(libc.mount(b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options)),
        "montar la carpeta del laboratorio",
    )
    _hide(libc, folder, hidden)
    # Its own /proc: only its PID namespace's processes (no other process's command line or
    # environment, even where Landlock is missing). Refused where /proc is partly hidden (some
    # containers): the system's stays, read-only.
    libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, None)


def _beneath(path: str, folder: str) -> bool:
    return (path + "/").startswith(folder + "/")


def _hide(libc: Any, folder: str, hidden: Sequence[str]) -> None:
    """An empty read-only tmpfs over each hidden folder (none over the lab's own, nor inside
    one already hidden); OSError if the kernel refuses one."""
    covered: list[str] = []
    folder = os.path.realpath(folder)
    for path in sorted({os.path.realpath(h) for h in hidden}):
        nested = any(_beneath(path, c) for c in covered)
        if nested or not os.path.isdir(path) or _beneath(folder, path):
            continue
        options = b"size=4096,mode=0555"
        flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
        result = int(libc.mount(b"tmpfs", path.encode(), b"tmpfs", flags, options))
        _check(result, f"ocultar {path}")
        covered.append(path)


def cap_processes() -> None:
    """At most PROCESSES processes and threads in the lab's PID namespace, root included.

    pid_max of the lab's own PID namespace (Linux ≥ 6.14) bounds root too, whom RLIMIT_NPROC
    exempts; RLIMIT_NPROC, counted in the lab's user namespace, bounds everyone else."""
    try:
        fd = os.open("/proc/sys/kernel/pid_max", os.O_WRONLY)
        try:
            os.write(fd, str(PROCESSES + 1).encode("ascii"))
        finally:
            os.close(fd)
    except OSError:
        pass  # an older kernel: pid_max is the system's; RLIMIT_NPROC alone
    _set_limit(resource.RLIMIT_NPROC, PROCESSES)


def cap_memory(memory: int) -> None:
    """The address-space limit of each of the lab's processes (RLIMIT_AS), never above what the
    environment already allows."""
    _set_limit(resource.RLIMIT_AS, memory)


def cap_file_size() -> None:
    """No file the lab writes grows beyond FILE_BYTES (EFBIG: Python ignores SIGXFSZ)."""
    _set_limit(resource.RLIMIT_FSIZE, FILE_BYTES)


def _set_limit(which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    try:
        resource.setrlimit(which, (value, value))
    except (ValueError, OverflowError, OSError):  # beyond what rlim_t holds: as good as none
        pass
