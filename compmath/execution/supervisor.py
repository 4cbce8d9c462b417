"""Between the worker and the lab: a forked process that never runs lab code.

The worker's zygote forks one supervisor per lab (compmath.execution.zygote). It takes a
session of its own, dies with the zygote (which dies with the worker), arranges the lab's
descriptors, moves the lab into a new user and PID namespace where the system allows it (the
lab is then process 1 there, and when it ends the kernel ends every process it started) and
itself into new mount, network and IPC namespaces the lab then shares (as root without a user
namespace, the IPC one alone), forks the lab's process and reports on a file only it holds:
first the lab's pid, then how the lab ended and its peak memory. Without a PID namespace it
is a subreaper: what the lab left behind is its child, killed when the lab ends. Where prctl
is missing, a thread watches the worker's lifeline and takes the lab down when the worker dies.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys
from typing import NamedTuple, NoReturn

from compmath.execution import orphans, sandbox, syscalls
from compmath.execution.facilities import Facilities
from compmath.execution.protocol import ChildResult, LabRequest, ReplyState
from compmath.execution.sandbox import LIFELINE_FD, RESULT_FD, STATUS_FD


class LabFiles(NamedTuple):
    """The worker's descriptors for one lab: unlinked files in the lab's folder."""

    stdout: int
    stderr: int
    result: int
    fault: int
    status: int


def _arrange(files: LabFiles, lifeline: int) -> None:
    """Put the lab's descriptors at their fixed numbers and close every other one."""
    sources = [
        os.open(os.devnull, os.O_RDONLY),
        files.stdout,
        files.stderr,
        files.result,
        files.fault,
        files.status,
        lifeline,
    ]
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for fd in sources]  # out of the targets' way
    for target, fd in enumerate(high):
        os.dup2(fd, target)
    os.closerange(len(high), sandbox.MAX_FD)


def _watch_lifeline(lab: int) -> None:
    """Without prctl: when the worker dies its end of the lifeline closes; take the lab down."""
    import _thread

    def watch() -> None:
        while True:
            try:
                if not os.read(LIFELINE_FD, 1):
                    break
            except InterruptedError:
                continue
            except OSError:
                break
        try:
            os.kill(lab, signal.SIGKILL)
            os.killpg(0, signal.SIGKILL)  # this supervisor's group: itself, and the lab if there
        except OSError:
            pass
        os._exit(1)

    _thread.start_new_thread(watch, ())


def _namespaces(found: Facilities) -> bool:
    """Enter the lab's namespaces (docs/integridad.md); False if the kernel refuses one."""
    if found.pidns:
        return syscalls.enter_namespaces(found.namespace_flags())
    return syscalls.enter_ipc_namespace() if found.ipcns else True


def supervise(
    request: LabRequest, folder: str, files: LabFiles, lifeline: int, found: Facilities
) -> NoReturn:
    """Run one lab in a child of this process and report how it ended; never returns."""
    try:
        parent = os.getppid()  # the zygote (or the worker, where there is none)
        os.setsid()
        for signum in (signal.SIGTERM, signal.SIGTSTP, signal.SIGUSR2):
            signal.signal(signum, signal.SIG_DFL)  # not the worker's handlers
        if found.prctl:
            syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # it died before the signal was asked for
                os._exit(1)
            if not found.pidns:  # the lab's orphans come here, not to the worker
                syscalls.prctl(syscalls.PR_SET_CHILD_SUBREAPER, 1)
        _arrange(files, lifeline)
        if not _namespaces(found):
            failed = ChildResult(
                ReplyState.EXCEPTION,
                error_type="SandboxError",
                message="no se pudo crear el espacio de nombres del laboratorio",
            )
            os.write(RESULT_FD, failed.to_json().encode("ascii"))
            os._exit(0)
        pid = os.fork()
        if pid == 0:
            sandbox.run_child(request, folder, found)
        os.write(STATUS_FD, f"{pid}\n".encode("ascii"))
        if not found.prctl:
            _watch_lifeline(pid)
        _, status, usage = os.wait4(pid, 0)
        os.write(STATUS_FD, f"{status} {usage.ru_maxrss}\n".encode("ascii"))
        if found.prctl and not found.pidns:
            orphans.reap()  # before this process ends: the worker replies only after that
    finally:
        os._exit(0)


def report(status_fd: int) -> tuple[int, tuple[int, int] | None]:
    """What a supervisor reported: the lab's pid (0 if not yet) and, once it ended, its wait
    status and peak resident memory in bytes."""
    try:
        lines = os.pread(status_fd, 128, 0).decode("ascii").split("\n")
        pid = int(lines[0]) if lines[0] else 0
        if len(lines) > 2 and lines[1]:
            status, peak = (int(x) for x in lines[1].split())
            return pid, (status, peak_bytes(peak))
        return pid, None
    except (OSError, ValueError):
        return 0, None


def peak_bytes(maxrss: int) -> int:
    """ru_maxrss in bytes (kilobytes on Linux, bytes on macOS)."""
    return maxrss if sys.platform == "darwin" else maxrss * 1024
