"""The one way labs are judged: run cases on the warm worker, judge each reply as it lands,
check the course's files, and yield each final report to the caller's loop.

Every command that runs labs (`run`, `check`, `update`, `site`, `practice`, `lint`'s hole
checks, `grade`) calls `judge_cases`, so the course-integrity check, the limits, Ctrl-C and the
reasons a lab failed are the same for all of them. A report is yielded once it is
final. A lab Landlock confined could write only in its own temporary folder: its report is
final as it lands. For a lab run without Landlock the course's files are looked at as it lands:
a lab that ended while they were still untouched cannot have changed them; once a change shows,
such reports wait for the end, when the labs running at the time of the change are blamed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import Handed, Ran, Settled, run_labs
from compmath.judging.case import Broken, Case, Ready, Reference
from compmath.judging.integrity import Stamp, blame, course_state
from compmath.judging.judge import judge, setup_report
from compmath.judging.report import LabReport

State = dict[str, tuple[Stamp, float]]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while labs ran: the reports of the labs judged so far, in the cases' order."""

    def __init__(self, reports: list[LabReport], total: int) -> None:
        super().__init__()
        self.reports, self.total = reports, total


class Landed(NamedTuple):
    """One case's final report, as it lands."""

    case: Case
    report: LabReport


@dataclass(frozen=True)
class Judged:
    """What one call judged: a report per case, in the cases' order, and the protections the
    labs ran without (as COMPMATH_SIN names them)."""

    reports: list[LabReport]
    keys: list[str]
    missing: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # cases not run: the one they follow ran out of time

    def by_key(self) -> dict[str, LabReport]:
        return dict(zip(self.keys, self.reports))


def _check_keys(cases: Sequence[Case]) -> None:
    """Refuse repeated keys, and references to no case or to a case judged by a reference."""
    keys = [c.key for c in cases]
    if len(set(keys)) != len(keys):
        raise ValueError("judge_cases: two cases share a key")
    known = {c.key: c for c in cases}
    for case in cases:
        if isinstance(case, Ready) and isinstance(case.expected, Reference):
            target = known.get(case.expected.key)
            chained = isinstance(target, Ready) and isinstance(target.expected, Reference)
            if target is None or chained:  # a Broken reference is fine: it gives no outputs
                raise ValueError(f"judge_cases: {case.key} refers to no oracle case")


class _Collector:
    """Judge replies as they land, in dependency order; the final reports wait in `ready`."""

    def __init__(self, cases: Sequence[Case]) -> None:
        self.cases = {c.key: c for c in cases}
        self.ready: deque[Landed] = deque()  # final, not yet yielded
        self.reports: dict[str, LabReport] = {}
        self.replies: dict[str, LabReply] = {}
        self.waiting: dict[str, list[str]] = {}  # reference key -> cases waiting for it
        self.held: list[str] = []  # judged, delivered only after the final integrity check
        self.roots = sorted({c.cls.root for c in cases})
        self.before: dict[Path, State] = {}
        self.changed = False

    def start(self) -> None:
        self.before = {root: course_state(root) for root in self.roots}
        for case in self.cases.values():
            if isinstance(case, Broken):
                self._deliver(case.key, setup_report(case))

    def _deliver(self, key: str, report: LabReport) -> None:
        self.reports[key] = report
        self.ready.append(Landed(self.cases[key], report))

    def landed(self, request: LabRequest, reply: LabReply) -> None:
        self.replies[request.key] = reply
        case = self.cases[request.key]
        expected = case.expected if isinstance(case, Ready) else None
        if isinstance(expected, Reference) and expected.key not in self.reports:
            self.waiting.setdefault(expected.key, []).append(case.key)
            return
        self._judge(case.key)
        for later in self.waiting.pop(request.key, []):
            self._judge(later)

    def _judge(self, key: str) -> None:
        case = self.cases[key]
        reference = None
        if isinstance(case, Ready) and isinstance(case.expected, Reference):
            reference = self.judged(case.expected.key)
        reply = self.replies[key]
        report = judge(case, reply, reference=reference)
        if reply.confined:  # Landlock let it write only in its own temporary folder
            self._deliver(key, report)
            return
        if not self.changed:
            self.changed = any(course_state(r) != self.before[r] for r in self.roots)
        if self.changed:
            self.held.append(key)
            self.reports[key] = report  # not final yet: blamed (or not) at the end
        else:
            self._deliver(key, report)

    def judge_pending(self) -> None:
        """Judge the replies received but not judged yet (Ctrl-C came in between), each one
        whose reference has its report."""

        def reference(key: str) -> str | None:
            case = self.cases[key]
            expected = case.expected if isinstance(case, Ready) else None
            return expected.key if isinstance(expected, Reference) else None

        pending = [k for k in self.replies if k not in self.reports]
        for key in sorted(pending, key=lambda k: reference(k) is not None):  # references first
            first = reference(key)
            if first is None or first in self.reports:
                self._judge(key)

    def judged(self, key: str) -> LabReport:
        return self.reports[key]

    def finish(self) -> None:
        """Blame the labs that ran when the course changed, then deliver what was held."""
        if not self.held:
            return
        held = {k: self.reports[k] for k in self.held}
        for root in self.roots:
            replies = {k: self.replies[k] for k in self.held if self.cases[k].cls.root == root}
            blame(held, replies, self.before[root], root)
        for key in self.held:
            self._deliver(key, held[key])
        self.held = []


