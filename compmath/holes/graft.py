"""Graft a student's holes into the course's lab: one program per written hole, the rest static.

The course's lab is read from the course (never from the student's folder). For hole k the
program is that lab with its solution region k replaced by the student's hole k, re-indented;
everything else in the student's file is ignored, and only compared with the exercise to say
whether it was changed. A hole still open, damaged markers or code that does not parse are
judged here, without running anything. A hole's code is parsed even while its
`raise NotImplementedError` is still there (what is written above it may not parse), and the
student's whole file is parsed too: its first syntax error is said with its line whatever the
holes' state; caused outside every hole, it is said beside the verdict, which it cannot change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.errors_es import syntax_problem
from compmath.holes.own import with_defaults
from compmath.holes.regions import (
    NOT_DONE,
    HoleError,
    Region,
    exercise_source,
    solution_regions,
    student_holes,
    student_regions,
)
from compmath.holes.variants import Variant


class HoleStatus(StrEnum):
    """Where one hole stands."""

    OPEN = "sin completar"
    RIGHT = "bien"
    WRONG = "mal"  # runs, but an output differs from the course's at some variant
    FAILS = "falla"  # the student's code for it raises, loops, crashes or does not parse
    MISSING = "sin entregar"  # grading: its class's file was not handed in (nor readable)


@dataclass(frozen=True)
class Program:
    """The course's lab with one student hole grafted in."""

    number: int
    source: str
    line_map: dict[int, int]  # a line of the program (1-based) -> the student's line
    tag: str = ""  # the digest of the class's files its verdict depends on (course_tag)

    @cached_property
    def digest(self) -> str:
        """Names the program and everything its verdict depends on (a memo's key; lint's
        mutant check asks for it some ten times a program)."""
        return hashlib.sha256((self.tag + self.source).encode("utf-8")).hexdigest()[:20]

    def key(self, variant: Variant) -> str:
        return f"{self.digest}@{variant.key}"


@dataclass(frozen=True)
class SyntaxSlip:
    """Where the student's lab.py stops being Python: the first error Python reports."""

    line: int  # 1-based, in the student's file
    what: str  # Python's words, in Spanish (errors_es)
    hole: int | None  # the hole whose own code does not parse there; None: caused outside

    @property
    def message(self) -> str:
        return f"error de sintaxis en la línea {self.line} de tu lab.py: {self.what}"


@dataclass(frozen=True)
class Plan:
    """What to run for one student's file, and the holes judged without running."""

    programs: dict[int, Program] = field(default_factory=dict)
    static: dict[int, tuple[HoleStatus, str]] = field(default_factory=dict)
    markers_ok: bool = True
    outside_changed: bool = False
    problem: str = ""  # the course's class cannot make its exercise (lint says why)
    tag: str = ""  # course_tag of the class
    syntax: SyntaxSlip | None = None  # the student's file does not parse (anywhere in it)


@dataclass(frozen=True)
class CourseLab:
    """A class's lab as the course has it: its source, solution regions and exercise."""

    lines: tuple[str, ...]
    regions: tuple[Region, ...]
    exercise: str
    trailing_newline: bool


@lru_cache(maxsize=64)
def _course_lab(path: str, text: str, tasks: tuple[str, ...]) -> CourseLab:
    return CourseLab(
        tuple(text.splitlines()),
        tuple(solution_regions(text)),
        exercise_source(text, list(tasks)),
        text.endswith("\n"),
    )


def course_tag(cls: ClassInfo) -> str:
    """A digest of the class's files a verdict depends on: lab, class.toml, schema, snapshot."""
    digest = hashlib.sha256()
    for path in (cls.lab, cls.meta_path, cls.schema_path, cls.snapshot):
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"-")
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def course_lab(cls: ClassInfo) -> CourseLab:
    """The course's lab of `cls` (read now; parsed once per content)."""
    text = cls.lab.read_text(encoding="utf-8")
    return _course_lab(str(cls.lab), text, tuple(h.task for h in cls.meta.holes))


def _code(lines: tuple[str, ...]) -> list[str]:
    return [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]


def is_open(region: Region) -> bool:
    """No code written yet, or the exercise's `raise NotImplementedError` still there."""
    code = _code(region.body)
    placeholder = f"hueco {region.number} {NOT_DONE}"
    return not code or any(
        s.startswith("raise NotImplementedError(") and placeholder in s for s in code
    )


def _outside(lines: list[str], regions: list[Region]) -> list[str]:
    kept, last = [], 0
    for region in regions:
        kept += lines[last : region.begin + 1]
        last = region.end
    kept += lines[last:]
    return [line.rstrip() for line in kept if line.strip()]


