"""What the practice mode shows, as screen blocks: the class, its holes with the variant each
failed at, the student's prints (folded), hints, the list with progress, the solution.

A wrong hole's whole values and a long traceback fold too when the screen would not fit the
terminal's height (the session decides: practice.session), so that its title never scrolls off;
the reason (which output, at which variant, both values there) always shows; [o] unfolds all."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

from compmath.course.per_student import filled
from compmath.holes.graft import course_lab
from compmath.holes.own import defaults_values
from compmath.holes.verdict import Attempt, HoleStatus, HoleVerdict
from compmath.mathtext import plain_prose
from compmath.practice.workspace import Progress, Workspace
from compmath.present.layout import (
    BLANK,
    Block,
    Chart,
    Command,
    Line,
    Para,
    StyledLine,
    cell_width,
    here,
    line,
    para,
)
from compmath.wording import count, value_text

MARKS = {
    HoleStatus.RIGHT: ("✓", "green"),
    HoleStatus.WRONG: ("✗", "bold red"),
    HoleStatus.FAILS: ("✗", "bold red"),
    HoleStatus.OPEN: ("·", "yellow"),
}
BAR = 20
FOLDED = 3  # lines of the student's prints shown while the block is folded
TRACE_FOLDED = 2  # lines of a failing hole's traceback shown folded: its innermost frame
KEYS = (
    "[p] pista",
    "[s] siguiente",
    "[l] lista",
    "[o] detalles",
    "[r] reiniciar",
    "[v] solución",
    "[q] salir",
)
SEPARATOR = " · "


def keys_block(
    keys: Sequence[str | StyledLine], *, head: str = "", style: str = "", sep: str = SEPARATOR
) -> Chart:
    """Items that must each stay whole (a key with what it does, `[o] tus print`; a mark with
    its meaning), `head` first, as many a line as fit; the next line goes on two further in."""

    def draw(width: int | None, _colour: bool) -> list[StyledLine]:
        items = [[(k, style)] if isinstance(k, str) else list(k) for k in keys]
        rows: list[StyledLine] = [[(head, style), *items[0]] if head else items[0]]
        for item in items[1:]:
            used = sum(cell_width(text) for text, _ in rows[-1])
            size = sum(cell_width(text) for text, _ in item)
            if width is None or used + cell_width(sep) + size <= width:
                rows[-1] = [*rows[-1], (sep, style), *item]
            else:
                rows.append([("  ", ""), *item])
        return rows

    return Chart(draw)


def keys_help() -> Chart:
    """The practice screen's keys, under every screen and when an unknown key is pressed."""
    return keys_block(KEYS, head="teclas: ", style="dim")


def marks_legend() -> Chart:
    """What the holes' marks mean, where they are first shown (`compmath practice check`)."""
    meaning = (
        (HoleStatus.OPEN, "sin completar"),
        (HoleStatus.RIGHT, "bien"),
        (HoleStatus.WRONG, "mal o falla"),
    )
    items = [[MARKS[status], (f" {word}", "dim")] for status, word in meaning]
    return keys_block(items, head="huecos: ", style="dim", sep="  ")


def progress_bar(progress: Progress) -> Line:
    """`[██████░░░░░░░░░░░░░░] 6 de 20 clases hechas`."""
    done, total = progress.done_count(), len(progress.classes)
    filled = round(BAR * done / total) if total else 0
    return line(
        ("[", "dim"),
        ("█" * filled, "green"),
        ("░" * (BAR - filled), "dim"),
        ("] ", "dim"),
        (f"{done} de {count(total, 'clase hecha', 'clases hechas')}", "bold"),
    )


def _all_hints_seen(total: int, number: int) -> str:
    """`ya viste las 3 pistas del hueco 2`; a hole of one hint says it in words."""
    if total == 1:
        return f"ya viste la única pista del hueco {number}"
    return f"ya viste las {total} pistas del hueco {number}"


def _first_label(attempt: Attempt) -> str:
    first = attempt.variants[0] if attempt.variants else None
    return "tus parámetros" if first is not None and first.own else "los parámetros por defecto"


def _prose(attempt: Attempt, text: str) -> str:
    """A task or hint as the student reads it: plain, each {{nombre}} their number."""
    first = attempt.variants[0] if attempt.variants else None
    own = first.params if first is not None and first.own else {}
    return plain_prose(filled(text, defaults_values(attempt.cls, own)))


