"""A student's feedback as Markdown, in Spanish: each class, each hole, what passed and why not."""

from __future__ import annotations

import re

from compmath.grading.deadline import CLOSED, LATE, Lateness, feedback_line
from compmath.grading.protection import named
from compmath.grading.records import ClassGrade, ClassSpec, StudentGrade, points_text
from compmath.holes.graft import HoleStatus
from compmath.visible import one_line, visible
from compmath.wording import count

CREDIT = {
    False: "Crédito todo o nada: cada hueco vale sus puntos si acierta con todos los parámetros, "
    "y 0 si falla con alguno.",
    True: "Crédito proporcional: cada hueco vale la parte de sus puntos que corresponde a los "
    "parámetros con que acierta (los de por defecto y las variantes).",
}
# a hole written but wrong: the student can rerun the check
WRITTEN = (HoleStatus.WRONG, HoleStatus.FAILS)
# What Markdown (GitHub's flavour) or HTML reads inside a line: emphasis, code, links and images,
# tags and entities, strikethrough, table cells, e-mail autolinks; then bare URLs and www. ones.
MARKDOWN = re.compile(r"[\\`*_\[\]<>&~|@]")
AUTOLINK = re.compile(r"(?i):(?=//)|(?<=www)\.")


def _inline(text: str) -> str:
    """One line of prose that holds a student's text (a name, a line of code, a zip member):
    visible, on one line, and every character Markdown or HTML would read escaped, so that no
    link, image, emphasis, tag or bare URL can be written through it (a heading or a list needs
    the start of a line, and every such line starts with the feedback's own words)."""
    text = MARKDOWN.sub(lambda m: "\\" + m.group(), one_line(text))
    return AUTOLINK.sub(lambda m: "\\" + m.group(), text)


def _fenced(text: str) -> list[str]:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", visible(text, keep_lines=True), fence]


def _number(value: float) -> str:
    """Points in prose: the decimal comma (notas.csv keeps the point, as data)."""
    return points_text(value).replace(".", ",")


def _points(value: float) -> str:
    return f"{_number(value)} punto{'' if value == 1 else 's'}"


def _class_lines(spec: ClassSpec, grade: ClassGrade) -> list[str]:
    lines = [
        f"## {spec.number} — {spec.title}: {_number(grade.earned)} de {_points(grade.points)}",
        "",
    ]
    if grade.problem:
        lines += [f"No se pudo corregir: {_inline(grade.problem)}.", ""]
        return lines
    lines += [CREDIT[spec.proportional], ""]
    if grade.syntax:
        lines += [
            f"Fuera de los huecos, {_inline(grade.syntax)}. No cuenta para la nota, pero "
            "Python no puede ejecutar tu archivo tal como está.",
            "",
        ]
    if grade.outside_changed:
        lines += [
            "Cambiaste código fuera de los huecos: no cuenta, cada hueco se juzgó con el resto "
            "del laboratorio tal como está en el curso.",
            "",
        ]
    for hole, task in zip(grade.holes, spec.tasks):
        full = hole.earned >= hole.points
        mark = "✓" if full else "✗"
        head = f"- {mark} Hueco {hole.number} ({_points(hole.points)}): {hole.status}"
        if spec.proportional and hole.variants and not full:
            head += (
                f", {hole.variants_passed} de "
                f"{count(hole.variants, 'conjunto de parámetros', 'parámetros')}: "
                f"{_number(hole.earned)} de {_points(hole.points)}"
            )
        if full:
            lines.append(f"{head}.")
            continue
        lines.append(f"{head}. Tarea: {_inline(task)}")
        if hole.reason:
            lines.append(f"  - Motivo: {_inline(hole.reason)}")
    lines.append("")
    if any(hole.earned < hole.points and hole.status in WRITTEN for hole in grade.holes):
        lines += [
            "Para repetir esta comprobación en tu espacio de práctica (las mismas variantes, "
            f"el mismo juez): `compmath practice check {spec.number}`.",
            "",
        ]
    if grade.prints:
        lines += [
            "<details><summary>Lo que imprimió tu código</summary>",
            "",
            *_fenced(grade.prints),
            "",
            "</details>",
            "",
        ]
    return lines


def feedback_markdown(
    specs: list[ClassSpec], grade: StudentGrade, lateness: Lateness | None = None
) -> str:
    """The feedback file of one student; with [entrega], the lateness on a line of its own."""
    charged = lateness is not None and lateness.state in (LATE, CLOSED)
    final = lateness.final(grade.earned) if lateness is not None and charged else grade.earned
    said = ""
    if charged and lateness is not None:
        why = "sin contar el cierre" if lateness.state == CLOSED else "antes del descuento"
        said = f" ({_number(grade.earned)} {why} por retraso)"
    lines = [
        f"# Corrección de {_inline(grade.student)}",
        "",
        f"**Nota: {_number(final)} de {_points(grade.points)}{said}.**",
        "",
    ]
    late = feedback_line(lateness, grade.earned, grade.points) if lateness else ""
    if late:
        lines += [_inline(late), ""]
    lines += [
        "Cada hueco se juzga solo: tu código de ese hueco dentro del laboratorio del curso, "
        "con sus parámetros por defecto y con otros que no se anuncian. El resto de tu "
        "archivo no cuenta.",
        "",
    ]
    if grade.missing:
        lines += [
            "Esta corrección se hizo sin todas las protecciones que separan a los alumnos "
            f"(faltaban: {_inline(named(grade.missing))}).",
            "",
        ]
    if grade.notes:
        lines += ["Avisos sobre la entrega:", ""]
        lines += [f"- {_inline(note)}" for note in grade.notes]
        lines.append("")
    by_id = {c.class_id: c for c in grade.classes}
    for spec in specs:
        lines += _class_lines(spec, by_id[spec.class_id])
    return "\n".join(lines).rstrip("\n") + "\n"
