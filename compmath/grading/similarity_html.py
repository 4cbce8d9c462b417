"""`grade similitud`'s page (similitud.html: Spanish, offline, every student's text escaped)
and its lines on a terminal. It lists evidence, never a verdict."""

from __future__ import annotations

from html import escape

from compmath.grading.similarity import Pair, Similarity
from compmath.present.layout import BLANK, Block, line, para
from compmath.visible import one_line, visible
from compmath.wording import count, percent

PAGE_NAME = "similitud.html"
SHOWN_PAIRS, SHOWN_GROUPS = 200, 200
NOTE = (
    "Estas son coincidencias entre lo que escribieron los alumnos en los huecos, tras quitar "
    "nombres, números, comentarios y formato: pruebas para mirar con calma, no una acusación. "
    "Dos personas llegan al mismo código por caminos honrados (una pista de clase, la forma "
    "natural de escribirlo); lo que da el curso (su solución y el ejercicio) y lo que escribe "
    "casi toda la clase no cuenta."
)
STYLE = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}td{vertical-align:top;width:50%;padding:.25rem}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:.85rem;margin:0;line-height:1.5}
mark{background:#ffe58a;padding:0}h2{margin-top:2.5rem}.nota{background:#eef4ff;padding:.75rem}
"""
# A marked line's background is painted over the line above it where the two overlap, and an
# underscore sits at the bottom of its line: with the font's own line height (`normal`) the
# next line's <mark> hid it (`masa_i` read `masa i` at device scale 1). A line height of 1.5
# leaves a gap between a line's glyphs and the next line's mark (the mark's box is the font's
# height, about 1.2 em, centred in a 1.5 em line), and a mark has no padding to reach it.


def _text(text: str) -> str:
    return escape(visible(text, keep_lines=True), quote=True)


def _code(text: str, marked: set[int]) -> str:
    lines = text.splitlines() or [""]
    shown = []
    for number, source in enumerate(lines, 1):
        body = _text(source) or " "
        shown.append(f"<mark>{body}</mark>" if number in marked else body)
    return "<pre>" + "\n".join(shown) + "</pre>"


def _pair(result: Similarity, pair: Pair) -> list[str]:
    texts = result.holes[(pair.class_id, pair.hole)]
    head = (
        f"<h3>{_text(pair.class_id)}, hueco {_text(pair.hole)}: {_text(pair.first)} y "
        f"{_text(pair.second)} · {_text(percent(pair.score))} de sus huellas en común</h3>"
    )
    cells = "".join(
        f"<td><p>{_text(who)}</p>{_code(texts[who], marked)}</td>"
        for who, marked in ((pair.first, pair.lines[0]), (pair.second, pair.lines[1]))
    )
    return [head, f"<table><tr>{cells}</tr></table>"]


def _students(result: Similarity) -> str:
    """How many students were compared; those of earlier terms are named `carpeta/alumno`."""
    said = count(result.students, "alumno", "alumnos")
    if result.archived:
        said += (
            f", comparados también con {count(result.archived, 'alumno', 'alumnos')} de "
            "otros cursos (los que se llaman carpeta/alumno)"
        )
    return said


def similarity_page(result: Similarity) -> str:
    """The page: the groups of identical holes, then the near-copies side by side."""
    parts = [
        "<!doctype html>",
        '<html lang="es"><head><meta charset="utf-8">',
        "<title>Parecidos entre huecos</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Parecidos entre huecos</h1>",
        f'<p class="nota">{_text(NOTE)}</p>',
        f"<p>{_text(_students(result))} · umbral {_text(percent(result.threshold))}.</p>",
        "<h2>Huecos iguales una vez normalizados</h2>",
    ]
    groups = [g for g in result.groups if not g.course_solution]
    if not groups:
        parts.append("<p>Ninguno.</p>")
    for group in groups[:SHOWN_GROUPS]:
        texts = result.holes[(group.class_id, group.hole)]
        who = ", ".join(_text(s) for s in group.students)
        parts.append(
            f"<h3>{_text(group.class_id)}, hueco {_text(group.hole)}: "
            f"{_text(count(len(group.students), 'alumno', 'alumnos'))}</h3><p>{who}</p>"
            + _code(texts[group.students[0]], set())
        )
    solution = [g for g in result.groups if g.course_solution]
    if solution:
        said = "; ".join(
            f"{_text(g.class_id)}, hueco {_text(g.hole)}: {len(g.students)}" for g in solution
        )
        parts.append(f"<p>Escribieron la solución del curso (no cuenta): {said}.</p>")
    parts.append("<h2>Huecos muy parecidos</h2>")
    if not result.pairs:
        parts.append("<p>Ninguna pareja llega al umbral.</p>")
    for pair in result.pairs[:SHOWN_PAIRS]:
        parts += _pair(result, pair)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def similarity_blocks(result: Similarity, page: str) -> list[Block]:
    """What `grade similitud` prints: how many groups and pairs, the first ones, the page."""
    groups = [g for g in result.groups if not g.course_solution]
    blocks: list[Block] = [
        line(("Parecidos entre huecos", "bold")),
        para(
            f"{_students(result)} · "
            f"{count(len(groups), 'grupo de huecos iguales', 'grupos de huecos iguales')} · "
            f"{count(len(result.pairs), 'pareja muy parecida', 'parejas muy parecidas')} "
            f"(umbral {percent(result.threshold)}); son pruebas para mirar, no acusaciones",
            hang=2,
        ),
    ]
    for group in groups[:5]:
        who = ", ".join(one_line(s) for s in group.students)
        blocks.append(para(f"{group.class_id[:3]} hueco {group.hole}: ", who, indent=2, hang=4))
    for pair in result.pairs[:5]:
        names = " y ".join(one_line(s) for s in (pair.first, pair.second))
        blocks.append(
            para(
                f"{pair.class_id[:3]} hueco {pair.hole}: ",
                f"{names} ({percent(pair.score)})",
                indent=2,
                hang=4,
            )
        )
    return [*blocks, BLANK, para("el detalle, lado a lado: ", page, hang=2)]
