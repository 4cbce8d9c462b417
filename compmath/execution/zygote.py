"""The zygote: a clean process that forks each lab's supervisor, so no lab inherits the worker.

The worker reads requests, reads each lab's output, result and prints, and writes replies: its
memory holds, freed or not, what every earlier lab saw and said (when grading, the course's
outputs at hidden variants and classmates' prints). So the worker never forks a lab. Before it
reads its first request it forks this process, which never reads a request or a result: per
lab it receives one byte and the lab's descriptors (SCM_RIGHTS on a socket pair), among them a
memory file holding that lab's own request, which only the forked supervisor reads, and
answers with the supervisor's pid. The supervisor is its child: the worker learns of its end
from a pidfd, and the zygote reaps it only when the worker says so (its pid is not reused
while the worker may still signal it), answering with its wait status and peak memory when
asked. numpy is loaded here (and its lazy parts when the worker is idle, or before a batch),
so labs start as fast as they did from the worker. It dies with the worker and cannot be traced.
"""

from __future__ import annotations

import _socket
import os
import signal
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from compmath.execution.facilities import Facilities

NAME = b"compmath-zigoto"  # its /proc/<pid>/comm; supervisors take the worker's name back
BATCH, SINGLE = b"B", b"S"  # a lab to start (with its descriptors); a batch loads numpy's extras
REAP, WAIT = b"R", b"W"  # then its supervisor's pid: reap it; and also tell how it ended
IDLE = b"I"  # the worker has nothing waiting: a moment to load numpy's extras
FDS = 6  # the lab's five files (supervisor.LabFiles) and its request
PR_SET_NAME = 15


def _fds_bytes(fds: list[int]) -> bytes:
    return b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in fds)


def _fds_from(ancillary: list[tuple[int, int, bytes]]) -> list[int]:
    fds: list[int] = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(data) - len(data) % 4
            fds += [int.from_bytes(data[i : i + 4], sys.byteorder) for i in range(0, usable, 4)]
    return fds


class Zygote:
    """The worker's handle on its zygote: hand it a lab's descriptors, get its supervisor."""

    def __init__(self, sock: _socket.socket, pid: int) -> None:
        self.sock, self.pid = sock, pid

    def spawn(self, fds: list[int], batch: bool) -> int:
        """The pid of a new supervisor (the zygote's child) for the lab whose files and request
        are `fds`; 0 if the zygote is gone."""
        try:
            ancillary = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, _fds_bytes(fds))]
            self.sock.sendmsg([BATCH if batch else SINGLE], ancillary)
            answer = self.sock.recv(32)
        except OSError:
            return 0
        return int(answer) if answer.strip().isdigit() else 0

    def idle(self) -> None:
        """The worker has no request waiting: the zygote may load numpy's extras now."""
        try:
            self.sock.send(IDLE)
        except OSError:
            pass

    def reap(self, pid: int) -> None:
        """Let the zygote reap the supervisor `pid`, which has ended; no answer."""
        try:
            self.sock.send(REAP + str(pid).encode("ascii"))
        except OSError:
            pass

    def wait(self, pid: int) -> tuple[int, int]:
        """Reap the supervisor `pid` (waiting for it to end) and return its wait status and
        ru_maxrss, as wait4 would; a killed status if the zygote is gone."""
        try:
            self.sock.send(WAIT + str(pid).encode("ascii"))
            status, maxrss = (int(x) for x in self.sock.recv(64).split())
        except (OSError, ValueError):
            return signal.SIGKILL, 0
        return status, maxrss


def start(lifeline: int, found: Facilities) -> Zygote | None:
    """Fork the zygote now, before any request is read.

    `lifeline`: the worker's descriptor that the labs need; every other one (the runner's
    channel above all) is closed in the zygote. `found`: what each supervisor confines with."""
    from compmath.execution import syscalls

    if syscalls.libc() is None:
        return None
    ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
    worker = os.getpid()
    pid = os.fork()
    if pid == 0:
        ours.close()
        _become(theirs, worker, lifeline, found)
    theirs.close()
    ours.setblocking(True)
    return Zygote(ours, pid)


