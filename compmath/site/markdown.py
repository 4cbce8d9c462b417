"""A class's Markdown prose as HTML (markdown-it), `$…$` and `$$…$$` as MathML at build time."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

from compmath.mathtext import CODE_SPAN, math_pieces
from compmath.site.mathml import LatexError, to_mathml

INLINE_WRAPPER = re.compile(r'<span class="math inline">(<math\b.*?</math>)</span>', re.DOTALL)


class InlineMathError(LatexError):
    """A `$…$` of a class.toml field that is not valid LaTeX: the LaTeX, and why."""

    def __init__(self, latex: str, reason: str) -> None:
        super().__init__(reason)
        self.latex = latex


def _math(content: str, options: dict[str, Any]) -> str:
    return to_mathml(content, display=bool(options.get("display_mode")))


def inline_html(text: str) -> str:
    """A class.toml prose field as HTML: escaped text, its `$…$` as the README's inline math
    (the same `<math>`) and its `…` as code, as in the README (an output's key `t_1` is an
    identifier, not a subscript); InlineMathError on bad LaTeX."""
    from markupsafe import escape

    pieces = math_pieces(text) if "$" in text else [text]
    html = [_with_code(piece, escape) for piece in pieces[::2]]
    for i, latex in enumerate(pieces[1::2]):
        try:
            math = _math(latex, {"display_mode": False})
        except LatexError as exc:
            raise InlineMathError(latex, str(exc)) from None
        html[i] += math
    return "".join(html)


def _with_code(prose: str, escape: Any) -> str:
    """A piece of a field's prose, escaped, its `…` spans as `<code>`."""
    if "`" not in prose:
        return str(escape(prose))
    parts = CODE_SPAN.split(prose)
    parts[::2] = [str(escape(part)) for part in parts[::2]]
    parts[1::2] = [f"<code>{escape(code)}</code>" for code in parts[1::2]]
    return "".join(parts)


def slug(title: str) -> str:
    """A heading's id: its words folded to ASCII, lower case, joined by hyphens."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[a-z0-9]+", folded.lower())) or "seccion"


@cache
def _parser(prefix: str) -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.anchors import anchors_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    # html off: a README's «t </w>» is prose about a symbol, not a tag to pass through
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    # "cuesta $5 y $10" is prose, not math: no space inside the dollars, no digit after them
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, renderer=_math)
    # the README's ### get ids of their own (prefixed: two sections of a page may share a title,
    # and the page's own h2 ids are plain words); compmath.site.crossrefs adds the permalinks
    md.use(anchors_plugin, min_level=3, max_level=4, slug_func=lambda s: f"{prefix}-{slug(s)}")
    return md


def markdown_html(text: str, prefix: str = "s") -> str:
    """Render a README section's Markdown to HTML (its `###` stay h3 under the page's h2, with
    ids that start with `prefix`)."""
    html = str(_parser(prefix).render(text))
    # inline math is its <math> alone: dollarmath's wrapper has no style and cost the heaviest
    # page (332, 28 formulas in its prose) 1 KB of its 60 KB budget
    html = INLINE_WRAPPER.sub(r"\1", html)
    # a wide table scrolls inside its own box (focusable, for the keyboard) at 360 px
    html = html.replace("<table>", '<div class="tabla-ancha" tabindex="0"><table>')
    # display math in the prose: the same box as the page's formulas (sitio.js names and
    # makes focusable the ones that scroll)
    html = html.replace(
        '<div class="math block">',
        '<div class="formula">',
    )
    # a code block that scrolls sideways must be reachable with the keyboard too
    return html.replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')
