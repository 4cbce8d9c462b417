"""The course as a book: «clase 3NN» in a class page links to that class's page.

It works on the page's HTML, never on the Markdown: a link is added only in text, outside
tags, code, math, headings and existing links, so a `clase 323` inside a code span stays code.
(The headings' permalinks are added by sitio.js: a comfort, not needed to read the page.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

# «clase 323», «clases 321 y 322», «las clases 331, 332 y 333», «clase 338–339»
MENTION = re.compile(
    r"\b(?P<word>[Cc]lases?)(?P<gap>\s+)(?P<numbers>\d{3}(?:(?:,\s*|\s+y\s+|\s*[–-]\s*)\d{3})*)\b"
)
NUMBER = re.compile(r"\d{3}")
# the pieces of an HTML fragment: a tag, or the text between tags
PIECES = re.compile(r"(<[^>]*>)")
# elements whose text is never linked: code, links, headings, math, what is not prose
OPAQUE = ("code", "pre", "a", "math", "h1", "h2", "h3", "h4", "title", "script", "style", "summary")


def _link_numbers(match: re.Match[str], urls: Mapping[int, str], own: int) -> str:
    def one(number: re.Match[str]) -> str:
        value = int(number.group())
        url = urls.get(value)
        if url is None or value == own:
            return number.group()
        return f'<a class="ref-clase" href="{url}">{number.group()}</a>'

    linked = NUMBER.sub(one, match.group("numbers"))
    return f"{match.group('word')}{match.group('gap')}{linked}"


def in_prose(html: str, change: Callable[[str], str]) -> str:
    """`html` with `change` applied to each run of text outside tags and opaque elements."""
    out: list[str] = []
    depth = 0  # how many opaque elements the current text is inside
    for piece in PIECES.split(html):
        if piece.startswith("<"):
            name = piece[1:].lstrip("/").split(None, 1)[0].rstrip(">").lower() if piece[1:] else ""
            if name in OPAQUE and not piece.endswith("/>"):
                depth += -1 if piece.startswith("</") else 1
            out.append(piece)
        elif depth == 0 and piece:
            out.append(change(piece))
        else:
            out.append(piece)
    return "".join(out)


def link_classes(html: str, urls: Mapping[int, str], own: int) -> str:
    """`html` (a fragment or a whole page) with each mention of another class of the course
    («clase 323») linked to its page; `urls` maps a class number to its link from this page,
    `own` is this page's class."""
    if not urls or "lase" not in html:
        return html
    return in_prose(html, lambda piece: MENTION.sub(lambda m: _link_numbers(m, urls, own), piece))
