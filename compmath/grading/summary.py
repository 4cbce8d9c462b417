"""The class at a glance: per class and hole, how many passed, failed, left it open, ran out of
time, and what the class gets wrong most, with the students behind each.

Built from the students' records alone (informe.json's `alumnos`), so `grade`, `grade merge`
and `grade resumen NOTAS/` agree. A failure is grouped by what it is: a wrong output at a
variant, an exception with its numbers taken out (`index N is out of bounds`), a time limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from compmath.grading.failure import DEFAULTS, OWN, PRIVATE, Failure
from compmath.grading.records import ClassSpec, HoleGrade, StudentGrade
from compmath.holes.graft import HoleStatus
from compmath.holes.variants import Variant
from compmath.wording import count

TIMEOUT = "tiempo_agotado"
COUNTED = ("bien", "mal", "falla", "tiempo_agotado", "sin_completar", "sin_entregar")
COMMON = 10  # the headline: the most common failures of the whole class
PER_HOLE = 3  # under each hole
NUMBER = re.compile(r"0x[0-9a-fA-F]+|[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
LABEL = re.compile(r"^con (?:los parámetros por defecto|tus parámetros \(.*?\)|[^:]*?): ")
ERROR_CHARS = 160
WRONG_OUTCOMES = ("difiere", "esquema_invalido")


def normalised(text: str) -> str:
    """A message without its numbers (each becomes N) and on one line: one group per error."""
    return " ".join(NUMBER.sub("N", text).split())[:ERROR_CHARS]


def variant_text(failure: Failure) -> str:
    """The variant a failure happened at, as an instructor reads it."""
    if failure.kind == DEFAULTS:
        return "con los parámetros por defecto"
    if failure.kind == OWN:
        return "con los parámetros propios de cada alumno"
    if failure.kind == PRIVATE:
        return "con una variante privada"
    return Variant(dict(failure.params or {})).label


@dataclass(frozen=True)
class Group:
    """Students who failed one hole the same way."""

    what: str  # «salida», «esquema», «excepcion», «tiempo», «otro»
    output: str
    variant: str
    error: str
    students: tuple[str, ...]

    def to_dict(self, of: int) -> dict[str, Any]:
        return {
            "tipo": self.what,
            "salida": self.output,
            "variante": self.variant,
            "error": self.error,
            "cuantos": len(self.students),
            "porcentaje": round(100 * len(self.students) / of, 1) if of else 0.0,
            "alumnos": list(self.students),
        }


def _key(hole: HoleGrade) -> tuple[str, str, str, str] | None:
    """How a failed hole is grouped: (what, output, variant, error); None when it passed."""
    failure = hole.failure
    if hole.status in (HoleStatus.RIGHT, HoleStatus.OPEN, HoleStatus.MISSING):
        return None
    if failure is None:  # judged without running: a syntax error, damaged markers
        return ("otro", "", "", normalised(LABEL.sub("", hole.reason)))
    variant = variant_text(failure)
    if failure.outcome == TIMEOUT:
        return ("tiempo", "", "", "")
    if failure.outcome in WRONG_OUTCOMES:
        if failure.output:
            return ("salida", failure.output, variant, "")
        return ("esquema", "", variant, "")
    what = "excepcion" if failure.outcome == "excepcion" else "otro"  # a crash, a limit
    return (what, "", "", normalised(failure.error or LABEL.sub("", hole.reason)))


def _state(hole: HoleGrade) -> str:
    if hole.failure is not None and hole.failure.outcome == TIMEOUT:
        return "tiempo_agotado"
    counted = {
        HoleStatus.RIGHT: "bien",
        HoleStatus.WRONG: "mal",
        HoleStatus.OPEN: "sin_completar",
        HoleStatus.MISSING: "sin_entregar",
    }
    return counted.get(hole.status, "falla")


@dataclass
class HoleSummary:
    number: int
    task: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTED, 0))
    groups: list[Group] = field(default_factory=list)


def _groups(found: dict[tuple[str, str, str, str], list[str]]) -> list[Group]:
    groups = [Group(*key, tuple(sorted(students))) for key, students in found.items()]
    return sorted(groups, key=lambda g: (-len(g.students), g.what, g.output, g.variant, g.error))


def hole_summaries(
    specs: list[ClassSpec], grades: list[StudentGrade]
) -> list[tuple[ClassSpec, list[HoleSummary]]]:
    """Per class spec, its holes' summaries (counts and groups, most students first)."""
    out = []
    for spec in specs:
        holes = [HoleSummary(k, t) for k, t in enumerate(spec.tasks, 1)]
        found: list[dict[tuple[str, str, str, str], list[str]]] = [{} for _ in holes]
        for grade in grades:
            cls = next(c for c in grade.classes if c.class_id == spec.class_id)
            for summary, hole, seen in zip(holes, cls.holes, found):
                summary.counts[_state(hole)] += 1
                key = _key(hole)
                if key is not None:
                    seen.setdefault(key, []).append(grade.student)
        for summary, seen in zip(holes, found):
            summary.groups = _groups(seen)
        out.append((spec, holes))
    return out


def class_summary(specs: list[ClassSpec], grades: list[StudentGrade]) -> dict[str, Any]:
    """The class report as data (informe.json's `resumen_por_hueco`), from a gradebook's
    classes and students' records."""
    students = len(grades)
    classes = []
    common: list[tuple[int, dict[str, Any]]] = []
    for spec, holes in hole_summaries(specs, grades):
        entries = []
        for hole in holes:
            groups = [g.to_dict(students) for g in hole.groups]
            entries.append(
                {"numero": hole.number, "tarea": hole.task, **hole.counts, "fallos": groups}
            )
            for group in groups:
                where = {"clase": spec.class_id, "numero": spec.number, "hueco": hole.number}
                common.append((group["cuantos"], {**where, **group}))
        classes.append(
            {"clase": spec.class_id, "numero": spec.number, "titulo": spec.title, "huecos": entries}
        )
    ordered = sorted(common, key=lambda c: -c[0])  # stable: class and hole order among equals
    return {
        "alumnos": students,
        "clases": classes,
        "lo_mas_comun": [c for _, c in ordered[:COMMON]],
    }


def sentence(group: dict[str, Any], code: Callable[[str], str], text: Callable[[str], str]) -> str:
    """One common failure as the instructor reads it: «38 % (5 alumnos) falla `pe` con
    dimension = 16». `code` quotes an output or an error, `text` makes prose safe (Markdown
    escapes for resumen.md, nothing on a screen)."""
    share = f"{_percent(group['porcentaje'])} ({count(group['cuantos'], 'alumno', 'alumnos')})"
    what, variant = group["tipo"], text(group["variante"])
    if what == "salida":
        told = f"falla {code(group['salida'])} {variant}"
    elif what == "esquema":
        told = f"devuelve salidas que no cumplen el esquema {variant}"
    elif what == "tiempo":
        told = "agota el tiempo"
    elif what == "excepcion":
        told = f"lanza {code(group['error'])}"
    else:
        told = f"falla: {code(group['error'])}"
    return f"{share} {told}"


def _percent(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") + " %"


def names(students: Iterable[str], shown: int = 12) -> tuple[list[str], int]:
    """The first `shown` students and how many more there are."""
    listed = list(students)
    return listed[:shown], max(0, len(listed) - shown)
