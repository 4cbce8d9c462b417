"""Judge a practice verdict's labs in one call of the judging pipeline, and one hole from them.

The grafted programs (written to a private temporary folder, one folder each) and the course's
own lab at each variant go to `judging.pipeline.judge_cases` together: the course's lab is the
oracle of every grafted program run with the same parameters (`Reference`), and at the
defaults it is itself compared with the class's snapshot.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from compmath.course.records import Hole
from compmath.course.tree import ClassInfo, Course, load_course
from compmath.judging.case import Broken, Case, Explore, Reference, Snapshot, prepare, variant
from compmath.judging.compare import Difference
from compmath.judging.report import LabReport, Outcome, describe_difference
from compmath.judging.stack import frames
from compmath.practice.graft import HoleStatus, Program
from compmath.practice.variants import Variant

if TYPE_CHECKING:
    from compmath.practice.verdict import HoleVerdict

FOLDER_PREFIX = "compmath-practica-"
REFERENCE_OK = (Outcome.MATCHES, Outcome.EXPLORATION)
# verdicts that depend only on the code and its inputs (labs are deterministic), not on the load
MEMO_OK = (Outcome.MATCHES, Outcome.DIFFERS, Outcome.EXPLORATION, Outcome.INVALID)
MEMO_SIZE = 512


def reference_key(cls: ClassInfo, variant: Variant, tag: str) -> str:
    """The case key of the course's lab of `cls` (its files' digest `tag`) at `variant`."""
    return f"{cls.id}@curso-{tag}@{variant.key}"


@dataclass
class Results:
    """The reports of one call, by case key."""

    reports: dict[str, LabReport] = field(default_factory=dict)
    missing: tuple[str, ...] = ()  # the protections the labs ran without (facilities' names)

    def failure(self, key: str) -> str:
        """Why the course's lab under `key` is not a usable reference (Spanish), or ""."""
        report = self.reports.get(key)
        if report is None:
            return "no llegó a ejecutarse"
        if report.outcome in REFERENCE_OK:
            return ""
        return report.full_message


Wanted = Mapping[str, tuple[ClassInfo, "Program | None", Variant]]


def private_folders(cls: ClassInfo, folder: Path, hide: Sequence[Path]) -> list[str]:
    """What a grafted program must not see: `hide` (the submissions and grades; a workspace),
    the course's labs (the reference solution), compmath's cache (their bytecode, verdicts) and
    the call's folder of programs (other students' holes; its own folder stays readable)."""
    from compmath.cache import cache_dir

    return [str(p) for p in (*hide, cls.root / "classes", cache_dir(), folder)]


def _cases(
    wanted: Wanted,
    folder: Path,
    timeout: float,
    memo: Mapping[str, LabReport],
    call: str,
    hide: Sequence[Path] | None = None,
    limits: Mapping[str, float] | None = None,
) -> list[Case]:
    """The pipeline's cases, keyed `call/key`: a key never repeats across calls (a worker
    reused by the next call loses a lab whose key it saw before: see the report). With `hide`
    (grading, practice) each grafted program runs private: see `private_folders`."""
    courses: dict[Path, Course] = {}
    bases: dict[str, Case] = {}
    references: list[Case] = []
    cases: list[Case] = []
    for key, (cls, program, var) in wanted.items():
        if key in memo:
            continue
        if cls.id not in bases:
            course = courses.setdefault(cls.root, load_course(cls.root))
            limit = (limits or {}).get(cls.id, timeout)
            bases[cls.id] = prepare(course, cls, timeout=limit)
        base = bases[cls.id]
        if isinstance(base, Broken):
            request = replace(base.request, key=f"{call}/{key}")
            references.append(Broken(base.cls, request, base.problem))
            continue
        if program is None:  # the course's lab: at the defaults, also held to the snapshot
            expected = base.expected if var.default else Explore()
            params = dict(var.params)
            references.append(variant(base, key=f"{call}/{key}", params=params, expected=expected))
            continue
        lab = folder / program.digest / "lab.py"
        if not lab.exists():
            lab.parent.mkdir()
            lab.write_text(program.source, encoding="utf-8")
        reference = reference_key(cls, var, program.tag)
        remembered = memo.get(reference)
        # the course's lab at these parameters, run now, or earlier with the same files
        oracle = Snapshot(remembered.outputs) if remembered else Reference(f"{call}/{reference}")
        params = dict(var.params)
        case = variant(base, key=f"{call}/{key}", lab=lab, params=params, expected=oracle)
        case = replace(case, loose=True)  # a student's hole: 2.0 for 2 is right (compare.py)
        if hide is not None:
            hidden = private_folders(cls, folder, hide)
            case = replace(case, request=replace(case.request, hidden=hidden))
        cases.append(case)
    return references + cases  # the references first: their verdicts are the others' oracles


