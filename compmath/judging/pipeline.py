"""The one way labs are judged: run cases on the warm worker, judge each reply as it lands,
check the course's files, and hand each report to the caller's consumer.

Every command that runs labs (`run`, `check`, `update`, `site`, `practice`, `lint`'s hole
checks, `grade`) calls `judge_cases`, so the course-integrity check, the limits, Ctrl-C and the
reasons a lab failed are the same for all of them. A report reaches the consumer once it is
final. A lab Landlock confined could write only in its own temporary folder: its report is
final as it lands. For a lab run without Landlock the course's files are looked at as it lands:
a lab that ended while they were still untouched cannot have changed them; once a change shows,
such reports wait for the end, when the labs running at the time of the change are blamed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs
from compmath.judging.case import Broken, Case, Ready, Reference
from compmath.judging.integrity import Stamp, blame, course_state
from compmath.judging.judge import judge, setup_report
from compmath.judging.report import LabReport

Consumer = Callable[[Case, LabReport], None]
State = dict[str, tuple[Stamp, float]]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while labs ran: the reports of the labs judged so far, in the cases' order."""

    def __init__(self, reports: list[LabReport], total: int) -> None:
        super().__init__()
        self.reports, self.total = reports, total


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
    """Judge replies as they land, in dependency order, and deliver final reports."""

    def __init__(self, cases: Sequence[Case], consumer: Consumer | None) -> None:
        self.cases = {c.key: c for c in cases}
        self.consumer = consumer
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
        if self.consumer:
            self.consumer(self.cases[key], report)

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


def judge_cases(
    cases: Sequence[Case],
    *,
    jobs: int = 1,
    consumer: Consumer | None = None,
    meanwhile: Callable[[], None] | None = None,
    after: Mapping[str, str] | None = None,
) -> Judged:
    """Run and judge every case with up to `jobs` labs at once; `consumer(case, report)` gets
    each final report as it lands (a broken case's first, without running it). `meanwhile`
    runs once the first labs are on their way. Ctrl-C raises Interrupted with what was judged.
    `after` (case key -> the key it follows): a case runs once that one has ended, and not
    at all when it ran out of time (scheduler.run_labs); those cases get no report.
    """
    _check_keys(cases)
    collector = _Collector(cases, consumer)
    collector.start()
    requests = [c.request for c in cases if isinstance(c, Ready)]
    missing: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    if requests:
        try:
            ran = run_labs(
                requests, jobs, on_done=collector.landed, meanwhile=meanwhile, after=after
            )
        except KeyboardInterrupt:
            done = [collector.reports[c.key] for c in cases if c.key in collector.reports]
            raise Interrupted(done, len(cases)) from None
        missing, skipped = ran.missing, ran.skipped
        collector.finish()
    judged = [c.key for c in cases if c.key in collector.reports]
    return Judged([collector.reports[k] for k in judged], judged, missing, skipped)
