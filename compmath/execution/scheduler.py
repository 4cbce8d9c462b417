"""Schedule labs on the warm worker: one lab or many in parallel, replies as they land.

A worker that dies, stops answering or breaks the protocol is ended and its labs in flight are
run again, one at a time, on a fresh worker; a lab that loses its worker twice is reported as
such (it killed or stopped it). After labs ran without Landlock, the caches they could have
written are emptied, so that nothing an unconfined lab left there is believed later. Another
thread can cancel the labs a thread runs (`Cancel`, `cancelling`: a newer check in practice
mode): their worker ends, taking them down, and the call raises `Cancelled`.

A request may follow another (`after`, grading: one hole's program at its next variant): it is
handed over only once that one has ended, and never when that one ran out of time or was not
run itself, so a hole that hangs costs one time limit, not one per variant.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
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
    COMPMATH_SIN names them); `skipped`: the requests not run because the one they follow
    ran out of time (or was skipped itself)."""

    replies: dict[str, LabReply]
    missing: tuple[str, ...]
    skipped: tuple[str, ...] = ()


class Handed(NamedTuple):
    """The first labs are on their way: the runner's own work can overlap theirs from here."""


class Settled(NamedTuple):
    """One lab's reply, as it lands (the next labs already handed over)."""

    request: LabRequest
    reply: LabReply


Event = Handed | Settled | Ran  # what running a batch yields: Handed once, Ran last


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
    after: Mapping[str, str] | None = None,
    late: list[Settled] | None = None,
) -> Iterator[Event]:
    replies: dict[str, LabReply] = {}
    queue = deque(items)
    batch = {r.key for r in items}
    follows = {k: first for k, first in (after or {}).items() if first in batch}
    parked: dict[str, list[LabRequest]] = {}  # a request's key -> those waiting for it to end
    skipped: dict[str, None] = {}  # in order
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
            first = follows.get(request.key)
            if first is not None and first not in replies and first not in skipped:
                parked.setdefault(first, []).append(request)  # handed over once `first` ends
                continue
            if first is not None and _stops(first, replies):
                _skip(request)
                continue
            in_flight[request.key] = request
            worker.send(request.with_parallel(parallel))

    def _skip(request: LabRequest) -> None:
        skipped[request.key] = None
        for later in parked.pop(request.key, []):
            _skip(later)

    def settle(request: LabRequest, reply: LabReply) -> Settled:
        replies[request.key] = reply
        waiting = parked.pop(request.key, [])
        if reply.state == ReplyState.TIMEOUT:
            for later in waiting:
                _skip(later)
        else:
            queue.extendleft(reversed(waiting))  # next: a student's hole ends soon after it starts
        return Settled(request, reply)

    try:  # a consumer that stops early closes this generator: GeneratorExit ends the worker
        fill()
        yield Handed()
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
                given_up = []
                for request in lost:
                    losses[request.key] = losses.get(request.key, 0) + 1
                    if losses[request.key] >= 2:
                        lab_lost = LabReply.worker_lost(request.key, losses[request.key])
                        given_up.append(settle(request, lab_lost))
                    else:
                        retry.append(request)
                fill()
                yield from given_up
                continue
            request = in_flight.pop(reply.key)
            fill()
            yield settle(request, reply)
            fill()  # what waited for it, now in the queue
    except (KeyboardInterrupt, GeneratorExit):  # Ctrl-C, or the consumer stopped early
        if late is not None:  # the labs that ended before it are not lost with the rest
            late.extend(_arrived(worker, in_flight, settle))
        worker.close()  # it takes its labs down as it ends
        raise
    except BaseException:
        worker.close()
        raise
    if cancel is not None:
        cancel.forget(used)
    release_worker(worker, healthy=cancel is None or not cancel.cancelled)
    if any("landlock" in w.missing for w in used):
        purge(LAB_CACHES)
    yield Ran(replies, _missing(used), tuple(skipped))


def _arrived(
    worker: WorkerHandle,
    in_flight: dict[str, LabRequest],
    settle: Callable[[LabRequest, LabReply], Settled],
) -> list[Settled]:
    """The replies of labs in flight already on the worker's channel, settled, in order."""
    return [
        settle(in_flight.pop(reply.key), reply)
        for reply in worker.arrived()
        if reply.key in in_flight
    ]


def _stops(first: str, replies: Mapping[str, LabReply]) -> bool:
    """Whether a request following `first` is not run: `first` ran out of time, or was skipped."""
    reply = replies.get(first)
    return reply is None or reply.state == ReplyState.TIMEOUT


def _missing(used: list[WorkerHandle]) -> tuple[str, ...]:
    from compmath.execution.facilities import FACILITIES

    missing = {name for worker in used for name in worker.missing}
    return tuple(name for name in FACILITIES if name in missing)


def run_one(request: LabRequest) -> LabReply:
    """Run one lab and wait for its reply."""
    return ran(_run([request], 1)).replies[request.key]


def ran(events: Iterable[Event]) -> Ran:
    """Every event of a batch consumed: its last, the replies by key."""
    for event in events:
        if isinstance(event, Ran):
            return event
    raise RuntimeError("a batch of labs ended without its replies")  # _run always yields Ran


def run_labs(
    requests: Iterable[LabRequest],
    jobs: int,
    after: Mapping[str, str] | None = None,
    late: list[Settled] | None = None,
) -> Generator[Event, None, None]:
    """Run every request with up to `jobs` labs in flight on one worker, as events: `Handed`
    once the first labs are on their way, a `Settled` per reply as it lands, `Ran` last.

    One worker imports numpy once and forks a child per lab. The next lab is handed over
    before the last reply is yielded, so the worker never waits for whoever judges it.
    `after` (key -> the key it follows): see the module's docstring. Stopping early (closing
    the generator, or Ctrl-C) ends the worker and the labs on it; the replies that had
    already arrived, not yet yielded, are put in `late` first.
    """
    known = durations()
    items = longest_first(requests, known)
    for event in _run(items, jobs, after, late):
        if isinstance(event, Ran):
            remember_durations(known, event.replies, items)
        yield event
