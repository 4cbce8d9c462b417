"""What a regrade changed: two gradings of the same class compared, student by student and
hole by hole, with why each hole moved (the course, the student's files, the variant, the
output, the values, the tolerance, the error), before the new grades are published."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from compmath.grading.failure import PUBLIC, Failure
from compmath.grading.gradebook import Gradebook
from compmath.grading.records import ClassSpec, HoleGrade, StudentGrade, points_text
from compmath.grading.summary import variant_text
from compmath.holes.variants import Variant, shown_value
from compmath.wording import measure


@dataclass(frozen=True)
class HoleChange:
    """One hole of one student whose grade, state or failure changed."""

    student: str
    class_id: str
    number: int
    before: HoleGrade | None
    after: HoleGrade | None
    why: tuple[str, ...]

    @property
    def moved(self) -> float:
        return (self.after.earned if self.after else 0.0) - (
            self.before.earned if self.before else 0.0
        )


def _state(hole: HoleGrade | None) -> dict[str, Any] | None:
    if hole is None:
        return None
    return {
        "estado": hole.status.value,
        "obtenidos": hole.earned,
        "puntos": hole.points,
        "motivo": hole.reason,
        "fallo": hole.failure.to_dict() if hole.failure else None,
    }


def _where(failure: Failure) -> str:
    where = variant_text(failure)
    return f"{where}, en {failure.path}" if failure.path else f"{where} ({failure.outcome})"


def _failure_why(old: Failure | None, new: Failure | None) -> list[str]:
    """Why two failures of a hole differ, in the instructor's words."""
    if old is None or new is None:
        return []
    why = []
    if (old.kind, old.params) != (new.kind, new.params):
        why.append(f"la variante donde falla: {variant_text(old)} → {variant_text(new)}")
    if old.outcome != new.outcome:
        why.append(f"el resultado: {old.outcome} → {new.outcome}")
    if old.path != new.path:
        why.append(f"la salida que falla: {old.path or '—'} → {new.path or '—'}")
    elif old.path:
        if old.expected != new.expected:
            why.append(f"el valor del curso en {new.path}: {old.expected} → {new.expected}")
        if old.obtained != new.obtained:
            why.append(f"el valor del alumno en {new.path}: {old.obtained} → {new.obtained}")
    if old.tolerance != new.tolerance:
        why.append(f"la tolerancia: {old.tolerance} → {new.tolerance}")
    if old.error != new.error and old.outcome == new.outcome:
        why.append(f"el error: {old.error} → {new.error}")
    return why


def _hole_why(
    old: HoleGrade, new: HoleGrade, still_checked: Callable[[Failure], bool]
) -> list[str]:
    why = []
    if old.status != new.status:
        why.append(f"el estado: {old.status} → {new.status}")
    if old.points != new.points:
        why.append(f"lo que vale el hueco: {points_text(old.points)} → {points_text(new.points)}")
    if old.variants != new.variants:
        why.append(f"con cuántos parámetros se juzga: {old.variants} → {new.variants}")
    elif old.variants_passed != new.variants_passed:
        why.append(
            f"parámetros acertados: {old.variants_passed} → {new.variants_passed} de {new.variants}"
        )
    if old.failure is not None and new.failure is None and not still_checked(old.failure):
        why.append(
            f"ya no se comprueba donde fallaba (esa variante ya no está): {_where(old.failure)}"
        )
    elif old.failure is not None and new.failure is None:
        why.append(f"ya no falla donde fallaba: {_where(old.failure)}")
    elif old.failure is None and new.failure is not None:
        why.append(f"ahora falla: {_where(new.failure)}")
    why += _failure_why(old.failure, new.failure)
    if not why and old.reason != new.reason:
        why.append(f"el motivo: {old.reason or '—'} → {new.reason or '—'}")
    return why


def _student_changes(
    old: StudentGrade,
    new: StudentGrade,
    course_changed: bool,
    checked: dict[str, list[dict[str, Any]] | None],
) -> list[HoleChange]:
    changes = []
    before = {(c.class_id, h.number): h for c in old.classes for h in c.holes}
    after = {(c.class_id, h.number): h for c in new.classes for h in c.holes}
    context = []
    if old.fingerprint != new.fingerprint and not course_changed:
        context.append("cambiaron los archivos de la entrega")
    for key in [*before, *(k for k in after if k not in before)]:
        was, now = before.get(key), after.get(key)
        if was is not None and now is not None:
            why = _hole_why(was, now, partial(_still_checked, checked.get(key[0])))
            if not why:
                continue
        else:
            why = ["el hueco no se corrigió antes" if was is None else "el hueco ya no se corrige"]
        changes.append(HoleChange(new.student, key[0], key[1], was, now, tuple(context + why)))
    return changes


def _still_checked(variants: list[dict[str, Any]] | None, failure: Failure) -> bool:
    """Whether the variant a failure happened at is still one the class checks (the defaults,
    the students' own and private ones are; a [practica] variant only while it is listed)."""
    if failure.kind != PUBLIC or variants is None:
        return True
    return dict(failure.params or {}) in variants


