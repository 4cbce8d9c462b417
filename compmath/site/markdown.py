"""A class's Markdown prose as HTML (markdown-it), `$…$` and `$$…$$` as MathML at build time."""

from __future__ import annotations

from functools import cache
from typing import Any

from compmath.site.mathml import to_mathml


def _math(content: str, options: dict[str, Any]) -> str:
    return to_mathml(content, display=bool(options.get("display_mode")))


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    # html off: a README's «t </w>» is prose about a symbol, not a tag to pass through
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    # "cuesta $5 y $10" is prose, not math: no space inside the dollars, no digit after them
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, renderer=_math)
    return md


def markdown_html(text: str) -> str:
    """Render a README section's Markdown to HTML (its `###` stay h3 under the page's h2)."""
    html = str(_parser().render(text))
    # a wide table scrolls inside its own box (focusable, for the keyboard) at 360 px
    html = html.replace("<table>", '<div class="tabla-ancha" tabindex="0"><table>')
    # display math in the prose: the same scrolling, named box as the page's formulas
    html = html.replace(
        '<div class="math block">',
        '<div class="formula" tabindex="0" role="group" aria-label="Fórmula">',
    )
    # a code block that scrolls sideways must be reachable with the keyboard too
    return html.replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')
