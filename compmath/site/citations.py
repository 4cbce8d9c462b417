"""The course as a book: in-text citations linked to their bibliography entry, and BibTeX.

A class's `[[bibliografia]]` gives each entry a key (first author's surname and year: `ho2020`,
`press2022`; a letter added where two share both). In the page's prose, «Ho et al.»,
«Press et al. (2022)», «Arjovsky y Bottou (2017)», «Shaw, Uszkoreit y Vaswani (2018)» or
«(Gage, 1994)» link to the entry (`#ref-ho2020`) when the surname is the first author of one of
the class's entries (and the year matches, when given); an eponym without a year («la ecuación
de Bellman») is left alone. Like crossrefs, it works on the page's HTML, outside code, math,
links and headings, and never inside the bibliography itself.

`bibtex` writes the entries as a `.bib` file (the format of Patashnik's «BibTeXing»): one per
class beside its page and one for the whole course.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from compmath.site.crossrefs import in_prose


class Entry(Protocol):
    """What a bibliography entry of class.toml gives (course.records)."""

    @property
    def authors(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def year(self) -> int: ...
    @property
    def venue(self) -> str: ...
    @property
    def doi(self) -> str: ...
    @property
    def isbn(self) -> str: ...
    @property
    def note(self) -> str: ...


SURNAME = r"(?:von |van |de )?[A-Z][\w'-]+"
# «Ho et al.», «Ho et al. (2020)», «Ho et al., 2020», «Arjovsky y Bottou (2017)»,
# «Shaw, Uszkoreit y Vaswani (2018)», «Gage, 1994», «Shazeer 2019»
MENTION = re.compile(
    rf"(?P<first>{SURNAME})"
    rf"(?P<rest>\s+et\s+al\.|(?:,\s+{SURNAME})*\s+y\s+{SURNAME})?"
    r"(?P<year>,?\s+\(?(?P<number>(?:19|20)\d\d)[a-z]?\)?)?"
)
BIBLIOGRAPHY = '<h2 id="bibliografia"'  # where the page's own list starts: never linked in


def surname(authors: str) -> str:
    """The first author's surname: «Ho, J.; Jain, A.» → «Ho»; «von Luxburg, U.» → «von Luxburg»."""
    return authors.split(";")[0].split(",")[0].replace(" et al.", "").strip()


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def keys(entries: Sequence[Entry]) -> list[str]:
    """Each entry's key, in order: surname and year, with a, b… where two would be alike."""
    plain = [f"{_ascii(surname(e.authors))}{e.year}" for e in entries]
    out = []
    for k, key in enumerate(plain):
        if plain.count(key) == 1:
            out.append(key)
        else:
            out.append(key + "abcdefghijklmnopqrstuvwxyz"[plain[:k].count(key)])
    return out


def _target(match: re.Match[str], entries: Sequence[Entry], names: Sequence[str]) -> str | None:
    """The key a mention cites, or None: its surname must be one entry's first author (and the
    year that entry's, when the mention gives one); a bare surname needs a year or «et al.»."""
    if match.group("rest") is None and match.group("year") is None:
        return None
    year = match.group("number")
    found = [
        key
        for entry, key in zip(entries, names)
        if surname(entry.authors) == match.group("first")
        and (year is None or int(year) == entry.year)
    ]
    return found[0] if len(set(found)) == 1 else None


def link_citations(html: str, entries: Sequence[Entry]) -> str:
    """`html` (a class page) with each in-text citation of one of `entries` linked to it."""
    if not entries:
        return html
    names = keys(entries)
    cut = html.find(BIBLIOGRAPHY)
    head, tail = (html, "") if cut < 0 else (html[:cut], html[cut:])
    linked = in_prose(head, lambda piece: MENTION.sub(lambda m: _link(m, entries, names), piece))
    return linked + tail


def _link(match: re.Match[str], entries: Sequence[Entry], names: Sequence[str]) -> str:
    key = _target(match, entries, names)
    if key is None:
        return match.group()
    text = match.group()
    opening = text.endswith(")") and "(" not in text  # «(Gage, 1994)»: the bracket stays out
    inner, after = (text[:-1], ")") if opening else (text, "")
    return f'<a class="cita" href="#ref-{key}">{inner}</a>{after}'


# --- BibTeX -------------------------------------------------------------------------------

SPECIAL = str.maketrans({c: f"\\{c}" for c in "&%$#_{}"} | {"~": r"\~{}", "^": r"\^{}", "\\": ""})


def _value(text: str) -> str:
    """A field's text in braces, BibTeX's special characters escaped (UTF-8 kept: biber and
    BibTeX with inputenc read it)."""
    return "{" + " ".join(text.translate(SPECIAL).split()) + "}"


def _authors(authors: str) -> str:
    """class.toml's «Ho, J.; Jain, A.» as BibTeX's «Ho, J. and Jain, A.» («et al.» → «and
    others», BibTeX's own word for it)."""
    names = [a.strip() for a in authors.split(";") if a.strip()]
    if names and names[-1].endswith(" et al."):
        names[-1] = names[-1].removesuffix(" et al.")
        names.append("others")
    return " and ".join(names)


def bibtex_entry(entry: Entry, key: str) -> str:
    kind = "book" if entry.isbn else "article" if entry.venue else "misc"
    fields = [("author", _authors(entry.authors)), ("title", entry.title)]
    fields.append(("journal" if kind == "article" else "publisher", entry.venue))
    fields += [("year", str(entry.year)), ("doi", entry.doi), ("isbn", entry.isbn)]
    fields.append(("note", entry.note))
    body = ",\n".join(f"  {name} = {_value(value)}" for name, value in fields if value)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def bibtex(entries: Sequence[Entry], names: Sequence[str] | None = None) -> str:
    """A .bib file of `entries` (keyed by `names`, or by their own keys)."""
    chosen = keys(entries) if names is None else names
    return "\n".join(bibtex_entry(e, k) for e, k in zip(entries, chosen))


def course_bibtex(by_class: Mapping[str, Sequence[Entry]]) -> str:
    """The whole course's .bib: every class's entries, one per DOI (or key), each keyed once."""
    seen: dict[str, tuple[Entry, str]] = {}
    for entries in by_class.values():
        for entry, key in zip(entries, keys(entries)):
            seen.setdefault(entry.doi or entry.isbn or key, (entry, key))
    chosen: list[tuple[Entry, str]] = list(seen.values())
    names = _unique(k for _, k in chosen)
    return bibtex([e for e, _ in chosen], names)


def _unique(names: Iterable[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        candidate, n = name, 1
        while candidate in out:
            n += 1
            candidate = f"{name}-{n}"
        out.append(candidate)
    return out
