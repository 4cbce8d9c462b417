"""The runner's side of the lab workers: a handle on each worker process, and the pool.

Light on imports: the console script starts a worker with this module before it imports
anything else, so the worker's numpy import overlaps the runner's own start-up.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys

from compmath.cache import cache_dir
from compmath.execution.protocol import LabReply, LabRequest

# One BLAS thread per lab: labs are small, workers run in parallel, and a many-core machine
# would otherwise reserve per-thread buffers that break numpy's import under the memory limit.
THREAD_CAPS = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)


def _worker_env() -> dict[str, str]:
    """The worker's environment: BLAS capped, and this process's import path spelled out.

    The worker starts with `python -S` (no site processing: about 30 ms of .pth files and
    import hooks on every start), so it gets the directories this process imports from instead.
    """
    env = dict(os.environ)
    for name in THREAD_CAPS:
        env[name] = "1"
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = [package_parent] + [p for p in sys.path if p and os.path.isdir(p)]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["COMPMATH_PYCACHE"] = str(cache_dir() / "bytecode")
    return env


class WorkerHandle:
    """One worker process (compmath.execution.worker): send requests, read replies, stop it."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-m", "compmath.execution.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_worker_env(),
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def send(self, request: LabRequest) -> bool:
        """Hand one request to the worker; False if it is gone."""
        assert self.proc.stdin
        try:
            self.proc.stdin.write(request.to_line())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def receive_any(self) -> LabReply | None:
        """Wait for the next reply, whichever lab it is for; None if the worker is gone."""
        assert self.proc.stdout
        try:
            line = self.proc.stdout.readline()
        except OSError:
            line = ""
        if not line:
            return None
        return LabReply.from_line(line)

    def receive(self, request: LabRequest) -> LabReply:
        """Wait for the reply to the only request in flight; a dead worker is a reply too."""
        return self.receive_any() or LabReply.worker_lost(request.key)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Stop the worker without waiting: on SIGTERM it kills its running lab, then exits."""
        if self.proc.poll() is None:
            try:
                self.proc.terminate()
            except OSError:
                pass
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream:
                try:
                    stream.close()
                except OSError:
                    pass


_pool: list[WorkerHandle] = []


def prestart(count: int) -> None:
    """Start `count` workers now, so their numpy import overlaps the caller's own start-up."""
    for _ in range(max(0, count - len(_pool))):
        _pool.append(WorkerHandle())


def take_worker() -> WorkerHandle:
    while _pool:
        worker = _pool.pop()
        if worker.alive():
            return worker
        worker.close()
    return WorkerHandle()


def release_worker(worker: WorkerHandle, healthy: bool = True) -> None:
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
