"""`compmath practice check` as a short screen and as JSON: each class done or not, and why."""

from __future__ import annotations

from typing import Any

from compmath.practice.attempt import Attempt
from compmath.practice.screen import MARKS, progress_bar
from compmath.practice.workspace import Progress, Workspace
from compmath.present.layout import Block, line, para


def _why(attempt: Attempt) -> str:
    """One line on what is left in a class that is not done."""
    if attempt.open_hole is not None:
        return f"falta el hueco {attempt.open_hole}"
    wrong = attempt.first_wrong
    if wrong is not None:
        return f"primera salida distinta: {wrong.path}"
    return attempt.report.full_message


def check_blocks(workspace: Workspace, attempts: list[Attempt], progress: Progress) -> list[Block]:
    """One line per class (✓ hecha, or what is left), the holes' marks, then the progress bar."""
    blocks: list[Block] = []
    for attempt in attempts:
        holes = " ".join(MARKS[h.status][0] for h in attempt.holes)
        head = f"{attempt.cls.number} {attempt.cls.title} [{holes}]"
        if attempt.done:
            blocks.append(line(("✓ ", "green"), head, (" hecha", "green")))
        else:
            blocks.append(para(("✗ ", "bold red"), head, " — ", (_why(attempt), "red"), hang=4))
    blocks.append(progress_bar(progress))
    return blocks


def attempts_document(attempts: list[Attempt], progress: Progress) -> dict[str, Any]:
    """The JSON of `compmath practice check --json`."""
    return {
        "version": 1,
        "hechas": progress.done_count(),
        "total": len(progress.classes),
        "clases": [
            {
                "clase": a.cls.id,
                "hecha": a.done,
                "resultado": str(a.report.outcome),
                "huecos": [{"numero": h.number, "estado": str(h.status)} for h in a.holes],
                "primera_salida_distinta": a.first_wrong.path if a.first_wrong else None,
                "hueco_sin_completar": a.open_hole,
                "mensaje": "" if a.done else _why(a),
            }
            for a in attempts
        ],
    }
