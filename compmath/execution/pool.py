"""The runner's side of the lab workers: a handle on each worker process, and the pool.

Light on imports: the console script starts a worker with this module before it imports
anything else, so the worker's numpy import overlaps the runner's own start-up; the protocol
(dataclasses, json) is imported after the worker has started. The runner
keeps its own deadline: a worker that stops answering (a lab stopped or killed it) is ended,
whatever the labs do, within a lab's timeout plus GRACE, or SILENCE seconds once it has said
hello and goes quiet while labs run.
"""

from __future__ import annotations

import atexit
import os
import select
import subprocess
import sys
import time
from typing import TYPE_CHECKING

from compmath.execution.environment import THREAD_CAPS, minimal_environment, named_off

if TYPE_CHECKING:
    from compmath.execution.protocol import LabReply, LabRequest, WorkerNote


def _worker_env() -> dict[str, str]:
    """The worker's environment, which its labs inherit: minimal (isolation.minimal_environment)
    unless COMPMATH_SIN names `env`; BLAS capped, this process's import path spelled out.

    One BLAS thread per lab: labs are small, workers run in parallel, and a many-core machine
    would otherwise reserve per-thread buffers that break numpy's import under the memory limit.
    The worker starts with `python -S` (no site processing: about 30 ms of .pth files and
    import hooks on every start), so it gets the directories this process imports from instead.
    """
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = [package_parent] + [p for p in sys.path if p and os.path.isdir(p)]
    import_path = os.pathsep.join(dict.fromkeys(paths))
    from compmath.cache import cache_dir

    source = dict(os.environ) | {"COMPMATH_PYCACHE": str(cache_dir() / "bytecode")}
    if "env" in named_off(source):  # facilities.switched_off, without importing dataclasses
        return source | dict.fromkeys(THREAD_CAPS, "1") | {"PYTHONPATH": import_path}
    return minimal_environment(source, import_path)


# Seconds without a word from a worker that has labs running: it is stopped. Generous, since
# a worker on a machine with every core busy can go seconds unscheduled (or reaping a lab's
# thousand processes); a stopped worker is still found long before any lab's timeout.
SILENCE = 10.0
GRACE = 5.0  # beyond a lab's timeout, what the worker may take to kill it and reply
SLICE = 0.5  # the longest single wait; a longer gap means this process itself was stopped


class _ActiveClock:
    """Seconds this process has been running: a Ctrl-Z (or SIGSTOP) pause does not count."""

    def __init__(self) -> None:
        self.last, self.active = time.monotonic(), 0.0

    def now(self) -> float:
        moment = time.monotonic()
        step, self.last = moment - self.last, moment
        self.active += step if step <= SLICE + 1.0 else SLICE
        return self.active


