"""The search index: a plain script (`window.COMPMATH_BUSQUEDA = …`) that works from file://.

Text is folded at build time (no accents, lower case: "codificacion" finds "Codificación") and
the page's script folds the query the same way; prose is kept as its set of distinct words.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

WORD = re.compile(r"[a-z0-9_]+")


def fold(text: str) -> str:
    """Lower case without accents or diacritics (ñ becomes n, as in the output keys)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Entry:
    """One searchable page: where it is, what it shows, and the text it is found by."""

    url: str
    title: str
    summary: str
    titles: str  # title and number, folded
    lemma: str
    outputs: str
    prose: str


def entry(url: str, title: str, summary: str, outputs: list[str], prose: str) -> Entry:
    """An index entry from a page's visible text (folded here once)."""
    words = dict.fromkeys(WORD.findall(fold(prose)))
    return Entry(
        url, title, summary, fold(title), fold(summary), " ".join(outputs), " ".join(words)
    )


def index_script(entries: list[Entry]) -> str:
    """The index as a classic script assigning one global, readable from file://."""
    rows = [
        {
            "u": e.url,
            "t": e.title,
            "r": e.summary,
            "ft": e.titles,
            "fl": e.lemma,
            "fo": e.outputs,
            "fp": e.prose,
        }
        for e in entries
    ]
    data = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return f"window.COMPMATH_BUSQUEDA = {data};\n"
