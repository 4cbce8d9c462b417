"""A seccomp filter through libseccomp (ctypes): the system calls a lab never needs fail with EPERM.

libseccomp compiles the rules into a BPF program once, in the worker (about a millisecond); each
lab's process loads that program with one prctl just before its code runs. The filter denies
sockets (a lab keeps `socketpair`, a connected pair it makes itself, so it can reach no pathname
or abstract socket and no network), new namespaces and mounts, tracing and reading other
processes' memory, io_uring (whose requests bypass the filter), BPF, perf, userfaultfd, keys,
kernel modules, and typing into a terminal (TIOCSTI); SysV IPC and memory files (memfd), which
would outlive the lab or escape its memory limit; and what reads or moves the page cache
(mincore, readahead, cachestat, posix_fadvise's WILLNEED/DONTNEED/NOREUSE, madvise's
WILLNEED/COLD/PAGEOUT/POPULATE, preadv2/pwritev2 with RWF_NOWAIT), a channel between labs that
run one after another. Everything else is allowed. A system call of another architecture
(32-bit calls on x86-64) kills the process, libseccomp's default.
"""

from __future__ import annotations

import ctypes
import errno
import os

from compmath.execution import syscalls

ALLOW = 0x7FFF0000
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
CMP_MASKED_EQ = 7
DENIED = (
    "socket",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "kcmp",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "fanotify_init",
    "mount",
    "umount2",
    "unshare",
    "setns",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "name_to_handle_at",
    "open_by_handle_at",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "syslog",
    "iopl",
    "ioperm",
    # SysV IPC: objects that outlive the lab (and, in the system's IPC namespace, reach other
    # labs); `ipc` is the multiplexer of 32-bit systems
    "shmget",
    "shmat",
    "shmdt",
    "shmctl",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "ipc",
    # memory that no address-space limit counts while unmapped
    "memfd_create",
    "memfd_secret",
    # what tells whether a file's pages are cached, or loads them: a page-cache channel
    "mincore",
    "readahead",
    "cachestat",
)
# clone3 passes its flags in memory the filter cannot read: ENOSYS makes glibc use clone.
NOT_THERE = ("clone3",)
# clone with any of these flags (a new namespace) is denied: CLONE_NEWNS, NEWCGROUP, NEWUTS,
# NEWIPC, NEWUSER, NEWPID, NEWNET.
NEW_NAMESPACE_FLAGS = (
    0x20000,
    0x02000000,
    0x04000000,
    0x08000000,
    0x10000000,
    0x20000000,
    0x40000000,
)
TERMINAL_IOCTLS = (0x5412, 0x541C)  # TIOCSTI (type into a terminal), TIOCLINUX
# posix_fadvise advice that loads or drops a file's cached pages (WILLNEED, DONTNEED, NOREUSE):
# NORMAL, RANDOM and SEQUENTIAL stay. fadvise64_64 and arm_fadvise64_64 are 32-bit names (their
# advice sits in another argument; the filter does not compile them on 64-bit systems).
FADVISE = (("fadvise64", 3), ("fadvise64_64", 3), ("arm_fadvise64_64", 1))
FADVISE_DENIED = (3, 4, 5)
# madvise advice that reads a file's pages in or pushes them out of memory: WILLNEED, COLD,
# PAGEOUT, POPULATE_READ, POPULATE_WRITE (numpy's HUGEPAGE and malloc's DONTNEED stay).
MADVISE_DENIED = (3, 20, 21, 22, 23)
RWF_NOWAIT = 0x8  # preadv2/pwritev2: fail instead of waiting, so a read tells what is cached
NOWAIT_CALLS = (("preadv2", 5), ("pwritev2", 5))
_program: ctypes.Array[ctypes.c_char] | None = None


