"""The one place grading meets the practice verdict: judge many (class, lab.py source) pairs.

Grading consumes only `ClassVerdict` (per hole: passed or not, the status word and the Spanish
reason, plus what the student's code printed). The verdict itself is the practice mode's
(`compmath.holes.verdict.judge_many`): each written hole grafted into the course's own lab,
run at the defaults and at the class's hidden variants, every run of a batch on the warm worker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

from compmath.course.tree import ClassInfo
from compmath.grading.failure import Failure, failure_of
from compmath.grading.reasons import hole_reason
from compmath.holes import verdict as practice
from compmath.holes.graft import HoleStatus, Plan, Program, course_tag, programs_for
from compmath.holes.runs import FOLDER_PREFIX, Results, landing, reference_key
from compmath.holes.variants import Variant, variants_of
from compmath.wording import count

PRINT_LINES, PRINT_WIDTH = 20, 160  # of the student's prints, what the feedback keeps
OPEN_REASON = "el hueco sigue sin completar"
PATH_END = frozenset(" \t'\"<>()[]{},;:=")  # what ends a path in a printed line
PRINTS_SECONDS = 3.0  # the run of the whole file for its prints: what it printed by then
REASON_CHARS = 600  # a reason holds the student's own text (a line of their code)


@dataclass(frozen=True)
class GradedHole:
    """One hole of one submission: passed or not, the status word and why (Spanish)."""

    number: int
    passed: bool
    status: HoleStatus  # never MISSING: a judged hole was handed in
    reason: str = ""
    variants_passed: int = 0  # of `variants` (the defaults included), how many it matched
    variants: int = 0
    failure: Failure | None = None  # where it first failed, as data (the class report's)


@dataclass(frozen=True)
class ClassVerdict:
    """A judged submission of one class: its holes in order, and what the student's code printed."""

    holes: tuple[GradedHole, ...]
    prints: str = ""
    outside_changed: bool = False  # code outside the holes differs from the exercise (ignored)
    syntax: str = ""  # a syntax error of the file caused outside every hole (ignored, but said)

    @property
    def done(self) -> bool:
        return all(h.passed for h in self.holes)


def _without_run_folder(line: str) -> str:
    """A printed line with the path of the run's own copy of the student's file (a temporary
    folder that changes from run to run) read as `lab.py`; linear in the line's length."""
    found = line.find(FOLDER_PREFIX)
    while found >= 0:
        start = found
        while start > 0 and line[start - 1] not in PATH_END:
            start -= 1
        end = line.find("/lab.py", found)
        if end < 0 or any(c in PATH_END for c in line[found:end]):
            found = line.find(FOLDER_PREFIX, found + 1)
            continue
        line = line[:start] + "lab.py" + line[end + len("/lab.py") :]
        found = line.find(FOLDER_PREFIX, start + len("lab.py"))
    return line


def shown_prints(text: str) -> str:
    """The first lines the student's code printed, each cut short, and a note when cut; the
    path of the run's own copy of their file read as `lab.py`."""
    lines = text.splitlines()
    head = [_without_run_folder(t[: 4 * PRINT_WIDTH]) for t in lines[:PRINT_LINES]]
    kept = [t if len(t) <= PRINT_WIDTH else t[:PRINT_WIDTH] + " …" for t in head]
    shown = "\n".join(kept).rstrip()
    if len(lines) > PRINT_LINES or any(len(t) > PRINT_WIDTH for t in lines[:PRINT_LINES]):
        shown += f"\n… (recortado: {len(text)} caracteres, {count(len(lines), 'línea', 'líneas')})"
    return shown


def _short(reason: str) -> str:
    """A practice reason as the feedback keeps it. It is the hole's `reason`, not what the
    practice screens say (`said`): the option that lifts a limit is the instructor's here."""
    return reason if len(reason) <= REASON_CHARS else reason[:REASON_CHARS] + " …"


