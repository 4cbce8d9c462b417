"""Run labs on warm worker processes (numpy already imported), in parallel, one child per lab."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.cache import read_json, write_json
from compmath.worker import dead_worker_reply, release_worker, take_worker

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


def durations() -> dict[str, Any]:
    """Each lab's last measured time, by lab path (from the user cache)."""
    history = read_json(HISTORY)
    return history if isinstance(history, dict) else {}


def longest_first(requests: Iterable[LabRequest], known: dict[str, Any]) -> list[LabRequest]:
    """Order labs by their last known duration, longest first, so no slot idles at the end."""
    return sorted(requests, key=lambda r: -float(known.get(str(r.lab), 0.0)))


def remember_durations(
    known: dict[str, Any], replies: dict[str, dict[str, Any]], requests: list[LabRequest]
) -> None:
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
    """Run every request with up to `jobs` labs in flight on one worker; replies by key.

    One worker imports numpy once and forks a child per lab. The next lab is handed over
    before the last reply is judged (`on_done`), so the worker never waits for the runner;
    `meanwhile` runs once the first labs are on their way. If a lab kills the worker, the
    labs that were in flight with it are run again one at a time, so only the culprit fails.
    """
    known = durations()
    items = longest_first(requests, known)
    replies: dict[str, dict[str, Any]] = {}
    queue = deque(items)
    retry: deque[LabRequest] = deque()
    in_flight: dict[str, LabRequest] = {}
    retried: set[str] = set()
    worker = take_worker()

    def fill() -> None:
        # Twice the parallelism in flight: the worker starts a waiting lab the moment one ends.
        parallel = 1 if retry else max(1, jobs)
        source = retry if retry else queue
        while source and len(in_flight) < (1 if retry else 2 * parallel):
            request = source.popleft()
            in_flight[request.key] = request
            worker.send(request, parallel)

    def settle(request: LabRequest, reply: dict[str, Any]) -> None:
        replies[request.key] = reply
        if on_done:
            on_done(request, reply)

    fill()
    if meanwhile:
        meanwhile()
    while in_flight:
        reply = worker.receive_any()
        if reply is None:  # the worker died with these labs in flight
            worker.close()
            worker = take_worker()
            lost = list(in_flight.values())
            in_flight.clear()
            for request in lost:
                if len(lost) == 1 or request.key in retried:  # alone when it died: the culprit
                    settle(request, dead_worker_reply(request))
                else:
                    retried.add(request.key)
                    retry.append(request)
            fill()
            continue
        request = in_flight.pop(str(reply.get("id")))
        fill()
        settle(request, reply)
    release_worker(worker)
    remember_durations(known, replies, items)
    return replies