def rules() -> list[str]:
    """The filter's rules, one line each (docs/integridad.md)."""
    flags = ", ".join(hex(f) for f in NEW_NAMESPACE_FLAGS)
    return (
        [f"{name}: EPERM" for name in DENIED]
        + [f"{name}: ENOSYS" for name in NOT_THERE]
        + [f"clone con alguna de {flags}: EPERM", "ioctl TIOCSTI, TIOCLINUX: EPERM"]
        + [
            "fadvise64 con WILLNEED, DONTNEED o NOREUSE: EPERM",
            "madvise con WILLNEED, COLD, PAGEOUT, POPULATE_READ o POPULATE_WRITE: EPERM",
            "preadv2 y pwritev2 con RWF_NOWAIT: EPERM",
        ]
    )


class ArgCmp(ctypes.Structure):
    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


class SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def _errno_action(code: int) -> ctypes.c_uint32:
    return ctypes.c_uint32(0x00050000 | code)


def _libseccomp() -> ctypes.CDLL | None:
    """libseccomp by its soname (the loader's own search, a few system calls); else where
    ctypes.util finds it, which runs `ldconfig -p` (a process and ~10 ms of every worker's
    start)."""
    try:
        return ctypes.CDLL("libseccomp.so.2")
    except OSError:
        pass
    from ctypes.util import find_library

    try:
        return ctypes.CDLL(find_library("seccomp") or "libseccomp.so.2")
    except OSError:
        return None


def prepare() -> bool:
    """Compile the filter (once, in the worker); False where libseccomp or memfd is missing."""
    global _program
    lib = _libseccomp()
    if lib is None:
        return False
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.c_void_p,
    )
    lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    lib.seccomp_release.argtypes = (ctypes.c_void_p,)
    ctx = lib.seccomp_init(ALLOW)
    if not ctx:
        return False
    try:
        denied = _errno_action(errno.EPERM)

        def add(name: str, action: ctypes.c_uint32, *compare: ArgCmp) -> None:
            number = lib.seccomp_syscall_resolve_name(name.encode("ascii"))
            if number < 0:  # not a system call of this architecture
                return
            array = (ArgCmp * len(compare))(*compare) if compare else None
            if lib.seccomp_rule_add_array(ctx, action, number, len(compare), array) < 0:
                raise OSError(f"seccomp: {name}")

        for name in DENIED:
            add(name, denied)
        for name in NOT_THERE:
            add(name, _errno_action(errno.ENOSYS))
        for flag in NEW_NAMESPACE_FLAGS:
            add("clone", denied, ArgCmp(0, CMP_MASKED_EQ, flag, flag))
        for request in TERMINAL_IOCTLS:
            add("ioctl", denied, ArgCmp(1, CMP_MASKED_EQ, 0xFFFFFFFF, request))
        for name, arg in FADVISE:
            for advice in FADVISE_DENIED:
                add(name, denied, ArgCmp(arg, CMP_MASKED_EQ, 0xFFFFFFFF, advice))
        for advice in MADVISE_DENIED:
            add("madvise", denied, ArgCmp(2, CMP_MASKED_EQ, 0xFFFFFFFF, advice))
        for name, arg in NOWAIT_CALLS:
            add(name, denied, ArgCmp(arg, CMP_MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
        fd = os.memfd_create("compmath-seccomp", os.MFD_CLOEXEC)
        try:
            if lib.seccomp_export_bpf(ctx, fd) < 0:
                return False
            program = os.pread(fd, 1 << 20, 0)
        finally:
            os.close(fd)
    except (OSError, AttributeError):
        return False
    finally:
        lib.seccomp_release(ctx)
    if not program or len(program) % 8:
        return False
    _program = ctypes.create_string_buffer(program, len(program))
    return True


def apply() -> None:
    """Load the prepared filter into this process and every process it starts; OSError if
    refused. Sets no_new_privs, which the kernel requires of an unprivileged filter."""
    libc = syscalls.libc()
    if _program is None or libc is None:
        raise OSError(errno.ENOSYS, "seccomp: no hay filtro preparado")
    program = SockFprog(len(_program) // 8, ctypes.addressof(_program))
    if not syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1):
        raise OSError(ctypes.get_errno(), "seccomp: no se pudo fijar no_new_privs")
    if int(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"seccomp: {os.strerror(error)}")