@dataclass
class _Batch:
    """What one grading call knows: each item's programs and the reports, by key."""

    items: Sequence[tuple[ClassInfo, str]]
    timeout: float
    results: Results
    own: Sequence[Mapping[str, Any]] | None = None  # per item: the student's own parameters
    plans: dict[int, Plan] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def plan(self, index: int) -> Plan:
        """The item's programs as the practice verdict made them (made again here, only for
        the items that need them: a failing hole, or prints to look for)."""
        if index not in self.plans:
            self.plans[index] = programs_for(*self.items[index])
        return self.plans[index]

    def reason(self, index: int, hole: practice.HoleVerdict) -> str:
        if hole.done:
            return ""
        if hole.variant is None:  # judged without running: the student's own text
            still_open = hole.status == HoleStatus.OPEN
            return _short(hole.reason) or (OPEN_REASON if still_open else "")
        program = self.plan(index).programs.get(hole.number)
        if program is None:
            return _short(hole.reason)
        report = self.results.reports.get(program.key(hole.variant))
        return _short(hole_reason(report, program, hole.variant, hole.difference, self.timeout))

    def verdict(self, index: int, attempt: practice.Attempt, prints: str = "") -> ClassVerdict:
        """The grading verdict of one attempt; if making it fails, every hole of it scores 0
        with the reason (the other students are graded)."""
        try:
            holes = tuple(
                GradedHole(
                    h.number,
                    h.done,
                    h.status,
                    self.reason(index, h),
                    h.variants_passed,
                    len(attempt.variants),
                    failure_of(h),
                )
                for h in attempt.holes
            )
            slip = attempt.syntax
            outside = slip.message if slip is not None and slip.hole is None else ""
            return ClassVerdict(holes, shown_prints(prints), attempt.outside_changed, outside)
        except Exception as exc:  # one student's verdict, not the batch
            why = f"no se pudo juzgar (error interno de compmath: {type(exc).__name__})"
            count = len(self.items[index][0].meta.holes)
            holes = tuple(GradedHole(k, False, HoleStatus.FAILS, why) for k in range(1, count + 1))
            return ClassVerdict(holes)

    def printed(self, index: int, attempt: practice.Attempt) -> bool:
        """Whether any grafted run of this item printed something: a hole's verdict keeps
        what its first failing run printed (or, when right, its first print); only a failing
        hole that printed nothing there needs its other runs looked at."""
        if any(h.stdout for h in attempt.holes):
            return True
        if all(h.done or h.variant is None for h in attempt.holes):
            return False
        reports = self.results.reports
        return any(
            (report := reports.get(program.key(variant))) is not None and bool(report.stdout)
            for program in self.plan(index).programs.values()
            for variant in self.variants(index)
        )

    def variants(self, index: int) -> tuple[Variant, ...]:
        """The parameter sets the item's holes ran at (public ones: prints come from them)."""
        return variants_of(self.items[index][0], self.own[index] if self.own else None)

    def whole_file(self, index: int) -> tuple[str, tuple[ClassInfo, Program, Variant]] | None:
        """The student's whole lab.py as one program at the defaults (what it prints), or None
        when the course's own lab gave no reference there."""
        cls, source = self.items[index]
        tag = self.tags.setdefault(cls.id, course_tag(cls))
        defaults = self.variants(index)[0]  # the defaults, or the student's own numbers
        if self.results.failure(reference_key(cls, defaults, tag)):
            return None
        program = Program(0, source, {}, tag)
        return program.key(defaults), (cls, program, defaults)


def grade_submissions(
    items: Sequence[tuple[ClassInfo, str]],
    *,
    timeout: float,
    jobs: int,
    on_done: Callable[[int, ClassVerdict], None] | None = None,
    hide: Sequence[Path] = (),
    missing: list[str] | None = None,
    own: Sequence[Mapping[str, Any]] | None = None,
    private: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
) -> list[ClassVerdict]:
    """Judge each (class, student's lab.py source); `on_done(index, verdict)` as each lands.
    Every student's code runs private: it sees neither `hide` (the submissions, the grades)
    nor the course's labs nor another student's program (docs/integridad.md). `missing`
    receives the protections the labs ran without. `own` (per item) and `private` (by class
    number): the student's own parameters and the private variants (practice.verdict).

    Nothing of the course comes back: a reason says what the student's hole did (reasons.py),
    and what the student's code printed is taken from a run of their whole lab.py at the
    defaults (what it printed in its first PRINTS_SECONDS), made only for those whose holes
    printed anything (a grafted program holds the course's other holes and could print them).

    The returned list is final: a verdict can still change after its `on_done` (the batch
    learns only at its end that a lab tampered with the course), so callers compare."""
    batch = _Batch(items, timeout, Results(), own)
    printed: set[int] = set()
    judged: dict[int, practice.Attempt] = {}
    for index, attempt in practice.judge_each(
        items,
        timeout=timeout,
        jobs=jobs,
        hide=list(hide),
        into=batch.results,
        own=own,
        private=private,
    ):
        judged[index] = attempt
        if batch.printed(index, attempt):
            printed.add(index)  # its verdict waits for the run of the whole file
        elif on_done is not None:
            on_done(index, batch.verdict(index, attempt))
    attempts = [judged[i] for i in range(len(items))]
    prints = _prints(batch, sorted(printed), attempts, jobs, hide, on_done, missing)
    if missing is not None:
        missing.extend(n for n in batch.results.missing if n not in missing)
    return [batch.verdict(i, a, prints.get(i, "")) for i, a in enumerate(attempts)]


def _prints(
    batch: _Batch,
    printed: list[int],
    attempts: list[practice.Attempt],
    jobs: int,
    hide: Sequence[Path],
    on_done: Callable[[int, ClassVerdict], None] | None,
    missing: list[str] | None,
) -> dict[int, str]:
    """Run the whole lab.py of each student in `printed` (private, at the defaults) and hand
    on their verdicts with what it printed."""
    wanted: dict[str, tuple[ClassInfo, Program | None, Variant]] = {}
    waiting: dict[str, list[int]] = {}
    for index in printed:
        found = batch.whole_file(index)
        if found is None:
            continue
        key, what = found
        wanted.setdefault(key, what)
        waiting.setdefault(key, []).append(index)
    prints: dict[int, str] = {}
    runs = Results()
    # the course's lab at the defaults, already run: the oracle of each whole file
    references = {key: what for key, what in batch.results.reports.items() if "@curso-" in key}
    ran = landing(
        wanted,
        runs,
        timeout=min(batch.timeout, PRINTS_SECONDS),
        jobs=jobs,
        memo=references,
        hide=list(hide),
    )
    # as each run lands, then those that never did (the verdict without prints): the keys
    # handed on already wait for nobody
    for key in chain(ran, list(waiting)):
        report = runs.reports.get(key)
        for index in waiting.pop(key, []):
            prints[index] = report.stdout if report is not None else ""
            if on_done is not None:
                on_done(index, batch.verdict(index, attempts[index], prints[index]))
    if wanted and missing is not None:
        missing.extend(n for n in runs.missing if n not in missing)
    return prints
