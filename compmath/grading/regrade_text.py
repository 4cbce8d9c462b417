"""`grade comparar` on a terminal: whose grade moved, in which hole, from what to what, why."""

from __future__ import annotations

from compmath.grading.records import HoleGrade, points_text
from compmath.grading.regrade import Regrade
from compmath.present.layout import BLANK, Block, line, para
from compmath.visible import one_line
from compmath.wording import count


def _hole(hole: HoleGrade | None) -> str:
    if hole is None:
        return "—"
    return f"{hole.status} ({points_text(hole.earned).replace('.', ',')})"


def regrade_blocks(result: Regrade) -> list[Block]:
    """The regrade diff: the course first, then each student's holes that changed."""
    moved = result.students_moved()
    course = (
        "el curso cambió (su huella: "
        f"{result.course_before[:12]} → {result.course_after[:12]}): las clases, sus "
        "variantes o tolerancias, el límite de tiempo o compmath"
    )
    if not result.changed:
        blocks: list[Block] = [
            line(("✓ ", "green"), "las dos correcciones dan lo mismo, hueco a hueco")
        ]
        if result.course_before != result.course_after:
            blocks.append(para(course, hang=2))
        return blocks
    head = (
        f"{count(len(moved), 'alumno cambia', 'alumnos cambian')} · "
        f"{count(len(result.changes), 'hueco cambia', 'huecos cambian')}"
    )
    blocks = [line(("≠ ", "yellow"), head)]
    if result.course_before != result.course_after and result.spec_changes:
        course = (
            "el curso cambió (su huella: "
            f"{result.course_before[:12]} → {result.course_after[:12]}); "
            "de lo que guarda el informe, cambió:"
        )
    if result.course_before != result.course_after:
        blocks.append(para(course, hang=2))
    for said in result.spec_changes:
        blocks.append(para(said, indent=2, hang=2))
    if result.added:
        blocks.append(para("solo en la segunda: ", ", ".join(map(one_line, result.added)), hang=2))
    if result.removed:
        blocks.append(
            para("solo en la primera: ", ", ".join(map(one_line, result.removed)), hang=2)
        )
    current = ""
    for change in result.changes:
        if change.student != current:
            current = change.student
            blocks += [BLANK, line((one_line(current), "bold"))]
        sign = "+" if change.moved > 0 else ""
        delta = f" ({sign}{points_text(change.moved).replace('.', ',')})" if change.moved else ""
        blocks.append(
            para(
                f"{change.class_id[:3]} hueco {change.number}: ",
                f"{_hole(change.before)} → {_hole(change.after)}{delta}",
                indent=2,
                hang=4,
            )
        )
        for why in change.why:
            blocks.append(para(("· ", "dim"), one_line(why), indent=4, hang=2))
    return blocks
