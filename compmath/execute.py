"""Run labs on warm worker processes (numpy already imported), in parallel, one child per lab."""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.cache import read_json, write_json

DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = 2 * 1024**3
# One BLAS thread per lab: labs are small, workers run in parallel, and a many-core machine
# would otherwise reserve per-thread buffers that break numpy's import under the memory limit.
THREAD_CAPS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


@dataclass(frozen=True)
class LabRequest:
    """What to run: a lab file, its typed parameters, its limits and its rounding."""

    key: str
    lab: Path
    params: dict[str, Any] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    decimals: int = 6


def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in THREAD_CAPS:
        env[name] = "1"
    package_parent = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    return env


class Worker:
    """One zygote process; answers one request at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "compmath.zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_worker_env(),
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def send(self, request: LabRequest) -> bool:
        """Hand one request to the worker; False if the worker is gone."""
        message = {"id": request.key, "lab": str(request.lab), "params": request.params,
                   "timeout": request.timeout, "memory": request.memory,
                   "decimals": request.decimals}
        assert self.proc.stdin
        try:
            self.proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def receive(self, request: LabRequest) -> dict[str, Any]:
        """Wait for the reply to `request`; a dead worker is reported as a reply."""
        assert self.proc.stdout
        try:
            line = self.proc.stdout.readline()
        except OSError:
            line = ""
        if not line:
            return {"id": request.key, "estado": "trabajador", "stdout": "", "stderr": ""}
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, request: LabRequest) -> dict[str, Any]:
        """Send one request and wait for its reply."""
        self.send(request)
        return self.receive(request)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Stop the worker without waiting: on SIGTERM it kills its running lab's group and exits."""
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


_idle: list[Worker] = []


def prestart(count: int) -> None:
    """Start `count` workers now, so their numpy import overlaps the caller's own start-up."""
    for _ in range(max(0, count - len(_idle))):
        _idle.append(Worker())


def _take_worker() -> Worker:
    while _idle:
        worker = _idle.pop()
        if worker.alive():
            return worker
        worker.close()
    return Worker()


@atexit.register
def shutdown() -> None:
    """End every worker this process started, and reap them (they exit at once on SIGTERM)."""
    workers = list(_idle)
    _idle.clear()
    for worker in workers:
        worker.close()
    for worker in workers:
        try:
            worker.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            worker.proc.kill()


def run_one(request: LabRequest, meanwhile: Callable[[], None] | None = None) -> dict[str, Any]:
    """Run one lab; call `meanwhile` after handing it over, so both processes work at once."""
    worker = _take_worker()
    worker.send(request)
    if meanwhile:
        meanwhile()
    reply = worker.receive(request)
    if reply.get("estado") == "trabajador":
        worker.close()
    else:
        _idle.append(worker)
    return reply


HISTORY = "duraciones.json"


def longest_first(requests: Iterable[LabRequest]) -> list[LabRequest]:
    """Order labs by their last known duration, longest first, so no worker idles at the end."""
    history = read_json(HISTORY)
    known = history if isinstance(history, dict) else {}
    return sorted(requests, key=lambda r: -float(known.get(str(r.lab), 0.0)))


def remember_durations(replies: dict[str, dict[str, Any]], requests: list[LabRequest]) -> None:
    history = read_json(HISTORY)
    known = history if isinstance(history, dict) else {}
    for request in requests:
        reply = replies.get(request.key, {})
        if "tiempo_total" in reply:
            known[str(request.lab)] = round(float(reply["tiempo_total"]), 4)
    write_json(HISTORY, known)


def run_labs(
    requests: Iterable[LabRequest],
    jobs: int,
    on_done: Callable[[LabRequest, dict[str, Any]], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Run every request on up to `jobs` workers; return the replies by request key.

    `on_done` sees each reply as it arrives (judging overlaps the labs still running), and
    `meanwhile` runs in this thread once every worker has its first lab.
    """
    pending: queue.Queue[LabRequest] = queue.Queue()
    items = longest_first(requests)
    for item in items:
        pending.put(item)
    replies: dict[str, dict[str, Any]] = {}
    lock = threading.Lock()

    def serve(worker: Worker) -> None:
        while True:
            try:
                request = pending.get_nowait()
            except queue.Empty:
                break
            reply = worker.ask(request)
            if reply.get("estado") == "trabajador":
                worker.close()
                worker = Worker()
            with lock:
                replies[request.key] = reply
                if on_done:
                    on_done(request, reply)
        with lock:
            _idle.append(worker)

    count = max(1, min(jobs, len(items)))
    workers = [_take_worker() for _ in range(count)]
    threads = [threading.Thread(target=serve, args=(w,), daemon=True) for w in workers]
    for thread in threads:
        thread.start()
    if meanwhile:
        meanwhile()
    for thread in threads:
        thread.join()
    remember_durations(replies, items)
    return replies
