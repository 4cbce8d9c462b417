"""The one place grading meets the practice verdict: judge many (class, lab.py source) pairs.

Grading consumes only `ClassVerdict` (per hole: passed or not, the status word and the Spanish
reason, plus what the student's code printed). The verdict itself is the practice mode's
(`compmath.practice.verdict.judge_many`): each written hole grafted into the course's own lab,
run at the defaults and at the class's hidden variants, every run of a batch on the warm worker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.course.tree import ClassInfo
from compmath.grading.failure import Failure, failure_of
from compmath.practice import verdict as practice
from compmath.practice.runs import Results

PRINT_LINES, PRINT_WIDTH = 20, 160  # of the student's prints, what the feedback keeps
OPEN_REASON = "el hueco sigue sin completar"
REASON_CHARS = 600  # a reason comes partly from the student's code (an exception's message)


@dataclass(frozen=True)
class HoleVerdict:
    """One hole of one submission: passed or not, the status word and why (Spanish)."""

    number: int
    passed: bool
    status: str  # «bien», «mal», «falla», «sin completar»
    reason: str = ""
    variants_passed: int = 0  # of `variants` (the defaults included), how many it matched
    variants: int = 0
    failure: Failure | None = None  # where it first failed, as data (the class report's)


@dataclass(frozen=True)
class ClassVerdict:
    """A judged submission of one class: its holes in order, and what the student's code printed."""

    holes: tuple[HoleVerdict, ...]
    prints: str = ""
    outside_changed: bool = False  # code outside the holes differs from the exercise (ignored)

    @property
    def done(self) -> bool:
        return all(h.passed for h in self.holes)


def shown_prints(text: str) -> str:
    """The first lines the student's code printed, each cut short, and a note when cut."""
    lines = text.splitlines()
    kept = [t if len(t) <= PRINT_WIDTH else t[:PRINT_WIDTH] + " …" for t in lines[:PRINT_LINES]]
    shown = "\n".join(kept).rstrip()
    if len(lines) > PRINT_LINES or any(len(t) > PRINT_WIDTH for t in lines[:PRINT_LINES]):
        shown += f"\n… (recortado: {len(text)} caracteres, {len(lines)} líneas)"
    return shown


def _short(reason: str) -> str:
    """A practice reason as the feedback keeps it. It is the hole's `reason`, not what the
    practice screens say (`said`): the option that lifts a limit is the instructor's here."""
    return reason if len(reason) <= REASON_CHARS else reason[:REASON_CHARS] + " …"


def _converted(attempt: practice.Attempt) -> ClassVerdict:
    holes = tuple(
        HoleVerdict(
            h.number,
            h.done,
            str(h.status),
            _short(h.reason) or (OPEN_REASON if h.status == practice.HoleStatus.OPEN else ""),
            h.variants_passed,
            len(attempt.variants),
            failure_of(h),
        )
        for h in attempt.holes
    )
    return ClassVerdict(holes, shown_prints(attempt.stdout), attempt.outside_changed)


def judge_many(
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
    nor the course's labs nor another student's program (README, «Integridad»). `missing`
    receives the protections the labs ran without. `own` (per item) and `private` (by class
    number): the student's own parameters and the private variants (practice.verdict).

    The returned list is final: a verdict can still change after its `on_done` (the batch
    learns only at its end that a lab tampered with the course), so callers compare."""

    def landed(index: int, attempt: practice.Attempt) -> None:
        if on_done is not None:
            on_done(index, _converted(attempt))

    results = Results()
    attempts = practice.judge_many(
        items,
        timeout=timeout,
        jobs=jobs,
        on_done=landed,
        hide=list(hide),
        into=results,
        own=own,
        private=private,
    )
    if missing is not None:
        missing.extend(results.missing)
    return [_converted(a) for a in attempts]
