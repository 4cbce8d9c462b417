"""Syntax highlighting of a class's files (the lab, its snapshot) with Pygments, light and dark."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

LIGHT, DARK = "default", "github-dark"


@cache
def _lexer(suffix: str) -> Any:
    """The lexer by file kind, named directly (a lookup by file name imports every lexer)."""
    from pygments.lexers.data import JsonLexer
    from pygments.lexers.python import PythonLexer
    from pygments.lexers.special import TextLexer

    lexers = {".py": PythonLexer, ".json": JsonLexer}
    return lexers.get(suffix, TextLexer)(stripnl=False)


def highlight_html(source: str, filename: str) -> str:
    """The file as highlighted HTML, one element per line (`#L12` is line 12; the numbers are
    drawn by CSS, so they are not copied with the code)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    lexer = _lexer(Path(filename).suffix)
    # nowrap: one line of output per line of source, every token's span closed on its line
    lines = str(highlight(source, lexer, HtmlFormatter(nowrap=True))).split("\n")
    if lines and not lines[-1]:
        lines.pop()
    body = "\n".join(
        f'<span class="linea" id="L{i}">{text}</span>' for i, text in enumerate(lines, 1)
    )
    return f'<pre class="highlight" tabindex="0"><code>{body}\n</code></pre>'


def highlight_css() -> str:
    """The token colours: the light style, and the dark one when the system asks for it."""
    from pygments.formatters import HtmlFormatter

    light = HtmlFormatter(style=LIGHT).get_style_defs(".highlight")
    dark = HtmlFormatter(style=DARK).get_style_defs(".highlight")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
