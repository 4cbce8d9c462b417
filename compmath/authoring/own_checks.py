"""Lint's checks of the parameters a class does not publish as its defaults: every point of a
`[practica.por_alumno]` declaration, and every variant of the instructor's private file.

The course's lab runs at each of them (through the one judging pipeline) and must give outputs
valid against its schema: a student's numbers, or a private variant, where the course's own lab
raises or breaks its contract would fail every student there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compmath.course.params import specs_from_source
from compmath.course.per_student import declaration_problems, sample
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem
from compmath.holes.own import run_at
from compmath.judging.report import Outcome

Point = tuple[ClassInfo, dict[str, Any]]


def own_points(cls: ClassInfo) -> list[dict[str, Any]]:
    """The parameter sets lint runs a class's declaration at: each parameter's sample (every
    choice, a range's ends and a few points between) with the others at the lab's defaults,
    then every declared parameter at its first point together, and at its last."""
    try:
        declared = cls.meta.per_student
    except CompmathError:
        return []  # a broken class.toml is lint's to report on its own
    if not declared or not cls.lab.exists():
        return []
    types = {s.name: s.type_name for s in specs_from_source(cls.lab) or []}
    if declaration_problems(declared, types):
        return []  # metadata's checks name what does not fit run()
    found: list[dict[str, Any]] = []
    samples = {own.name: sample(own, types[own.name]) for own in declared}
    for name, values in samples.items():
        found += [{name: value} for value in values]
    if len(samples) > 1:
        found.append({name: values[0] for name, values in samples.items()})
        found.append({name: values[-1] for name, values in samples.items()})
    unique: list[dict[str, Any]] = []
    for params in found:
        if params not in unique:
            unique.append(params)
    return unique


def _shown(params: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in params.items())


def _invalid(points: list[Point], jobs: int) -> list[tuple[Point, str]]:
    """The points at which the course's lab does not give valid outputs, and why."""
    reports = run_at(points, jobs=jobs)
    return [(p, r.full_message) for p, r in zip(points, reports) if r.outcome != Outcome.VALID]


def _remembered(cls: ClassInfo) -> bool:
    """Whether every point of the class's declaration was found valid under the same key as
    the lab checks (the class's files, its part.toml and schema, compmath's code)."""
    from compmath.authoring.lab_checks import CACHE, class_key
    from compmath.cache import read_json

    return read_json(f"{CACHE}/propios-{class_key(cls)}.json") is True


def _remember(cls: ClassInfo) -> None:
    from compmath.authoring.lab_checks import CACHE, class_key
    from compmath.cache import write_json

    write_json(f"{CACHE}/propios-{class_key(cls)}.json", True)


def own_problems(course: Course, jobs: int) -> list[Problem]:
    """Every class whose declared numbers of their own include a point where its lab fails.
    A class whose points were all valid is remembered, as the lab checks are (and on the same
    condition: its labs ran confined); one with a problem is run again next time."""
    from compmath.authoring.lab_checks import Round

    declared = {c.id: own_points(c) for c in course.classes}
    pending = [c for c in course.classes if declared[c.id] and not _remembered(c)]
    points = [(cls, params) for cls in pending for params in declared[cls.id]]
    round_ = Round()
    invalid = _invalid(points, jobs)
    if round_.confined():
        failing = {cls.id for (cls, _), _ in invalid}
        for cls in pending:
            if cls.id not in failing:
                _remember(cls)
    problems = []
    for (cls, params), why in invalid:
        problems.append(
            Problem(
                course.rel(cls.meta_path),
                f"[practica.por_alumno]: con {_shown(params)} el laboratorio no da salidas "
                f"válidas: {why}",
                "estrecha el rango o las opciones, o haz que el laboratorio (y su esquema) "
                "valgan ahí",
            )
        )
    return problems


def private_problems(course: Course, path: Path, jobs: int, *, run_labs: bool) -> list[Problem]:
    """The private variants file: its format and, with `run_labs`, the course's lab at each."""
    from compmath.holes.private import private_problems as file_problems

    found, problems = file_problems(path, course)
    if problems or not run_labs:
        return problems
    by_number = {c.number: c for c in course.classes}
    points = [
        (by_number[number], dict(params))
        for number, variants in found.by_class.items()
        for params in variants
    ]
    for (cls, params), why in _invalid(points, jobs):
        problems.append(
            Problem(
                str(path),
                f"[{cls.number}]: con {_shown(params)} el laboratorio del curso no da salidas "
                f"válidas: {why}",
                "cambia esa variante privada (o el laboratorio) hasta que valga",
            )
        )
    return problems
