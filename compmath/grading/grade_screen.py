"""What `compmath grade` prints when it ends: how many were graded, the marks, where they are."""

from __future__ import annotations

from collections.abc import Sequence

from compmath.grading.deadline import CLOSED, LATE, UNKNOWN
from compmath.grading.gradebook import CSV_NAME, Gradebook
from compmath.grading.names import look_alikes, shown
from compmath.grading.run import GradingRun
from compmath.grading.shards import Shard
from compmath.grading.written import Written
from compmath.present.layout import Block, Command, here, line, para
from compmath.wording import count, listed, measure, seconds, short


def marks_blocks(book: Gradebook) -> list[Block]:
    if not book.grades:
        return []
    earned = [g.earned for g in book.grades]
    full = sum(1 for e in earned if e >= book.points)
    zero = sum(1 for e in earned if e == 0)
    return [
        para(
            f"nota media {short(sum(earned) / len(earned))} de {measure(book.points)} "
            f"{'punto' if book.points == 1 else 'puntos'} · "
            f"{count(full, 'alumno', 'alumnos')} con todo · {zero} sin puntos",
            hang=2,
        ),
        *_lateness_blocks(book),
    ]


def _lateness_blocks(book: Gradebook) -> list[Block]:
    """With [entrega]: how many handed in late, past the cut-off, or with no time known."""
    if not book.lateness:
        return []
    states = [late.state for late in book.lateness.values()]
    parts = [
        count(states.count(LATE), "entrega tardía", "entregas tardías"),
        f"{states.count(CLOSED)} fuera de plazo (0)",
        f"{states.count(UNKNOWN)} sin fecha",
    ]
    return [para("plazo: " + " · ".join(parts) + f" (en {CSV_NAME}: penalizacion)", hang=2)]


def _where(written: Sequence[Written]) -> list[Block]:
    """What was written (as the writers returned it), then where, in the same order: each
    path whole on its own line, a folder's with its `/`."""
    if not written:
        return []
    said = listed([w.what for w in written])
    return [
        para(f"se escribieron {said}:", hang=2),
        *(Command(here(w.path) + ("/" if w.folder else ""), whole=True) for w in written),
    ]


def grading_now(pending: Sequence[str]) -> str:
    """The live line's note of the students not yet graded: `corrigiendo ana (y 3 más)`
    (those still being graded, as `check` names the labs awaited, not the last one done)."""
    if not pending:
        return ""
    more = f" (y {len(pending) - 1} más)" if len(pending) > 1 else ""
    return f"corrigiendo {pending[0]}{more}"


def summary_blocks(outcome: GradingRun, shard: Shard | None) -> list[Block]:
    """The closing summary of a grading run."""
    book = outcome.book
    share = f" (fragmento {shard})" if shard else ""
    rate = outcome.judged / outcome.seconds if outcome.seconds > 0 else 0.0
    head = (
        f"{count(len(book.grades), 'entrega corregida', 'entregas corregidas')}{share} en "
        f"{seconds(outcome.seconds)}"
    )
    detail = f"{count(outcome.judged, 'juzgada', 'juzgadas')} ahora ({short(rate)} por segundo)"
    if outcome.reused:
        again = count(outcome.reused, "ya corregida", "ya corregidas")
        detail += f", {again} antes con los mismos archivos"
    blocks: list[Block] = [line(("✓ ", "green"), head), para(detail, hang=2)]
    blocks += marks_blocks(book)
    for note in outcome.ignored:
        blocks.append(para(("ignorado: ", "yellow"), note, hang=2))
    blocks += _look_alikes(book)
    return blocks + _where(outcome.written)


def _look_alikes(book: Gradebook) -> list[Block]:
    """Students whose names look the same: one line per group, each name spelt out."""
    return [
        para(
            ("nombres parecidos: ", "yellow"),
            " y ".join(f"«{shown(name)}»" for name in group)
            + ": son entregas distintas; comprueba que no sean la misma persona",
            hang=2,
        )
        for group in look_alikes(g.student for g in book.grades)
    ]


def merged_blocks(book: Gradebook, shards: int, written: Sequence[Written]) -> list[Block]:
    """The summary of `grade merge`."""
    head = f"{count(shards, 'fragmento', 'fragmentos')} juntados: " + count(
        len(book.grades), "alumno", "alumnos"
    )
    marks = marks_blocks(book)
    return [line(("✓ ", "green"), head), *marks, *_look_alikes(book), *_where(written)]
