"""`compmath practice check` as a short screen and as JSON: each class done or not, and why."""

from __future__ import annotations

from typing import Any

from compmath.holes.verdict import Attempt, HoleStatus, attempt_json
from compmath.practice.practice_screen import MARKS, marks_legend, prints_blocks, progress_bar
from compmath.practice.workspace import Progress
from compmath.present.layout import Block, line, para


def _why(attempt: Attempt) -> str:
    """One line on what is left in a class that is not done (or, done, what is not Python):
    the course's problem, else the file's syntax error, else the hole the summary names."""
    if attempt.problem:
        return attempt.problem
    slip = attempt.syntax
    if slip is not None:
        where = f"hueco {slip.hole}" if slip.hole is not None else "fuera de los huecos"
        return f"{slip.message} ({where})"
    number = attempt.hint_hole()
    if number is None:
        return ""
    hole = attempt.holes[number - 1]
    if hole.status == HoleStatus.OPEN:
        return f"falta el hueco {number}"
    return f"hueco {number}: {hole.said}"


def check_blocks(attempts: list[Attempt], progress: Progress) -> list[Block]:
    """One line per class (✓ hecha, or what is left), the holes' marks, the student's prints,
    then the progress bar; the marks' legend first."""
    blocks: list[Block] = [marks_legend()]
    for attempt in attempts:
        holes = " ".join(MARKS[h.status][0] for h in attempt.holes)
        head = f"{attempt.cls.number} {attempt.cls.title} [{holes}]"
        if attempt.done:
            blocks.append(line(("✓ ", "green"), head, (" hecha", "green")))
            if attempt.syntax is not None:  # outside the holes: said, though it does not count
                blocks.append(para("  ", (_why(attempt), "red"), hang=4))
        else:
            blocks.append(para(("✗ ", "bold red"), head, " — ", (_why(attempt), "red"), hang=4))
        if attempt.outside_changed:
            blocks.append(
                para(
                    ("  aviso: ", "yellow"),
                    "fuera de los huecos tu archivo no es el ejercicio; no cuenta para el "
                    f"veredicto (compmath practice reset {attempt.cls.number} lo restaura)",
                    hang=4,
                )
            )
        blocks += prints_blocks(attempt.stdout, unfolded=True)
    blocks.append(progress_bar(progress))
    return blocks


def attempts_document(attempts: list[Attempt], progress: Progress) -> dict[str, Any]:
    """The JSON of `compmath practice check --json`."""
    return {
        "version": 2,
        "hechas": progress.done_count(),
        "total": len(progress.classes),
        "clases": [
            {
                **attempt_json(a),
                "hueco_sin_completar": a.open_hole,
                "mensaje": "" if a.done else _why(a),
                "salida_de_print": a.stdout,
            }
            for a in attempts
        ],
    }
