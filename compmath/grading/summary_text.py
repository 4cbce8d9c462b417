"""The class report written out: resumen.md (Markdown, escaped) and the terminal's blocks.

Every name, error and output in it came from a student's code or folder: in resumen.md each
is escaped (no HTML, link, image, emphasis or table cell can come out of it) or quoted in a
code span long enough to hold its backticks; on a screen, control characters are made visible.
"""

from __future__ import annotations

import re
from typing import Any

from compmath.grading.summary import sentence
from compmath.present.layout import BLANK, Block, Cell, Column, Table, line, para
from compmath.visible import one_line
from compmath.wording import count

SUMMARY_NAME = "resumen.md"
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#!|~&$@])")
AUTOLINK = re.compile(r"(?i)(?<=[a-z])(:)(?=//)|(?<=www)(\.)")  # GFM links bare URLs
SHOWN_STUDENTS = 12
HEADS = ("bien", "mal", "falla", "tiempo agotado", "sin completar", "sin entregar")
KEYS = ("bien", "mal", "falla", "tiempo_agotado", "sin_completar", "sin_entregar")


def md_text(text: str) -> str:
    """Prose from anywhere, safe in Markdown: one line, every markup character escaped."""
    escaped = MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text))
    return AUTOLINK.sub(lambda m: "\\" + m.group(), escaped)


def md_code(text: str) -> str:
    """A code span holding `text` whatever backticks it has (a code span shows, never runs)."""
    shown = one_line(text) or " "
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _screen_text(text: str) -> str:
    return one_line(text)


def _students(group: dict[str, Any], quote: Any) -> str:
    listed = group["alumnos"]
    shown = ", ".join(quote(s) for s in listed[:SHOWN_STUDENTS])
    more = len(listed) - SHOWN_STUDENTS
    return shown + (f" (y {more} más)" if more > 0 else "")


def _where(group: dict[str, Any]) -> str:
    return f"{group['numero']}, hueco {group['hueco']}"


def summary_markdown(summary: dict[str, Any]) -> str:
    """resumen.md: the most common failures first, then each class's holes."""
    students = summary["alumnos"]
    lines = [
        "# Resumen de la corrección",
        "",
        f"{count(students, 'alumno', 'alumnos')} · "
        f"{count(len(summary['clases']), 'clase', 'clases')}. Cada porcentaje es del total "
        "de alumnos; un hueco cuenta como fallado por el primer parámetro con que falla.",
        "",
        "## Lo que más se falla",
        "",
    ]
    if not summary["lo_mas_comun"]:
        lines += ["Ningún hueco falla.", ""]
    for k, group in enumerate(summary["lo_mas_comun"], 1):
        said = sentence(group, md_code, md_text)
        who = _students(group, md_text)
        lines.append(f"{k}. **{_where(group)}**: {said}. Alumnos: {who}.")
    lines.append("")
    for cls in summary["clases"]:
        lines += [f"## {cls['numero']} — {md_text(cls['titulo'])}", ""]
        lines += ["| hueco | " + " | ".join(HEADS) + " |", "|---" * (len(HEADS) + 1) + "|"]
        for hole in cls["huecos"]:
            lines.append(f"| {hole['numero']} | " + " | ".join(str(hole[k]) for k in KEYS) + " |")
        lines.append("")
        for hole in cls["huecos"]:
            for group in hole["fallos"][:3]:
                said = sentence(group, md_code, md_text)
                who = _students(group, md_text)
                lines.append(f"- Hueco {hole['numero']}: {said}. Alumnos: {who}.")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def summary_blocks(summary: dict[str, Any]) -> list[Block]:
    """The class report on a terminal, at any width from 60 columns."""

    def code(text: str) -> str:
        return f"«{_screen_text(text)}»"

    students = summary["alumnos"]
    blocks: list[Block] = [
        line(("Resumen de la corrección", "bold")),
        para(
            f"{count(students, 'alumno', 'alumnos')} · "
            f"{count(len(summary['clases']), 'clase', 'clases')}; cada porcentaje es del total "
            "de alumnos",
            hang=2,
        ),
        BLANK,
        line(("Lo que más se falla", "bold")),
    ]
    if not summary["lo_mas_comun"]:
        blocks.append(para("ningún hueco falla", indent=2))
    for group in summary["lo_mas_comun"]:
        said = sentence(group, code, _screen_text)
        blocks.append(para((_where(group), "bold"), f": {said}", indent=2, hang=2))
        blocks.append(para(("alumnos: ", "dim"), _students(group, _screen_text), indent=4, hang=2))
    columns = (
        Column("hueco", 5, "fixed", "right"),
        *(Column(h, 3, "wrap", "right") for h in HEADS),
    )
    for cls in summary["clases"]:
        blocks += [BLANK, line((f"{cls['numero']} — {_screen_text(cls['titulo'])}", "bold"))]
        rows = tuple(
            (Cell(str(h["numero"])), *(Cell(str(h[k])) for k in KEYS)) for h in cls["huecos"]
        )
        blocks.append(Table(columns, rows, indent=2))
    return blocks
