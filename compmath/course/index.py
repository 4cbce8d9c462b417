"""`compmath list`: the course's index from folder names and metadata, with no lab imported.

Each class.toml contributes its title, level and duration, read as an index (its top-level keys),
and is checked as `run` checks it (TOML, schema, numbers): a file `run` would refuse shows as
`rota`, with the reason for `list -v` (course.soundness says how that stays cheap).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from compmath.course.metadata import index_fields, index_plan
from compmath.course.tree import Course, PartInfo

if TYPE_CHECKING:  # imported when a listing is made (screens imports this module for check too)
    from compmath.course.soundness import Soundness


class ClassState(StrEnum):
    """Where a planned class stands (the Spanish word is what `list --json` prints)."""

    READY = "lista"
    PENDING = "pendiente"
    NO_LAB = "sin lab.py"
    BROKEN = "rota"


@dataclass(frozen=True)
class IndexRow:
    """One class in the index: number, title, level, duration, state."""

    number: int
    title: str
    level: str
    duration: str
    state: ClassState
    reason: str = ""  # why a broken class is broken

    def to_dict(self) -> dict[str, object]:
        row: dict[str, object] = {
            "numero": self.number,
            "titulo": self.title,
            "nivel": self.level,
            "duracion": self.duration,
            "estado": str(self.state),
        }
        if self.reason:
            row["motivo"] = self.reason
        return row


@dataclass(frozen=True)
class PartIndex:
    """One part of the index: its number, title and rows in plan order."""

    number: int
    title: str
    rows: list[IndexRow]

    @property
    def heading(self) -> str:
        return f"Parte {self.number} — {self.title}"

    def to_dict(self) -> dict[str, object]:
        return {
            "numero": self.number,
            "titulo": self.title,
            "clases": [row.to_dict() for row in self.rows],
        }


def part_index(part: PartInfo, soundness: Soundness | None = None) -> PartIndex:
    """The part's classes in plan order, planned ones without a folder as pending.

    Read as an index, not checked: a broken part.toml still lists the part's folders (lint
    says what is wrong with it).
    """
    if soundness is None:
        from compmath.course.soundness import Soundness

        soundness = Soundness(part.root)
        soundness.prepare(part.classes)
    part_fields = index_fields(part.meta_path) or {}
    level, duration = part_fields.get("nivel", ""), part_fields.get("duracion", "")
    written = {c.number: c for c in part.classes}
    plan = index_plan(part.meta_path) or []
    planned = dict(plan)
    numbers = list(planned) + sorted(n for n in written if n not in planned)
    rows = []
    for number in numbers:
        cls = written.get(number)
        if cls is None:
            rows.append(IndexRow(number, planned[number], level, duration, ClassState.PENDING))
            continue
        raw = soundness.raw(cls)
        fields = (index_fields(cls.meta_path, raw) if raw is not None else None) or {}
        state = ClassState.READY if cls.lab.exists() else ClassState.NO_LAB
        reason = soundness.broken_reason(cls)
        if reason:
            state = ClassState.BROKEN
        rows.append(
            IndexRow(
                number,
                fields.get("titulo") or planned.get(number) or cls.default_title,
                fields.get("nivel") or level,
                fields.get("duracion") or duration,
                state,
                reason,
            )
        )
    return PartIndex(part.number, part_fields.get("titulo", part.path.name), rows)


def course_index(course: Course, part_number: int | None) -> list[PartIndex]:
    """The index of the whole course, or of one part."""
    parts = [course.part(part_number)] if part_number is not None else course.parts
    from compmath.course.soundness import Soundness

    soundness = Soundness(course.root)
    soundness.prepare([c for p in parts for c in p.classes])
    index = [part_index(p, soundness) for p in parts]
    soundness.save(whole=part_number is None)
    return index
