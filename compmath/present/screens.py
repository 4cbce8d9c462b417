"""The screens of `check`, `list`, `update` and `lint`, as blocks for the screen layer (no Rich)."""

from __future__ import annotations

from compmath.course.index import ClassState, PartIndex
from compmath.errors import Problem
from compmath.judging.report import LabReport, Outcome, describe_difference
from compmath.present.layout import (
    BLANK,
    Block,
    Cell,
    Column,
    Para,
    Table,
    line,
    para,
)
from compmath.present.output import excerpt_chart
from compmath.present.run_screen import BAD, NEUTRAL, OK, failure_text
from compmath.wording import count, seconds

# --- check ---------------------------------------------------------------------------------


def check_screen(reports: list[LabReport], elapsed: float) -> list[Block]:
    """The `check` summary: class, outcome and time per lab, why each failure failed (with its
    first differences, numbers included), a count line and what to run next."""
    rows = []
    for r in reports:
        mark = OK if r.passed else BAD
        rows.append(
            (
                Cell(f"{r.number} {r.title}"),
                Cell(f"{mark} {r.outcome.label}", "green" if r.passed else "bold red"),
                Cell(seconds(r.duration)),
            )
        )
    widest = max(len(row[1].text) for row in rows)  # the verdict stays on one line if it can
    table = Table(
        (
            Column("clase", 14, hang=2),
            Column("resultado", min(widest, 34)),
            Column("tiempo", 6, "fixed", "right"),
        ),
        tuple(rows),
    )
    blocks: list[Block] = [table]
    for r in reports:
        if r.passed:
            continue
        blocks.append(para((f"{r.number}: {_why(r)}", "red"), indent=2, hang=4))
        blocks += [
            para(f"{BAD} {describe_difference(d)}", indent=4, hang=2) for d in r.differences[:3]
        ]
        if len(r.differences) > 3:
            blocks.append(para(f"… y {len(r.differences) - 3} más", indent=4))
    failed = [r for r in reports if not r.passed]
    total = count(len(reports), "laboratorio", "laboratorios")
    if not failed:
        agree = "coincide" if len(reports) == 1 else "todos coinciden"
        return [
            *blocks,
            para((f"{total}: {agree} con su instantánea · {seconds(elapsed)}", "bold green")),
        ]
    ok = len(reports) - len(failed)
    tally = (
        f"{total}: {ok} {'correcto' if ok == 1 else 'correctos'}, "
        f"{len(failed)} {'falla' if len(failed) == 1 else 'fallan'} · {seconds(elapsed)}"
    )
    return [
        *blocks,
        para((tally, "bold red")),
        line("siguiente: ", (f"compmath run {failed[0].number}", "bold")),
    ]


def _why(report: LabReport) -> str:
    """A failure in one line; a schema failure also counts its other issues and, since the ✗
    lines under it are differences, says so."""
    text = failure_text(report)
    if report.outcome != Outcome.INVALID:
        return text
    if len(report.schema_issues) > 1:
        text += f" (y {count(len(report.schema_issues) - 1, 'regla', 'reglas')} más del esquema)"
    if report.differences:
        text += f" · {count(len(report.differences), 'diferencia', 'diferencias')}"
        text += " con la instantánea"
    return text


# --- list ----------------------------------------------------------------------------------


def written_phrase(written: int, total: int) -> str:
    """`8 de 9 clases escritas`; a part of one class says it in words."""
    if total == 1:
        return "la única clase está escrita" if written else "la única clase está pendiente"
    return f"{written} de {total} clases escritas"


def list_screen(parts: list[PartIndex], verbose: bool = False) -> list[Block]:
    """Per part a heading, its classes in plan order (pending ones dimmed, broken ones red), how
    many are written; with `verbose`, why each broken class is broken."""
    blocks: list[Block] = []
    for part in parts:
        rows = tuple(
            tuple(
                Cell(text, _row_style(row.state))
                for text in (str(row.number), row.title, row.level, row.duration, str(row.state))
            )
            for row in part.rows
        )
        written = sum(row.state != ClassState.PENDING for row in part.rows)
        if blocks:
            blocks.append(BLANK)  # between parts, not after the last one
        blocks += [
            line((part.heading, "bold")),
            Table(
                (
                    Column("nº", 3, "fixed"),
                    Column("título", 12),
                    Column("nivel", 6),
                    Column("duración", 7),
                    Column("estado", 8),
                ),
                rows,
            ),
            line((written_phrase(written, len(part.rows)), "dim")),
        ]
        broken = [row for row in part.rows if row.reason]
        if verbose:
            blocks += [
                para((f"{BAD} {row.number}: {row.reason}", "red"), indent=2, hang=4)
                for row in broken
            ]
        elif broken:
            why = "por qué está rota" if len(broken) == 1 else "por qué están rotas"
            blocks.append(para((f"{why}: compmath list -v", "dim")))
    return blocks


def _row_style(state: ClassState) -> str:
    return {ClassState.PENDING: "dim", ClassState.BROKEN: "red"}.get(state, "")


# --- update --------------------------------------------------------------------------------


def update_line(shown: str, written: bool | None, problem: str = "") -> Para:
    """One line of `update`: written, unchanged, or why the snapshot was not written."""
    if written is None:
        return Para(((f"{BAD} no se escribe la instantánea: {shown}: {problem}", "red"),), hang=4)
    if written:
        return Para(((f"{OK} escrita: {shown}", "green"),), hang=4)
    return Para(((f"{NEUTRAL} sin cambios: {shown}", "dim"),), hang=4)


# --- lint ----------------------------------------------------------------------------------


def lint_screen(problems: list[Problem], classes: int) -> list[Block]:
    """One paragraph per problem (file: what — hint), then a count."""
    checked = count(classes, "clase revisada", "clases revisadas")
    blocks: list[Block] = []
    for p in problems:
        what = ((f"{p.file}: ", "bold"), (p.what, "red"), (f" — {p.hint}", ""))
        blocks.append(Para(what, hang=4))
        if p.located is not None:
            blocks.append(excerpt_chart(p.located))
    if problems:
        blocks.append(
            para((f"{count(len(problems), 'problema', 'problemas')} · {checked}", "bold red"))
        )
    else:
        blocks.append(para((f"{OK} el curso está en orden · {checked}", "bold green")))
    return blocks
