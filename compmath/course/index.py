"""`compmath list`: the course's index from folder names and metadata, with no lab imported.

Each class.toml contributes its title, level and duration, read as an index (its top-level keys,
no schema validation: broken files show as such and `lint` says why). That is fast enough for a
course of a thousand classes that no cache is kept: a first `list` costs what the next one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from compmath.course.metadata import index_fields, index_plan
from compmath.course.tree import Course, PartInfo


class ClassState(StrEnum):
    """Where a planned class stands (the Spanish word is what `list --json` prints)."""

    READY = "lista"
    PENDING = "pendiente"
    NO_LAB = "sin lab.py"
    BROKEN = "ficha rota"


@dataclass(frozen=True)
class IndexRow:
    """One class in the index: number, title, level, duration, state."""

    number: int
    title: str
    level: str
    duration: str
    state: ClassState

    def to_dict(self) -> dict[str, object]:
        return {
            "numero": self.number,
            "titulo": self.title,
            "nivel": self.level,
            "duracion": self.duration,
            "estado": str(self.state),
        }


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


def part_index(part: PartInfo) -> PartIndex:
    """The part's classes in plan order, planned ones without a folder as pending.

    Read as an index, not checked: a broken part.toml still lists the part's folders (lint
    says what is wrong with it).
    """
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
        fields = index_fields(cls.meta_path)
        if fields is None:
            state = ClassState.BROKEN
            fields = {}
        else:
            state = ClassState.READY if cls.lab.exists() else ClassState.NO_LAB
        rows.append(
            IndexRow(
                number,
                fields.get("titulo") or planned.get(number) or cls.default_title,
                fields.get("nivel") or level,
                fields.get("duracion") or duration,
                state,
            )
        )
    return PartIndex(part.number, part_fields.get("titulo", part.path.name), rows)


def course_index(course: Course, part_number: int | None) -> list[PartIndex]:
    """The index of the whole course, or of one part."""
    parts = [course.part(part_number)] if part_number is not None else course.parts
    return [part_index(p) for p in parts]
