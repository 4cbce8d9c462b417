"""`compmath list`: the course's index from folder names and metadata, with no lab imported."""

from __future__ import annotations

from typing import Any

from compmath.course import Course, PartInfo


def part_rows(part: PartInfo) -> list[dict[str, Any]]:
    """One row per planned or written class of the part, in plan order; unwritten ones pending."""
    written = {c.number: c for c in part.classes}
    rows: list[dict[str, Any]] = []
    planned = [entry.get("numero") for entry in part.plan]
    numbers = planned + sorted(n for n in written if n not in planned)
    default_level = part.meta.get("nivel", "")
    default_duration = part.meta.get("duracion", "")
    for number in numbers:
        cls = written.get(number)
        if cls is None:
            rows.append({"numero": number, "titulo": part.planned_title(number) or "",
                         "nivel": default_level, "duracion": default_duration, "estado": "pendiente"})
            continue
        meta = cls.meta
        rows.append({"numero": number, "titulo": cls.title,
                     "nivel": meta.get("nivel", default_level),
                     "duracion": meta.get("duracion", default_duration),
                     "estado": "lista" if cls.lab.exists() else "sin lab.py"})
    return rows


def render_listing(course: Course, part_number: int | None) -> None:
    from compmath.render import make_console, render_parts

    parts = [course.part(part_number)] if part_number is not None else course.parts
    render_parts(make_console(), [(p, part_rows(p)) for p in parts])
