"""What lint checks of the contracts compmath carries: no course copy of one, and lab imports.

A lab imports numpy and the standard library only (plus what curso.toml's
`importaciones_permitidas` allows): a lab that imports scipy works on the author's machine and
fails on a student's. The imports are read from the source (never run), also those inside
functions and the constant names given to `importlib.import_module` or `__import__`.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from compmath import contracts
from compmath.course.syntax import parse
from compmath.course.tree import Course
from compmath.errors import CompmathError, Problem
from compmath.errors_es import Located

ALWAYS = frozenset({"numpy", "compmath"})  # compmath: the `__main__` helper (compmath.labmain)
DYNAMIC = frozenset({"import_module", "__import__"})


def course_copies(course: Course) -> list[Problem]:
    """A schemas/<contract>.schema.json in the course: compmath never reads it."""
    found = []
    for name in contracts.NAMES:
        copy = course.root / "schemas" / contracts.file_name(name)
        if copy.exists():
            found.append(
                Problem(
                    course.rel(copy),
                    "es una copia de un contrato que trae compmath, y no se lee",
                    "bórrala: los archivos del curso se validan siempre con el de compmath",
                )
            )
    return found


def _dynamic(node: ast.Call) -> str | None:
    """The module a call `importlib.import_module("x")` / `__import__("x")` names, if constant."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in DYNAMIC or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""


def imported(source: str) -> list[tuple[str, int]]:
    """(module as written, line) of every import in a lab's source; "" for a relative or
    computed one."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            found.append((node.module or "" if node.level == 0 else "", node.lineno))
        elif isinstance(node, ast.Call) and (module := _dynamic(node)) is not None:
            found.append((module, node.lineno))
    return sorted(found, key=lambda pair: pair[1])


def import_problems(course: Course) -> list[Problem]:
    """Every import of a lab outside numpy, the standard library and the course's allowed."""
    allowed = allowed_modules(course)
    found: list[Problem] = []
    for cls in course.classes:
        found += lab_import_problems(course, cls.lab, allowed)
    return found


def allowed_modules(course: Course) -> frozenset[str]:
    """What a lab may import: numpy, the standard library and the course's allowed."""
    try:
        extra = course.meta.allowed_imports
    except CompmathError:  # a broken curso.toml is reported on its own
        extra = ()
    return ALWAYS | frozenset(sys.stdlib_module_names) | frozenset(extra)


def lab_import_problems(course: Course, lab: Path, allowed: frozenset[str]) -> list[Problem]:
    """Each import of one lab outside `allowed`."""
    try:
        source = lab.read_text(encoding="utf-8")
        modules = imported(source)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return []  # unreadable or not Python: the lab's own run says so
    found = []
    for module, line in modules:
        if module and module.split(".")[0] in allowed:
            continue
        what = (
            f"la línea {line} importa {module}, que no es numpy ni de la biblioteca estándar"
            if module
            else f"la línea {line} importa un módulo relativo o calculado"
        )
        hint = (
            "un laboratorio usa numpy y la biblioteca estándar; si el curso lo necesita, "
            f'añádelo en curso.toml: importaciones_permitidas = ["{module.split(".")[0]}"]'
            if module
            else "importa por su nombre numpy o un módulo de la biblioteca estándar"
        )
        text = source.splitlines()[line - 1] if line <= len(source.splitlines()) else ""
        found.append(Problem(course.rel(lab), what, hint, Located(what, line, None, text)))
    return found
