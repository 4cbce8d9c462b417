"""The class page document drawn for the terminal (`compmath show`), as screen blocks."""

from __future__ import annotations

from compmath.course.params import SPANISH_TYPES
from compmath.course.records import BookReference
from compmath.mathtext import plain_prose, plain_scripts
from compmath.present.layout import (
    BLANK,
    Block,
    Chart,
    Command,
    Line,
    StyledLine,
    cell_width,
    line,
    para,
)
from compmath.present.page import ClassPage, Neighbour, abridge, shown_default
from compmath.present.prose import prose_blocks

PENDING = "(por escribir)"


def heading(text: str) -> list[Block]:
    return [BLANK, line((text, "bold underline")), BLANK]


def reference_text(ref: BookReference) -> str:
    """One bibliography line: authors, title, venue, year — note · DOI / ISBN."""
    text = f"{ref.authors} {ref.title}"
    for piece in (ref.venue, str(ref.year) if ref.year else ""):
        if piece:
            text += f", {piece}"
    if ref.note:
        text += f" — {ref.note}"
    if ref.doi:
        text += f" · DOI {ref.doi}"
    if ref.isbn:
        text += f" · ISBN {ref.isbn}"
    if ref.unconfirmed:
        text += " · sin confirmar"
    return text


def neighbour_text(link: Neighbour | None, arrow: str) -> str:
    if link is None:
        return "← Inicio" if arrow == "←" else "fin del curso →"
    label = f"{link.number} {link.title}".strip()
    if not link.in_course:
        label += " (fuera de este curso)"
    return f"← {label}" if arrow == "←" else f"{label} →"


def _prose(markdown: str, missing: str) -> list[Block]:
    return prose_blocks(markdown) if markdown else [line((missing, "dim"))]


def _bullets(items: tuple[str, ...]) -> list[Block]:
    if not items:
        return [line((PENDING, "dim"))]
    return [para("• ", plain_prose(item), indent=0, hang=2) for item in items]


def _parameters(page: ClassPage) -> list[Block]:
    """What run() takes and how to change it (or why it cannot be told)."""
    params = page.parameters
    if not params.readable:
        return [para("No se pueden leer los parámetros de run() (¿falta lab.py?).")]
    if not params.specs:
        return [para("run() no tiene parámetros: cada ejecución es la de la instantánea.")]
    blocks: list[Block] = [para("Parámetros de run() (cámbialos con --set NOMBRE=VALOR):"), BLANK]
    for spec in params.specs:
        kind = SPANISH_TYPES.get(spec.type_name, "sin tipo")
        blocks.append(
            para(
                "• ",
                (spec.name, "cyan"),
                f" ({spec.type_name or '?'}, {kind}) = {shown_default(spec)}",
                hang=2,
            )
        )
    return [*blocks, BLANK, line("Ejemplo:"), Command(params.example)]


def _outputs(page: ClassPage) -> list[Block]:
    """The outputs with their descriptions, then a sample of them (the abridged snapshot)."""
    blocks = heading(f"Salidas del laboratorio ({len(page.outputs)})")
    for output in page.outputs:
        described = (f": {plain_prose(output.description)}",) if output.description else ()
        blocks.append(para("• ", (output.name, "bold cyan"), *described, hang=2))
    blocks += heading("Muestra de la ejecución")
    if page.sample is None:
        return [
            *blocks,
            line("Aún no hay instantánea; la escribe:"),
            Command(f"compmath update {page.number}"),
        ]
    blocks += [line("Instantánea expected.json, abreviada:"), BLANK]
    return blocks + [Line(((f"    {text}", "cyan"),)) for text in abridge(page.sample).splitlines()]


def page_blocks(page: ClassPage) -> list[Block]:
    """Every section of the page, in the seed page's order."""
    home, part = page.breadcrumb
    blocks: list[Block] = [
        line((home, "dim"), (" · ", "dim"), (part, "dim")),
        BLANK,
        line((f"{page.number} — {page.title}", "bold")),
        line((" · ".join(page.facts), "dim")),
    ]
    if page.lemma:
        blocks += [BLANK, para((plain_prose(page.lemma), "italic"))]
    blocks += heading("Fórmulas")
    # numbered as on the site, (1), (2)…: the prose refers to a formula by its number
    blocks += [
        para((f"({n}) ", "dim"), plain_scripts(f.text), indent=2, hang=4)
        for n, f in enumerate(page.formulas, start=1)
    ] or [line((PENDING, "dim"))]
    blocks += heading("Desarrollo") + _prose(page.development, "(por escribir en README.md)")
    blocks += heading("Ejemplo trabajado") + _prose(page.example, "(por escribir en README.md)")
    blocks += heading("Qué calcula el laboratorio")
    blocks += [para(plain_prose(page.computes) or PENDING), BLANK]
    blocks += [Command(command) for command in page.commands]
    blocks.append(BLANK)
    blocks += _parameters(page) + _outputs(page)
    blocks += heading("Errores comunes") + _bullets(page.common_errors)
    blocks += [*heading("Dónde se usa"), para(plain_prose(page.uses) or PENDING)]
    blocks += [*heading("Idea rectora de la parte"), para(page.part.guiding_idea or "—")]
    blocks += [*heading("Error a evitar"), para(page.part.error_to_avoid or "—")]
    blocks += [*heading("Conexión con IA"), para(page.part.ai_connection or "—")]
    blocks += heading("Bibliografía de la clase")
    blocks += [para("• ", plain_prose(reference_text(r)), hang=2) for r in page.references] or [
        line(("(sin referencias)", "dim"))
    ]
    blocks += heading("Archivos de la clase")
    blocks += [line("En la carpeta de la clase:"), Command(page.folder + "/")]
    blocks += [
        para("• ", (name, "cyan"), f": {role}" if role else "", hang=2) for name, role in page.files
    ]
    schema, exists = page.schema
    blocks += [
        BLANK,
        line("Fuera de la carpeta, el contrato de las salidas:"),
        Command(schema)
        if exists
        else line(("falta " + schema + " (compmath lint lo señala)", "red")),
    ]
    return [*blocks, BLANK, neighbours(page)]


def neighbours(page: ClassPage) -> Chart:
    """`← previous · next →` on one line; when both do not fit, each link on a line of its own
    (a link never split between two lines, as long as it fits in one)."""
    back, forward = neighbour_text(page.previous, "←"), neighbour_text(page.next, "→")

    def draw(width: int | None, _colour: bool) -> list[StyledLine]:
        both = f"{back} · {forward}"
        if width is None or cell_width(both) <= width:
            return [[(both, "")]]
        return [[(back, "")], [(forward, "")]]

    return Chart(draw)
