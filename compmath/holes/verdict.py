"""The practice verdict: each hole of a student's lab.py, judged on its own, at every variant.

A hole's code is taken from the student's file and grafted into the course's own lab (read
from the course, never from the student's folder); nothing else in the student's file runs.
Each grafted lab runs at the lab's defaults and at the class's hidden variants, and is compared
with the course's lab run at the same parameters in the same batch. A class is done when every
hole is written and passes at every variant. Used by `compmath practice`, its notebook, and
`compmath grade` (many students at once: identical programs run once, references once per
class and variant).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.course.tree import ClassInfo
from compmath.holes.graft import HoleStatus, Plan, Program, SyntaxSlip, course_tag, programs_for
from compmath.holes.hole_verdict import HoleVerdict, judge_hole
from compmath.holes.runs import MEMO_SIZE, Results, landing, reference_key
from compmath.holes.variants import Variant, variants_of
from compmath.judging.report import LabReport

__all__ = [
    "Attempt",
    "HoleStatus",
    "HoleVerdict",
    "SyntaxSlip",
    "attempt_json",
    "judge_each",
    "judge_many",
]


@dataclass(frozen=True)
class Attempt:
    """A judged attempt at one class."""

    cls: ClassInfo
    holes: tuple[HoleVerdict, ...]
    variants: tuple[Variant, ...]
    markers_ok: bool = True  # False when a hole's ### HUECO markers are missing or damaged
    outside_changed: bool = False  # the code outside the holes differs from the exercise
    problem: str = ""  # the course's own lab failed: not the student's doing
    syntax: SyntaxSlip | None = None  # the student's file does not parse (wherever it is)

    @property
    def done(self) -> bool:
        return not self.problem and bool(self.holes) and all(h.done for h in self.holes)

    @property
    def open_hole(self) -> int | None:
        """The first hole not written yet (data from the student's source, not a message)."""
        return next((h.number for h in self.holes if h.status == HoleStatus.OPEN), None)

    @property
    def stdout(self) -> str:
        """Everything the student's code printed, hole by hole."""
        parts = [f"— hueco {h.number} —\n{h.stdout}" for h in self.holes if h.stdout]
        return "".join(p if p.endswith("\n") else p + "\n" for p in parts)

    def hint_hole(self) -> int | None:
        """The hole a hint should help with (and the screens' summary names): the first
        written but wrong, else the first that fails, else the first open."""
        for status in (HoleStatus.WRONG, HoleStatus.FAILS, HoleStatus.OPEN):
            found = next((h.number for h in self.holes if h.status == status), None)
            if found is not None:
                return found
        return None


def judge_many(
    items: Sequence[tuple[ClassInfo, str]],
    *,
    timeout: float,
    jobs: int,
    hidden_only: bool = False,
    memo: dict[str, LabReport] | None = None,
    hide: Sequence[Path] | None = None,
    into: Results | None = None,
    own: Sequence[Mapping[str, Any]] | None = None,
    private: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
) -> list[Attempt]:
    """Judge each (class from the course, student's lab.py source) in one batch of labs; the
    attempts in the items' order (see `judge_each`)."""
    attempts = dict(
        judge_each(
            items,
            timeout=timeout,
            jobs=jobs,
            hidden_only=hidden_only,
            memo=memo,
            hide=hide,
            into=into,
            own=own,
            private=private,
        )
    )
    return [attempts[i] for i in range(len(items))]


def judge_each(
    items: Sequence[tuple[ClassInfo, str]],
    *,
    timeout: float,
    jobs: int,
    hidden_only: bool = False,
    memo: dict[str, LabReport] | None = None,
    hide: Sequence[Path] | None = None,
    into: Results | None = None,
    own: Sequence[Mapping[str, Any]] | None = None,
    private: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
) -> Iterator[tuple[int, Attempt]]:
    """Judge each (class from the course, student's lab.py source) in one batch of labs,
    yielding (index, attempt) once for each item, as its last run lands (a progress display).

    Identical grafted programs run once; the course's lab runs once per class and variant.
    `hidden_only` skips the defaults (lint's mutation check: a hole holding the defaults'
    values passes there by construction).
    `memo`: a practice session's verdicts by content (see runs.landing); None for grading.
    `hide` (grading, and practice: Workspace.out_of_sight): the folders no student's code may
    see; each grafted program then runs private, away from them, the course's labs and other
    programs (runs.private_folders). None (lint's own mutants) runs them in plain sight.
    `into`: where the reports (and the protections the labs ran without) are kept.
    `own`: per item, the student's own parameters ([practica.por_alumno]), judged in place of
    the defaults ({} or None: the defaults). `private`: by class number, the grading's private
    variants, judged after the public ones.
    """
    owns = [dict(p) for p in own] if own is not None else [{} for _ in items]
    chosen = [
        _variants(cls, hidden_only, params, (private or {}).get(cls.number, ()))
        for (cls, _), params in zip(items, owns)
    ]
    plans = [programs_for(cls, source, params) for (cls, source), params in zip(items, owns)]
    wanted, needed, tags = _wanted(items, plans, chosen)
    results = into if into is not None else Results()
    waiting: dict[str, list[int]] = {}
    for index, keys in enumerate(needed):
        for key in keys:
            waiting.setdefault(key, []).append(index)
    left = set(range(len(items)))

    def attempt(index: int) -> tuple[int, Attempt]:
        left.discard(index)
        cls = items[index][0]
        return index, _attempt(cls, plans[index], results, chosen[index], tags[cls.id])

    if memo is not None and len(memo) > MEMO_SIZE:
        memo.clear()
    orders = _orders(plans, chosen) if hide is not None else None
    for key in landing(
        wanted, results, timeout=timeout, jobs=jobs, memo=memo, hide=hide, orders=orders
    ):
        for index in waiting.pop(key, []):
            if index in left and needed[index] <= results.reports.keys():
                yield attempt(index)
    for index in sorted(left):  # a run it needed never landed (skipped, or none to run)
        yield attempt(index)


def _wanted(
    items: Sequence[tuple[ClassInfo, str]], plans: list[Plan], chosen: list[tuple[Variant, ...]]
) -> tuple[dict[str, tuple[ClassInfo, Program | None, Variant]], list[set[str]], dict[str, str]]:
    """What the batch runs, by key (each grafted program and the course's lab at each
    variant, once); per item, the keys its attempt needs; per class id, its files' tag."""
    wanted: dict[str, tuple[ClassInfo, Program | None, Variant]] = {}
    needed: list[set[str]] = []
    tags: dict[str, str] = {}
    for (cls, _), plan, variants in zip(items, plans, chosen):
        keys = set()
        tag = tags.setdefault(cls.id, plan.tag or course_tag(cls))
        for variant in variants:
            keys.add(reference_key(cls, variant, tag))
            wanted.setdefault(reference_key(cls, variant, tag), (cls, None, variant))
            for program in plan.programs.values():
                keys.add(program.key(variant))
                wanted.setdefault(program.key(variant), (cls, program, variant))
        needed.append(keys)
    return wanted, needed, tags


def _orders(plans: list[Plan], chosen: list[tuple[Variant, ...]]) -> list[list[str]]:
    """Grading: per item and hole, its program's keys in variant order (a run follows the one
    before it, and is not run when that one ran out of time: runs.landing)."""
    return [
        [program.key(v) for v in variants]
        for plan, variants in zip(plans, chosen)
        for program in plan.programs.values()
    ]


def _variants(
    cls: ClassInfo,
    hidden_only: bool,
    own: Mapping[str, Any],
    private: Sequence[Mapping[str, Any]],
) -> tuple[Variant, ...]:
    found = variants_of(cls, own, private)
    return found[1:] if hidden_only and len(found) > 1 else found


def _attempt(
    cls: ClassInfo, plan: Plan, results: Results, variants: tuple[Variant, ...], tag: str
) -> Attempt:
    problem = plan.problem
    for variant in variants if not problem else ():
        failure = results.failure(reference_key(cls, variant, tag))
        if failure:
            problem = f"el laboratorio del curso falla {variant.label}: {failure}"
            break
    holes = []
    for number, hole in enumerate(cls.meta.holes, 1):
        static = plan.static.get(number)
        if static is not None:
            holes.append(HoleVerdict(number, hole, static[0], static[1]))
        elif problem:
            holes.append(HoleVerdict(number, hole, HoleStatus.FAILS, problem))
        else:
            holes.append(judge_hole(cls, number, hole, plan.programs[number], variants, results))
    return Attempt(
        cls, tuple(holes), variants, plan.markers_ok, plan.outside_changed, problem, plan.syntax
    )


def _syntax_json(slip: SyntaxSlip | None) -> dict[str, Any] | None:
    """Where the file stops being Python (its hole, or None when the cause is outside them)."""
    if slip is None:
        return None
    return {"linea": slip.line, "motivo": slip.what, "hueco": slip.hole}


def attempt_json(attempt: Attempt) -> dict[str, Any]:
    """An attempt as plain data (Spanish keys), for `practice check --json` and grading."""
    return {
        "clase": attempt.cls.id,
        "hecha": attempt.done,
        "variantes": [v.params for v in attempt.variants],
        "fuera_de_los_huecos_cambiado": attempt.outside_changed,
        "problema_del_curso": attempt.problem or None,
        "error_de_sintaxis": _syntax_json(attempt.syntax),
        "huecos": [
            {
                "numero": h.number,
                "estado": str(h.status),
                "motivo": h.said or None,
                "variante": h.variant.params if h.variant is not None else None,
                "salida": h.difference.path if h.difference is not None else None,
            }
            for h in attempt.holes
        ],
    }
