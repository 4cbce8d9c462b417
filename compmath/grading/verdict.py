"""The one place grading meets the practice verdict: judge many (class, lab.py source) pairs.

Grading consumes only `ClassVerdict` (per hole: passed or not, a status word and a Spanish
reason, plus what the student's code printed). Everything below `judge_many` is the bridge to the
practice mode's verdict: each written hole is spliced into the course's own lab (never the
student's file) and judged by the one judging pipeline, all of a batch on the warm worker at once.
"""

from __future__ import annotations

import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from compmath.course.tree import ClassInfo, load_course
from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs
from compmath.judging.judge import Case, judge, prepare
from compmath.judging.report import LabReport, Outcome, describe_difference
from compmath.practice.holes import (
    NOT_DONE,
    HoleError,
    Region,
    solution_regions,
    student_regions,
)

PRINT_LINES, PRINT_WIDTH = 20, 160  # of the student's prints, what the feedback keeps


@dataclass(frozen=True)
class HoleVerdict:
    """One hole of one submission: passed or not, the status word and why (Spanish)."""

    number: int
    passed: bool
    status: str  # «bien», «mal», «falla», «sin completar», «sin entregar»
    reason: str = ""


@dataclass(frozen=True)
class ClassVerdict:
    """A judged submission of one class: its holes in order, and what the student's code printed."""

    holes: tuple[HoleVerdict, ...]
    prints: str = ""

    @property
    def done(self) -> bool:
        return all(h.passed for h in self.holes)


def _filled(region: Region) -> bool:
    return not any(NOT_DONE in line and "NotImplementedError" in line for line in region.body)


def _spliced(course_source: str, model: Region, answer: Region) -> str:
    """The course's lab with region `model` replaced by the student's code for it, re-indented."""
    body = textwrap.dedent("\n".join(answer.body)).splitlines()
    lines = course_source.splitlines()
    code = [f"{model.indent}{text}" if text.strip() else "" for text in body]
    if not any(text.strip() and not text.strip().startswith("#") for text in code):
        code.append(f"{model.indent}pass")
    out = lines[: model.begin + 1] + code + lines[model.end :]
    return "\n".join(out) + "\n"


def _hole_reason(report: LabReport) -> tuple[str, str]:
    """(status, reason) of a hole whose spliced lab did not match."""
    if report.outcome == Outcome.DIFFERS and report.differences:
        return "mal", describe_difference(report.differences[0])
    if report.outcome == Outcome.INVALID:
        return "mal", report.full_message
    return "falla", f"{report.outcome.label}: {report.full_message}"


def _prints(report: LabReport) -> str:
    """The first lines the student's code printed, each cut short; a flood is said in bytes."""
    lines = (report.stdout or "").splitlines()
    kept = [t if len(t) <= PRINT_WIDTH else t[:PRINT_WIDTH] + " …" for t in lines[:PRINT_LINES]]
    text = "\n".join(kept).rstrip()
    if len(lines) > PRINT_LINES or len(text) < len((report.stdout or "").rstrip()):
        text += f"\n… ({report.stdout_bytes} bytes en total)"
    return text


class _Batch:
    """The requests of a batch and what lands for each, grouped back by item."""

    def __init__(self, items: Sequence[tuple[ClassInfo, str]], scratch: Path, timeout: float):
        self.cases: dict[str, Case] = {}
        self.plan: list[dict[int, HoleVerdict | str]] = []  # per item: hole -> verdict or key
        prepared: dict[str, Case] = {}
        for index, (cls, source) in enumerate(items):
            if cls.id not in prepared:
                prepared[cls.id] = prepare(load_course(cls.root), cls, timeout=timeout)
            self.plan.append(self._plan(index, cls, source, prepared[cls.id], scratch))

    def _plan(
        self, index: int, cls: ClassInfo, source: str, case: Case, scratch: Path
    ) -> dict[int, HoleVerdict | str]:
        numbers = range(1, len(cls.meta.holes) + 1)
        if case.problem is not None:
            why = f"la clase del curso no se puede juzgar: {case.problem.message}"
            return {k: HoleVerdict(k, False, "falla", why) for k in numbers}
        course_source = cls.lab.read_text(encoding="utf-8")
        models = {r.number: r for r in solution_regions(course_source)}
        try:
            answers = {r.number: r for r in student_regions(source)}
        except HoleError as exc:
            why = f"las marcas de los huecos están dañadas ({exc})"
            return {k: HoleVerdict(k, False, "falla", why) for k in numbers}
        plan: dict[int, HoleVerdict | str] = {}
        for k in numbers:
            answer = answers.get(k)
            if answer is None:
                why = f"no se encuentran las marcas ### HUECO {k} ### / ### FIN DEL HUECO {k} ###"
                plan[k] = HoleVerdict(k, False, "falla", why)
            elif not _filled(answer):
                plan[k] = HoleVerdict(k, False, "sin completar", "el hueco sigue sin completar")
            else:
                folder = scratch / f"{index}-{k}"
                folder.mkdir()
                lab = folder / "lab.py"
                lab.write_text(_spliced(course_source, models[k], answer), encoding="utf-8")
                key = f"{index}#{k}"
                self.cases[key] = replace(
                    case, request=replace(case.request, key=key, lab=str(lab))
                )
                plan[k] = key
        return plan


def _forget_durations(folder: str) -> None:
    """Drop the scratch labs from the scheduler's duration history: they never come back."""
    from compmath.cache import read_json, write_json
    from compmath.execution.scheduler import HISTORY

    history = read_json(HISTORY)
    if isinstance(history, dict):
        write_json(HISTORY, {k: v for k, v in history.items() if not k.startswith(folder)})


def judge_many(
    items: Sequence[tuple[ClassInfo, str]],
    *,
    timeout: float,
    jobs: int,
    on_done: Callable[[int, ClassVerdict], None] | None = None,
) -> list[ClassVerdict]:
    """Judge each (class, student's lab.py source); `on_done(index, verdict)` as each lands."""
    verdicts: dict[int, ClassVerdict] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-grade-") as folder:
        batch = _Batch(items, Path(folder), timeout)
        landed: dict[str, LabReport] = {}
        waiting = [sum(isinstance(v, str) for v in plan.values()) for plan in batch.plan]

        def finish(index: int) -> None:
            holes, prints = [], ""
            for k, entry in sorted(batch.plan[index].items()):
                if isinstance(entry, HoleVerdict):
                    holes.append(entry)
                    continue
                report = landed[entry]
                prints = prints or _prints(report)
                if report.outcome == Outcome.MATCHES:
                    holes.append(HoleVerdict(k, True, "bien"))
                else:
                    holes.append(HoleVerdict(k, False, *_hole_reason(report)))
            verdicts[index] = ClassVerdict(tuple(holes), prints)
            if on_done is not None:
                on_done(index, verdicts[index])

        for index, count in enumerate(waiting):
            if count == 0:
                finish(index)

        def done(request: LabRequest, reply: LabReply) -> None:
            landed[request.key] = judge(batch.cases[request.key], reply)
            index = int(request.key.split("#")[0])
            waiting[index] -= 1
            if waiting[index] == 0:
                finish(index)

        if batch.cases:
            try:
                run_labs([c.request for c in batch.cases.values()], jobs, on_done=done)
            finally:
                _forget_durations(folder)
    return [verdicts[i] for i in range(len(items))]