def _hole_blocks(attempt: Attempt, result: HoleVerdict, details: bool = True) -> list[Block]:
    """A hole: its mark and task, why it is not right, then its details (both whole values,
    the traceback's frames); folded (`details` False), what the reason does not already say
    shrinks to a line that names the key that unfolds it."""
    mark, style = MARKS[result.status]
    text = f"{mark} hueco {result.number} ({result.status}): {_prose(attempt, result.hole.task)}"
    blocks: list[Block] = [para((text, style), indent=2, hang=4)]
    if result.said:
        blocks.append(para((result.said, "red"), indent=6, hang=2))
    if result.difference is not None and result.obtained is not None and not details:
        blocks.append(folded_line("obtenido y esperado enteros · [o] los despliega"))
    elif result.difference is not None and result.obtained is not None:
        blocks += [
            para(("obtenido  ", "dim"), value_text(result.obtained), indent=6, hang=10),
            para(("esperado  ", "dim"), value_text(result.expected), indent=6, hang=10),
        ]
    if result.traceback:
        shown = result.traceback.rstrip().splitlines()[-6:]
        hidden = len(shown) - TRACE_FOLDED if not details else 0
        if hidden > 0:
            more = f"{count(hidden, 'línea', 'líneas')} más de la traza"
            blocks.append(folded_line(f"{more} · [o] las despliega"))
            shown = shown[hidden:]
        blocks += [line(("      en ", "dim"), (text, "red")) for text in shown]
    if result.variant is not None and not result.variant.default:
        blocks += [
            line(("      reprodúcelo con tu archivo:", "dim")),
            Command(result.variant.command(attempt.cls.number), indent=8),
        ]
    return blocks


def folded_line(text: str) -> Para:
    """What a folded hole hides, under its reason, and the key that shows it."""
    return para(("▸ ", "cyan"), (text, "dim"), indent=6, hang=2)


def prints_blocks(text: str, *, unfolded: bool) -> list[Block]:
    """The student's print() output, folded to its first lines unless `unfolded`."""
    if not text.strip():
        return []
    lines = text.rstrip("\n").splitlines()
    counted = count(len(lines), "línea", "líneas")
    if unfolded or len(lines) <= FOLDED:
        more = " · [o] los pliega" if len(lines) > FOLDED else ""
        head = f"▾ tus print ({counted}){more}"
        return [line((head, "bold cyan")), *(line(("  │ ", "dim"), t) for t in lines)]
    rest = len(lines) - FOLDED
    return [
        line((f"▸ tus print ({counted}) · [o] los despliega", "bold cyan")),
        *(line(("  │ ", "dim"), t) for t in lines[:FOLDED]),
        line(("  │ ", "dim"), (f"… {rest} más", "dim")),
    ]


def attempt_blocks(
    attempt: Attempt,
    progress: Progress,
    lab: Path,
    *,
    prints: bool = False,
    details: bool = True,
) -> list[Block]:
    """The screen after a save: each hole (right, wrong at which variant, open), what to do;
    `prints`: the student's prints unfolded; `details`: each hole's details unfolded."""
    cls = attempt.cls
    blocks: list[Block] = [
        line((f"Práctica · {cls.number} — {cls.title}", "bold")),
        progress_bar(progress),
        line(("edita: ", "dim")),
        Command(here(lab), whole=True),
        BLANK,
    ]
    for result in attempt.holes:
        blocks += _hole_blocks(attempt, result, details)
    blocks.append(BLANK)
    blocks += syntax_blocks(attempt)  # not Python: said first, wherever it is
    if attempt.outside_changed:
        blocks.append(
            para(
                ("aviso: ", "bold yellow"),
                "tu archivo cambia fuera de los huecos; eso no cuenta para el veredicto (solo "
                "se juzga el código de cada hueco). [r] restaura lo de fuera de los huecos: "
                "tus huecos se quedan como los escribiste.",
            )
        )
    if attempt.problem:
        blocks.append(para(("el curso falla: ", "bold red"), attempt.problem))
    elif attempt.done:
        hidden = count(len(attempt.variants) - 1, "variante oculta", "variantes ocultas")
        blocks += [
            para(
                ("¡Clase hecha! ", "bold green"),
                "cada hueco da lo mismo que el laboratorio del curso con "
                f"{_first_label(attempt)} y en {hidden}.",
            ),
            keys_block(("[s] pasa a la siguiente", "[v] muestra la solución del curso")),
        ]
    else:
        blocks += next_blocks(attempt)
    blocks += prints_blocks(attempt.stdout, unfolded=prints)
    if blocks[-1] is not BLANK:
        blocks.append(BLANK)
    blocks.append(keys_help())
    return blocks


