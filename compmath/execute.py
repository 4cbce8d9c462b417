"""Run labs on warm worker processes (numpy already imported), in parallel, one child per lab."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.cache import read_json, write_json
from compmath.worker import Worker, release_worker, take_worker

DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = 2 * 1024**3


@dataclass(frozen=True)
class LabRequest:
    """What to run: a lab file, its typed parameters, its limits and its rounding."""

    key: str
    lab: Path
    params: dict[str, Any] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    decimals: int = 6


def run_one(request: LabRequest, meanwhile: Callable[[], None] | None = None) -> dict[str, Any]:
    """Run one lab; call `meanwhile` after handing it over, so both processes work at once."""
    worker = take_worker()
    worker.send(request)
    if meanwhile:
        meanwhile()
    reply = worker.receive(request)
    release_worker(worker, healthy=reply.get("estado") != "trabajador")
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

    def next_request() -> LabRequest | None:
        try:
            return pending.get_nowait()
        except queue.Empty:
            return None

    def serve(worker: Worker) -> None:
        # Pipelined: the worker gets its next lab before the last reply is judged, so it never
        # waits for the runner's validation and comparison.
        request = next_request()
        if request is not None:
            worker.send(request)
        while request is not None:
            reply = worker.receive(request)
            if reply.get("estado") == "trabajador":  # the worker died: a fresh one goes on
                worker.close()
                worker = take_worker()
            following = next_request()
            if following is not None:
                worker.send(following)
            with lock:
                replies[request.key] = reply
                if on_done:
                    on_done(request, reply)
            request = following
        release_worker(worker)

    count = max(1, min(jobs, len(items)))
    workers = [take_worker() for _ in range(count)]
    threads = [threading.Thread(target=serve, args=(w,), daemon=True) for w in workers]
    for thread in threads:
        thread.start()
    if meanwhile:
        meanwhile()
    for thread in threads:
        thread.join()
    remember_durations(replies, items)
    return replies
