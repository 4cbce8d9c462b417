"""Schedule labs on the warm worker: one lab or many in parallel, replies as they land.

A worker that dies, stops answering or breaks the protocol is ended and its labs in flight are
run again, one at a time, on a fresh worker; a lab that loses its worker twice is reported as
such (it killed or stopped it). After labs ran without Landlock, the caches they could have
written are emptied, so that nothing an unconfined lab left there is believed later. Another
thread can cancel the labs a thread runs (`Cancel`, `cancelling`: a newer check in practice
mode): their worker ends, taking them down, and the call raises `Cancelled`.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NamedTuple

from compmath.cache import purge, read_json, write_json
from compmath.execution.pool import GRACE, WorkerHandle, release_worker, take_worker
from compmath.execution.protocol import LabReply, LabRequest, ReplyState

HISTORY = "duraciones.json"
HISTORY_LIMIT = 2000  # labs whose last duration is remembered
LAB_CACHES = ("bytecode", "verdicts", "web", "lint")  # what an unconfined lab could poison


class Ran(NamedTuple):
    """The replies of one batch, by key, and the protections its labs went without (as
    COMPMATH_SIN names them)."""

    replies: dict[str, LabReply]
    missing: tuple[str, ...]


class Cancelled(Exception):
    """The labs of this call were cancelled from another thread; none of them is left running."""


class Cancel:
    """Cancels, from any thread, the labs run under `cancelling(self)` in another: the workers
    they run on end (a worker kills its labs on SIGTERM), and their call raises Cancelled."""

    def __init__(self) -> None:
        self.cancelled = False
        self._workers: list[WorkerHandle] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            workers = list(self._workers)
        for worker in workers:
            _end(worker)

    def adopt(self, worker: WorkerHandle) -> None:
        """Labs are about to run on `worker`: it ends when this is cancelled (or at once)."""
        with self._lock:
            self._workers.append(worker)
            late = self.cancelled
        if late:
            _end(worker)

    def forget(self, workers: list[WorkerHandle]) -> None:
        """The labs on `workers` are done: cancelling now no longer ends them."""
        with self._lock:
            self._workers = [w for w in self._workers if w not in workers]


def _end(worker: WorkerHandle) -> None:
    """SIGTERM to a worker whose channel another thread may be reading: that thread sees it end."""
    try:
        worker.proc.terminate()
    except OSError:
        pass


_cancel: ContextVar[Cancel | None] = ContextVar("compmath_cancel", default=None)


@contextmanager
def cancelling(cancel: Cancel) -> Iterator[None]:
    """Labs run in this block (in this thread) end when `cancel` is cancelled."""
    token = _cancel.set(cancel)
    try:
        yield
    finally:
        _cancel.reset(token)


def _taken(cancel: Cancel | None) -> WorkerHandle:
    worker = take_worker()
    if cancel is not None:
        cancel.adopt(worker)
    return worker


def durations() -> dict[str, float]:
    """Each lab's last measured time, by lab path (from the user cache; anything odd ignored)."""
    history = read_json(HISTORY)
    if not isinstance(history, dict):
        return {}
    return {
        lab: float(seconds)
        for lab, seconds in history.items()
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds >= 0
    }


def longest_first(requests: Iterable[LabRequest], known: dict[str, float]) -> list[LabRequest]:
    """Order labs by their last known duration, longest first, so no slot idles at the end."""
    return sorted(requests, key=lambda r: -known.get(r.lab, 0.0))


def remember_durations(
    known: dict[str, Any], replies: dict[str, LabReply], requests: list[LabRequest]
) -> None:
    for request in requests:
        reply = replies.get(request.key)
        if reply is not None and reply.state != ReplyState.WORKER_LOST:
            known.pop(request.lab, None)  # the newest last: what is kept when the file is cut
            known[request.lab] = round(reply.total_seconds, 4)
    # Practice and grading run labs from temporary folders: forget labs that are gone, and keep
    # the history to the newest HISTORY_LIMIT, so the file never grows without bound.
    kept = [(lab, t) for lab, t in known.items() if os.path.exists(lab)][-HISTORY_LIMIT:]
    write_json(HISTORY, dict(kept))


def _run(
    items: list[LabRequest],
    jobs: int,
    on_done: Callable[[LabRequest, LabReply], None] | None,
    meanwhile: Callable[[], None] | None,
) -> Ran:
    replies: dict[str, LabReply] = {}
    queue = deque(items)
    retry: deque[LabRequest] = deque()
    in_flight: dict[str, LabRequest] = {}
    losses: dict[str, int] = {}
    cancel = _cancel.get()
    worker = _taken(cancel)
    used = [worker]

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

    try:
        fill()
        if meanwhile:
            meanwhile()
        while in_flight:
            patience = max(r.timeout for r in in_flight.values()) + GRACE
            reply = worker.receive_any(patience)
            if reply is None or reply.key not in in_flight:  # dead, stopped or not to be believed
                worker.kill()
                if cancel is not None and cancel.cancelled:
                    raise Cancelled
                worker = _taken(cancel)
                used.append(worker)
                lost = list(in_flight.values())
                in_flight.clear()
                for request in lost:
                    losses[request.key] = losses.get(request.key, 0) + 1
                    if losses[request.key] >= 2:
                        settle(request, LabReply.worker_lost(request.key, losses[request.key]))
                    else:
                        retry.append(request)
                fill()
                continue
            request = in_flight.pop(reply.key)
            fill()
            settle(request, reply)
    except BaseException:  # Ctrl-C: the worker takes its labs down as it ends
        worker.close()
        raise
    if cancel is not None:
        cancel.forget(used)
    release_worker(worker, healthy=cancel is None or not cancel.cancelled)
    if any("landlock" in w.missing for w in used):
        purge(LAB_CACHES)
    return Ran(replies, _missing(used))


def _missing(used: list[WorkerHandle]) -> tuple[str, ...]:
    from compmath.execution.facilities import FACILITIES

    missing = {name for worker in used for name in worker.missing}
    return tuple(name for name in FACILITIES if name in missing)


def run_one(request: LabRequest, meanwhile: Callable[[], None] | None = None) -> LabReply:
    """Run one lab; call `meanwhile` after handing it over, so both processes work at once."""
    return _run([request], 1, None, meanwhile).replies[request.key]


def run_labs(
    requests: Iterable[LabRequest],
    jobs: int,
    on_done: Callable[[LabRequest, LabReply], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> Ran:
    """Run every request with up to `jobs` labs in flight on one worker; replies by key.

    One worker imports numpy once and forks a child per lab. The next lab is handed over
    before the last reply is judged (`on_done`), so the worker never waits for the runner;
    `meanwhile` runs once the first labs are on their way.
    """
    known = durations()
    items = longest_first(requests, known)
    ran = _run(items, jobs, on_done, meanwhile)
    remember_durations(known, ran.replies, items)
    return ran
