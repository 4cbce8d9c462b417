"""The screen of `compmath lint --mutantes`: each hole's score and its surviving mutants, and
which classes no private variant protects from a hole that copies the public values."""

from __future__ import annotations

from compmath.authoring.mutant_check import HoleScore
from compmath.present.layout import BLANK, Block, line, para
from compmath.present.run_screen import BAD, OK


def mutants_screen(scores: list[HoleScore], goal: float) -> list[Block]:
    """`lint --mutantes`: each hole's share of standard mutants rejected (or equivalent), and
    each survivor with its change, before the problems."""
    blocks: list[Block] = []
    for s in scores:
        share = f"{s.share:.0%}".replace("%", " %")
        mark = OK if s.share >= goal else BAD
        head = f"{mark} {s.cls[:3]} hueco {s.hole}: {s.counted} de {s.total} ({share})"
        blocks.append(line((head, "green" if s.share >= goal else "bold red")))
        for ident, diff, equivalent in s.survivors:
            note = " · equivalente" if equivalent else ""
            blocks.append(para((ident, "bold"), (note, ""), indent=2, hang=4))
            blocks += [line(("    " + d, "red" if d.startswith("-") else "green")) for d in diff]
    if scores:
        blocks.append(BLANK)
    return blocks


def lookup_note(uncovered: list[int] | None) -> list[Block]:
    """Which classes lint could not check against a hole that copies the values of the public
    variants: every one without `--variantes-privadas` (None), else those the file leaves out."""
    if uncovered is None:
        text = (
            "sin --variantes-privadas RUTA, lint no comprueba que un hueco que escriba a mano los "
            "valores de las variantes públicas falle al corregir"
        )
    elif uncovered:
        shown = [str(n) for n in uncovered]
        classes = " y ".join(filter(None, (", ".join(shown[:-1]), shown[-1])))
        text = (
            f"sin variantes privadas: {classes}; en esas clases un hueco que escriba a mano los "
            "valores de las variantes públicas aprobaría la corrección"
        )
    else:
        return []
    return [para((text, "yellow")), BLANK]