class Judging:
    """Labs being judged: iterate it for each case's final report (`Landed`) as it lands (a
    broken case's first, without running it); `result()` then gives every report in the
    cases' order and the protections the labs ran without.

    `start()` hands the first labs over and returns, so the caller's own work (loading what it
    will show) overlaps theirs. Ctrl-C while labs run raises Interrupted with what was judged;
    used as a context manager, so does Ctrl-C in the caller's loop, and leaving the block
    early ends the labs still running.
    """

    def __init__(self, cases: Sequence[Case], jobs: int, after: Mapping[str, str] | None) -> None:
        _check_keys(cases)
        self.cases = cases
        self.collector = _Collector(cases)
        self.missing: tuple[str, ...] = ()
        self.skipped: tuple[str, ...] = ()
        self.late: list[Settled] = []  # replies that arrived as Ctrl-C stopped the labs
        self.events = self._events(jobs, after)
        self.started = False

    def _events(
        self, jobs: int, after: Mapping[str, str] | None
    ) -> Generator[Handed | None, None, None]:
        """Drive the labs: Handed once they are on their way, None whenever reports are ready."""
        collector = self.collector
        collector.start()
        yield None
        requests = [c.request for c in self.cases if isinstance(c, Ready)]
        if not requests:
            return
        with closing(run_labs(requests, jobs, after=after, late=self.late)) as events:
            for event in events:
                if isinstance(event, Settled):
                    collector.landed(event.request, event.reply)
                    yield None
                elif isinstance(event, Ran):
                    self.missing, self.skipped = event.missing, event.skipped
                else:
                    yield event
        collector.finish()
        yield None

    def _step(self) -> bool:
        """One step of the labs; False at their end. Ctrl-C while they run: Interrupted."""
        try:
            event = next(self.events)
        except StopIteration:
            return False
        except KeyboardInterrupt:
            raise self.interrupted() from None
        self.started = self.started or isinstance(event, Handed)
        return True

    def interrupted(self) -> Interrupted:
        """Ctrl-C now: what was judged so far, in the cases' order; the labs that had ended
        before it (a reply read but not judged yet, or still on the channel) are judged first."""
        for settled in self.late:
            self.collector.replies.setdefault(settled.request.key, settled.reply)
        self.late.clear()
        self.collector.judge_pending()
        reports = self.collector.reports
        done = [reports[c.key] for c in self.cases if c.key in reports]
        return Interrupted(done, len(self.cases))

    def start(self) -> None:
        """Hand the first labs over (after setting aside the broken cases' reports)."""
        while not self.started and self._step():
            pass

    def __iter__(self) -> Iterator[Landed]:
        ready = self.collector.ready
        while ready or self._step():
            while ready:
                yield ready.popleft()

    def result(self) -> Judged:
        """Every final report, in the cases' order (the labs not yet judged are judged first)."""
        for _ in self:
            pass
        reports = self.collector.reports
        judged = [c.key for c in self.cases if c.key in reports]
        return Judged([reports[k] for k in judged], judged, self.missing, self.skipped)

    def close(self) -> None:
        """End the labs still running (their worker with them)."""
        self.events.close()

    def __enter__(self) -> Judging:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _: TracebackType | None
    ) -> None:
        self.close()
        if isinstance(error, KeyboardInterrupt) and not isinstance(error, Interrupted):
            raise self.interrupted() from None


def judge_cases(
    cases: Sequence[Case], *, jobs: int = 1, after: Mapping[str, str] | None = None
) -> Judging:
    """Run and judge every case with up to `jobs` labs at once: iterate the answer for each
    final report as it lands, or ask it for the `result()`. `after` (case key -> the key it
    follows): a case runs once that one has ended, and not at all when it ran out of time
    (scheduler.run_labs); those cases get no report. Refuses repeated keys at once."""
    return Judging(cases, jobs, after)
