"""The lab worker: a process with numpy loaded that runs each lab in its own forked child.

Protocol (compmath.execution.protocol): one LabRequest per line on stdin, one LabReply per line
on stdout. The worker
itself never runs lab code: a forked child does (compmath.sandbox), in its own session, with an
address-space limit and fds 0-2 redirected, so whatever the lab does it cannot corrupt the reply
channel. The worker is a child subreaper: every process the lab starts, even one that leaves the
lab's session, ends up as the worker's child and is killed when the lab ends or hangs. When the
runner goes away (its end of stdin closes), the worker takes the running lab down and exits.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import time
from typing import Any

from compmath.execution import sandbox
from compmath.execution.protocol import ChildResult, LabReply, LabRequest, ReplyState

OUTPUT_PREVIEW = 64 * 1024
FAULT_PREVIEW = 16 * 1024


def _read_preview(path: str, limit: int = OUTPUT_PREVIEW) -> tuple[str, int]:
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        data = handle.read(limit)
    return data.decode("utf-8", errors="replace"), size


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _children() -> list[int]:
    """The pids whose parent is this process (the subreaper adopts the lab's orphans)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


def reap_orphans() -> None:
    """Kill and reap every process the lab left behind, down to its last descendant."""
    for _ in range(100):
        try:
            if os.waitpid(-1, os.WNOHANG)[0]:
                continue  # reaped a dead one; look again
        except ChildProcessError:
            return  # no children at all: the usual case, one system call
        for pid in _children():
            _kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def _fault_trace(path: str) -> str:
    """faulthandler's dump after a fatal signal, without compmath's own frames."""
    text, _ = _read_preview(path, FAULT_PREVIEW)
    keep = [
        line
        for line in text.splitlines()
        if line.strip()
        and sandbox.PACKAGE_DIR not in line
        and "<frozen" not in line
        and not line.startswith(("Extension modules", "Current thread", "Thread 0x"))
    ]
    return "\n".join(keep) + "\n" if any("File" in line for line in keep) else ""


class Running:
    """One lab in flight: its request, child pid, files, clock and deadline."""

    __slots__ = ("deadline", "folder", "pid", "pidfd", "request", "started")

    def __init__(self, request: LabRequest, pid: int, folder: str, pidfd: int) -> None:
        self.request, self.pid, self.folder, self.pidfd = request, pid, folder, pidfd
        self.started = time.perf_counter()
        self.deadline = time.monotonic() + request.timeout

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)


FILES = ("result.json", "stdout.txt", "stderr.txt", "fault.txt")
_running: dict[int, Running] = {}  # pid -> lab in flight
_workdir = ""
_counter = 0


def start(request: LabRequest) -> Running:
    """Fork the child that runs one lab, in a folder of its own, and return at once."""
    global _counter
    _counter += 1
    folder = os.path.join(_workdir, str(_counter))
    os.mkdir(folder)
    for name in FILES:
        open(os.path.join(folder, name), "w").close()
    paths = [os.path.join(folder, name) for name in FILES]
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        try:
            sandbox.run_child(request, *paths)
        finally:
            os._exit(70)
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = -1
    run = Running(request, pid, folder, pidfd)
    _running[pid] = run
    return run


def finish(run: Running, ended: tuple[int, int] | None) -> LabReply:
    """End what is left of a lab (its group, its strays) and describe how it ended."""
    _kill_group(run.pid)  # the lab's own children die with it
    if ended is None:  # timed out
        _, status, usage = os.wait4(run.pid, 0)
        status_peak, timed_out = (status, usage.ru_maxrss * 1024), True
    else:
        status_peak, timed_out = ended, False
    del _running[run.pid]
    if run.pidfd >= 0:
        os.close(run.pidfd)
    if not _running:  # strays that left the lab's session are adopted by us: end them now
        reap_orphans()
    status, peak = status_peak
    stdout, stdout_bytes = _read_preview(run.path("stdout.txt"))
    stderr, stderr_bytes = _read_preview(run.path("stderr.txt"))
    with open(run.path("result.json"), encoding="utf-8", errors="replace") as handle:
        result = ChildResult.from_json(handle.read())
    signal_name = ""
    if timed_out:
        result = ChildResult(ReplyState.TIMEOUT)
    elif os.WIFSIGNALED(status):
        signal_name = signal.Signals(os.WTERMSIG(status)).name
        result = ChildResult(ReplyState.SIGNAL, traceback=_fault_trace(run.path("fault.txt")))
    elif result is None:
        result = ChildResult(ReplyState.NO_RESULT, exit_code=os.waitstatus_to_exitcode(status))
    shutil.rmtree(run.folder, ignore_errors=True)
    return LabReply.from_child(
        run.request.key,
        result,
        total_seconds=time.perf_counter() - run.started,
        peak_memory=peak,
        signal_name=signal_name,
        stdout=stdout,
        stdout_bytes=stdout_bytes,
        stderr=stderr,
        stderr_bytes=stderr_bytes,
    )


