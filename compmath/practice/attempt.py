"""Judge a student's exercise: the whole file, and each filled hole on its own.

The whole file is run and judged as `run` judges a lab (same judge, same tolerances, the
snapshot as the oracle). Each hole the student has written in is also judged alone: their code
for that hole, the instructor's everywhere else, so a right answer turns green even while
another hole is still open. All the runs of one attempt go to the warm worker at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from compmath.course.records import Hole
from compmath.course.tree import ClassInfo
from compmath.judging.case import Broken, Case, prepare, variant
from compmath.judging.compare import Difference
from compmath.judging.pipeline import judge_cases
from compmath.judging.report import LabReport, Outcome
from compmath.practice.holes import NOT_DONE, HoleError, Region, splice, student_regions
from compmath.practice.workspace import Workspace

OPEN_HOLE = re.compile(rf"NotImplementedError: hueco (\d+) {NOT_DONE}")


class HoleStatus(StrEnum):
    """Where one hole stands."""

    OPEN = "sin completar"
    RIGHT = "bien"
    WRONG = "mal"
    FAILS = "falla"  # the student's code for it raises, loops or crashes


@dataclass(frozen=True)
class HoleResult:
    """One hole: its definition in class.toml and what judging it alone said."""

    number: int
    hole: Hole
    status: HoleStatus
    detail: str = ""  # the error, when the student's code for it fails
    difference: Difference | None = None  # its first wrong output, when it is wrong


@dataclass(frozen=True)
class Attempt:
    """A judged attempt at one class."""

    cls: ClassInfo
    report: LabReport
    holes: tuple[HoleResult, ...]
    markers_ok: bool = True  # False when the student damaged the ### HUECO markers

    @property
    def done(self) -> bool:
        return self.report.outcome == Outcome.MATCHES

    @property
    def open_hole(self) -> int | None:
        """The hole whose NotImplementedError stopped the whole file, if any."""
        match = OPEN_HOLE.search(self.report.message)
        return int(match.group(1)) if match else None

    @property
    def first_wrong(self) -> Difference | None:
        """The first difference in the order run() returns the outputs."""
        if not self.report.differences:
            return None
        order = list(self.report.outputs or {})

        def position(d: Difference) -> int:
            return order.index(d.output) if d.output in order else len(order)

        return min(self.report.differences, key=position)

    @property
    def matching(self) -> list[str]:
        """The outputs that already match the snapshot, in run()'s order."""
        if self.report.outputs is None or self.report.expected is None:
            return []
        wrong = {d.output for d in self.report.differences}
        return [k for k in self.report.outputs if k not in wrong and k in self.report.expected]

    def hint_hole(self) -> int | None:
        """The hole a hint should help with: the first one written but wrong, else the one
        feeding the first wrong output, else the open one that stopped the file, else the first
        that is not right."""
        for result in self.holes:
            if result.status in (HoleStatus.WRONG, HoleStatus.FAILS):
                return result.number
        if self.open_hole is not None and self.first_wrong is None:
            return self.open_hole
        wrong = self.first_wrong
        if wrong is not None:
            for result in self.holes:
                if wrong.output in result.hole.outputs:
                    return result.number
        return next((r.number for r in self.holes if r.status != HoleStatus.RIGHT), None)


def _filled(region: Region) -> bool:
    return not any(f"{NOT_DONE}" in line and "NotImplementedError" in line for line in region.body)


def _verdict(number: int, hole: Hole, report: LabReport) -> HoleResult:
    if report.outcome == Outcome.MATCHES:
        return HoleResult(number, hole, HoleStatus.RIGHT)
    if report.outcome == Outcome.DIFFERS and report.differences:
        return HoleResult(number, hole, HoleStatus.WRONG, difference=report.differences[0])
    if f"hueco {number} {NOT_DONE}" in report.message:
        return HoleResult(number, hole, HoleStatus.OPEN)
    return HoleResult(number, hole, HoleStatus.FAILS, report.full_message)


def judge_attempt(workspace: Workspace, cls: ClassInfo, timeout: float = 10.0) -> Attempt:
    """Run and judge the student's lab.py of `cls`, and each filled hole alone."""
    case = prepare(workspace.course, cls, timeout=timeout)
    if isinstance(case, Broken):
        raise case.problem
    source = cls.lab.read_text(encoding="utf-8", errors="replace")
    solution = workspace.solution(cls).read_text(encoding="utf-8")
    holes = cls.meta.holes
    try:
        regions = {r.number: r for r in student_regions(source)}
        markers_ok = sorted(regions) == list(range(1, len(holes) + 1))
    except HoleError:
        regions, markers_ok = {}, False
    cases: list[Case] = [case]
    alone: dict[int, str] = {}
    if markers_ok and len(holes) > 1:
        for number, region in regions.items():
            if not _filled(region):
                continue
            folder = workspace.scratch(cls) / f"hueco-{number}"
            folder.mkdir(parents=True, exist_ok=True)
            lab = folder / "lab.py"
            lab.write_text(splice(source, solution, {number}), encoding="utf-8")
            key = f"{cls.id}#hueco-{number}"
            cases.append(variant(case, key=key, lab=lab))
            alone[number] = key
    reports = judge_cases(cases, jobs=len(cases)).by_key()
    report = reports[case.key]
    results = []
    for number, hole in enumerate(holes, 1):
        found = regions.get(number)
        if found is not None and not _filled(found):
            results.append(HoleResult(number, hole, HoleStatus.OPEN))
        else:  # judged alone, or (a single hole, damaged markers) by the whole file
            results.append(_verdict(number, hole, reports[alone.get(number, case.key)]))
    return Attempt(cls, report, tuple(results), markers_ok)