def run_batch(
    wanted: Wanted,
    *,
    timeout: float,
    jobs: int,
    on_landed: Callable[[str], None] | None = None,
    into: Results | None = None,
    memo: dict[str, LabReport] | None = None,
    hide: Sequence[Path] | None = None,
    limits: Mapping[str, float] | None = None,
) -> Results:
    """Judge every (class, program or None for the course's lab, variant) by key, in one call;
    each report goes `into` the Results as it lands, then `on_landed(key)` is called. With
    `hide` (grading, practice), the programs run private (`private_folders`); the course's lab
    does not.

    `limits`: a time limit per class id, instead of `timeout` (lint's mutants).

    `memo` (a practice session's): reports already judged, by key. Keys name the program's
    text and the class files its verdict depends on, so a key found there is not run again
    (a save that changes one hole reruns that hole only); new verdicts are added to it."""
    from compmath.judging.pipeline import judge_cases

    results = into if into is not None else Results()
    remembered = memo if memo is not None else {}
    for key in wanted.keys() & remembered.keys():
        results.reports[key] = remembered[key]
        if on_landed is not None:
            on_landed(key)
    if not wanted.keys() - remembered.keys():
        return results
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    try:
        call = folder.name.removeprefix(FOLDER_PREFIX)  # unique to this call
        cases = _cases(wanted, folder, timeout, remembered, call, hide, limits)

        def consume(case: Case, report: LabReport) -> None:
            key = case.key.removeprefix(f"{call}/")
            results.reports[key] = report
            if memo is not None and report.outcome in MEMO_OK and not report.worker_lost:
                memo[key] = report
            if on_landed is not None:
                on_landed(key)

        results.missing = judge_cases(cases, jobs=jobs, consumer=consume).missing
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


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
    from compmath.practice.verdict import HoleVerdict

    right = HoleVerdict(number, hole, HoleStatus.RIGHT)
    verdict = _first_failure(right, program, variants, results)
    matched = sum(
        1
        for var in variants
        if (r := results.reports.get(program.key(var))) and r.outcome == Outcome.MATCHES
    )
    return replace(verdict, variants_passed=matched)


def _first_failure(
    right: HoleVerdict, program: Program, variants: tuple[Variant, ...], results: Results
) -> HoleVerdict:
    """`right` (a hole's verdict when it passes everywhere), or the first variant it fails at."""
    from compmath.practice.verdict import HoleVerdict

    number, hole = right.number, right.hole

    first_stdout = ""
    for var in variants:
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
            )
        if report.outcome in (Outcome.DIFFERS, Outcome.INVALID):
            why = f"{var.label}: {report.message}"
            return HoleVerdict(number, hole, HoleStatus.WRONG, why, var, stdout=report.stdout)
        trace = student_traceback(report.traceback, program)
        message = report.message or report.outcome.label
        why = f"{var.label}: {message}" + (f" · {report.hint}" if report.hint else "")
        return HoleVerdict(
            number,
            hole,
            HoleStatus.FAILS,
            why,
            var,
            traceback=trace,
            stdout=report.stdout,
            remedy=report.remedy,
        )
    return replace(right, stdout=first_stdout)


def _private_verdict(number: int, hole: Hole, var: Variant, report: LabReport) -> HoleVerdict:
    """A hole that fails at a private variant: which output, or which exception, and no value
    (neither the parameters nor the expected outputs: they would tell the variant)."""
    from compmath.practice.verdict import HoleVerdict

    if report.outcome in (Outcome.DIFFERS, Outcome.INVALID):
        if report.differences:
            wrong = _first(list(report.differences), list(report.expected or {}))
            why = f"la salida {wrong.output} no da lo mismo que el laboratorio del curso"
        else:
            why = "sus salidas no cumplen el esquema de la clase"
        return HoleVerdict(number, hole, HoleStatus.WRONG, f"{var.label}: {why}", var)
    kind = (report.message or report.outcome.label).split(":")[0]
    return HoleVerdict(number, hole, HoleStatus.FAILS, f"{var.label}: {kind}", var)
