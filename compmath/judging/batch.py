"""Judge classes: run their labs on the warm worker, judge each reply as it lands, then check
that no lab changed the course's files while it ran."""

from __future__ import annotations

from collections.abc import Callable

from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs, run_one
from compmath.judging.integrity import blame, course_state
from compmath.judging.judge import Case, judge, setup_report
from compmath.judging.report import LabReport


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while labs ran: the reports of the labs judged so far, in the cases' order."""

    def __init__(self, reports: list[LabReport], total: int) -> None:
        super().__init__()
        self.reports, self.total = reports, total


def preload(as_json: bool) -> None:
    """While labs run: import what judging and showing them will need."""
    import compmath.judging.validate

    if not as_json:
        import compmath.present.screens  # noqa: F401


def judge_one(case: Case, meanwhile: Callable[[], None] | None = None) -> LabReport:
    """Run and judge one runnable case; `meanwhile` runs while its lab does."""
    before = course_state(case.cls.root)
    reply = run_one(case.request, meanwhile)
    reports = {case.request.key: judge(case, reply)}
    blame(reports, {case.request.key: reply}, before, case.cls.root)
    return reports[case.request.key]


def judge_all(
    cases: list[Case],
    jobs: int,
    against_snapshot: bool = True,
    on_done: Callable[[str], None] | None = None,
) -> list[LabReport]:
    """Reports in the cases' order. A case with broken files is reported without running its
    lab; `on_done(class id)` is called as each judged lab lands (a progress display)."""
    reports: dict[str, LabReport] = {c.cls.id: setup_report(c) for c in cases if not c.runnable}
    runnable = {c.request.key: c for c in cases if c.runnable}
    replies: dict[str, LabReply] = {}

    def done(request: LabRequest, reply: LabReply) -> None:
        replies[request.key] = reply
        reports[request.key] = judge(runnable[request.key], reply, against_snapshot)
        if on_done:
            on_done(request.key)

    requests = [c.request for c in runnable.values()]
    if not requests:
        return [reports[c.cls.id] for c in cases]
    before = course_state(cases[0].cls.root)
    try:
        run_labs(requests, jobs, on_done=done, meanwhile=lambda: preload(on_done is not None))
    except KeyboardInterrupt:
        done_ids = [c.cls.id for c in cases if c.cls.id in reports]
        raise Interrupted([reports[i] for i in done_ids], len(cases)) from None
    blame(reports, replies, before, cases[0].cls.root)
    return [reports[c.cls.id] for c in cases]
