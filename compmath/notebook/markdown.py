"""The class page's sections as Markdown for notebook cells (formulas in LaTeX between $$…$$)."""

from __future__ import annotations

import re
from collections.abc import Callable

from compmath.course.params import ParamSpec
from compmath.course.records import Hole
from compmath.mathtext import math_pieces
from compmath.present.page import ClassPage, Neighbour, example_value
from compmath.present.page_screen import PENDING, neighbour_text, reference_text

DISPLAY = re.compile(r"(\$\$.+?\$\$)", re.DOTALL)  # a README's display math, kept whole
UNESCAPED = re.compile(r"(?<!\\)\$")
Link = Callable[[Neighbour], str]  # the address of a neighbouring class's notebook


def text(value: str) -> str:
    """Prose as Markdown: its `$…$` and `$$…$$` stay math, as on the website (Jupyter draws
    them); any other `$` is a dollar, not the start of a formula («cuesta $5 y $10»)."""
    if "$" not in value:
        return value
    parts = DISPLAY.split(value)
    for i in range(0, len(parts), 2):  # between the display formulas: inline math and prose
        pieces = math_pieces(parts[i])
        pieces[::2] = [UNESCAPED.sub(r"\\$", p) for p in pieces[::2]]
        pieces[1::2] = [f"${p}$" for p in pieces[1::2]]
        parts[i] = "".join(pieces)
    return "".join(parts)


def _section(title: str, body: str) -> str:
    return f"## {title}\n\n{body or PENDING}"


def _bullets(items: tuple[str, ...]) -> str:
    return "\n".join(f"- {text(item)}" for item in items)


def header(page: ClassPage, colab: str | None, *, practice: bool) -> str:
    """Title, breadcrumb, level and duration, the lemma, and the «Abrir en Colab» badge."""
    home, part = page.breadcrumb
    title = f"# {page.number} — {text(page.title)}" + (" · práctica" if practice else "")
    lines = [title, "", f"*{home} · {text(part)}*", "", " · ".join(page.facts)]
    if page.lemma:
        lines += ["", f"> {text(page.lemma)}"]
    if colab:
        badge = "https://colab.research.google.com/assets/colab-badge.svg"
        lines += ["", f"[![Abrir en Colab]({badge})]({colab})"]
    return "\n".join(lines)


def practice_intro(holes: tuple[Hole, ...]) -> str:
    """How the exercise notebook works: the holes, their checks, the hints, the final check."""
    count = f"{len(holes)} hueco" + ("s" if len(holes) != 1 else "")
    return "\n".join(
        [
            f"Este cuaderno es el laboratorio con {count} por completar. Cada hueco está entre "
            "`### HUECO k ###` y `### FIN DEL HUECO k ###` y dice en un `TODO` qué calcular.",
            "",
            "1. Ejecuta el cuaderno entero una vez: señala los huecos abiertos sin detenerse.",
            "2. Escribe tu código en un hueco y ejecuta su celda y la de comprobación que la sigue:"
            " dice qué salidas de ese hueco ya coinciden con la instantánea.",
            "3. Si te atascas, abre las pistas plegadas debajo, de una en una.",
            "4. La última celda comprueba todas las salidas.",
        ]
    )


def formulas(page: ClassPage) -> str:
    """Each formula in LaTeX for Jupyter and Colab (its plain form when it has no LaTeX),
    numbered (1), (2)… as on the site and in `compmath show`: the prose cites them by number."""
    shown = [
        f"$${f.latex} \\tag{{{n}}}$$" if f.latex else f"({n}) `{f.text}`"
        for n, f in enumerate(page.formulas, 1)
    ]
    return _section("Fórmulas", "\n\n".join(shown))


def prose(page: ClassPage) -> list[str]:
    """Desarrollo and Ejemplo trabajado, from the class README.md."""
    return [
        _section("Desarrollo", text(page.development)),
        _section("Ejemplo trabajado", text(page.example)),
    ]


def _default(spec: ParamSpec) -> str:
    """A parameter's default as Python writes it (the expression, when it is not a literal)."""
    if spec.default_source and spec.default is None:
        return spec.default_source
    return repr(spec.default)


def computes(page: ClassPage) -> str:
    """What the lab computes, its parameters and how to try another value."""
    lines = [_section("Qué calcula el laboratorio", text(page.computes))]
    specs = page.parameters.specs
    if specs:
        lines += ["", "Parámetros de `run()` (sus valores por defecto dan la instantánea):", ""]
        lines += [f"- `{s.name}` ({s.type_name or '?'}) = `{_default(s)}`" for s in specs]
        tried = next((s for s in specs if s.type_name in ("int", "float")), specs[0])
        value = example_value(tried)
        if tried.type_name == "bool":
            value = value.capitalize()
        elif tried.type_name == "str":
            value = repr(value)
        lines += ["", f"Para explorar, prueba `run({tried.name}={value})` en una celda nueva."]
    lines += ["", f"En el repositorio del curso: `{page.commands[0]}` o `{page.commands[1]}`."]
    return "\n".join(lines)


def outputs(page: ClassPage) -> str:
    """The outputs run() returns, in its order, with their descriptions."""
    items = [
        f"- **{o.name}**: {text(o.description)}" if o.description else f"- **{o.name}**"
        for o in page.outputs
    ]
    return _section(f"Salidas del laboratorio ({len(page.outputs)})", "\n".join(items))


def hints(number: int, hole: Hole) -> str:
    """A hole's hints, each folded until the student opens it (from a nudge to the formula)."""
    folded = [
        f"<details><summary>Pista {i} del hueco {number}</summary>\n\n{text(hint)}\n\n</details>"
        for i, hint in enumerate(hole.hints, 1)
    ]
    feeds = ", ".join(f"`{name}`" for name in hole.outputs)
    return "\n\n".join([f"**Hueco {number}** alimenta {feeds}.", *folded])


def closing(page: ClassPage, link: Link) -> list[str]:
    """The page's last sections: common errors, uses, the part's ideas, references, neighbours."""
    part = page.part
    references = [
        "- "
        + text(reference_text(r)).replace(f"DOI {r.doi}", f"DOI [{r.doi}](https://doi.org/{r.doi})")
        for r in page.references
    ]
    return [
        _section("Errores comunes", _bullets(page.common_errors)),
        _section("Dónde se usa", text(page.uses)),
        "\n\n".join(
            [
                _section("Idea rectora de la parte", text(part.guiding_idea)),
                _section("Error a evitar", text(part.error_to_avoid)),
                _section("Conexión con IA", text(part.ai_connection)),
            ]
        ),
        _section("Bibliografía de la clase", "\n".join(references)),
        f"{_neighbour(page.previous, '←', link)} · {_neighbour(page.next, '→', link)}",
    ]


def _neighbour(found: Neighbour | None, arrow: str, link: Link) -> str:
    plain = text(neighbour_text(found, arrow))
    if found is None or not found.in_course:
        return plain
    label = text(f"{found.number} {found.title}".strip())
    address = link(found)
    return plain.replace(label, f"[{label}]({address})", 1) if address else plain
