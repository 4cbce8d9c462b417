"""What tomllib, json and Python's parser report, in Spanish: the cause, where, and the line.

Translated from the exception's fields (`msg`, `lineno`, `colno`, `offset`, `text`); tomllib
before Python 3.14 has no fields, so its message is split into cause and position as tomllib
writes it. A cause with no known translation keeps Python's words after a Spanish lead-in.
Kept free of heavy imports: the lab's process uses it for a syntax error.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from compmath.errors_es_words import (
    BASES,
    JSON_CAUSES,
    RUNTIME_CAUSES,
    RUNTIME_PATTERNS,
    SAME_EQUALS,
    SYNTAX_CAUSES,
    SYNTAX_PATTERNS,
    THINGS,
    TOML_CAUSES,
    TOML_PATTERNS,
)


class Located(NamedTuple):
    """A parse error as data: the cause in Spanish, its line and column (1-based, in
    characters; None when unknown) and the text of that line ("" when unknown)."""

    what: str
    line: int | None = None
    column: int | None = None
    text: str = ""

    def where(self) -> str:
        """`línea 3, columna 5`, `línea 3`, or "" when the position is unknown."""
        if self.line is None:
            return ""
        return f"línea {self.line}" + (f", columna {self.column}" if self.column else "")

    def sentence(self) -> str:
        """The cause and where, on one line: `falta «:» (línea 3, columna 5)`."""
        where = self.where()
        return f"{self.what} ({where})" if where else self.what


def _translate(
    message: str, exact: dict[str, str], patterns: tuple[tuple[str, str], ...], lead: str
) -> str:
    if message in exact:
        return exact[message]
    for pattern, spanish in patterns:
        found = re.fullmatch(pattern, message)
        if found:
            groups = [THINGS.get(g, BASES.get(g, g)) for g in found.groups()]
            return spanish.format(*groups)
    return f"{lead} (Python dice: «{message}»)"


def runtime_message(message: str) -> str:
    """What Python or numpy said as a lab raised, in Spanish when the message is a known one;
    anything else as it was written (a lab's own messages are Spanish already)."""
    if message in RUNTIME_CAUSES:
        return RUNTIME_CAUSES[message]
    for pattern, spanish in RUNTIME_PATTERNS:
        found = re.fullmatch(pattern, message)
        if found:
            return spanish.format(*found.groups())
    return message


def _line_of(text: str, line: int | None) -> str:
    lines = text.splitlines()
    return lines[line - 1] if line is not None and 0 < line <= len(lines) else ""


def toml_problem(exc: ValueError, text: str) -> Located:
    """A tomllib.TOMLDecodeError of `text` in Spanish."""
    message = getattr(exc, "msg", None)
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    if message is None:  # before Python 3.14: "<cause> (at line L, column C)"
        found = re.fullmatch(r"(.*) \(at (?:line (\d+), column (\d+)|end of document)\)", str(exc))
        message = found.group(1) if found else str(exc)
        if found and found.group(2):
            line, column = int(found.group(2)), int(found.group(3))
        elif found:
            line = max(text.count("\n") + (0 if text.endswith("\n") else 1), 1)
            column = len(_line_of(text, line)) + 1
    what = _translate(message, TOML_CAUSES, TOML_PATTERNS, "no es TOML válido")
    return Located(what, line, column, _line_of(text, line))


def json_problem(exc: ValueError) -> Located:
    """A json.JSONDecodeError in Spanish; at the end of the text, the position is just after
    its last character (where the missing part should have been)."""
    message = getattr(exc, "msg", str(exc))
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    doc: str = getattr(exc, "doc", "") or ""
    body = doc.rstrip()
    if body and getattr(exc, "pos", 0) >= len(body):
        line = body.count("\n") + 1
        column = len(_line_of(body, line)) + 1
    what = _translate(message, JSON_CAUSES, (), "no es JSON válido")
    pos = getattr(exc, "pos", 0)
    if message.startswith("Expecting property name") and doc[pos : pos + 1] == "}":
        what = "coma sobrante antes de «}»"  # what json says of a trailing comma before 3.13
    return Located(what, line, column, _line_of(doc, line))


def syntax_problem(exc: SyntaxError, source: str = "") -> Located:
    """A SyntaxError (IndentationError, TabError) in Spanish; `source` supplies the line
    when the exception carries none."""
    message = exc.msg or ""
    if message.endswith(SAME_EQUALS):
        thing = message.removesuffix(SAME_EQUALS).removeprefix("cannot assign to ")
        what = f"no se puede asignar a {THINGS.get(thing, thing)}: ¿querías escribir «==»?"
    else:
        what = _translate(message, SYNTAX_CAUSES, SYNTAX_PATTERNS, "error de sintaxis")
    text = (exc.text or _line_of(source, exc.lineno)).rstrip("\n")
    column = exc.offset if exc.offset and exc.offset > 0 else None
    return Located(what, exc.lineno, column, text)


def _pieces(text: str, room: int) -> list[tuple[int, str]]:
    """`text` cut into pieces of at most `room` characters, after a space when there is one:
    (where each piece starts, the piece)."""
    out: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > room:
        cut = text.rfind(" ", start, start + room) + 1
        cut = cut if cut > start + room // 3 else start + room
        out.append((start, text[start:cut]))
        start = cut
    out.append((start, text[start:]))
    return out


def excerpt(located: Located, width: int | None = None) -> list[str]:
    """The offending line under a numbered gutter and a caret under the column; too wide for
    `width`, the line wraps and the caret goes under the piece that holds the column."""
    if located.line is None or not located.text.strip():
        return []
    gutter = f"{located.line:>5} │ "
    blank = " " * (len(gutter) - 2) + "│ "
    text = located.text.replace("\t", "    ")
    column = located.column or 0
    caret = len(located.text[: max(column - 1, 0)].replace("\t", "    "))
    room = len(text) + 1 if width is None else max(width - len(gutter), 20)
    lines: list[str] = []
    pieces = _pieces(text, room)
    for k, (start, piece) in enumerate(pieces):
        lines.append((gutter if k == 0 else blank) + piece.rstrip())
        last = k == len(pieces) - 1
        if column and start <= caret and (caret < start + len(piece) or last):
            lines.append(blank + " " * (caret - start) + "^")
    return lines
