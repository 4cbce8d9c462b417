"""Judge many classes: run their labs on the warm worker and judge each reply as it lands."""

from __future__ import annotations

from collections.abc import Callable

from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs
from compmath.judging.judge import Case, judge, setup_report
from compmath.judging.report import LabReport


def preload(as_json: bool) -> None:
    """While labs run: import what judging and showing them will need."""
    import compmath.judging.validate

    if not as_json:
        import compmath.present.screens  # noqa: F401


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

    def done(request: LabRequest, reply: LabReply) -> None:
        reports[request.key] = judge(runnable[request.key], reply, against_snapshot)
        if on_done:
            on_done(request.key)

    requests = [c.request for c in runnable.values()]
    if requests:
        run_labs(requests, jobs, on_done=done, meanwhile=lambda: preload(on_done is not None))
    return [reports[c.cls.id] for c in cases]
