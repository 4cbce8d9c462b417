"""Numbers of their own: each student's parameters, derived from (course, class, student id).

A class declares in class.toml, under `[practica.por_alumno]`, a choice or a range for some of
run()'s parameters:

    [practica.por_alumno]
    dimension = { opciones = [6, 8, 10, 12] }
    posiciones = { min = 4, max = 8 }          # int: every integer from 4 to 8
    escala = { min = 0.5, max = 2.0, paso = 0.25 }

A student's value of each is drawn from SHA-256 of (the course's title, the class number, the
student id, the parameter name), never from Python's `hash()`: the same on every machine and
every Python, so `compmath grade` re-derives what `compmath practice start --alumno ID` gave,
and no per-student file is kept anywhere. The numbers are not secret (anyone with the course
can derive them); they are only different, so one student's literals are wrong for another.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from compmath.course.records import Hole, OwnParam
from compmath.errors import CompmathError

SALT = "compmath-por-alumno-1"  # changing it changes every student's numbers
FLOAT_POINTS = 1000  # a float range without `paso`: one of 1001 evenly spaced points
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
MAX_ID = 200


def student_key(student: str) -> str:
    """The student id as the derivation reads it: NFC, trimmed, case-folded (`Ana` = `ana`)."""
    return unicodedata.normalize("NFC", student).strip().casefold()


def check_student(student: str) -> str:
    """The id a student typed, checked (one line, printable, not too long); raise if not."""
    key = student_key(student)
    if not key or len(key) > MAX_ID or not key.isprintable():
        raise CompmathError(
            f"«{student}» no sirve como id de alumno",
            "usa el nombre de tu carpeta de entrega, p. ej.: --alumno ana.garcia",
        )
    return key


def _draw(course: str, number: int, student: str, name: str) -> int:
    text = json.dumps([SALT, course, number, student_key(student), name], ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def _ends(own: OwnParam) -> tuple[float, float]:
    """A range's min and max (the schema requires both when there are no options)."""
    return own.low or 0, own.high or 0


def _step(own: OwnParam, integer: bool) -> float:
    if own.step is not None:
        return own.step
    if integer:
        return 1
    low, high = _ends(own)
    return (high - low) / FLOAT_POINTS


def points(own: OwnParam, type_name: str) -> list[Any]:
    """Every value `own` can give, in order (a float range: its grid of `paso` or 1001 points)."""
    if own.options:
        return list(own.options)
    low, high = _ends(own)
    integer = type_name == "int"
    step = _step(own, integer)
    count = math.floor((high - low) / step + 1e-9) + 1
    if integer:
        return [int(low + k * step) for k in range(count)]
    return [round(low + k * step, 12) for k in range(count)]


def _value(own: OwnParam, type_name: str, draw: int) -> Any:
    every = points(own, type_name)
    return every[draw % len(every)]


def student_params(
    course: str, number: int, student: str, declared: Sequence[OwnParam], types: Mapping[str, str]
) -> dict[str, Any]:
    """The student's value of each declared parameter (`types`: run()'s type names by name),
    in the order class.toml declares them. Callable by anyone who needs them: practice, grade,
    lint's checks of the points of a range."""
    return {
        own.name: _value(own, types.get(own.name, ""), _draw(course, number, student, own.name))
        for own in declared
    }


def sample(own: OwnParam, type_name: str, count: int = 5) -> list[Any]:
    """The values lint runs a declaration at: every choice; a range's ends and a few between."""
    every = points(own, type_name)
    if own.options or len(every) <= count:
        return every
    picks = {round(k * (len(every) - 1) / (count - 1)) for k in range(count)}
    return [every[k] for k in sorted(picks)]


def shown_value(value: Any) -> str:
    """A parameter's value in prose: booleans as `true`/`false`, numbers with a decimal comma."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        from compmath.wording import number

        return number(value)
    return str(value)


def filled(text: str, values: Mapping[str, Any]) -> str:
    """A task or hint with each `{{nombre}}` of a parameter replaced by the student's value."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        return shown_value(values[name]) if name in values else match.group(0)

    return PLACEHOLDER.sub(one, text)


def filled_hole(hole: Hole, values: Mapping[str, Any]) -> Hole:
    """A hole whose task and hints have their {{nombre}} filled in with `values`."""
    from dataclasses import replace

    hints = tuple(filled(h, values) for h in hole.hints)
    return replace(hole, task=filled(hole.task, values), hints=hints)


def placeholders(text: str) -> list[str]:
    """The parameter names a task or hint writes as `{{nombre}}`."""
    return PLACEHOLDER.findall(text)


_KINDS = {"int": (int,), "float": (int, float), "bool": (bool,), "str": (str,)}


def _fits(value: Any, type_name: str) -> bool:
    kinds = _KINDS.get(type_name, ())
    return isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))


def declaration_problems(declared: Sequence[OwnParam], types: Mapping[str, str]) -> list[str]:
    """What is wrong with `[practica.por_alumno]` against run()'s typed parameters (Spanish)."""
    found = []
    for own in declared:
        kind = types.get(own.name)
        if kind is None:
            names = ", ".join(types) or "(run() no tiene parámetros)"
            found.append(f"«{own.name}» no es parámetro de run() (parámetros: {names})")
            continue
        if own.options:
            wrong = [v for v in own.options if not _fits(v, kind)]
            if wrong:
                found.append(f"«{own.name}» es {kind} y sus opciones incluyen {wrong[0]!r}")
            continue
        if kind not in ("int", "float"):
            found.append(f"«{own.name}» es {kind}: un rango (min, max) es solo para int o float")
            continue
        ends = [v for v in (own.low, own.high, own.step) if v is not None]
        if kind == "int" and not all(_fits(v, "int") for v in ends):
            found.append(f"«{own.name}» es int: min, max y paso deben ser enteros")
        elif own.low is not None and own.high is not None and own.low >= own.high:
            found.append(f"«{own.name}»: min ({own.low}) debe ser menor que max ({own.high})")
    return found
