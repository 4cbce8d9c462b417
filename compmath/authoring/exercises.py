"""Lint's checks of the practice exercises: every exercise fails, every solution passes, and
every hole on its own (the student's version of it, the solution elsewhere) breaks an output.

These run labs (all of them in one batch on the warm worker), unlike the rest of lint.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem
from compmath.execution.protocol import LabReply, LabRequest
from compmath.execution.scheduler import run_labs
from compmath.judging.judge import Case, judge, prepare
from compmath.judging.report import Outcome
from compmath.practice.holes import HoleError, exercise_source, solution_regions, splice

MAX_HOLES = 3


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
                request = replace(base.request, key=key, lab=str(folder / "lab.py"))
                cases[key] = (replace(base, request=request), cls, label)
        outcomes: dict[str, Outcome] = {}

        def done(request: LabRequest, reply: LabReply) -> None:
            outcomes[request.key] = judge(cases[request.key][0], reply).outcome

        run_labs([case.request for case, _, _ in cases.values()], jobs, on_done=done)
    for key, (_, cls, label) in cases.items():
        shown = str(cls.lab.relative_to(cls.root))
        matches = outcomes[key] == Outcome.MATCHES
        if label == "solución" and not matches:
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
