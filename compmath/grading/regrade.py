"""What a regrade changed: two gradings of the same class compared, student by student and
hole by hole, with why each hole moved (the course, the student's files, the variant, the
output, the values, the tolerance, the error), before the new grades are published."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compmath.grading.failure import Failure
from compmath.grading.gradebook import Gradebook
from compmath.grading.records import HoleGrade, StudentGrade, points_text
from compmath.grading.summary import variant_text


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


def _hole_why(old: HoleGrade, new: HoleGrade) -> list[str]:
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
    if old.failure is not None and new.failure is None:
        why.append(f"ya no falla donde fallaba: {_where(old.failure)}")
    elif old.failure is None and new.failure is not None:
        why.append(f"ahora falla: {_where(new.failure)}")
    why += _failure_why(old.failure, new.failure)
    if not why and old.reason != new.reason:
        why.append(f"el motivo: {old.reason or '—'} → {new.reason or '—'}")
    return why


def _student_changes(
    old: StudentGrade, new: StudentGrade, course_changed: bool
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
            why = _hole_why(was, now)
            if not why:
                continue
        else:
            why = ["el hueco no se corrigió antes" if was is None else "el hueco ya no se corrige"]
        changes.append(HoleChange(new.student, key[0], key[1], was, now, tuple(context + why)))
    return changes


@dataclass(frozen=True)
class Regrade:
    """Two gradings compared."""

    course_before: str
    course_after: str
    changes: tuple[HoleChange, ...]
    added: tuple[str, ...]  # students graded only after
    removed: tuple[str, ...]  # only before
    spec_changes: tuple[str, ...]  # classes, points, credit

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


def _spec_changes(old: Gradebook, new: Gradebook) -> list[str]:
    before = {s.class_id: s for s in old.specs}
    after = {s.class_id: s for s in new.specs}
    said = [f"la clase {c} ya no se corrige" for c in before if c not in after]
    said += [f"la clase {c} se corrige ahora" for c in after if c not in before]
    for cid in before.keys() & after.keys():
        was, now = before[cid], after[cid]
        if was.credit != now.credit:
            said.append(f"{cid}: el crédito {was.credit} → {now.credit}")
        if was.tasks != now.tasks:
            said.append(f"{cid}: cambiaron las tareas de los huecos")
    return sorted(said)


def compare(old: Gradebook, new: Gradebook) -> Regrade:
    """What changed from grading `old` to grading `new`, per student and hole."""
    course_changed = old.course != new.course
    before = {g.student: g for g in old.grades}
    after = {g.student: g for g in new.grades}
    changes: list[HoleChange] = []
    for student in sorted(before.keys() & after.keys()):
        changes += _student_changes(before[student], after[student], course_changed)
    return Regrade(
        old.course,
        new.course,
        tuple(changes),
        tuple(sorted(after.keys() - before.keys())),
        tuple(sorted(before.keys() - after.keys())),
        tuple(_spec_changes(old, new)),
    )
