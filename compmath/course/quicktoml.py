"""A fast reader for the plain TOML that course files are written in; None for anything else.

tomllib reads a string a character at a time in Python (0.7 ms for a class.toml of 7 KB), which
is what a cold `list` of a thousand classes spends. This reader matches whole statements and
strings with regular expressions instead. It knows a subset of TOML: comments, bare keys,
`[table]` and `[[array]]` headers of one bare key, basic, literal and multi-line strings, decimal
integers and floats, booleans, arrays and one-line inline tables. Whatever lies outside it (dotted
or quoted keys, dates, hexadecimal, underscores in numbers, control characters, CR, a string with
a line-ending backslash…) returns None, and so does every error: the caller then asks tomllib,
which gives the answer and the error message. So `loads(text)` is either None or what
`tomllib.loads(text)` returns (tests/test_quicktoml.py compares them on mutated course files).
"""

from __future__ import annotations

import re
from typing import Any

# control characters, CR included (31 scans of the text: faster than a regex on non-ASCII text)
UNSUPPORTED = tuple(chr(c) for c in (*range(0x09), *range(0x0B, 0x20), 0x7F))
# spaces, newlines and comments: applied where a line starts, so a comment runs to its line's end
SKIP = re.compile(r"(?:[ \t\n]++|#[^\n]*+)*+")
END = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\n|\Z)")  # the rest of a statement's line
# the common statement in one match: `key = "text"`, 'text', an integer or a boolean, alone on
# its line, with the blank and comment lines after it
SIMPLE = re.compile(
    r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*"
    r"(?:\"([^\"\\\n]*)\"|'([^'\n]*)'|([+-]?(?:0|[1-9][0-9]*))|(true|false))"
    r"[ \t]*(?:#[^\n]*)?(?:\n|\Z)" + SKIP.pattern
)
KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
HEADER = re.compile(
    r"(\[\[?)[ \t]*([A-Za-z0-9_-]+)[ \t]*(\]\]?)[ \t]*(?:#[^\n]*)?(?:\n|\Z)" + SKIP.pattern
)
BASIC = re.compile(r'"((?:[^"\\\n]|\\(?:[btnfr"\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))*)"')
LITERAL = re.compile(r"'([^'\n]*)'")
ML_LITERAL = re.compile(r"'''\n?(.*?)'''", re.S)
ML_BASIC = re.compile(r'"""\n?([^"\\]*?)"""', re.S)
AFTER_VALUE = r"(?=[ \t]*(?:[#,\]}\n]|\Z))"
NUMBER = re.compile(
    r"[+-]?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?" + AFTER_VALUE
)
BOOLEAN = re.compile(r"(true|false)" + AFTER_VALUE)
# an array of plain basic strings, with no comment inside: its strings in one findall
PLAIN_ARRAY = re.compile(r'\[(?:[ \t\n]*"[^"\\\n]*"[ \t\n]*,)*[ \t\n]*(?:"[^"\\\n]*"[ \t\n]*)?\]')
PLAIN_STRING = re.compile(r'"([^"\\\n]*)"')
ARRAY_GAP = re.compile(r"(?:[ \t\n]|#[^\n]*\n)*")  # inside an array: spaces, newlines, comments
INLINE_GAP = re.compile(r"[ \t]*")
ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class _Outside(Exception):
    """The text leaves the subset (or is not TOML): tomllib must read it."""


def loads(text: str) -> dict[str, Any] | None:
    """What tomllib.loads(text) returns, or None when the text is outside the subset."""
    if any(c in text for c in UNSUPPORTED):
        return None
    try:
        return _document(text)
    except _Outside:
        return None


