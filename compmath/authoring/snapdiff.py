"""Compare each class's snapshot at a git revision with the working tree, as data (no printing)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from compmath.authoring.snaprev import at_revision, git_toplevel, resolve_revision, snapshots_at
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.judging.compare import Difference, DifferenceKind, compare, key_order_differs
from compmath.judging.snapshot import read_snapshot


class ChangeKind(StrEnum):
    """How one output moved between two snapshots (the Spanish word is what the JSON says)."""

    NEW = "nueva"
    DELETED = "eliminada"
    TYPE = "tipo"
    SHAPE = "forma"
    VALUE = "valor"

    @property
    def label(self) -> str:
        return {
            ChangeKind.NEW: "salida nueva",
            ChangeKind.DELETED: "salida eliminada",
            ChangeKind.TYPE: "cambia el tipo",
            ChangeKind.SHAPE: "cambia la forma",
            ChangeKind.VALUE: "cambia el valor",
        }[self]


class ClassStatus(StrEnum):
    """How a class's snapshot moved between the revision and the working tree."""

    NEW = "nueva"
    DELETED = "eliminada"
    CHANGED = "cambiada"
    UNCHANGED = "sin_cambios"


@dataclass(frozen=True)
class OutputChange:
    """How one output moved: its worst element's path, both values, the change and the tolerance."""

    name: str
    kind: ChangeKind
    path: str
    before: Any
    after: Any
    abs_change: float | None = None
    rel_change: float | None = None
    tolerance: float | None = None
    changed: int = 1  # leaves that moved
    beyond: int = 1  # of those, how many beyond tolerance (or structural)
    detail: str = ""

    @property
    def real(self) -> bool:
        return self.beyond > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "salida": self.name,
            "cambio": str(self.kind),
            "ruta": self.path,
            "antes": self.before,
            "despues": self.after,
            "cambio_absoluto": self.abs_change,
            "cambio_relativo": self.rel_change,
            "tolerancia": self.tolerance,
            "elementos_cambiados": self.changed,
            "fuera_de_tolerancia": self.beyond,
            "real": self.real,
            "detalle": self.detail,
        }


@dataclass(frozen=True)
class ClassDiff:
    """One class's snapshot at both ends: status nueva, eliminada, cambiada or sin_cambios."""

    number: int
    class_id: str
    title: str
    status: ClassStatus
    snapshot: str  # path relative to the git top level
    outputs: list[OutputChange] = field(default_factory=list)
    order_changed: bool = False
    count: int = 0  # outputs in the snapshot (the deleted one for a deleted class)

    @property
    def real(self) -> bool:
        return (
            self.status in (ClassStatus.NEW, ClassStatus.DELETED)
            or self.order_changed
            or any(o.real for o in self.outputs)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "numero": self.number,
            "clase": self.class_id,
            "titulo": self.title,
            "estado": str(self.status),
            "instantanea": self.snapshot,
            "real": self.real,
            "orden_cambiado": self.order_changed,
            "num_salidas": self.count,
            "salidas": [o.to_dict() for o in self.outputs],
        }