class WorkerHandle:
    """One worker process (compmath.execution.worker): send requests, read replies, stop it."""

    def __init__(self) -> None:
        import socket

        ours, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            # -P: the current folder is not put first on the import path, so the worker runs
            # the compmath this process imported (PYTHONPATH), never a `compmath/` folder
            # that happens to be where the command was started (a checkout, a submission)
            [sys.executable, "-S", "-P", "-m", "compmath.execution.worker", str(os.getpid())],
            stdin=theirs.fileno(),
            stdout=theirs.fileno(),
            stderr=subprocess.DEVNULL,
            env=_worker_env(),
        )
        theirs.close()
        self.channel = ours
        self.buffer = bytearray()
        self.scanned = 0  # bytes of the buffer known to hold no newline (a long reply arrives in
        # many pieces: each piece is searched once, not the whole buffer again)
        self.greeted = False  # the worker's hello arrived (it is past its start-up)
        self.missing: tuple[str, ...] = ()  # the protections it said it goes without

    def send(self, request: LabRequest) -> bool:
        """Hand one request to the worker; False if it is gone."""
        try:
            self.channel.sendall(request.to_line().encode("utf-8"))
        except OSError:
            return False
        return True

    def _line(self) -> bytes | None:
        end = self.buffer.find(b"\n", self.scanned)
        if end < 0:
            self.scanned = len(self.buffer)
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        self.scanned = 0
        return line

    def _buffered(self) -> LabReply | WorkerNote | None:
        """The next message whose whole line has arrived, or None; ProtocolError for a line
        that is not the protocol."""
        from compmath.execution.protocol import parse_line

        line = self._line()
        return None if line is None else parse_line(line)

    def arrived(self) -> list[LabReply]:
        """The replies already on the channel, read without waiting (what Ctrl-C must not
        lose: labs that ended before it, whose replies the runner had not read yet)."""
        from compmath.execution.protocol import LabReply, ProtocolError

        replies: list[LabReply] = []
        while True:
            try:
                item = self._buffered()
            except ProtocolError:
                return replies  # nothing after a broken line is believed
            if item is not None:
                if isinstance(item, LabReply):
                    replies.append(item)
                continue
            try:  # a worker already ended has a closed channel: nothing more is believed
                ready, _, _ = select.select([self.channel], [], [], 0)
                data = self.channel.recv(1 << 16) if ready else b""
            except (OSError, ValueError):
                data = b""
            if not data:
                return replies
            self.buffer += data

    def receive_any(self, patience: float) -> LabReply | None:
        """The next reply, whichever lab it is for, within `patience` seconds of running time.

        None when the worker is gone, has said nothing for SILENCE seconds while labs run
        (stopped), lets `patience` pass without a reply, or writes something that is not the
        protocol: in each case it is ended, and nothing it said afterwards is believed.
        """
        from compmath.execution.protocol import LabReply, ProtocolError

        clock = _ActiveClock()
        heard = 0.0
        while True:
            try:
                item = self._buffered()
            except ProtocolError:
                self.kill()
                return None
            if item is not None:
                if isinstance(item, LabReply):
                    return item
                if item.note == "hello":
                    self.greeted, self.missing = True, item.missing
                heard = clock.now()
                continue
            now = clock.now()
            limit = min(patience, heard + SILENCE) if self.greeted else patience
            if now >= limit:
                self.kill()
                return None
            ready, _, _ = select.select([self.channel], [], [], min(limit - now, SLICE))
            if ready:
                try:
                    data = self.channel.recv(1 << 16)
                except OSError:
                    data = b""
                if not data:
                    return None
                self.buffer += data
                heard = clock.now()  # a long reply still arriving: the worker is answering

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """End a worker that cannot be trusted any more; its labs die with it."""
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.close()

    def close(self) -> None:
        """Stop the worker without waiting: on SIGTERM it kills its running labs, then exits."""
        if self.proc.poll() is None:
            try:
                self.proc.terminate()
            except OSError:
                pass
        self.channel.close()


# The warm workers this process owns: module state on purpose. They are operating-system
# processes of this process (atexit must reach them all), started by entry.py before the CLI
# loads and taken by the scheduler, and kept warm from one in-process call to the next.
_pool: list[WorkerHandle] = []


def prestart(count: int) -> None:
    """Start `count` workers now, so their numpy import overlaps the caller's own start-up."""
    for _ in range(max(0, count - len(_pool))):
        _pool.append(WorkerHandle())


def take_worker() -> WorkerHandle:
    while True:
        try:  # another thread may take the last one between a check and the pop
            worker = _pool.pop()
        except IndexError:
            break
        if worker.alive():
            return worker
        worker.close()
    return WorkerHandle()


def release_worker(worker: WorkerHandle, *, healthy: bool = True) -> None:
    """Give a worker back to the pool, or end it if it can no longer be trusted."""
    if healthy and worker.alive():
        _pool.append(worker)
    else:
        worker.close()


@atexit.register
def shutdown() -> None:
    """End every worker this process started, and reap them (they exit at once on SIGTERM)."""
    workers = list(_pool)
    _pool.clear()
    for worker in workers:
        worker.close()
    for worker in workers:
        try:
            worker.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
