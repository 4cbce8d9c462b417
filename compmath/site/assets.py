"""The site's static files: the stylesheet (with the code colours), the search script and the
math font, copied from assets/ into the output's assets/ folder."""

from __future__ import annotations

import re
from pathlib import Path

from compmath.site.highlight import JSON_TOKENS, highlight_css
from compmath.site.palette import palette_css

ASSETS = Path(__file__).resolve().parent / "assets"


def compact_css(css: str) -> str:
    """The stylesheet without comments and runs of blanks (every page loads it: a third less)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"\s+", " ", css)
    css = re.sub(r"\s*([{};,])\s*", r"\1", css)
    # a blank after a colon is a declaration's (a selector's pseudo-class has none): drop it
    css = re.sub(r": ", ":", css).replace(";}", "}")
    # a child combinator needs no blanks (a calc()'s `+` and `-` do: they stay); a number's
    # leading zero is not needed either (0.5rem is .5rem)
    css = re.sub(r"\s*>\s*", ">", css)
    return re.sub(r"(?<![\w.#-])0\.(\d)", r".\1", css).strip() + "\n"


# a string or a regular expression literal of the page scripts: their blanks are kept
LITERAL = re.compile(
    r'("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/(?:[^/\\\n]|\\.)+/[gimsuy]*(?=[,.)]))'
)
# blanks beside punctuation (never `- -` or `+ +` in these scripts, which joining would change)
PUNCTUATION_BLANKS = re.compile(r"\s*([{}()\[\];,=+\-*<>:?|&!])\s*")


def compact_js(source: str) -> str:
    """The page scripts without their comments, indentation and the blanks beside punctuation
    (outside their strings and regular expressions; their strings hold no line that starts with
    //, nor two blanks before //, the mark of a comment after code): every page loads sitio.js,
    and the heaviest page has little room."""
    lines = (re.sub(r"\s{2,}// .*", "", line).strip() for line in source.splitlines())
    text = "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"
    pieces = LITERAL.split(text)
    pieces[::2] = [PUNCTUATION_BLANKS.sub(r"\1", piece) for piece in pieces[::2]]
    return "".join(pieces).strip() + "\n"


def asset_contents() -> list[tuple[str, bytes]]:
    """(path in the site, bytes) of every static file; the stylesheet gains the code and
    heatmap colours."""
    found = []
    for path in sorted(ASSETS.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.name == "estilo.css":  # every page: the JSON sample's colours
            css = data.decode("utf-8") + highlight_css(JSON_TOKENS)
            data = compact_css(css).encode("utf-8")
        elif path.name == "graficas.css":  # the pages with charts: the heatmaps' colours
            data = compact_css(data.decode("utf-8") + palette_css()).encode("utf-8")
        elif path.name == "codigo.css":  # the source pages only: every token's colour
            data = compact_css(data.decode("utf-8") + highlight_css()).encode("utf-8")
        elif path.suffix == ".js":
            data = compact_js(data.decode("utf-8")).encode("utf-8")
        found.append((f"assets/{path.relative_to(ASSETS).as_posix()}", data))
    return found
