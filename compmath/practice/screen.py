"""What the practice mode shows, as screen blocks: the class, its holes, the first wrong output,
hints, the list with progress, the solution."""

from __future__ import annotations

import textwrap
from typing import Any

from compmath.judging.compare import Difference
from compmath.judging.report import Outcome, describe_difference
from compmath.practice.attempt import Attempt, HoleStatus
from compmath.practice.holes import solution_regions
from compmath.practice.workspace import Progress, Workspace, relative
from compmath.present.layout import BLANK, Block, Command, Line, line, para
from compmath.wording import value_text

MARKS = {
    HoleStatus.RIGHT: ("✓", "green"),
    HoleStatus.WRONG: ("✗", "bold red"),
    HoleStatus.FAILS: ("✗", "bold red"),
    HoleStatus.OPEN: ("·", "yellow"),
}
BAR = 20
KEYS = "teclas: [p] pista · [s] siguiente · [l] lista · [r] reiniciar · [v] solución · [q] salir"


def progress_bar(progress: Progress) -> Line:
    """`[██████░░░░░░░░░░░░░░] 6 de 20 clases hechas`."""
    done, total = progress.done_count(), len(progress.classes)
    filled = round(BAR * done / total) if total else 0
    return line(
        ("[", "dim"),
        ("█" * filled, "green"),
        ("░" * (BAR - filled), "dim"),
        ("] ", "dim"),
        (f"{done} de {total} clases hechas", "bold"),
    )


def attempt_blocks(workspace: Workspace, attempt: Attempt, progress: Progress) -> list[Block]:
    """The screen after a save: which holes and outputs are right, the first thing to fix."""
    cls, report = attempt.cls, attempt.report
    blocks: list[Block] = [
        line((f"Práctica · {cls.number} — {cls.title}", "bold")),
        progress_bar(progress),
        line(("edita: ", "dim")),
        Command(relative(workspace, cls.lab)),
        BLANK,
    ]
    if not attempt.markers_ok:
        blocks.append(
            para(
                ("aviso: ", "bold yellow"),
                "faltan o están cambiadas las marcas ### HUECO N ### / ### FIN DEL HUECO N ###; "
                "se juzga el archivo entero (r lo reinicia)",
            )
        )
    for result in attempt.holes:
        mark, style = MARKS[result.status]
        text = f"{mark} hueco {result.number} ({result.status}): {result.hole.task}"
        blocks.append(para((text, style), indent=2, hang=4))
        if result.difference is not None:
            text = f"su primera diferencia: {describe_difference(result.difference)}"
            blocks.append(para(text, indent=6, hang=2))
        elif result.status == HoleStatus.FAILS:
            blocks.append(para((result.detail, "red"), indent=6, hang=2))
    blocks.append(BLANK)
    if attempt.done:
        blocks += [
            para(
                ("¡Clase hecha! ", "bold green"), "todas las salidas coinciden con la instantánea."
            ),
            line("[s] pasa a la siguiente · [v] muestra la solución del curso"),
        ]
        return blocks
    if attempt.matching:
        blocks.append(para(("ya coinciden: ", "green"), ", ".join(attempt.matching), hang=4))
    wrong = attempt.first_wrong
    if wrong is not None:
        name, obtained, expected = _around(wrong, report.outputs, report.expected)
        blocks += [
            para(("primera salida distinta: ", "bold red"), (name, "bold")),
            para(("  obtenido  ", "dim"), value_text(obtained), hang=12),
            para(("  esperado  ", "dim"), value_text(expected), hang=12),
            para(("  ", ""), describe_difference(wrong), hang=4),
        ]
    elif attempt.open_hole is not None:
        hole = attempt.holes[attempt.open_hole - 1].hole
        blocks.append(para(("falta el hueco ", "bold yellow"), f"{attempt.open_hole}: {hole.task}"))
    elif report.outcome != Outcome.MATCHES:
        blocks.append(para((f"{report.outcome.label}: ", "bold red"), report.full_message))
        if report.traceback:
            blocks += [line((t, "red")) for t in report.traceback.rstrip().splitlines()[-8:]]
    blocks += [BLANK, line((KEYS, "dim"))]
    return blocks


def _around(wrong: Difference, obtained: Any, expected: Any) -> tuple[str, Any, Any]:
    """The smallest named part holding a difference: `codificaciones.pos_0` (down through
    dicts, not into lists), and its obtained and expected values."""
    keys = [wrong.output]
    for step in wrong.steps:
        if not isinstance(step, str):
            break
        keys.append(step)
    shown: list[str] = []
    for key in keys:
        if not (isinstance(obtained, dict) and isinstance(expected, dict)):
            break
        if key not in obtained or key not in expected:
            break
        obtained, expected = obtained[key], expected[key]
        shown.append(key)
    return ".".join(shown) or keys[0], obtained, expected


def hint_blocks(attempt: Attempt, progress: Progress) -> list[Block]:
    """The next hint for the hole behind the first wrong output (hints go from nudge to formula)."""
    number = attempt.hint_hole()
    if number is None:
        return [para("No hay pistas que dar: todos los huecos están bien.")]
    hole = attempt.holes[number - 1].hole
    seen = progress.classes[attempt.cls.id].hints_seen
    shown = min(seen.get(str(number), 0) + 1, len(hole.hints))
    seen[str(number)] = shown
    return [
        line((f"pista {shown} de {len(hole.hints)} del hueco {number}", "bold cyan")),
        para(hole.hints[shown - 1], indent=2, hang=2),
    ]


def list_blocks(workspace: Workspace, progress: Progress) -> list[Block]:
    """Every class of the workspace with ✓ when done, the current one marked."""
    blocks: list[Block] = [progress_bar(progress), BLANK]
    for cls in workspace.classes():
        entry = progress.classes.get(cls.id)
        mark, style = ("✓", "green") if entry and entry.done else ("·", "dim")
        here = " ←" if cls.id == progress.current else ""
        blocks.append(line((f"  {mark} ", style), f"{cls.number} {cls.title}", (here, "bold")))
    return blocks


def solution_blocks(workspace: Workspace, attempt: Attempt) -> list[Block]:
    """The course's code for each hole (only offered once the class is done)."""
    source = workspace.solution(attempt.cls).read_text(encoding="utf-8")
    blocks: list[Block] = [line(("La solución del curso, hueco a hueco:", "bold"))]
    for region, result in zip(solution_regions(source), attempt.holes):
        blocks += [BLANK, para((f"hueco {region.number}: {result.hole.task}", "bold cyan"), hang=2)]
        code = textwrap.dedent("\n".join(region.body)).splitlines()
        blocks += [Line(((f"    {text}", "cyan"),)) for text in code]
    return blocks
