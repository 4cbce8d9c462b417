"""Lint with the instructor's private variants: a hole that copies the public numbers must fail.

For every class the private file names, each hole is written as a table of the values it
computes at the defaults and at the class's public variants (holes.lookup): what a student who
types those numbers in (`if d == 16: …`) hands in. Practice, which has only the public
variants, cannot tell it from code; grading, with the private ones, must. The table holes are
judged by the practice verdict itself (judge_many) at every variant, the private ones last: a
table hole that passes them all is a problem (no private variant changes what that hole
computes). A table hole that fails before the private variants says nothing (lint could not
write it faithfully), and a hole whose values have no literal, or that runs too many times, is
not written at all. The classes with holes the file leaves out are listed (`uncovered`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem
from compmath.holes.graft import HoleStatus, course_lab
from compmath.holes.lookup import (
    capturing_source,
    changed,
    filled,
    lookup_body,
    overwritten,
    read,
    table,
)
from compmath.holes.regions import HoleError
from compmath.holes.variants import variants_of

TIMEOUT = 20.0  # seconds for a lab (the instrumented one, a table hole) at one variant


def _holes(cls: ClassInfo) -> bool:
    try:
        return bool(cls.meta.holes) and cls.lab.exists()
    except CompmathError:
        return False


def uncovered(
    course: Course, private: Mapping[int, Sequence[Mapping[str, Any]]]
) -> list[ClassInfo]:
    """The classes with holes the private variants leave without any."""
    return [c for c in course.classes if _holes(c) and not private.get(c.number)]


def captured(
    course: Course, classes: list[ClassInfo], jobs: int
) -> dict[str, dict[int, dict[str, list[str]]]]:
    """Each class's holes as tables (by class id, then hole; see holes.lookup.table), from its
    instrumented lab run at the defaults and at every public variant."""
    from compmath.judging.case import Broken, Explore, prepare, variant
    from compmath.judging.pipeline import judge_cases

    runs: dict[str, list[tuple[str, bool]]] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-tablas-") as folder:
        cases = []
        for cls in classes:
            base = prepare(course, cls, timeout=TIMEOUT)
            if isinstance(base, Broken):
                continue  # lint reports the broken file on its own
            try:
                lab = course_lab(cls)
                source = capturing_source(lab.lines, lab.regions)
            except (HoleError, SyntaxError, OSError):
                continue  # regions that make no exercise: lint reports them on their own
            path = Path(folder) / cls.id / "lab.py"
            path.parent.mkdir()
            path.write_text(source, encoding="utf-8")
            for v in variants_of(cls):
                key = f"tabla/{cls.id}/{v.key}"
                runs.setdefault(cls.id, []).append((key, v.default))
                cases.append(variant(base, key=key, lab=path, params=v.params, expected=Explore()))
        # the instrumented lab returns its tables, not its outputs: the schema refuses them, the
        # tables are in the report all the same
        reports = judge_cases(cases, jobs=jobs).result().by_key()
    tables: dict[str, dict[int, dict[str, list[str]]]] = {}
    for cls in classes:
        keys = runs.get(cls.id, [])
        outputs = [(reports[k].outputs if k in reports else None, default) for k, default in keys]
        if not keys or any(o is None for o, _ in outputs):
            continue  # the course's lab does not run: the exercise checks say so
        for number in range(1, len(cls.meta.holes) + 1):
            hole = [(default, (o or {}).get(f"hueco_{number}") or []) for o, default in outputs]
            rows = table(hole)
            if rows:
                tables.setdefault(cls.id, {})[number] = rows
    return tables


def lookup_sources(cls: ClassInfo, tables: Mapping[int, Mapping[str, list[str]]]) -> str:
    """The class's exercise with every hole that has a table written as that table."""
    lab = course_lab(cls)
    bodies = {
        region.number: lookup_body(
            region.number,
            changed(region),
            read(region),
            tables[region.number],
            overwritten(region),
        )
        for region in lab.regions
        if region.number in tables
    }
    return filled(lab.exercise, bodies)


def lookup_problems(course: Course, path: Path, jobs: int) -> list[Problem]:
    """Each hole of a class with private variants that passes them all written as a table of
    its values at the defaults and at the public variants."""
    from compmath.holes.private import private_problems
    from compmath.holes.verdict import judge_many

    found, problems = private_problems(path, course)
    if problems:
        return []  # own_checks.private_problems lists them
    classes = [c for c in course.classes if found.by_class.get(c.number) and _holes(c)]
    tables = captured(course, classes, jobs)
    items = [(c, lookup_sources(c, tables[c.id])) for c in classes if c.id in tables]
    attempts = judge_many(
        items,
        timeout=TIMEOUT,
        jobs=jobs,
        private={c.number: found.by_class[c.number] for c in classes},
    )
    problems = []
    for (cls, _), attempt in zip(items, attempts):
        for verdict in attempt.holes:
            if verdict.number in tables[cls.id] and verdict.status == HoleStatus.RIGHT:
                problems.append(
                    Problem(
                        str(path),
                        f"[{cls.number}]: el hueco {verdict.number} pasa escribiendo a mano sus "
                        "valores de los parámetros por defecto y de las variantes públicas: "
                        "ninguna variante privada cambia lo que calcula",
                        "añade a esa clase una variante privada que cambie lo que calcula ese "
                        "hueco (un parámetro de run() del que dependa)",
                    )
                )
    return problems