@dataclass(frozen=True)
class SnapshotDiff:
    """Every selected class compared between revision `base` (commit `commit`) and the tree."""

    base: str
    commit: str
    classes: list[ClassDiff]

    @property
    def real(self) -> bool:
        return any(c.real for c in self.classes)

    def with_status(self, status: ClassStatus) -> list[ClassDiff]:
        return [c for c in self.classes if c.status == status]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of `compmath diff --json` (schemas/diff.schema.json)."""
        changed = self.with_status(ClassStatus.CHANGED)
        summary = {
            "clases": len(self.classes),
            "cambiadas": len(changed),
            "nuevas": len(self.with_status(ClassStatus.NEW)),
            "eliminadas": len(self.with_status(ClassStatus.DELETED)),
            "sin_cambios": len(self.with_status(ClassStatus.UNCHANGED)),
            "solo_ruido": sum(not c.real for c in changed),
        }
        return {
            "version": 1,
            "base": self.base,
            "commit": self.commit,
            "hay_cambios_reales": self.real,
            "resumen": summary,
            "clases": [c.to_dict() for c in self.classes],
        }


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    return 1


def _severity(d: Difference) -> tuple[bool, float, float]:
    ratio = math.inf if d.abs_error is None or not d.tolerance else d.abs_error / d.tolerance
    return (not d.within, ratio, d.abs_error or 0.0)


def _short(x: float | None) -> float | None:
    return None if x is None else float(f"{x:.6g}")


def _at(value: Any, path: str) -> Any:
    """The element at a compare() path such as `salida.x.y[2]` within the output `value`."""
    for key, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path)[1:]:
        value = value[int(index)] if index else value[key]
    return value


def _output_change(name: str, before: Any, after: Any, diffs: list[Difference]) -> OutputChange:
    beyond = sum(not d.within for d in diffs)
    structural = [d for d in diffs if d.kind != DifferenceKind.VALUE]
    if structural:
        worst = next((d for d in structural if d.kind == DifferenceKind.TYPE), structural[0])
        detail = {
            DifferenceKind.TYPE: "cambia el tipo",
            DifferenceKind.LENGTH: f"longitud {worst.expected} → {worst.obtained}",
            DifferenceKind.MISSING: "desaparece una clave",
            DifferenceKind.EXTRA: "aparece una clave",
        }[worst.kind]
        old, new = worst.expected, worst.obtained
        if worst.kind == DifferenceKind.LENGTH:  # compare() reports the lengths; show the lists
            try:
                old, new = _at(before, worst.path), _at(after, worst.path)
            except (KeyError, IndexError, TypeError):
                pass
        kind = ChangeKind.TYPE if worst.kind == DifferenceKind.TYPE else ChangeKind.SHAPE
        return OutputChange(
            name, kind, worst.path, old, new, changed=len(diffs), beyond=beyond, detail=detail
        )
    worst = max(diffs, key=_severity)
    numeric = isinstance(worst.expected, (int, float)) and not isinstance(worst.expected, bool)
    rel = (
        worst.abs_error / abs(worst.expected)
        if (numeric and worst.abs_error is not None and worst.expected)
        else None
    )
    leaves = _leaves(before)
    detail = f"{len(diffs)} de {leaves} elementos cambian" if leaves > 1 else ""
    if leaves > 1 and 0 < beyond < len(diffs):
        detail += f", {beyond} fuera de tolerancia"
    return OutputChange(
        name,
        ChangeKind.VALUE,
        worst.path,
        worst.expected,
        worst.obtained,
        _short(worst.abs_error),
        _short(rel),
        _short(worst.tolerance),
        len(diffs),
        beyond,
        detail,
    )


def diff_outputs(
    course: Course, cls: ClassInfo, base: dict[str, Any], work: dict[str, Any]
) -> list[OutputChange]:
    """Every output that moved, in snapshot order (new ones last), with `run`'s tolerances."""
    default, per_output = cls.meta.tolerances()
    changes = []
    for name in dict.fromkeys([*base, *work]):
        path = f"salida.{name}"
        if name not in work:
            changes.append(OutputChange(name, ChangeKind.DELETED, path, base[name], None))
        elif name not in base:
            changes.append(OutputChange(name, ChangeKind.NEW, path, None, work[name]))
        elif diffs := compare(
            {name: base[name]}, {name: work[name]}, default, per_output, include_within=True
        ):
            changes.append(_output_change(name, base[name], work[name], diffs))
    return changes


def _pick(course: Course, names: list[str], at_base: dict[int, tuple[str, str]]) -> list[int]:
    """The numbers of the classes named (a deleted class by its old name too), or all of them."""
    if not names:
        return sorted({c.number for c in course.select([])} | set(at_base))
    picked = []
    for name in names:
        try:
            picked.append(course.resolve(name).number)
        except CompmathError:
            text = name.strip()
            gone = [n for n, (cid, _) in at_base.items() if text in (str(n), cid, cid[4:])]
            if not gone:
                raise
            picked.append(gone[0])
    return list(dict.fromkeys(picked))


def diff_snapshots(course: Course, names: list[str], base: str = "HEAD") -> SnapshotDiff:
    """Compare the selected classes' snapshots at revision `base` with the working tree."""
    top = git_toplevel(course.root)
    commit = resolve_revision(top, base)
    at_base = snapshots_at(top, commit, (course.root / "classes").relative_to(top).as_posix())
    here = {c.number: c for c in course.classes}
    where_base = f"en la revisión {base} ({commit[:7]})"
    result = []
    for number in _pick(course, names, at_base):
        cls = here.get(number)
        old = at_base.get(number)
        rel = cls.snapshot.relative_to(top).as_posix() if cls else ""
        found = read_snapshot(cls.snapshot, f"{rel} del árbol de trabajo", number) if cls else None
        if cls is None or found is None:
            if old is not None:
                data = at_revision(top, commit, old[1], where_base)
                title = cls.title if cls else old[0][4:].replace("-", " ").capitalize()
                result.append(
                    ClassDiff(number, old[0], title, ClassStatus.DELETED, old[1], count=len(data))
                )
            continue
        work = found[1]
        if old is None:
            result.append(
                ClassDiff(number, cls.id, cls.title, ClassStatus.NEW, rel, count=len(work))
            )
            continue
        before = at_revision(top, commit, old[1], where_base)
        outputs = diff_outputs(course, cls, before, work)
        order = key_order_differs(before, work)
        status = ClassStatus.CHANGED if outputs or order else ClassStatus.UNCHANGED
        result.append(ClassDiff(number, cls.id, cls.title, status, rel, outputs, order, len(work)))
    return SnapshotDiff(base, commit, result)
