"""The lab worker: a process with numpy loaded that runs each lab under a supervisor.

Protocol (compmath.execution.protocol): one LabRequest per line in, one LabReply or note per
line out, both on one Unix socket (which, unlike a pipe, no process can reopen through /proc).
The worker never runs lab code, and no lab is forked from it: before it reads a request it
forks a zygote (compmath.execution.zygote), which forks a supervisor per lab
(compmath.execution.supervisor) that forks the lab's process (compmath.execution.sandbox). So
nothing the worker read or wrote (requests, results, prints) is in a lab's memory. The worker
cannot be traced or dumped, dies with the runner, and is a child subreaper: it adopts whatever
a killed supervisor leaves. Ctrl-Z stops the labs with the worker, and the time stopped does
not count against their timeouts.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from typing import Any, NoReturn

from compmath import cleanup
from compmath.execution import facilities, inflight, syscalls
from compmath.execution.facilities import Facilities
from compmath.execution.inflight import Running, ended, finish, reap_orphans, running, start
from compmath.execution.protocol import LabRequest, WorkerNote

HEARTBEAT = 0.5  # seconds between "alive" notes while labs run
EXIT_BUDGET = 2000  # entries removed on the way out; the rest is for the next idle sweep
_workdir = ""


def _stop(signum: int, frame: Any) -> NoReturn:
    """On SIGTERM from the runner (or its disappearance), take every lab process down with us."""
    for run in list(running.values()):
        run.signal(signal.SIGKILL)
    reap_orphans()
    if _workdir:
        cleanup.remove_tree(_workdir, EXIT_BUDGET)
    os._exit(1)


def _pause(signum: int, frame: Any) -> None:
    """Ctrl-Z: stop the labs, stop, and on `fg` give the labs back the time they were stopped."""
    paused = time.monotonic()
    for run in running.values():
        run.signal(signal.SIGSTOP)
    os.kill(os.getpid(), signal.SIGSTOP)
    gap = time.monotonic() - paused
    for run in running.values():
        run.deadline += gap
        run.paused += gap
        run.signal(signal.SIGCONT)


def _protect_self(runner: int) -> None:
    """No tracing or /proc access by same-user processes; die with the runner; adopt orphans."""
    syscalls.prctl(syscalls.PR_SET_DUMPABLE, 0)
    syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)
    if runner and os.getppid() != runner:  # the runner was gone before we could ask
        os._exit(1)
    syscalls.prctl(syscalls.PR_SET_CHILD_SUBREAPER, 1)


def _sweep(tmp: str) -> None:
    """Remove the folders of workers that died without cleaning up (SIGKILL with the runner)."""
    try:
        names = os.listdir(tmp)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if len(parts) != 3 or parts[0] != "compmath" or not parts[1].isdigit():
            continue
        path = os.path.join(tmp, name)
        try:
            if os.stat(path).st_uid != os.geteuid():
                continue
            os.kill(int(parts[1]), 0)
        except ProcessLookupError:
            cleanup.remove_tree(path, EXIT_BUDGET)
        except OSError:
            continue


def serve(found: Facilities) -> None:
    """Answer requests from stdin until it closes; labs run side by side, replies as they end.

    One event loop over stdin and a pidfd per running lab: a request forks its lab at once,
    a pidfd that fires (or a deadline that passes) produces that lab's reply. The runner
    decides how many labs are in flight.
    """
    global _workdir
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGTSTP, _pause)
    lifeline, _ = os.pipe()  # never written: the write end closes when this process dies
    # A private folder for the labs' files (os.mkdir, not tempfile: that module's import is
    # start-up time every `compmath run` would pay).
    tmp = os.environ.get("TMPDIR") or "/tmp"
    _workdir = os.path.join(tmp, f"compmath-{os.getpid()}-{os.urandom(4).hex()}")
    os.mkdir(_workdir, 0o700)
    inflight.setup(found, _workdir, lifeline)  # the zygote: forked before anything is read
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints of this process must not reach the reply channel
    channel.write(WorkerNote("hello", found.missing()).to_line())
    channel.flush()
    try:
        _loop(channel, tmp)
    finally:
        for run in list(running.values()):
            run.signal(signal.SIGKILL)
        cleanup.remove_tree(_workdir, EXIT_BUDGET)
        _workdir = ""


def _loop(channel: Any, tmp: str) -> None:
    # Complexity D, on purpose: one poll loop owns the worker's state (labs in flight, the
    # request buffer, the queue beyond the parallelism, the heartbeat clock); its closures
    # share that state, and splitting them into functions would pass it all back and forth.
    poller = select.poll()
    poller.register(0, select.POLLIN)
    by_fd: dict[int, Running] = {}
    buffered = b""
    idle_work_done = False
    stdin_open = True
    waiting: list[LabRequest] = []  # requests beyond the runner's parallelism, in order
    last_sent = time.monotonic()
    batch = False  # more than one lab seen at once: the zygote loads numpy's extras first

    def launch(request: LabRequest) -> None:
        try:
            run = start(request, batch)
        except OSError:  # the zygote is gone: a fresh worker runs these labs again
            _stop(signal.SIGTERM, None)
        if run.pidfd >= 0:
            by_fd[run.pidfd] = run
            poller.register(run.pidfd, select.POLLIN)

    def admit(request: LabRequest) -> None:
        if len(running) < max(1, request.parallel):
            launch(request)
        else:
            waiting.append(request)

    def send(line: str) -> None:
        nonlocal last_sent
        try:
            channel.write(line)
            channel.flush()
        except OSError:
            _stop(signal.SIGTERM, None)  # the runner is gone
        last_sent = time.monotonic()

    while stdin_open or running or waiting:
        if not idle_work_done and not running and not poller.poll(0):
            inflight.idle()  # numpy's extras, only while idle: a request waiting goes first
            _sweep(tmp)
            idle_work_done = True
        fallback = any(run.pidfd < 0 for run in running.values()) or cleanup.tidy()
        deadlines = [run.deadline for run in running.values()]
        if deadlines:
            deadlines.append(last_sent + HEARTBEAT)
        wait = min(deadlines) - time.monotonic() if deadlines else None
        if fallback:
            wait = 0.005 if wait is None else min(wait, 0.005)
        events = poller.poll(None if wait is None else max(0.0, wait) * 1000)
        for fd, event in events:
            if fd != 0:
                continue
            data = os.read(0, 1 << 16) if event & select.POLLIN else b""
            if not data:  # the runner is gone: nothing left to report to
                if running:
                    _stop(signal.SIGTERM, None)
                stdin_open = False
                poller.unregister(0)
                continue
            buffered += data
            *lines, buffered = buffered.split(b"\n")
            arrived = [LabRequest.from_line(line) for line in lines if line.strip()]
            if len(arrived) + len(running) + len(waiting) > 1:
                batch = True  # numpy's extras imported once, not in each lab that uses them
            for request in arrived:
                admit(request)
        now = time.monotonic()
        for run in list(running.values()):
            end = ended(run)
            if end is None and run.deadline > now:
                continue
            if run.pidfd >= 0:
                poller.unregister(run.pidfd)
                by_fd.pop(run.pidfd, None)
            reply = finish(run, end)
            if waiting:  # the freed slot goes to the next lab before the runner hears back
                launch(waiting.pop(0))
            send(reply.to_line())
        if running and time.monotonic() - last_sent >= HEARTBEAT:
            send(WorkerNote("alive").to_line())


def preload() -> None:
    """Import what every lab needs, once, before any request arrives."""
    import numpy  # noqa: F401

    import compmath.base.encode  # noqa: F401  (labs run in-process never reach their __main__ block)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    facilities.load_libc()
    probe = facilities.Probe()  # a fork while this process is still small
    _protect_self(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0)
    preload()
    serve(probe.result())
