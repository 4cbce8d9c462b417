"""Lint's checks of the practice exercises: every exercise fails, every solution passes, every
hole on its own (the student's version of it, the solution elsewhere) breaks an output, and
each hole's declared outputs include every output its code feeds.

The last check is a small mutation test: the solution runs with what one region computes nudged
(each float it assigns moved by 0.1 %), and the outputs that move are the ones that region feeds.
These run labs (all of them in one batch on the warm worker), unlike the rest of lint.
"""

from __future__ import annotations

import ast
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem
from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs
from compmath.judging.judge import Case, judge, prepare
from compmath.judging.report import Outcome
from compmath.practice.holes import HoleError, Region, exercise_source, solution_regions, splice

MAX_HOLES = 3
VARIANT_TIMEOUT = 20.0  # seconds: a variant that loops is reported by its outcome, not waited on
NUDGE = "_compmath_nudge"
NUDGE_SOURCE = f"""

def {NUDGE}(value, _done=set()):  # added by compmath lint: move floats a little, once per name
    import sys as _sys
    site = _sys._getframe(1).f_lineno
    if site in _done:  # a region inside a loop is nudged on its first pass only
        return value
    _done.add(site)
    return {NUDGE}_all(value)


def {NUDGE}_all(value):
    import numpy as _np
    if isinstance(value, float):
        return value * (1 + 1e-3) + 1e-3
    if isinstance(value, _np.ndarray) and _np.issubdtype(value.dtype, _np.floating):
        return value * (1 + 1e-3) + 1e-3
    if isinstance(value, (list, tuple)):
        return type(value)({NUDGE}_all(v) for v in value)
    if isinstance(value, dict):
        return {{k: {NUDGE}_all(v) for k, v in value.items()}}
    return value
"""


def _assigned(region: Region) -> list[str]:
    """The names a region binds or writes into (`x = …`, `x += …`, `x[i] = …`, `a, b = …`)."""
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent("\n".join(region.body)))
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
            for sub in ast.walk(target):
                base = sub.value if isinstance(sub, ast.Subscript) else sub
                if isinstance(base, ast.Name) and base.id not in names:
                    names.append(base.id)
    return names


def nudged(source: str, region: Region) -> str | None:
    """The lab with what `region` computes nudged right after it (None: it binds nothing)."""
    names = _assigned(region)
    if not names:
        return None
    lines = source.splitlines()
    after = [f"{region.indent}{name} = {NUDGE}({name})" for name in names]
    lines[region.end + 1 : region.end + 1] = after
    main = next((i for i, text in enumerate(lines) if text.startswith("if __name__")), len(lines))
    lines[main:main] = NUDGE_SOURCE.splitlines()
    return "\n".join(lines) + "\n"


def _variants(cls: ClassInfo, folder: Path) -> tuple[list[tuple[str, str]], list[Problem]]:
    """(label, source) of each variant to run: the solution, the exercise, each hole alone."""
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
                f"tiene {len(regions)} regiones de solución y class.toml {len(holes)} [[huecos]]",
                "un [[huecos]] por región, en el mismo orden",
            )
        ]
    problems = []
    if len(holes) > MAX_HOLES:
        problems.append(
            Problem(shown, f"tiene {len(holes)} huecos", f"deja de 1 a {MAX_HOLES}, en el corazón")
        )
    exercise = exercise_source(source, [h.task for h in holes])
    variants = [("solución", source), ("ejercicio", exercise)]
    if len(holes) > 1:
        variants += [
            (f"hueco {k}", splice(exercise, source, {k})) for k in range(1, len(holes) + 1)
        ]
    for region in regions:
        text = nudged(source, region)
        if text is not None:
            variants.append((f"empujado {region.number}", text))
    return variants, problems


def exercise_problems(course: Course, jobs: int) -> list[Problem]:
    """Run every class's solution, exercise and single-hole variants, and report what is wrong."""
    problems: list[Problem] = []
    cases: dict[str, tuple[Case, ClassInfo, str]] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-huecos-") as tmp:
        for cls in course.classes:
            if not cls.lab.exists():
                continue
            try:
                base = prepare(course, cls)
                variants, found = _variants(cls, Path(tmp))
            except CompmathError:
                continue  # a broken class file: lint reports it on its own
            problems += found
            if base.problem is not None:
                continue
            for label, text in variants:
                folder = Path(tmp) / cls.id / label.replace(" ", "-")
                folder.mkdir(parents=True)
                (folder / "lab.py").write_text(text, encoding="utf-8")
                key = f"{cls.id}#{label}"
                limit = min(base.request.timeout, VARIANT_TIMEOUT)
                request = replace(base.request, key=key, lab=str(folder / "lab.py"), timeout=limit)
                cases[key] = (replace(base, request=request), cls, label)
        outcomes: dict[str, Outcome] = {}
        outputs: dict[str, dict[str, Any]] = {}

        def done(request: LabRequest, reply: LabReply) -> None:
            report = judge(cases[request.key][0], reply)
            outcomes[request.key] = report.outcome
            outputs[request.key] = report.outputs or {}

        run_labs([case.request for case, _, _ in cases.values()], jobs, on_done=done)
    for key, (_, cls, label) in cases.items():
        shown = str(cls.lab.relative_to(cls.root))
        matches = outcomes[key] == Outcome.MATCHES
        if label.startswith("empujado"):
            # exactly what moved against the solution's own outputs (a nudge may stay within
            # a Monte Carlo tolerance, and still show which outputs the region feeds)
            solved = outputs.get(f"{cls.id}#solución", {})
            moved = {k for k, v in outputs[key].items() if solved.get(k) != v}
            problems += _undeclared(cls, int(label.split()[1]), moved, shown)
        elif label == "solución" and not matches:
            problems.append(
                Problem(
                    shown,
                    "la solución no coincide con su instantánea",
                    f"compmath run {cls.number}",
                )
            )
        elif label != "solución" and matches:
            what = "el ejercicio entero" if label == "ejercicio" else f"el {label}, solo,"
            problems.append(
                Problem(
                    shown,
                    f"{what} pasa la comprobación: ninguna salida lo vigila",
                    "mueve la región a código que alimente una salida, o amplíala",
                )
            )
    return problems


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
            f"el código del hueco {number} alimenta también {', '.join(missing)}, "
            "que su [[huecos]] no lista",
            "añádelas a sus salidas, o revisa que cada [[huecos]] esté en el orden de las regiones",
        )
    ]
