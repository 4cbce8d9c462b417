"""Judge a practice verdict's labs in one call of the judging pipeline, and one hole from them.

The grafted programs (written to a private temporary folder, one folder each) and the course's
own lab at each variant go to `judging.pipeline.judge_cases` together: the course's lab is the
oracle of every grafted program run with the same parameters (`Reference`), and at the
defaults it is itself compared with the class's snapshot.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from compmath.course.tree import ClassInfo, Course, load_course
from compmath.holes.graft import Program
from compmath.holes.variants import Variant
from compmath.judging.case import (
    Broken,
    Case,
    Explore,
    Ready,
    Reference,
    Snapshot,
    prepare,
    variant,
)
from compmath.judging.report import LabReport, Outcome

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
    skipped: frozenset[str] = frozenset()  # not run: the same program ran out of time before

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


def reference_case(base: Ready, key: str, var: Variant) -> Case:
    """The course's lab (`base`, prepared) at `var`, under `key`: at the defaults held to the
    class's snapshot, elsewhere explored."""
    expected = base.expected if var.default else Explore()
    return variant(base, key=key, params=dict(var.params), expected=expected)


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
            references.append(reference_case(base, f"{call}/{key}", var))
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


def _chains(orders: Sequence[Sequence[str]], call: str) -> dict[str, str]:
    """The runs that follow another (keys of the call's cases), from `orders`: per student and
    hole, its program's keys in the order of that student's variants. A run follows the run
    before it only when that is so for every student it is judged for (identical programs
    are shared, and the first variant may be a student's own parameters): so a run is never
    skipped for a student at whose earlier variants it did not run out of time."""
    before: dict[str, set[str | None]] = {}
    for keys in orders:
        for place, key in enumerate(keys):
            before.setdefault(key, set()).add(keys[place - 1] if place else None)
    return {
        f"{call}/{key}": f"{call}/{first}"
        for key, found in before.items()
        if len(found) == 1 and (first := next(iter(found))) is not None
    }


def run_batch(
    wanted: Wanted,
    *,
    timeout: float,
    jobs: int,
    into: Results | None = None,
    memo: dict[str, LabReport] | None = None,
    hide: Sequence[Path] | None = None,
    orders: Sequence[Sequence[str]] | None = None,
    limits: Mapping[str, float] | None = None,
) -> Results:
    """Judge every (class, program or None for the course's lab, variant) by key, in one call;
    the reports come back `into` the Results (see `landing` for the rest)."""
    results = into if into is not None else Results()
    for _ in landing(
        wanted,
        results,
        timeout=timeout,
        jobs=jobs,
        memo=memo,
        hide=hide,
        orders=orders,
        limits=limits,
    ):
        pass
    return results


def landing(
    wanted: Wanted,
    results: Results,
    *,
    timeout: float,
    jobs: int,
    memo: dict[str, LabReport] | None = None,
    hide: Sequence[Path] | None = None,
    orders: Sequence[Sequence[str]] | None = None,
    limits: Mapping[str, float] | None = None,
) -> Iterator[str]:
    """Judge every (class, program or None for the course's lab, variant) by key, in one call,
    yielding each key as its report lands in `results`. With `hide` (grading, practice), the
    programs run private (`private_folders`); the course's lab does not. With `orders`
    (grading: per student and hole, its program's keys in variant order), a program that runs
    out of time at a variant is not run at the variants after it (a hole that hangs has
    failed: it costs one time limit, not one per variant).

    `limits`: a time limit per class id, instead of `timeout` (lint's mutants).

    `memo` (a practice session's): reports already judged, by key. Keys name the program's
    text and the class files its verdict depends on, so a key found there is not run again
    (a save that changes one hole reruns that hole only); new verdicts are added to it."""
    from compmath.judging.pipeline import judge_cases

    remembered = memo if memo is not None else {}
    for key in wanted.keys() & remembered.keys():
        results.reports[key] = remembered[key]
        yield key
    if not wanted.keys() - remembered.keys():
        return
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    try:
        call = folder.name.removeprefix(FOLDER_PREFIX)  # unique to this call
        cases = _cases(wanted, folder, timeout, remembered, call, hide, limits)
        after = _chains(orders, call) if orders is not None else None
        judging = judge_cases(cases, jobs=jobs, after=after)
        for case, report in judging:
            key = case.key.removeprefix(f"{call}/")
            results.reports[key] = report
            if memo is not None and report.outcome in MEMO_OK and not report.worker_lost:
                memo[key] = report
            yield key
        results.missing = judging.missing
        results.skipped = frozenset(k.removeprefix(f"{call}/") for k in judging.skipped)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
