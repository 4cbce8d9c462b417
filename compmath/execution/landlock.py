"""Linux Landlock through ctypes: a lab may write only in its own folder and signal only its own.

Landlock (kernel 5.13 and later) is unprivileged and stacks: a process restricts itself and
every process it starts, irreversibly. The ruleset handles every write right the kernel's ABI
knows and grants them beneath the lab's folder (and /dev/null); reads and execution are not
handled, so numpy and the standard library load as usual. A private lab (a student's hole in
`compmath grade`) also has its reads handled: it reads only beneath the roots `reading` names
and its own folder. From ABI 6 the domain is also scoped:
no signals and no abstract Unix sockets towards processes outside it. Whatever the ABI, a
process in a domain cannot trace, nor open through /proc the descriptors of, one outside it.
"""

from __future__ import annotations

import ctypes
import os
import stat
from collections.abc import Sequence
from typing import Any

from compmath.execution import syscalls

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on every arch
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
WRITE_FILE, READ_FILE, READ_DIR, TRUNCATE, IOCTL_DEV = 1 << 1, 1 << 2, 1 << 3, 1 << 14, 1 << 15
FILE_RIGHTS = WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the ones a rule on a file may hold
# The write rights by the ABI that introduced them: remove, make (char, dir, reg, sock, fifo,
# block, sym) and write in ABI 1; refer (rename across folders) in 2; truncate in 3; device
# ioctl in 5.
WRITES_BY_ABI = {
    1: WRITE_FILE | sum(1 << bit for bit in range(4, 13)),
    2: 1 << 13,
    3: TRUNCATE,
    5: IOCTL_DEV,
}
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2  # ABI 6


class RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def abi() -> int:
    """The kernel's Landlock ABI version; 0 where Landlock is absent or disabled."""
    libc = syscalls.libc()
    if libc is None:
        return 0
    version = int(
        libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    )
    return max(version, 0)


def _check(result: int, what: str) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"Landlock: {what}: {os.strerror(errno)}")
    return result


def _allow(libc: Any, ruleset: int, path: str, rights: int) -> None:
    """Grant `rights` beneath `path` (only its file rights when it is not a folder)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # nothing there to allow
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FILE_RIGHTS
        rule = PathBeneath(rights, fd)
        _check(
            int(libc.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0)),
            f"permitir {path}",
        )
    finally:
        os.close(fd)


def restrict_self(version: int, writable: str, readable: Sequence[str] | None = None) -> None:
    """Allow writes only beneath `writable` (and to /dev/null) from now on; with `readable`,
    reads too, only beneath `writable` and those paths. OSError if refused."""
    libc = syscalls.libc()
    writes = sum(rights for since, rights in WRITES_BY_ABI.items() if since <= version)
    reads = READ_FILE | READ_DIR if readable is not None else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0
    attr = RulesetAttr(writes | reads, 0, scoped)
    size = ctypes.sizeof(RulesetAttr) if version >= 6 else 16  # older kernels know two fields
    ruleset = _check(
        int(libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0)),
        "crear las reglas",
    )
    try:
        _allow(libc, ruleset, writable, writes | reads)
        _allow(libc, ruleset, os.devnull, (writes | reads) & FILE_RIGHTS)
        for path in readable or ():
            _allow(libc, ruleset, path, reads)
        if not syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1):
            raise OSError(1, "Landlock: no se pudo fijar no_new_privs")
        _check(int(libc.syscall(SYS_RESTRICT_SELF, ruleset, 0)), "aplicar las reglas")
    finally:
        os.close(ruleset)