def _graft(lab: CourseLab, region: Region, target: Region, tag: str) -> Program:
    """The course lab with `target`'s body replaced by the student's `region`."""
    body = []
    for line in region.body:
        if line.startswith(region.indent):
            line = target.indent + line[len(region.indent) :]
        body.append(line)
    lines = [*lab.lines[: target.begin + 1], *body, *lab.lines[target.end :]]
    line_map = {target.begin + 2 + i: region.begin + 2 + i for i in range(len(body))}
    text = "\n".join(lines) + ("\n" if lab.trailing_newline else "")
    return Program(region.number, text, line_map, tag)


def _syntax(program: Program) -> str:
    try:
        parse(program.source)
    except SyntaxError as exc:
        line = program.line_map.get(exc.lineno or 0)
        where = f"en la línea {line} de tu lab.py" if line else "al cerrar el hueco"
        what = syntax_problem(exc).what  # Python's words, in Spanish (errors_es)
        return f"error de sintaxis {where}: {what}"
    return ""


def file_syntax(
    student: str, regions: Mapping[int, Region], broken: Collection[int] = ()
) -> SyntaxSlip | None:
    """The first syntax error of the student's whole file, or None; `broken`: the holes whose
    own code does not parse (the error is theirs when it lies in one of them)."""
    try:
        parse(student)
    except SyntaxError as exc:
        line = exc.lineno or 1
        inside = (k for k in broken if regions[k].begin + 1 < line <= regions[k].end)
        return SyntaxSlip(line, syntax_problem(exc, student).what, next(inside, None))
    except ValueError:  # a NUL byte (Python < 3.12 says so with a ValueError): not Python
        return SyntaxSlip(1, "el archivo contiene un carácter nulo", None)
    return None


def restore(cls: ClassInfo) -> str:
    """How a student gets the exercise back: a command, right in the practice screen, in
    `practice check` and in a grading feedback file alike (a key would be one screen's)."""
    return f"compmath practice reset {cls.number} restaura el ejercicio"


def _broken(count: int, why: str) -> Plan:
    static = dict.fromkeys(range(1, count + 1), (HoleStatus.FAILS, why))
    return Plan(static=static, markers_ok=False, outside_changed=True)


def programs_for(cls: ClassInfo, student: str, own: Mapping[str, Any] | None = None) -> Plan:
    """The programs that judge each written hole of `student` (the text of their lab.py);
    `own`: the student's own parameters, the defaults of the exercise they received."""
    count = len(cls.meta.holes)
    try:
        lab = course_lab(cls)
    except (HoleError, SyntaxError, OSError) as exc:
        why = (
            f"el curso no puede generar el ejercicio de {cls.id} ({exc}); compmath lint lo detalla"
        )
        return Plan(static=dict.fromkeys(range(1, count + 1), (HoleStatus.FAILS, why)), problem=why)
    if not student.strip():
        why = f"tu lab.py está vacío; {restore(cls)}"
        return _broken(count, why)
    regions, damaged = student_holes(student)
    markers_ok = not damaged and sorted(regions) == list(range(1, count + 1))
    tag = course_tag(cls)
    ordered = sorted(regions.values(), key=lambda r: r.begin)
    # the exercise as the course makes it, or with the student's own numbers as defaults
    exercises = [lab.exercise, *([with_defaults(lab.exercise, own)] if own else [])]
    mine = _outside(student.splitlines(), ordered) if markers_ok else None
    changed = all(mine != _outside(e.splitlines(), student_regions(e)) for e in exercises)
    programs: dict[int, Program] = {}
    static: dict[int, tuple[HoleStatus, str]] = {}
    broken: set[int] = set()  # the holes whose own code does not parse
    for number in range(1, count + 1):
        region = regions.get(number)
        if number in damaged:
            why = f"las marcas del hueco {number} están dañadas ({damaged[number]}); "
            static[number] = (HoleStatus.FAILS, why + restore(cls))
        elif region is None:
            static[number] = (
                HoleStatus.FAILS,
                f"faltan las marcas ### HUECO {number} ### y ### FIN DEL HUECO {number} ###; "
                + restore(cls),
            )
        else:  # parsed even when open: what is written above its `raise` may not parse
            program = _graft(lab, region, lab.regions[number - 1], tag)
            problem = _syntax(program)
            if problem:
                static[number] = (HoleStatus.FAILS, problem)
                broken.add(number)
            elif is_open(region):
                static[number] = (HoleStatus.OPEN, "")
            else:
                programs[number] = program
    syntax = file_syntax(student, regions, broken)
    return Plan(programs, static, markers_ok, changed, tag=tag, syntax=syntax)
