"""The instructor's private grading variants: a TOML file kept out of what students receive.

    # variantes-privadas.toml: no se publica con el curso
    [323]
    variantes = [
      { dimension = 12 },
      { dimension = 6, posiciones = 7, posicion_lejana = 123 },
    ]

`compmath grade --variantes-privadas RUTA` judges every hole at these too, after the class's
public variants ([practica] variantes, which practice keeps for self-checking); a hole that
hard-codes the outputs at the defaults and the public variants fails there. Checked against
the private-variants contract (compmath.contracts) and each class's run() (names, types), every
problem in Spanish; `compmath lint --variantes-privadas RUTA` also runs the course's labs there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.course import metadata
from compmath.course.params import specs_from_source
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, Problem

SCHEMA = "private-variants"
HINT = (
    "corrígelo; el formato está en private-variants.schema.json (de compmath) y en la guía del "
    "profesor (docs/profesores.md, «Variantes privadas»)"
)


@dataclass(frozen=True)
class PrivateVariants:
    """The private variants read from one file, by class number; `digest` names its content."""

    by_class: dict[int, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    digest: str = ""


def _shown(path: Path) -> str:
    return str(path)


def _class_problems(
    shown: str, course: Course, key: str, entry: Any
) -> tuple[ClassInfo | None, list[Problem]]:
    """One `[NNN]` table: a class of the course with holes, variants of its run()."""
    numbers = {c.number: c for c in course.classes}
    cls = numbers.get(int(key)) if key.isdigit() else None
    if cls is None:
        return None, [Problem(shown, f"[{key}]: el curso no tiene esa clase", HINT)]
    if not cls.meta.holes:
        return None, [Problem(shown, f"[{key}]: la clase {cls.id} no tiene huecos", HINT)]
    variants = entry.get("variantes", []) if isinstance(entry, dict) else []
    specs = {s.name: s.type_name for s in specs_from_source(cls.lab) or []}
    found = metadata.variants_problems(shown, specs, variants, f"privada de {key}")
    public = [dict(v) for v in cls.meta.variants]
    for k, params in enumerate(variants, 1):
        if params in public:
            found.append(
                Problem(
                    shown,
                    f"la variante privada {k} de {key} es también pública ([practica] de su "
                    "class.toml): no oculta nada",
                    "cámbiala por otros valores que los alumnos no tengan",
                )
            )
    return cls, found


def private_problems(path: Path, course: Course) -> tuple[PrivateVariants, list[Problem]]:
    """The file's variants and everything wrong with it (what lint lists, what grade refuses)."""
    shown = _shown(path)
    try:
        raw = path.read_bytes()
        data = metadata.read_toml(path, shown)
    except CompmathError as exc:
        return PrivateVariants(), [Problem(shown, exc.message.removeprefix(f"{shown} "), exc.hint)]
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return PrivateVariants(), [Problem(shown, f"no se puede leer: {reason}", HINT)]
    from compmath import contracts  # the format is compmath's, never the course's copy

    problems = metadata.schema_problems_of(contracts.path(SCHEMA), data, shown, path.name)
    if problems:
        return PrivateVariants(), problems
    by_class: dict[int, tuple[dict[str, Any], ...]] = {}
    for key, entry in data.items():
        cls, found = _class_problems(shown, course, str(key), entry)
        problems += found
        if cls is not None:
            by_class[cls.number] = tuple(dict(v) for v in entry.get("variantes", []))
    digest = hashlib.sha256(raw).hexdigest()
    return PrivateVariants(by_class, digest), problems


def read_private(path: Path, course: Course) -> PrivateVariants:
    """The private variants of `path`; its first problem, as a CompmathError, when it has any."""
    found, problems = private_problems(path, course)
    if problems:
        raise problems[0].error()
    return found
