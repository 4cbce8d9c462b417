"""`compmath list`: the course's index from folder names and metadata, with no lab imported.

Each class.toml contributes its title, level and duration, read as an index (its top-level keys),
and is checked as `run` checks it (TOML, schema, numbers; the schema's verdict is remembered by
content, so an unchanged file costs a parse and a hash): a file `run` would refuse shows as
`rota`, with the reason for `list -v`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from compmath import __version__
from compmath.cache import cache_dir
from compmath.course.metadata import index_fields, index_plan
from compmath.course.tree import ClassInfo, Course, PartInfo
from compmath.errors import CompmathError


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
        fields = index_fields(cls.meta_path) or {}
        state = ClassState.READY if cls.lab.exists() else ClassState.NO_LAB
        reason = broken_reason(cls)
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


def broken_reason(cls: ClassInfo) -> str:
    """Why `run` would refuse the class's metadata ("" when it would not). A sound verdict is
    remembered by the content of what it rests on (class.toml, its outputs schema and the
    class schema), so an unchanged class costs three reads and a hash, not a TOML parse."""
    import hashlib

    digest = hashlib.sha256(f"{__version__}\0{cls.id}".encode())
    for path in (cls.meta_path, cls.schema_path, cls.root / "schemas" / "class.schema.json"):
        try:
            digest.update(b"\0" + path.read_bytes())
        except OSError:
            digest.update(b"\0-")
    sound = cache_dir() / "index" / digest.hexdigest()
    if sound.exists():
        return ""
    try:
        cls.meta  # noqa: B018 - checked as `run` checks it
    except CompmathError as exc:
        return exc.message
    try:
        sound.parent.mkdir(parents=True, exist_ok=True)
        sound.touch()
    except OSError:
        pass  # an unwritable cache only costs time
    return ""


def course_index(course: Course, part_number: int | None) -> list[PartIndex]:
    """The index of the whole course, or of one part."""
    parts = [course.part(part_number)] if part_number is not None else course.parts
    return [part_index(p) for p in parts]