def _close_all_but(keep: set[int]) -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    os.close(devnull)
    low = 3
    for fd in sorted(keep | {1 << 20}):
        if fd >= low:
            os.closerange(low, min(fd, 1 << 20))
            low = fd + 1


def _become(sock: _socket.socket, worker: int, lifeline: int, found: Facilities) -> NoReturn:
    """The zygote's life: one supervisor per message until the worker's end closes the socket."""
    from compmath.execution import syscalls

    code = 1
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != worker:  # the worker was gone before we could ask
            os._exit(1)
        _close_all_but({lifeline, sock.fileno(), 2})
        name = _comm()
        _rename(NAME)
        _serve(sock, name, lifeline, found)
        code = 0
    finally:
        os._exit(code)


def _comm() -> bytes:
    try:
        with open("/proc/self/comm", "rb") as handle:
            return handle.read().strip()
    except OSError:
        return b"python"


def _rename(name: bytes) -> None:
    from compmath.execution import syscalls

    libc = syscalls.libc()
    if libc is not None:
        libc.prctl(PR_SET_NAME, name[:15], 0, 0, 0)


def preload_extras() -> None:
    """numpy modules some labs use (lazy in numpy 2, so each forked lab would pay them again:
    numpy.random is ~20 ms, and half the course's labs draw numbers).

    Loaded while idle, or before the labs of a batch (check, grade: more than one lab at a
    time); a lone `compmath run` whose request is already waiting skips them.
    """
    import numpy.linalg
    import numpy.random  # noqa: F401


def _serve(sock: _socket.socket, name: bytes, lifeline: int, found: Facilities) -> None:
    extras = False
    while True:
        try:
            message, ancillary, _, _ = sock.recvmsg(32, _socket.CMSG_SPACE(4 * FDS))
        except InterruptedError:
            continue
        if not message:
            return  # the worker is gone
        fds = _fds_from(ancillary)
        if message == IDLE:  # only while the worker is idle: a request waiting goes first
            if not extras:
                preload_extras()
                extras = True
            continue
        if message[:1] in (REAP, WAIT):
            for fd in fds:
                os.close(fd)
            _reap(sock, message)
            continue
        if message == BATCH and not extras:
            preload_extras()  # a batch: imported once here, not in each lab that uses them
            extras = True
        pid = _fork_supervisor(fds, name, lifeline, found) if len(fds) == FDS else 0
        for fd in fds:
            os.close(fd)
        sock.send(str(pid).encode("ascii"))


def _reap(sock: _socket.socket, message: bytes) -> None:
    try:
        _, status, usage = os.wait4(int(message[1:]), 0)
        answer = f"{status} {usage.ru_maxrss}"
    except (ChildProcessError, ValueError):
        answer = f"{signal.SIGKILL} 0"
    if message[:1] == WAIT:
        sock.send(answer.encode("ascii"))


def _fork_supervisor(fds: list[int], name: bytes, lifeline: int, found: Facilities) -> int:
    """The pid of a new supervisor for this lab (0 if the fork failed)."""
    try:
        pid = os.fork()
    except OSError:
        return 0
    if pid == 0:
        _supervise(fds, name, lifeline, found)
    return pid


def _supervise(fds: list[int], name: bytes, lifeline: int, found: Facilities) -> NoReturn:
    """In the new supervisor: read this lab's request (and only this one), then supervise it."""
    from compmath.execution import supervisor
    from compmath.execution.protocol import LabRequest

    try:
        _rename(name)
        *files, request_fd = fds
        data = os.pread(request_fd, os.fstat(request_fd).st_size, 0)
        os.close(request_fd)
        folder, line = data.decode("utf-8").split("\n", 1)
        request = LabRequest.from_line(line)
    except BaseException:
        os._exit(1)
    supervisor.supervise(request, folder, supervisor.LabFiles(*files), lifeline, found)
