"""What `compmath diff` found, as records: how each output and each class moved between a git
revision's snapshots and the working tree's (their JSON included; no comparing, no printing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from compmath.judging.compare import Difference


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


def short(x: float | None) -> float | None:
    """A measured change to 6 significant digits, for the JSON."""
    return None if x is None else float(f"{x:.6g}")


def element_dict(d: Difference) -> dict[str, Any]:
    """One element that moved, as `diff --json --all` lists it."""
    return {
        "ruta": d.path,
        "tipo": str(d.kind),
        "antes": d.expected,
        "despues": d.obtained,
        "cambio_absoluto": short(d.abs_error),
        "cambio_relativo": short(d.relative),
        "tolerancia": short(d.tolerance),
        "real": not d.within,
    }


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
    elements: tuple[Difference, ...] = ()  # every element that moved (`diff --all`)

    @property
    def real(self) -> bool:
        return self.beyond > 0

    def to_dict(self, *, elements: bool = False) -> dict[str, Any]:
        """The JSON of one change; with `elements`, every element that moved as well."""
        body = {
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
        if elements:
            body["elementos"] = [element_dict(d) for d in self.elements]
        return body


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

    def to_dict(self, *, elements: bool = False) -> dict[str, Any]:
        return {
            "numero": self.number,
            "clase": self.class_id,
            "titulo": self.title,
            "estado": str(self.status),
            "instantanea": self.snapshot,
            "real": self.real,
            "orden_cambiado": self.order_changed,
            "num_salidas": self.count,
            "salidas": [o.to_dict(elements=elements) for o in self.outputs],
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

    def to_dict(self, *, elements: bool = False) -> dict[str, Any]:
        """The JSON of `compmath diff --json` (contracts/diff.schema.json); `elements` for --all."""
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
            "clases": [c.to_dict(elements=elements) for c in self.classes],
        }
