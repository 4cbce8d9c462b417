"""`compmath list`: the course's index from folder names and metadata, with no lab imported."""

from __future__ import annotations

from typing import Any

from compmath.course import Course, PartInfo
from compmath.metacache import MetaCache

LIST_FIELDS = ("titulo", "nivel", "duracion")


def _list_fields(meta: dict[str, Any]) -> dict[str, Any]:
    return {key: meta[key] for key in LIST_FIELDS if key in meta}


def part_rows(part: PartInfo, cache: MetaCache) -> tuple[str, list[dict[str, Any]]]:
    """The part's heading, and one row per planned or written class in plan order."""
    part_meta = cache.get(part.meta_path)
    heading = f"Parte {part.number} — {part_meta.get('titulo', part.path.name)}"
    plan = part_meta.get("plan")
    entries = [e for e in plan if isinstance(e, dict)] if isinstance(plan, list) else []
    titles: dict[int, str] = {
        e["numero"]: str(e.get("titulo", "")) for e in entries if isinstance(e.get("numero"), int)
    }
    written = {c.number: c for c in part.classes}
    numbers = list(titles) + sorted(n for n in written if n not in titles)
    level, duration = part_meta.get("nivel", ""), part_meta.get("duracion", "")
    rows: list[dict[str, Any]] = []
    for number in numbers:
        cls = written.get(number)
        if cls is None:
            rows.append(
                {
                    "numero": number,
                    "titulo": titles[number],
                    "nivel": level,
                    "duracion": duration,
                    "estado": "pendiente",
                }
            )
            continue
        meta = cache.get(cls.meta_path, _list_fields)
        rows.append(
            {
                "numero": number,
                "titulo": meta.get("titulo") or titles.get(number) or cls.slug,
                "nivel": meta.get("nivel", level),
                "duracion": meta.get("duracion", duration),
                "estado": "lista" if cls.lab.exists() else "sin lab.py",
            }
        )
    return heading, rows


def course_rows(course: Course, part_number: int | None) -> list[tuple[str, list[dict[str, Any]]]]:
    """The index of the whole course, or of one part: (heading, rows) per part."""
    parts = [course.part(part_number)] if part_number is not None else course.parts
    cache = MetaCache(course.root)
    rows = [part_rows(p, cache) for p in parts]
    cache.save()
    return rows
