"""What `compmath practice entregar` prints: the zip, its SHA-256, what counts and what not."""

from __future__ import annotations

from pathlib import Path

from compmath.grading.receipt import Receipt
from compmath.present.layout import BLANK, Block, Command, here, line, para
from compmath.wording import count


def _holes(numbers: tuple[int, ...]) -> str:
    """`el hueco 2` / `los huecos 1, 3`."""
    listed = ", ".join(str(k) for k in numbers)
    return f"el hueco {listed}" if len(numbers) == 1 else f"los huecos {listed}"


def receipt_blocks(result: Receipt, out: Path) -> list[Block]:
    """The receipt: the zip and its SHA-256 first, then each class as `grade` will see it."""
    blocks: list[Block] = [
        line(("✓ ", "green"), f"entrega lista: {count(len(result.classes), 'clase', 'clases')}"),
        Command(here(out), whole=True),
        Command(f"SHA-256 {result.digest}", whole=True),
        para(
            "la corrección anota este mismo SHA-256 en tu comentario: si no coincide, no se "
            "corrigió este archivo",
            hang=2,
        ),
        BLANK,
    ]
    for item in result.classes:
        name = f"{item.cls.number} {item.cls.title}"
        if item.problem:
            blocks.append(para(("✗ ", "red"), f"{name}: no cuenta: {item.problem}", hang=4))
            continue
        attempt = item.attempt
        done = attempt is not None and attempt.done
        mark = ("✓ ", "green") if done else ("· ", "yellow")
        said = f"se corregirá {_holes(item.written)}" if item.written else ""
        said = said or "ningún hueco escrito"
        if attempt is not None:
            right = sum(1 for h in attempt.holes if h.done)
            said += f"; hoy pasan las comprobaciones públicas {right} de {len(attempt.holes)}"
        blocks.append(para(mark, f"{name}: {said}", hang=4))
        if item.open:
            blocks.append(para(f"sin completar: {_holes(item.open)}", indent=4, hang=2))
        for number, why in item.broken:
            blocks.append(para(f"hueco {number}: {why}", indent=4, hang=2))
        slip = attempt.syntax if attempt is not None else None
        if slip is not None and slip.hole is None:  # in a hole, `broken` said it
            said = f"fuera de los huecos, {slip.message}: no cuenta, pero Python no puede "
            blocks.append(para(("✗ ", "red"), said + "ejecutarlo", indent=4, hang=2))
        if item.outside_changed:
            blocks.append(para("cambiaste código fuera de los huecos: no cuenta", indent=4, hang=2))
    if result.missing:
        blocks += [
            BLANK,
            para(
                ("no están en tu espacio (no se entregan): ", "yellow"),
                ", ".join(result.missing),
                hang=2,
            ),
        ]
    for note in result.notes:
        blocks.append(para(("aviso: ", "yellow"), note, hang=2))
    return blocks
