"""One hole's verdict: right at every variant of an attempt, or what it did at the first
variant it failed (the output and both values, or the exception, or the limit it hit).

Made from the reports of a batch (holes.runs); holes.verdict gathers them into an attempt."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from compmath.course.records import Hole
from compmath.course.tree import ClassInfo
from compmath.holes.graft import HoleStatus, Program
from compmath.holes.runs import FOLDER_PREFIX, Results
from compmath.holes.variants import Variant
from compmath.judging.compare import Difference
from compmath.judging.report import LabReport, Outcome, describe_difference
from compmath.judging.stack import frames

NOT_RUN_AFTER_TIMEOUT = (
    "no se probó con los demás parámetros: un hueco que agota su tiempo ya ha fallado"
)


@dataclass(frozen=True)
class HoleVerdict:
    """One hole: its definition in class.toml and what judging it alone said."""

    number: int
    hole: Hole
    status: HoleStatus
    reason: str = ""  # Spanish: why it is not right (which variant, which output, Δ/tolerance)
    variant: Variant | None = None  # the first variant it failed at
    difference: Difference | None = None  # its first wrong output there
    expected: Any = None  # the course's value of that output there
    obtained: Any = None  # the student's
    traceback: str = ""  # when it fails: the traceback, lines mapped to the student's file
    stdout: str = ""  # what the student's code printed (the first failing run, else the first)
    remedy: str = ""  # the option of `practice` that lifts the limit it hit (not for feedback)
    variants_passed: int = 0  # of the attempt's variants, how many it matched (partial credit)
    outcome: str = ""  # the failing run's outcome (judging.report.Outcome), "" if none ran
    error: str = ""  # when it fails: the exception (or limit) as the report says it

    @property
    def done(self) -> bool:
        return self.status == HoleStatus.RIGHT

    @property
    def said(self) -> str:
        """The reason as the practice screens say it: with the option that lifts a limit."""
        return f"{self.reason} · {self.remedy}" if self.remedy else self.reason


def student_traceback(text: str, program: Program, lab_name: str = "lab.py") -> str:
    """The frames of a grafted program's traceback that are in the student's hole, each named
    by its line in the student's lab.py ("" when the error rose elsewhere)."""
    kept: list[str] = []
    for frame in frames(text):
        line = program.line_map.get(frame.line)
        if FOLDER_PREFIX not in frame.path or line is None:
            continue
        kept.append(f"{lab_name}, línea {line} (función {frame.function})")
        if frame.code:
            kept.append(f"  {frame.code}")
    return "\n".join(kept)


def _first(differences: list[Difference], order: list[str]) -> Difference:
    def position(d: Difference) -> int:
        return order.index(d.output) if d.output in order else len(order)

    return min(differences, key=position)


def judge_hole(
    cls: ClassInfo,
    number: int,
    hole: Hole,
    program: Program,
    variants: tuple[Variant, ...],
    results: Results,
) -> HoleVerdict:
    """The verdict on one written hole: right at every variant, or the first one it fails
    (with how many variants it matched, for partial credit)."""
    right = HoleVerdict(number, hole, HoleStatus.RIGHT)
    verdict = _first_failure(right, program, variants, results)
    reports = [r for var in variants if (r := results.reports.get(program.key(var)))]
    if any(r.outcome == Outcome.TIMEOUT for r in reports):
        return verdict  # a hole that ran out of time has failed, at every variant alike
    matched = sum(1 for r in reports if r.outcome == Outcome.MATCHES)
    return replace(verdict, variants_passed=matched)


def _first_failure(
    right: HoleVerdict, program: Program, variants: tuple[Variant, ...], results: Results
) -> HoleVerdict:
    """`right` (a hole's verdict when it passes everywhere), or the first variant it fails at."""
    number, hole = right.number, right.hole

    first_stdout = ""
    for place, var in enumerate(variants):
        report = results.reports.get(program.key(var))
        if report is None:
            return HoleVerdict(number, hole, HoleStatus.FAILS, f"{var.label}: no se ejecutó", var)
        first_stdout = first_stdout or report.stdout
        if report.outcome == Outcome.MATCHES:
            continue
        expected, obtained = report.expected or {}, report.outputs or {}
        if var.private:  # the private variants' numbers stay private: what, never values
            return _private_verdict(number, hole, var, report)
        if report.outcome in (Outcome.DIFFERS, Outcome.INVALID) and report.differences:
            wrong = _first(list(report.differences), list(expected))
            reason = f"{var.label}: {describe_difference(wrong)}"
            return HoleVerdict(
                number,
                hole,
                HoleStatus.WRONG,
                reason,
                var,
                wrong,
                expected.get(wrong.output),
                obtained.get(wrong.output),
                stdout=report.stdout,
                outcome=str(report.outcome),
            )
        if report.outcome in (Outcome.DIFFERS, Outcome.INVALID):
            why = f"{var.label}: {report.message}"
            return HoleVerdict(
                number,
                hole,
                HoleStatus.WRONG,
                why,
                var,
                stdout=report.stdout,
                outcome=str(report.outcome),
            )
        trace = student_traceback(report.traceback, program)
        message = report.message or report.outcome.label
        why = f"{var.label}: {message}" + (f" · {report.hint}" if report.hint else "")
        later = [v for v in variants[place + 1 :] if program.key(v) in results.skipped]
        if report.outcome == Outcome.TIMEOUT and later:
            why += f" · {NOT_RUN_AFTER_TIMEOUT}"
        return HoleVerdict(
            number,
            hole,
            HoleStatus.FAILS,
            why,
            var,
            traceback=trace,
            stdout=report.stdout,
            remedy=report.remedy,
            outcome=str(report.outcome),
            error=message,
        )
    return replace(right, stdout=first_stdout)


def _private_verdict(number: int, hole: Hole, var: Variant, report: LabReport) -> HoleVerdict:
    """A hole that fails at a private variant: which output, or which exception, and no value
    (neither the parameters nor the expected outputs: they would tell the variant)."""
    if report.outcome in (Outcome.DIFFERS, Outcome.INVALID):
        if report.differences:
            wrong = _first(list(report.differences), list(report.expected or {}))
            why = f"la salida {wrong.output} no da lo mismo que el laboratorio del curso"
        else:
            why = "sus salidas no cumplen el esquema de la clase"
        return HoleVerdict(
            number,
            hole,
            HoleStatus.WRONG,
            f"{var.label}: {why}",
            var,
            outcome=str(report.outcome),
        )
    kind = (report.message or report.outcome.label).split(":")[0]
    return HoleVerdict(
        number,
        hole,
        HoleStatus.FAILS,
        f"{var.label}: {kind}",
        var,
        outcome=str(report.outcome),
        error=kind,
    )
