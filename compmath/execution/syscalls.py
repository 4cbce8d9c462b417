"""The C library and the Linux calls that confine a lab: prctl, unshare, capabilities.

Loaded once in the worker, so that every child calls it cheaply; what it can do is probed by
facilities, and each confinement (isolation, landlock, seccomp) reads the library from here.
"""

from __future__ import annotations

import os
import sys
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNS = 0x20000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
_libc: Any = None


def load_libc() -> None:
    """Load the C library once in the worker, so that every child can call it cheaply."""
    global _libc
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    except (ImportError, OSError):
        _libc = None


def libc() -> Any:
    """The loaded C library (Linux only), or None."""
    return _libc


def prctl(option: int, value: int) -> bool:
    """Call Linux prctl(option, value); False where it is unavailable or refused."""
    return _libc is not None and int(_libc.prctl(option, value, 0, 0, 0)) == 0


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)


def enter_namespaces(extra: int = 0) -> bool:
    """Move this process's future children into a new user and PID namespace (and this process
    into the `extra` ones: CLONE_NEWNS, CLONE_NEWNET); False if refused.

    The uid and gid are mapped to themselves, so files keep their owner. /proc files of a
    process that cannot be dumped belong to root, so the process is dumpable for the mapping.
    """
    if _libc is None:
        return False
    uid, gid = os.geteuid(), os.getegid()
    prctl(PR_SET_DUMPABLE, 1)
    try:
        if int(_libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | extra)) != 0:
            return False
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        return True
    except OSError:
        return False
    finally:
        prctl(PR_SET_DUMPABLE, 0)


def drop_capabilities() -> None:
    """Give up every capability (root without namespaces: no ptrace of the worker, no CAP_KILL)."""
    if _libc is None or os.geteuid() != 0:
        return
    import ctypes

    for capability in range(64):  # the bounding set first: an exec as root regains none of them
        if prctl(PR_CAPBSET_DROP, capability) is False and ctypes.get_errno() == 22:  # EINVAL
            break
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty
    _libc.capset(header, data)


def enter_ipc_namespace() -> bool:
    """Move this process into a new IPC namespace by itself (root, without a user namespace)."""
    return _libc is not None and int(_libc.unshare(CLONE_NEWIPC)) == 0
