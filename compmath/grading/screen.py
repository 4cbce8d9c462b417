"""What `compmath grade` prints when it ends: how many were graded, the marks, where they are."""

from __future__ import annotations

from pathlib import Path

from compmath.grading.gradebook import CSV_NAME, FEEDBACK_DIR, REPORT_NAME, Gradebook
from compmath.grading.run import Outcome
from compmath.grading.shards import Shard
from compmath.present.layout import Block, Command, line, para
from compmath.wording import count, measure, seconds, short


def _marks(book: Gradebook) -> list[Block]:
    if not book.grades:
        return []
    earned = [g.earned for g in book.grades]
    full = sum(1 for e in earned if e >= book.points)
    zero = sum(1 for e in earned if e == 0)
    return [
        para(
            f"nota media {short(sum(earned) / len(earned))} de {measure(book.points)} puntos · "
            f"{count(full, 'alumno', 'alumnos')} con todo · {zero} sin puntos",
            hang=2,
        )
    ]


def _where(book: Gradebook, out: Path) -> list[Block]:
    return [
        para(
            f"{CSV_NAME}, {REPORT_NAME} y {count(len(book.grades), 'comentario', 'comentarios')} "
            f"en {FEEDBACK_DIR}/:",
            hang=2,
        ),
        Command(str(out / CSV_NAME)),
    ]


def summary_blocks(outcome: Outcome, out: Path, shard: Shard | None) -> list[Block]:
    """The closing summary of a grading run."""
    book = outcome.book
    share = f" (fragmento {shard})" if shard else ""
    rate = outcome.judged / outcome.seconds if outcome.seconds > 0 else 0.0
    head = (
        f"{count(len(book.grades), 'entrega corregida', 'entregas corregidas')}{share} en "
        f"{seconds(outcome.seconds)}"
    )
    detail = f"{outcome.judged} juzgadas ahora ({short(rate)} por segundo)"
    if outcome.reused:
        detail += f", {outcome.reused} ya corregidas antes con los mismos archivos"
    blocks: list[Block] = [line(("✓ ", "green"), head), para(detail, hang=2)]
    blocks += _marks(book)
    for note in outcome.ignored:
        blocks.append(para(("ignorado: ", "yellow"), note, hang=2))
    return blocks + _where(book, out)


def merged_blocks(book: Gradebook, shards: int, out: Path) -> list[Block]:
    """The summary of `grade merge`."""
    head = f"{count(shards, 'fragmento', 'fragmentos')} juntados: " + count(
        len(book.grades), "alumno", "alumnos"
    )
    return [line(("✓ ", "green"), head), *_marks(book), *_where(book, out)]
