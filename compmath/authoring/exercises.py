"""Lint's checks of the practice exercises: every exercise fails, every solution passes, every
hole on its own (the student's version of it, the solution elsewhere) breaks an output, and
each hole's declared outputs include every output its code feeds.

The last check is a small mutation test: the solution runs with what one region computes nudged
(each float it assigns moved by 0.1 %), and the outputs that move are the ones that region feeds.
These run labs (all of them in one call of the judging pipeline, so with its integrity check,
limits and reasons), unlike the rest of lint. A variant that could not be judged (it ran out of
time or memory, lost its worker, changed the course) is a problem of its own, never silence.
"""

from __future__ import annotations

import ast
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from compmath.course.records import Tolerance
from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem
from compmath.holes.regions import HoleError, Region, exercise_source, solution_regions, splice
from compmath.judging.batched import judge_batched
from compmath.judging.case import Broken, Case, Ready, Reference, Snapshot, variant
from compmath.judging.case import prepare as prepare_case
from compmath.judging.report import LabReport, Outcome
from compmath.wording import count, quoted

MAX_HOLES = 3
VARIANT_TIMEOUT = 20.0  # seconds: a variant that loops is reported as not judged, not waited on
# a nudge shows in any digit that moved, integers included
EXACT: tuple[Tolerance, dict[str, Tolerance]] = (Tolerance(0.0, 0.0, declared=True), {})
NOT_JUDGED = frozenset({Outcome.TIMEOUT, Outcome.MEMORY, Outcome.SIGNAL, Outcome.SETUP})
NUDGE = "_compmath_nudge"
NUDGE_SOURCE = f"""

{NUDGE}_pending = set()  # added by compmath lint: the regions whose results are still to nudge


def {NUDGE}_all(value):
    import numpy as _np
    # towards zero, so a probability stays in [0, 1] and a positive quantity positive; a zero
    # moves up, so it shows too
    if isinstance(value, float):
        return value * (1 - 1e-3) if value else 1e-3
    if isinstance(value, _np.ndarray) and _np.issubdtype(value.dtype, _np.floating):
        return _np.where(value == 0, 1e-3, value * (1 - 1e-3))
    if isinstance(value, (list, tuple)):
        return type(value)({NUDGE}_all(v) for v in value)
    if isinstance(value, dict):
        return {{k: {NUDGE}_all(v) for k, v in value.items()}}
    return value
"""


