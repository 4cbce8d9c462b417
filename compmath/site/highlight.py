"""Syntax highlighting of a class's files (the lab, its snapshot) with Pygments, light and dark."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from compmath.site.palette import DARK_BOX, LIGHT_BOX, readable

LIGHT, DARK = "default", "github-dark"
PLAIN = ("n", "p", "w")  # names, punctuation, spaces: drawn in the text's own colour


@cache
def _lexer(suffix: str) -> Any:
    """The lexer by file kind, named directly (a lookup by file name imports every lexer)."""
    from pygments.lexers.data import JsonLexer
    from pygments.lexers.python import PythonLexer
    from pygments.lexers.special import TextLexer

    lexers = {".py": PythonLexer, ".json": JsonLexer}
    return lexers.get(suffix, TextLexer)(stripnl=False)


@cache
def _escapes() -> dict[int, str]:
    """How the installed Pygments escapes a token's text, asked of its HtmlFormatter: 2.20
    writes `&quot;` and `&#39;`, 2.21 leaves quotes as they are; the same bytes either way."""
    from pygments import format as pygments_format
    from pygments.formatters import HtmlFormatter
    from pygments.token import Text

    formatter = HtmlFormatter(nowrap=True)
    return {ord(ch): pygments_format([(Text, ch)], formatter).removesuffix("\n") for ch in "&<>\"'"}


@cache
def _opener(token: Any) -> str:
    """The element a token type opens: none for tokens drawn in the text's own colour (names,
    punctuation, spaces: a third of the page), else a span with Pygments' classes."""
    from pygments.formatters import HtmlFormatter

    classes = HtmlFormatter()._get_css_classes(token)
    return "" if not classes or classes in PLAIN else f'<span class="{classes}">'


def _lines(tokens: Iterable[tuple[Any, str]]) -> Iterator[str]:
    """The tokens as lines of HTML: Pygments' HtmlFormatter(nowrap=True) without the spans
    of PLAIN tokens (the same bytes; one span per run of tokens of a type, closed on its line)."""
    line: list[str] = []
    last = ""  # the span open on this line
    for token, value in tokens:
        span = _opener(token)
        parts = value.translate(_escapes()).split("\n")
        for part in parts[:-1]:  # each ends a line
            if line:
                if last != span and part:
                    line += (last and "</span>", span, part, span and "</span>")
                else:
                    line += (part, last and "</span>")
                yield "".join(line)
                line = []
            elif part:
                yield "".join((span, part, span and "</span>"))
            else:
                yield ""
        part = parts[-1]
        if line and part:
            if last != span:
                line += (last and "</span>", span, part)
                last = span
            else:
                line.append(part)
        elif part:
            line = [span, part]
            last = span
    if line:
        line.append(last and "</span>")
        yield "".join(line)


def highlight_html(source: str, filename: str) -> str:
    """The file as highlighted HTML, one element per line (`#L12` is line 12; the numbers are
    drawn by CSS, so they are not copied with the code)."""
    tokens = _lexer(Path(filename).suffix).get_tokens(source)
    lines = enumerate(_lines(tokens), 1)
    body = "\n".join(f'<span id="L{i}">{text}</span>' for i, text in lines)
    return f'<pre class="highlight" tabindex="0"><code>{body}\n</code></pre>'


JSON_TOKEN = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*")(?=\s*:)|(?P<s2>"(?:[^"\\]|\\.)*")'
    r"|(?P<m>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<kc>\b(?:true|false|null)\b)"
    r"|(?P<c>… \(\d+ [^)]*\))"
)
JSON_CLASS = {"key": "nt", "s2": "s2", "m": "m", "kc": "kc", "c": "c"}


def highlight_json(text: str) -> str:
    """The class page's abridged JSON sample with the code's colours: keys, strings, numbers,
    true/false/null, and its «… (N en total)» marks drawn as comments (they are no JSON)."""
    from html import escape

    out, at = [], 0
    for match in JSON_TOKEN.finditer(text):
        kind = match.lastgroup or "c"
        out.append(escape(text[at : match.start()], quote=False))
        token = escape(match.group(), quote=False)
        out.append(f'<span class="{JSON_CLASS[kind]}">{token}</span>')
        at = match.end()
    out.append(escape(text[at:], quote=False))
    return "".join(out)


def _colours(style: str) -> dict[str, dict[str, str]]:
    """A Pygments style's token rules as {selector: {property: value}}, comments dropped."""
    from pygments.formatters import HtmlFormatter

    rules: dict[str, dict[str, str]] = {}
    defs = HtmlFormatter(style=style).get_style_defs(".highlight")
    for selector, body in re.findall(r"^(\.highlight \.\w+) \{([^}]*)\}", defs, re.M):
        found = (part.split(":", 1) for part in body.split(";") if ":" in part)
        rules[selector] = {k.strip(): v.strip() for k, v in found}
    return rules


JSON_TOKENS = ("nt", "s2", "m", "kc", "c")  # what highlight_json marks: in every page's stylesheet


def highlight_css(only: tuple[str, ...] = ()) -> str:
    """The token colours, light and dark in one rule each: `light-dark()` follows the page's
    color-scheme, which is the system's unless the reader chose a theme (so a choice made with
    the switch also recolours the code); `only` keeps those token classes."""
    light, dark = _colours(LIGHT), _colours(DARK)
    by_rule: dict[str, list[str]] = {}  # tokens drawn alike share one rule
    for selector in sorted(light.keys() | dark.keys()):
        if selector.startswith(".highlight .g"):
            continue  # Generic.*: diffs and console output, which no Python or JSON file yields
        if only and selector.removeprefix(".highlight .") not in only:
            continue
        one, other = light.get(selector, {}), dark.get(selector, {})
        declarations = []
        if "color" in one or "color" in other:
            # every token colour at 4.5:1 on the code's own background, light and dark
            a = readable(one["color"], LIGHT_BOX) if "color" in one else "currentColor"
            b = readable(other["color"], DARK_BOX) if "color" in other else "currentColor"
            declarations.append(f"color:light-dark({a},{b})")
        declarations += [f"{k}:{v}" for k, v in one.items() if k in ("font-weight", "font-style")]
        if declarations:
            by_rule.setdefault(";".join(declarations), []).append(selector)
    lines = [f"{','.join(selectors)}{{{rule}}}" for rule, selectors in by_rule.items()]
    return "\n".join(lines) + "\n"