def syntax_blocks(attempt: Attempt) -> list[Block]:
    """The student's file is not Python: where, first of all, wherever it is."""
    slip = attempt.syntax
    if slip is None:
        return []
    where = f"en la línea {slip.line} de tu lab.py"
    if slip.hole is not None:
        text = f"{where} (hueco {slip.hole}): {slip.what}"
    else:
        text = f"{where}, fuera de los huecos: {slip.what} · Python no puede ejecutar tu archivo"
    return [para(("error de sintaxis ", "bold red"), text, hang=2)]


def next_blocks(attempt: Attempt) -> list[Block]:
    """What to do next: the first hole that is wrong (or fails), else the first still open;
    nothing when the file's syntax error is in a hole (syntax_blocks says it)."""
    number = attempt.hint_hole()
    if number is None or (attempt.syntax is not None and attempt.syntax.hole is not None):
        return []
    result = attempt.holes[number - 1]
    if result.status == HoleStatus.OPEN:
        task = _prose(attempt, result.hole.task)
        return [para(("falta el hueco ", "bold yellow"), f"{number}: {task}", hang=2)]
    # the reason is right above, under the hole: said again, it would take as many lines
    return [para(("corrige el hueco ", "bold red"), f"{number} ({result.status}) · [p] pista")]


def hint_blocks(attempt: Attempt, progress: Progress) -> list[Block]:
    """The next hint for the first hole that is not right (hints go from nudge to formula)."""
    number = attempt.hint_hole()
    if number is None:
        return [para("No hay pistas que dar: todos los huecos están bien.")]
    hole = attempt.holes[number - 1].hole
    seen = progress.classes[attempt.cls.id].hints_seen
    already = seen.get(str(number), 0)
    total = len(hole.hints)
    if already >= total:
        return [
            para(
                (_all_hints_seen(total, number), "bold cyan"),
                "; la última era:",
            ),
            para(_prose(attempt, hole.hints[-1]), indent=2, hang=2),
            para(
                "Compara tu código con la tarea y las fórmulas de la clase: "
                f"compmath show {attempt.cls.number}",
                indent=2,
                hang=2,
            ),
        ]
    seen[str(number)] = already + 1
    return [
        line((f"pista {already + 1} de {total} del hueco {number}", "bold cyan")),
        para(_prose(attempt, hole.hints[already]), indent=2, hang=2),
    ]


def list_blocks(workspace: Workspace, progress: Progress) -> list[Block]:
    """Every class of the workspace with ✓ when done, the current one marked."""
    blocks: list[Block] = [progress_bar(progress), BLANK]
    for cls in workspace.classes():
        entry = progress.classes.get(cls.id)
        mark, style = ("✓", "green") if entry and entry.done else ("·", "dim")
        current = " ←" if cls.id == progress.current else ""
        blocks.append(line((f"  {mark} ", style), f"{cls.number} {cls.title}", (current, "bold")))
    return blocks


def solution_blocks(attempt: Attempt, copied: Path) -> list[Block]:
    """The course's code for each hole (only offered once the class is done)."""
    lab = course_lab(attempt.cls)
    blocks: list[Block] = [line(("La solución del curso, hueco a hueco:", "bold"))]
    for region, result in zip(lab.regions, attempt.holes):
        task = f"hueco {region.number}: {_prose(attempt, result.hole.task)}"
        blocks += [BLANK, para((task, "bold cyan"), hang=2)]
        code = textwrap.dedent("\n".join(region.body)).splitlines()
        blocks += [Line(((f"    {text}", "cyan"),)) for text in code]
    blocks += [
        BLANK,
        line(("el laboratorio entero del curso: ", "dim")),
        Command(here(copied), whole=True),
    ]
    return blocks