def _bound(target: ast.expr) -> list[str]:
    """The local names an assignment target rebinds or writes into: `x`, `a, b`, `x[i]`
    (never `obj.attr`: the object is not the region's result, and may be a module)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound(element)]
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        return [target.value.id]
    return []


def _assigned(region: Region) -> list[str]:
    """The names a region binds or writes into (`x = …`, `x += …`, `x[i] = …`, `a, b = …`)."""
    import textwrap

    try:
        tree = parse(textwrap.dedent("\n".join(region.body)))
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            names += [name for name in _bound(target) if name not in names]
    return names


def nudged(source: str, region: Region) -> str | None:
    """The lab with what `region` computes nudged right after it (None: it binds nothing)."""
    names = _assigned(region)
    if not names:
        return None
    lines = source.splitlines()
    # a region inside a loop is nudged on its first pass only; a later pass costs one lookup
    site, inner = region.number, region.indent + "    "
    after = [f"{region.indent}if {site} in {NUDGE}_pending:"]
    after.append(f"{inner}{NUDGE}_pending.discard({site})")
    after += [f"{inner}{name} = {NUDGE}_all({name})" for name in names]
    lines[region.end + 1 : region.end + 1] = after
    main = next((i for i, text in enumerate(lines) if text.startswith("if __name__")), len(lines))
    lines[main:main] = [*NUDGE_SOURCE.splitlines(), f"{NUDGE}_pending.add({site})"]
    return "\n".join(lines) + "\n"


class Kind(StrEnum):
    """What one variant of a class's lab is (the word names it in lint's messages)."""

    SOLUTION = "solución"
    EXERCISE = "ejercicio"
    HOLE = "hueco"  # one hole open, the solution everywhere else
    NUDGED = "empujado"  # the solution with one region's results nudged


@dataclass(frozen=True)
class Variant:
    """One lab to run for the checks: which class, what it is, which hole, its source."""

    cls: ClassInfo
    kind: Kind
    source: str
    hole: int = 0  # the hole it opens or nudges (1-based); 0 for the solution and the exercise

    @property
    def key(self) -> str:
        return f"{self.cls.id}#{self.kind}" + (f"-{self.hole}" if self.hole else "")

    @property
    def folder(self) -> str:
        return f"{self.kind}-{self.hole}" if self.hole else str(self.kind)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.hole}" if self.hole else str(self.kind)


def _variants(cls: ClassInfo) -> tuple[list[Variant], list[Problem]]:
    """Each variant to run: the solution, the exercise, each hole alone, each region nudged."""
    shown = str(cls.lab.relative_to(cls.root))
    source = cls.lab.read_text(encoding="utf-8")
    holes = cls.meta.holes
    try:
        regions = solution_regions(source)
    except HoleError as exc:
        return [], [Problem(shown, f"las marcas de solución no valen: {exc}", "corrígelas")]
    if not regions and not holes:
        return [], [
            Problem(
                shown,
                "no tiene huecos de práctica",
                "marca de 1 a 3 regiones con ### BEGIN SOLUTION / ### END SOLUTION y describe "
                "cada una en un [[huecos]] de class.toml",
            )
        ]
    if len(regions) != len(holes):
        return [], [
            Problem(
                shown,
                f"tiene {count(len(regions), 'región', 'regiones')} de solución y class.toml "
                f"{len(holes)} [[huecos]]",
                "un [[huecos]] por región, en el mismo orden",
            )
        ]
    problems = []
    if len(holes) > MAX_HOLES:
        problems.append(
            Problem(shown, f"tiene {len(holes)} huecos", f"deja de 1 a {MAX_HOLES}, en el corazón")
        )
    exercise = exercise_source(source, [h.task for h in holes])
    variants = [Variant(cls, Kind.SOLUTION, source), Variant(cls, Kind.EXERCISE, exercise)]
    if len(holes) > 1:
        variants += [
            Variant(cls, Kind.HOLE, splice(exercise, source, {k}), k)
            for k in range(1, len(holes) + 1)
        ]
    for region in regions:
        text = nudged(source, region)
        if text is not None:
            variants.append(Variant(cls, Kind.NUDGED, text, region.number))
    return variants, problems


def _case(base: Ready, found: Variant, folder: Path, timeout: float) -> Case:
    """The variant as a case of the pipeline: its lab written under `folder`, its oracle."""
    lab = folder / found.cls.id / found.folder / "lab.py"
    lab.parent.mkdir(parents=True)
    lab.write_text(found.source, encoding="utf-8")
    limit = min(base.request.timeout, timeout)
    if found.kind == Kind.NUDGED:  # what moves against the solution's own outputs, exactly
        solution = Variant(found.cls, Kind.SOLUTION, "")
        return variant(
            base,
            key=found.key,
            lab=lab,
            timeout=limit,
            expected=Reference(solution.key),
            tolerances=EXACT,
        )
    return variant(base, key=found.key, lab=lab, timeout=limit)


def exercise_problems(
    course: Course,
    *,
    jobs: int,
    timeout: float = VARIANT_TIMEOUT,
    classes: list[ClassInfo] | None = None,
    recorded: Callable[[], Mapping[str, LabReport]] | None = None,
) -> list[Problem]:
    """Run every class's (or `classes`') solution, exercise and single-hole variants, and
    report what is wrong. `recorded` waits for the notebooks' instrumented runs of the
    course's labs (notebook.recording.record_all): a solution one of them ran at the defaults
    is judged from its outputs, not run again, and its nudged variants against those outputs.
    The variants are made while those run."""
    problems: list[Problem] = []
    variants: dict[str, Variant] = {}
    made: list[list[Case]] = []  # each class's cases
    judged: dict[str, LabReport] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-huecos-") as tmp:
        for cls in course.classes if classes is None else classes:
            if not cls.lab.exists():
                continue
            try:
                base = prepare_case(course, cls)
                found, wrong = _variants(cls)
            except CompmathError:
                continue  # a broken class file: lint reports it on its own
            problems += wrong
            if isinstance(base, Broken):
                continue
            variants |= {one.key: one for one in found}
            made.append([_case(base, one, Path(tmp), timeout) for one in found])
        runs = recorded() if recorded is not None else {}
        cases = [case for one in made for case in _served(one, runs, judged)]
        judged |= judge_batched(cases, jobs=jobs).by_key()
    for key, one in variants.items():
        problems += _verdict(one, judged[key])
    return problems


def _served(
    cases: list[Case], recorded: Mapping[str, LabReport], judged: dict[str, LabReport]
) -> list[Case]:
    """`cases` (one class's) to run: the solution judged into `judged` from the instrumented
    run of the course's lab at the defaults, where there is one, and the nudged variants held
    to its outputs, as a `Reference` to it would hold them."""
    from compmath.notebook.recording import judged_as, run_key

    solution = next((c for c in cases if c.key.endswith(f"#{Kind.SOLUTION}")), None)
    if solution is None or not recorded:
        return cases
    report = judged_as(solution, recorded.get(run_key(solution.cls, 0)))
    if report is None or report.outputs is None:
        return cases
    judged[solution.key] = report
    oracle = Snapshot(report.outputs)
    return [
        replace(c, expected=oracle)
        if isinstance(c, Ready) and isinstance(c.expected, Reference)
        else c
        for c in cases
        if c is not solution
    ]


def _judged(found: Variant, report: LabReport) -> bool:
    """Whether the variant ran to a verdict this check can read: the solution to any (its
    problem is reported with the reason), the exercise and a hole alone to their own
    NotImplementedError (or to outputs to compare), a nudged solution to outputs."""
    if report.worker_lost or report.outcome == Outcome.TAMPERED:
        return False
    if found.kind == Kind.SOLUTION:
        return report.outcome not in NOT_JUDGED
    comparable = report.outcome in (Outcome.MATCHES, Outcome.DIFFERS, Outcome.INVALID)
    if found.kind == Kind.NUDGED:
        return comparable
    return comparable or report.error_type == "NotImplementedError"


def _verdict(found: Variant, report: LabReport) -> list[Problem]:
    """What is wrong, by the report of one variant (nothing: it behaved as it should)."""
    cls = found.cls
    shown = str(cls.lab.relative_to(cls.root))
    if found.kind == Kind.NUDGED and report.outcome == Outcome.SETUP:
        return []  # the solution gave no outputs to nudge against: reported for itself
    if not _judged(found, report):
        return [
            Problem(
                shown,
                f"no se pudo comprobar la variante «{found.label}»: {report.full_message}",
                f"compmath run {cls.number}; si es el tiempo, repite con la máquina menos cargada",
            )
        ]
    if found.kind == Kind.NUDGED:
        return _undeclared(cls, found.hole, {d.output for d in report.differences}, shown)
    matches = report.outcome == Outcome.MATCHES
    if found.kind == Kind.SOLUTION and not matches:
        return [
            Problem(
                shown,
                f"la solución no coincide con su instantánea: {report.full_message}",
                f"compmath run {cls.number}",
            )
        ]
    if found.kind != Kind.SOLUTION and matches:
        what = "el ejercicio entero" if found.kind == Kind.EXERCISE else f"el {found.label}, solo,"
        return [
            Problem(
                shown,
                f"{what} pasa la comprobación: ninguna salida lo vigila",
                "mueve la región a código que alimente una salida, o amplíala",
            )
        ]
    return []


def _undeclared(cls: ClassInfo, number: int, moved: set[str], shown: str) -> list[Problem]:
    """Outputs a hole's code feeds that its [[huecos]] entry does not list."""
    hole = cls.meta.holes[number - 1]
    names = [o.name for o in cls.meta.outputs]
    missing = [n for n in names if n in moved and n not in hole.outputs]
    if not missing:
        return []
    return [
        Problem(
            shown,
            f"el código del hueco {number} alimenta también {quoted(missing)}, "
            "que su [[huecos]] no lista",
            "añádelas a sus salidas, o revisa que cada [[huecos]] esté en el orden de las regiones",
        )
    ]