def _document(text: str) -> dict[str, Any]:
    root: dict[str, Any] = {}
    arrays: set[str] = set()  # the names declared by [[name]]
    table = root
    pos = SKIP.match(text, 0).end()  # type: ignore[union-attr]
    while pos < len(text):
        simple = SIMPLE.match(text, pos) if text[pos] != "[" else None
        if simple:
            name, basic, literal, integer, boolean = simple.groups()
            if name in table:
                raise _Outside
            if integer is not None:
                table[name] = int(integer)
            elif boolean is not None:
                table[name] = boolean == "true"
            else:
                table[name] = basic if basic is not None else literal
            pos = simple.end()
            continue
        if text[pos] == "[":  # a header and the blank lines after it, in one match
            header = HEADER.match(text, pos)
            if header is None:
                raise _Outside
            table = _open_table(root, arrays, header)
            pos = header.end()
            continue
        key = KEY.match(text, pos)
        if key is None or key.group(1) in table:
            raise _Outside
        table[key.group(1)], pos = _value(text, key.end())
        end = END.match(text, pos)
        if end is None:
            raise _Outside
        pos = SKIP.match(text, end.end()).end()  # type: ignore[union-attr]
    return root


def _open_table(root: dict[str, Any], arrays: set[str], header: re.Match[str]) -> dict[str, Any]:
    opening, name, closing = header.groups()
    if len(opening) != len(closing):
        raise _Outside
    table: dict[str, Any] = {}
    if opening == "[":
        if name in root:
            raise _Outside
        root[name] = table
    elif name in arrays:
        root[name].append(table)
    elif name in root:
        raise _Outside
    else:
        arrays.add(name)
        root[name] = [table]
    return table


def _value(text: str, pos: int) -> tuple[Any, int]:
    """The value starting at pos and the position after it."""
    first = text[pos : pos + 1]
    if first == '"':
        if text.startswith('"""', pos):
            return _multiline(ML_BASIC, text, pos, '"')
        found = PLAIN_STRING.match(text, pos) or BASIC.match(text, pos)
        if found is None:
            raise _Outside
        body = found.group(1)
        return (_unescape(body) if "\\" in body else body), found.end()
    if first == "'":
        if text.startswith("'''", pos):
            return _multiline(ML_LITERAL, text, pos, "'")
        found = LITERAL.match(text, pos)
        if found is None:
            raise _Outside
        return found.group(1), found.end()
    if first == "[":
        plain = PLAIN_ARRAY.match(text, pos)
        if plain:
            return PLAIN_STRING.findall(text, pos, plain.end()), plain.end()
        return _array(text, pos + 1)
    if first == "{":
        return _inline_table(text, pos + 1)
    found = BOOLEAN.match(text, pos)
    if found:
        return found.group(1) == "true", found.end()
    found = NUMBER.match(text, pos)
    if found is None:
        raise _Outside
    number = found.group(0)
    return (float(number) if found.group(1) or found.group(2) else int(number)), found.end()


def _multiline(pattern: re.Pattern[str], text: str, pos: int, quote: str) -> tuple[str, int]:
    found = pattern.match(text, pos)
    if found is None or text[found.end() : found.end() + 1] == quote:
        raise _Outside  # quotes right before the closing ones, or a backslash: tomllib's to read
    return found.group(1), found.end()


def _unescape(body: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1) or match.group(2)
        if code is None:
            return ESCAPES[match.group(3)]
        value = int(code, 16)
        if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
            raise _Outside
        return chr(value)

    return ESCAPE.sub(one, body)


def _array(text: str, pos: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    while True:
        pos = ARRAY_GAP.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith("]", pos):
            return items, pos + 1
        item, pos = _value(text, pos)
        items.append(item)
        pos = ARRAY_GAP.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos += 1
        elif text.startswith("]", pos):
            return items, pos + 1
        else:
            raise _Outside


def _inline_table(text: str, pos: int) -> tuple[dict[str, Any], int]:
    table: dict[str, Any] = {}
    pos = INLINE_GAP.match(text, pos).end()  # type: ignore[union-attr]
    if text.startswith("}", pos):
        return table, pos + 1
    while True:
        key = KEY.match(text, pos)
        if key is None or key.group(1) in table or text[key.end() : key.end() + 1] in "[{":
            raise _Outside  # arrays and tables inside inline tables: tomllib's to read
        table[key.group(1)], pos = _value(text, key.end())
        pos = INLINE_GAP.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos = INLINE_GAP.match(text, pos + 1).end()  # type: ignore[union-attr]
        elif text.startswith("}", pos):
            return table, pos + 1
        else:
            raise _Outside
