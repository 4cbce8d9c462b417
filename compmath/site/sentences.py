"""A page's prose as plain-text sentences, for the search results that quote where a word is.

Each searchable page gets a small script of its own (`buscar/NOMBRE.js`) holding its sentences;
the search page loads it only for the results a reader sees, so no page carries every page's
text. Markdown is read with a few regular expressions, not a parser (this runs on every build):
emphasis and links become their text, inline `$…$` plain Unicode (compmath/mathtext.py, as in
the terminal: `\\beta_t` → `βₜ`; a script Unicode has no letters for, `W_Q`, between the marks
buscar.js shows as <sub> and <sup>),
display math and code blocks are left out (a quote is a sentence), a table row is one sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from compmath.mathtext import math_pieces, tex_plain

# a sentence ends at . ! ? or … followed by a blank and a capital (or a number), but not
# after an abbreviation: «Haviv et al. (2022)», «p. ej. Adam», «Fig. 2»
_END = re.compile(
    r"(?<=[.!?…])(?<!\bal\.)(?<!\bej\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\bFig\.)(?<!\bEq\.)"
    r"\s+(?=[¿¡«\"“]?[A-ZÁÉÍÓÚÜÑ0-9])"
)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^#{1,6}\s+")
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# emphasis, but not an underscore inside a word (CommonMark's rule): «alfa_1_sobre_n»
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_CODE = re.compile(r"`+([^`]+)`+")


def _emphasis(text: str) -> str:
    if "*" not in text and "_" not in text:  # most of the prose: no expression to try
        return text
    return _EMPHASIS.sub(r"\2", _EMPHASIS.sub(r"\2", text))  # twice: ***both*** or **a *b***


def _plain_inline(text: str) -> str:
    # math first: its underscores and stars are not emphasis
    pieces = math_pieces(text) if "$" in text else [text]
    for i in range(1, len(pieces), 2):
        pieces[i] = tex_plain(pieces[i], marked=True)  # buscar.js shows <sub>, <sup>
    for i in range(0, len(pieces), 2):
        piece = _LINK.sub(r"\1", pieces[i]) if "](" in pieces[i] else pieces[i]
        codes = _CODE.split(piece) if "`" in piece else [piece]  # code keeps its _ and * too
        codes[::2] = [_emphasis(c) for c in codes[::2]]
        pieces[i] = "".join(codes)
    return " ".join("".join(pieces).split())


def _starts_block(line: str) -> bool:
    stripped = line.strip()
    return not stripped or bool(
        _ITEM.match(line) or _HEADING.match(line) or stripped.startswith(("|", "```", "~~~", "$$"))
    )


def _blocks(markdown: str) -> Iterator[str]:
    """The prose blocks of Markdown: paragraphs, list items, headings and table rows, without
    code blocks or display math."""
    block: list[str] = []
    fence = display = False
    for line in [*markdown.splitlines(), ""]:
        stripped = line.strip()
        if fence or display:  # inside a code block or display math: only its end matters
            fence = fence and not stripped.startswith(("```", "~~~"))
            display = display and not stripped.endswith("$$")
            continue
        if block and _starts_block(line):
            yield " ".join(block)
            block = []
        if stripped.startswith(("```", "~~~")):
            fence = True
        elif stripped.startswith("$$"):
            display = not (len(stripped) > 2 and stripped.endswith("$$"))
        elif stripped.startswith("|"):
            if not _RULE.match(stripped):
                yield " · ".join(c.strip() for c in stripped.strip("|").split("|") if c.strip())
        elif stripped and not (line.startswith("    ") and not block):  # not indented code
            block.append(_HEADING.sub("", _ITEM.sub("", line)).strip())


def plain_sentences(texts: Iterable[str]) -> list[str]:
    """The sentences of some Markdown texts, in order, as plain text (each once)."""
    return [sentence for run in sentence_runs(texts) for sentence in run]


def sentence_runs(texts: Iterable[str]) -> list[list[str]]:
    """plain_sentences in runs: the sentences that follow one another in one block (paragraph,
    list item, heading, table row), which a quote may go on with; a sentence said before is left
    out and ends its run, so each run is a stretch of the page's text."""
    seen: set[str] = set()
    runs: list[list[str]] = []
    for text in texts:
        for block in _blocks(text):
            run: list[str] = []
            for piece in _END.split(_plain_inline(block)):
                sentence = piece.strip()
                if sentence and sentence not in seen:
                    seen.add(sentence)
                    run.append(sentence)
                elif sentence and run:
                    runs.append(run)
                    run = []
            if run:
                runs.append(run)
    return runs


def script_name(url: str) -> str:
    """Where a page's sentences are, from the search page: `buscar/323-positional-encoding.js`
    for `clases/323-positional-encoding.html` (buscar.js makes the same name)."""
    return "buscar/" + url.rsplit("/", 1)[-1].removesuffix(".html") + ".js"


def sentences_script(url: str, runs: list[list[str]]) -> str:
    """A classic script (readable from file://) adding one page's sentences, in their runs
    (sentence_runs), to a global."""
    text = json.dumps(runs, ensure_ascii=False, separators=(",", ":"))
    return f"(window.COMPMATH_FRASES=window.COMPMATH_FRASES||{{}})[{json.dumps(url)}]={text};\n"
