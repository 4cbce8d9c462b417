"""The search index: a plain script (`window.COMPMATH_BUSQUEDA = …`) that works from file://.

Text is folded at build time (no accents, lower case: "codificacion" finds "Codificación") and
the page's script folds the query the same way. The prose is one vocabulary for the whole site,
each word once with the pages it is on (their numbers in base 36, all as wide as the largest,
one after another), the sorted words front-coded (how many letters it shares with the previous
word, in base 36, then the rest): a third of a list of words per page, so the search page stays
under 60 KB with its stylesheet and scripts.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

from compmath.mathtext import plain_prose

WORD = re.compile(r"[a-z0-9_]+")


# a Greek letter is searched by its name, as LaTeX writes it («beta» finds β), α to ω in order
GREEK = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau", "upsilon",
    "phi", "chi", "psi", "omega",
)  # fmt: skip
_GREEK = {0x3B1 + i: name for i, name in enumerate(GREEK)}


# a run of Unicode subscripts (mathtext writes `x_t` as `xₜ`) is searched as `x_t`, as typed
SUBSCRIPTS = re.compile("[\u2080-\u209c\u1d62-\u1d6a\u2c7c]+")


def _subscripts_as_typed(text: str) -> str:
    return SUBSCRIPTS.sub(lambda m: "_" + unicodedata.normalize("NFKD", m.group()), text)


def fold(text: str) -> str:
    """Lower case without accents or diacritics (ñ becomes n, as in the output keys), Greek
    letters as their names, subscripts after a `_` (`xₜ` as `x_t`)."""
    decomposed = unicodedata.normalize("NFKD", _subscripts_as_typed(text.lower()))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_GREEK)


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
    """An index entry from a page's visible text (folded here once). Its math is read as the
    search quotes it: the summary (a class's lemma), shown as text on the results page, «$x_t$»
    as «x_t»; the prose's words those of its formulas as a reader sees them («ε», searched as
    «epsilon»), not their TeX («\\varepsilon», «\\sqrt», «\\mathbb»)."""
    summary = plain_prose(summary)
    words = dict.fromkeys(WORD.findall(fold(plain_prose(prose))))
    return Entry(
        url, title, summary, fold(title), fold(summary), " ".join(outputs), " ".join(words)
    )


def _front_coded(words: list[str]) -> str:
    """Sorted words, each as (letters shared with the previous one, base 36) + the rest."""
    coded, previous = [], ""
    for word in words:
        shared = 0
        while shared < min(len(word), len(previous), 35) and word[shared] == previous[shared]:
            shared += 1
        coded.append(_BASE36[shared] + word[shared:])
        previous = word
    return " ".join(coded)


_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36(n: int) -> str:
    digits = ""
    while True:
        n, r = divmod(n, 36)
        digits = _BASE36[r] + digits
        if not n:
            return digits


def _searched(word: str) -> bool:
    """Whether the index keeps a word of the prose: not a long number, nor the digits after a
    decimal comma («0,001» gives «001»: no reader searches that)."""
    return not (word.isdigit() and (len(word) > 3 or (word[0] == "0" and len(word) > 1)))


def index_script(entries: list[Entry]) -> str:
    """The index as a classic script assigning one global, readable from file://: the pages
    (address, title, summary, output names; the script folds the title and summary itself) and
    the prose's vocabulary (numbers as long as a year's left out: a reader searches words)."""
    pages = [[e.url, e.title, e.summary, e.outputs] for e in entries]  # each: u, t, r, fo
    width = len(_base36(max(len(entries) - 1, 0)))  # one digit up to 36 pages
    where: dict[str, list[str]] = {}
    for i, e in enumerate(entries):
        for word in e.prose.split():
            if _searched(word):
                where.setdefault(word, []).append(_base36(i).rjust(width, "0"))
    # a word on most pages («de», «matriz») tells them apart no better than nothing: it is
    # listed once, found on every page
    common = sorted(w for w, found in where.items() if 2 * len(found) > len(entries))
    words = sorted(w for w in where if w not in set(common))
    # a word that begins the next one, on no page the next is not on, is found through it
    # (the script matches words by their beginning): «normal» through «normalizado»
    words = [
        w
        for w, after in zip(words, [*words[1:], ""])
        if not (after.startswith(w) and set(where[w]) <= set(where[after]))
    ]
    data = {
        "paginas": pages,
        "vocabulario": _front_coded(words),
        "donde": " ".join("".join(where[w]) for w in words),
        "ancho": width,
        "comunes": _front_coded(common),
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"window.COMPMATH_BUSQUEDA = {text};\n"
