"""Schedule labs on the warm worker: one lab or many in parallel, replies as they land."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from compmath.cache import read_json, write_json
from compmath.execution.pool import release_worker, take_worker
from compmath.execution.protocol import LabReply, LabRequest, ReplyState


def run_one(request: LabRequest, meanwhile: Callable[[], None] | None = None) -> LabReply:
    """Run one lab; call `meanwhile` after handing it over, so both processes work at once."""
    worker = take_worker()
    worker.send(request)
    if meanwhile:
        meanwhile()
    reply = worker.receive(request)
    release_worker(worker, healthy=reply.state != ReplyState.WORKER_LOST)
    return reply


HISTORY = "duraciones.json"


def durations() -> dict[str, Any]:
    """Each lab's last measured time, by lab path (from the user cache)."""
    history = read_json(HISTORY)
    return history if isinstance(history, dict) else {}


def longest_first(requests: Iterable[LabRequest], known: dict[str, Any]) -> list[LabRequest]:
    """Order labs by their last known duration, longest first, so no slot idles at the end."""
    return sorted(requests, key=lambda r: -float(known.get(r.lab, 0.0)))


def remember_durations(
    known: dict[str, Any], replies: dict[str, LabReply], requests: list[LabRequest]
) -> None:
    for request in requests:
        reply = replies.get(request.key)
        if reply is not None and reply.state != ReplyState.WORKER_LOST:
            known[request.lab] = round(reply.total_seconds, 4)
    write_json(HISTORY, known)


def run_labs(
    requests: Iterable[LabRequest],
    jobs: int,
    on_done: Callable[[LabRequest, LabReply], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> dict[str, LabReply]:
    """Run every request with up to `jobs` labs in flight on one worker; replies by key.

    One worker imports numpy once and forks a child per lab. The next lab is handed over
    before the last reply is judged (`on_done`), so the worker never waits for the runner;
    `meanwhile` runs once the first labs are on their way. If a lab kills the worker, the
    labs that were in flight with it are run again one at a time, so only the culprit fails.
    """
    known = durations()
    items = longest_first(requests, known)
    replies: dict[str, LabReply] = {}
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
            worker.send(request.with_parallel(parallel))

    def settle(request: LabRequest, reply: LabReply) -> None:
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
                    settle(request, LabReply.worker_lost(request.key))
                else:
                    retried.add(request.key)
                    retry.append(request)
            fill()
            continue
        request = in_flight.pop(reply.key)
        fill()
        settle(request, reply)
    release_worker(worker)
    remember_durations(known, replies, items)
    return replies
