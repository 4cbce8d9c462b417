"""Lint's checks of one class that run no lab, remembered by the files they read.

A class's files (lab_checks.class_key: its folder, its part.toml, compmath's own source),
curso.toml, the names of every class (a notebook links its neighbours) and the class's
committed notebooks decide what these checks find in it: its files against each other, its
imports, its content, its website prose and formulas, its notebooks. What they found is kept
in lint's cache under that key, each check's problems apart so that lint prints them in the
order it always has. The versions of the libraries that read the prose
and the schemas, and the course's folder, are in the key too. A class whose notebooks could not
be made (a recording that failed), or whose recordings ran a lab unconfined, is not remembered;
an entry that cannot be read is checked again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from compmath.course.tree import ClassInfo, Course
from compmath.errors import Problem
from compmath.errors_es import Located

FORMAT = 1
# what reads the prose, the formulas and the schemas: another version may find otherwise
LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "math-core", "jsonschema", "pygments", "jinja2")


@dataclass
class Static:
    """What the checks that run no lab found in one class, check by check."""

    files: list[Problem] = field(default_factory=list)  # its files against each other
    imports: list[Problem] = field(default_factory=list)
    content: list[Problem] = field(default_factory=list)
    web: list[Problem] = field(default_factory=list)  # its prose, fields and formulas
    notebooks: list[Problem] = field(default_factory=list)  # committed, missing or stale


def static_key(course: Course, cls: ClassInfo) -> str:
    """The digest of everything these checks read for `cls`."""
    from compmath.authoring.lab_checks import class_key, digest_files
    from compmath.site.checks import course_notebooks

    digest = hashlib.sha256(f"{FORMAT}\0{class_key(cls)}\0{_versions()}\0{course.root}".encode())
    digest.update("\0".join(c.id for c in course.classes).encode())
    committed = [course.root / path for path, _ in course_notebooks(cls)]
    digest_files(digest, [course.meta_path, *committed], course.root)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _versions() -> str:
    from importlib import metadata

    found = []
    for name in LIBRARIES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=-")
    return ",".join(found)


def _row(problem: Problem) -> list[Any]:
    located = list(problem.located) if problem.located is not None else None
    return [problem.file, problem.what, problem.hint, located]


def _problem(row: list[Any]) -> Problem:
    file, what, hint, located = row
    if located is None:
        return Problem(str(file), str(what), str(hint))
    shown, line, column, text = located
    where = Located(str(shown), _number(line), _number(column), str(text))
    return Problem(str(file), str(what), str(hint), where)


def _number(value: Any) -> int | None:
    return None if value is None else int(value)


def remembered(key: str) -> Static | None:
    """What the checks found under `key`, or None (not kept, or unreadable)."""
    from compmath.authoring.lab_checks import CACHE
    from compmath.cache import read_json

    data = read_json(f"{CACHE}/estatico-{key}.json")
    try:
        return Static(**{f.name: [_problem(r) for r in data[f.name]] for f in fields(Static)})
    except (TypeError, KeyError, ValueError):
        return None


def remember(key: str, found: Static) -> None:
    from compmath.authoring.lab_checks import CACHE
    from compmath.cache import write_json

    data = {f.name: [_row(p) for p in getattr(found, f.name)] for f in fields(Static)}
    write_json(f"{CACHE}/estatico-{key}.json", data)