def _ended(run: Running) -> tuple[int, int] | None:
    """(wait status, peak RSS in bytes) if the lab's process has ended, else None."""
    done, status, usage = os.wait4(run.pid, os.WNOHANG)
    return (status, usage.ru_maxrss * 1024) if done else None


def _stop(signum: int, frame: Any) -> None:
    """On SIGTERM from the runner (or its disappearance), take every lab process down with us."""
    for pid in list(_running):
        _kill_group(pid)
    reap_orphans()
    if _workdir:
        shutil.rmtree(_workdir, ignore_errors=True)
    os._exit(1)


def serve() -> None:
    """Answer requests from stdin until it closes; labs run side by side, replies as they end.

    One event loop over stdin and a pidfd per running lab: a request forks its lab at once,
    a pidfd that fires (or a deadline that passes) produces that lab's reply. The runner
    decides how many labs are in flight.
    """
    global _workdir
    signal.signal(signal.SIGTERM, _stop)
    sandbox.prctl(sandbox.PR_SET_CHILD_SUBREAPER, 1)
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints of this process must not reach the reply channel
    # A private folder for the labs' result and captured streams (os.mkdir, not tempfile: that
    # module's import is start-up time every `compmath run` would pay).
    _workdir = os.path.join(
        os.environ.get("TMPDIR") or "/tmp", f"compmath-{os.getpid()}-{os.urandom(4).hex()}"
    )
    os.mkdir(_workdir, 0o700)
    try:
        _loop(channel)
    finally:
        for pid in list(_running):
            _kill_group(pid)
        shutil.rmtree(_workdir, ignore_errors=True)
        _workdir = ""


def _loop(channel: Any) -> None:
    poller = select.poll()
    poller.register(0, select.POLLIN)
    by_fd: dict[int, Running] = {}
    buffered = b""
    extras_loaded = False
    stdin_open = True
    waiting: list[LabRequest] = []  # requests beyond the runner's parallelism, in order

    def launch(request: LabRequest) -> None:
        run = start(request)
        if run.pidfd >= 0:
            by_fd[run.pidfd] = run
            poller.register(run.pidfd, select.POLLIN)

    def admit(request: LabRequest) -> None:
        if len(_running) < max(1, request.parallel):
            launch(request)
        else:
            waiting.append(request)

    while stdin_open or _running or waiting:
        if not extras_loaded and not _running and not poller.poll(0):
            preload_extras()  # only while idle: a request already waiting goes first
            extras_loaded = True
        fallback = any(run.pidfd < 0 for run in _running.values())
        deadlines = [run.deadline for run in _running.values()]
        wait = min(deadlines) - time.monotonic() if deadlines else None
        if fallback:
            wait = 0.005 if wait is None else min(wait, 0.005)
        events = poller.poll(None if wait is None else max(0.0, wait) * 1000)
        for fd, event in events:
            if fd != 0:
                continue
            data = os.read(0, 1 << 16) if event & select.POLLIN else b""
            if not data:  # the runner is gone: nothing left to report to
                if _running:
                    _stop(signal.SIGTERM, None)
                stdin_open = False
                poller.unregister(0)
                continue
            buffered += data
            *lines, buffered = buffered.split(b"\n")
            for line in lines:
                if line.strip():
                    admit(LabRequest.from_line(line))
        now = time.monotonic()
        for run in list(_running.values()):
            ended = _ended(run)
            if ended is None and run.deadline > now:
                continue
            if run.pidfd >= 0:
                poller.unregister(run.pidfd)
                by_fd.pop(run.pidfd, None)
            reply = finish(run, ended)
            if waiting:  # the freed slot goes to the next lab before the runner hears back
                launch(waiting.pop(0))
            try:
                channel.write(reply.to_line())
                channel.flush()
            except OSError:
                _stop(signal.SIGTERM, None)  # the runner is gone


def preload() -> None:
    """Import what every lab needs, once, before any request arrives."""
    import numpy  # noqa: F401

    import compmath.judging.encode  # noqa: F401  (labs run in-process never reach their __main__ block)

    sandbox.load_libc()


def preload_extras() -> None:
    """numpy modules some labs use (lazy in numpy 2, so each forked lab would pay them again).

    Loaded only while idle: a lone `compmath run` whose request is already waiting skips them.
    """
    import numpy.linalg
    import numpy.random  # noqa: F401


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    preload()
    serve()