@dataclass(frozen=True)
class Regrade:
    """Two gradings compared."""

    course_before: str
    course_after: str
    changes: tuple[HoleChange, ...]
    added: tuple[str, ...]  # students graded only after
    removed: tuple[str, ...]  # only before
    spec_changes: tuple[str, ...]  # classes, credit, tasks, variants, tolerances, time limit

    @property
    def changed(self) -> bool:
        return bool(self.changes or self.added or self.removed or self.spec_changes)

    def students_moved(self) -> list[str]:
        return sorted({c.student for c in self.changes})

    def to_dict(self) -> dict[str, Any]:
        return {
            "huella_del_curso": {"antes": self.course_before, "despues": self.course_after},
            "curso_cambiado": self.course_before != self.course_after,
            "cambios_en_las_clases": list(self.spec_changes),
            "alumnos_nuevos": list(self.added),
            "alumnos_que_faltan": list(self.removed),
            "alumnos_con_cambios": self.students_moved(),
            "cambios": [
                {
                    "alumno": c.student,
                    "clase": c.class_id,
                    "hueco": c.number,
                    "antes": _state(c.before),
                    "despues": _state(c.after),
                    "diferencia_de_puntos": round(c.moved, 4),
                    "por_que": list(c.why),
                }
                for c in self.changes
            ],
        }


def _params(text: str) -> dict[str, Any]:
    return dict(json.loads(text))


def _variant_changes(was: tuple[str, ...], now: tuple[str, ...]) -> list[str]:
    """A class's [practica] variantes before and after: each removed, added or changed one
    (a removed and an added one with the same parameters, in order, are one changed)."""
    old = [_params(v) for v in was]
    new = [_params(v) for v in now]
    removed = [v for v in old if v not in new]
    added = [v for v in new if v not in old]
    said = []
    while removed and added and removed[0].keys() == added[0].keys():
        a, b = removed.pop(0), added.pop(0)
        moved = ", ".join(
            f"{k} = {shown_value(a[k])} → {shown_value(b[k])}" for k in a if a[k] != b[k]
        )
        said.append(f"cambió la variante {Variant(a).label}: {moved}")
    said += [f"variante quitada (ya no se comprueba): {Variant(v).label}" for v in removed]
    said += [f"variante nueva: {Variant(v).label}" for v in added]
    return said


def _tolerance_changes(
    was: tuple[tuple[str, float, float], ...], now: tuple[tuple[str, float, float], ...]
) -> list[str]:
    old = {name: (atol, rtol) for name, atol, rtol in was}
    new = {name: (atol, rtol) for name, atol, rtol in now}
    said = []
    for name in sorted(old.keys() | new.keys()):
        if old.get(name) == new.get(name):
            continue
        whose = f"la tolerancia de la salida {name}" if name else "la tolerancia de la clase"
        shown = [
            f"atol {t[0]:g}, rtol {t[1]:g}" if t else "la de la clase"
            for t in (old.get(name), new.get(name))
        ]
        said.append(f"{whose}: {shown[0]} → {shown[1]}")
    return said


def _spec_changes(old: Gradebook, new: Gradebook) -> list[str]:
    before = {s.class_id: s for s in old.specs}
    after = {s.class_id: s for s in new.specs}
    said = [f"la clase {c} ya no se corrige" for c in before if c not in after]
    said += [f"la clase {c} se corrige ahora" for c in after if c not in before]
    limits = set()
    for cid in sorted(before.keys() & after.keys()):
        was, now = before[cid], after[cid]
        if was.credit != now.credit:
            said.append(f"{cid}: el crédito {was.credit} → {now.credit}")
        if was.tasks != now.tasks:
            said.append(f"{cid}: cambiaron las tareas de los huecos")
        if was.variants is not None and now.variants is not None:
            said += [f"{cid}: {w}" for w in _variant_changes(was.variants, now.variants)]
        if was.tolerances is not None and now.tolerances is not None:
            said += [f"{cid}: {w}" for w in _tolerance_changes(was.tolerances, now.tolerances)]
        if was.timeout is not None and now.timeout is not None and was.timeout != now.timeout:
            limits.add(f"el límite de tiempo: {measure(was.timeout)} s → {measure(now.timeout)} s")
    return sorted(said) + sorted(limits)


def _checked(specs: list[ClassSpec]) -> dict[str, list[dict[str, Any]] | None]:
    """Each class's [practica] variantes, parsed (None: not recorded)."""
    return {
        s.class_id: None if s.variants is None else [_params(v) for v in s.variants] for s in specs
    }


def compare(old: Gradebook, new: Gradebook) -> Regrade:
    """What changed from grading `old` to grading `new`, per student and hole."""
    course_changed = old.course != new.course
    before = {g.student: g for g in old.grades}
    after = {g.student: g for g in new.grades}
    changes: list[HoleChange] = []
    checked = _checked(new.specs)
    for student in sorted(before.keys() & after.keys()):
        changes += _student_changes(before[student], after[student], course_changed, checked)
    return Regrade(
        old.course,
        new.course,
        tuple(changes),
        tuple(sorted(after.keys() - before.keys())),
        tuple(sorted(before.keys() - after.keys())),
        tuple(_spec_changes(old, new)),
    )
