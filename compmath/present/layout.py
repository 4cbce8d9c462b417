"""The screen layer: blocks laid out to a width as styled lines, the same for plain and Rich output.

Every command builds its screen as a list of blocks (a line, a paragraph, a table, a command to
copy, a chart) and hands it to `present.output`. Layout happens here, once: paragraphs wrap at
word boundaries, tables shrink their widest flexible column and wrap inside cells, long names
keep their end (`…cabeza`), commands and paths go on after a shell backslash (a path never
inside a word). With no width (a pipe or a file) nothing is wrapped. The result is a list of
lines of (text, style) segments; Rich only adds the colours.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Segment = tuple[str, str]  # (text, Rich style name or "")
StyledLine = list[Segment]
ELLIPSIS = "…"
# Where a line may break: after a space, except before a unit (a measure stays whole: 0,5 s),
# before the length that ends a shortened value (`… (8)`) or before a closing arrow.
BREAK = re.compile(
    r"(?<= )(?=[^ ])(?!(?:%|s|ms|GiB|MiB|KiB|bytes?)(?![\w])|\(\d+\)|→)"
    r"(?<!\bΔ )(?<!\btolerancia )(?<!\btol )(?<!\besperado )(?<!\bobtenido )(?<!#\s)"
    r"(?<!\bhueco )(?![·✓✗](?: [·✓✗])*\])"
)  # never a unit, `(N)` or `→` first on a line, nor a value apart from its label (Δ 0,1),
# nor a Markdown heading apart from its `##`, nor «hueco» apart from its number, nor a hole's
# marks split inside their brackets ([✓ · ✗])
# A command quoted in prose stays on one line: `compmath update 341`, `compmath run 323 -v`,
# `compmath new NUMERO SLUG --title T` (its name, then numbers, options and placeholders),
# `compmath run 323 --set dimension=16`, `compmath check --junit-xml informe-labs.xml`,
# `compmath show positional-encoding`, `--title "Mi clase"` (NAME=VALUE, a file or path, a
# hyphenated slug, a quoted value).
PROSE_COMMAND = re.compile(
    r"\bcompmath(?: [a-z]+)(?: (?:-{1,2}[\w=.-]+|\d[\w.-]*|[A-Z][A-Z_=]*\b"
    r'|[a-z_]\w*=[\w.,/-]*\w|[\w-]*[./][\w./-]*\w|[a-z]+(?:-[a-z0-9]+)+|"[^"\n]*"))*'
)
KEEP = "\u00a0"  # a space that is not a break, while wrapping


def cell_width(text: str) -> int:
    """Columns a string takes in a terminal (wide East Asian characters count twice)."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def cut_end(text: str, width: int) -> str:
    """Text cut to `width` columns, keeping its start: `concatenar_y_pro…`."""
    if cell_width(text) <= width:
        return text
    out = ""
    for ch in text:
        if cell_width(out + ch) > width - 1:
            break
        out += ch
    return out + ELLIPSIS


def keep_end(text: str, width: int) -> str:
    """Text cut to `width` columns, keeping its end: `…sumar_por_cabeza`."""
    if cell_width(text) <= width:
        return text
    out = ""
    for ch in reversed(text):
        if cell_width(ch + out) > width - 1:
            break
        out = ch + out
    return ELLIPSIS + out


def wrap_words(text: str, width: int) -> list[str]:
    """Text wrapped at spaces to `width` columns; a word longer than the width is split."""
    if width <= 0 or cell_width(text) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for word in BREAK.split(text):
        if cell_width(current + word.rstrip()) <= width:
            current += word
            continue
        if current.strip():
            lines.append(current.rstrip())
        current = ""
        while cell_width(word.rstrip()) > width:
            if word.isascii() and width > 1:  # after a `_`, `/` or `-` when one is near the end
                head = word[: _cut_point(word, width)]
            else:
                head = cut_end(word, width + 1)[:-1] if width > 1 else word[:1]
            lines.append(head)
            word = word[len(head) :]
        current = word
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def wrap_rows(text: str, width: int) -> list[str]:
    """A matrix (`[[1; 2]; [3; 4]]`) too wide for the width: one row a line when every row
    fits, so that rows read as rows; else wrapped at spaces like any text."""
    rows = re.split(r"(?<=\];) ", text)
    if width <= 0 or cell_width(text) <= width or max(map(cell_width, rows)) > width:
        return wrap_words(text, width)
    return rows


def wrap_name(text: str, width: int) -> list[str]:
    """A name (an output, nested under its parent by its leading spaces) wrapped to `width`
    columns after its `_`, its continuations four further in (a nested name is two): nothing
    of it is cut."""
    if width <= 0 or cell_width(text) <= width:
        return [text]
    indent = min(len(text) - len(text.lstrip(" ")), max(width // 2 - 2, 0))
    pieces = re.split(r"(?<=_)", text.lstrip(" "))
    lines: list[str] = []
    current = " " * indent
    for piece in pieces:
        if current.strip() and cell_width(current + piece) > width:
            lines.append(current)
            current = " " * (indent + 4)
        while cell_width(current + piece) > width:  # wider than any line: split it
            room = max(width - cell_width(current), 1)
            lines.append(current + piece[:room])
            current, piece = " " * (indent + 4), piece[room:]
        current += piece
    lines.append(current)
    return [piece for piece in lines if piece.strip()]


# --- blocks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line printed as it is: headings, marks, short notes, code. Only when it is wider than
    the screen does it wrap at spaces, its continuations indented two more than its own start."""

    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Para:
    """Prose: wrapped at word boundaries; continuation lines take `hang` more spaces."""

    segments: tuple[Segment, ...]
    indent: int = 0
    hang: int = 0


@dataclass(frozen=True)
class Command:
    """A command to copy. Too long for the width, it continues on the next line after a shell
    backslash (between words, or inside a long path at a `/`, with no indentation so the
    shell joins the pieces back): what is pasted still runs."""

    text: str
    indent: int = 2
    style: str = "bold"
    whole: bool = False  # a path to open: split only after a `/`, `-` or `_`, never in a word


@dataclass(frozen=True)
class Column:
    """A table column: its heading, how it shrinks and how its cells are cut or wrapped."""

    head: str
    min_width: int = 4
    shrink: Literal["fixed", "wrap", "name", "keep_end", "cut"] = "wrap"
    align: Literal["left", "right", "center"] = "left"
    hang: int = 0  # how much further in a wrapped cell's continuation lines start


@dataclass(frozen=True)
class Cell:
    text: str
    style: str = ""


@dataclass(frozen=True)
class Table:
    """Rows of cells under headings; fits the width by shrinking its flexible columns."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    indent: int = 0
    gap: int = 2
    head_style: str = "bold"
    head: bool = True  # False: rows only (a list of names and what they do)


@dataclass(frozen=True)
class Chart:
    """A drawing made for a given width (a heatmap, a bar row): `draw(width)` gives its lines."""

    draw: Callable[[int | None, bool], list[StyledLine]]


Block = Line | Para | Command | Table | Chart


def line(*segments: Segment | str) -> Line:
    """A Line from segments or plain strings."""
    return Line(tuple(s if isinstance(s, tuple) else (s, "") for s in segments))


def para(*segments: Segment | str, indent: int = 0, hang: int = 0) -> Para:
    """A Para from segments or plain strings."""
    return Para(tuple(s if isinstance(s, tuple) else (s, "") for s in segments), indent, hang)


BLANK = Line(())


# --- layout --------------------------------------------------------------------------------


def _wrap_segments(
    segments: Sequence[Segment], width: int, indent: int, hang: int
) -> list[StyledLine]:
    """Word-wrap styled text, keeping each piece's style."""
    words: list[Segment] = []
    for text, style in segments:
        text = PROSE_COMMAND.sub(lambda m: m.group().replace(" ", KEEP), text)
        words += [(w, style) for w in BREAK.split(text) if w]
    lines: list[StyledLine] = []
    current: StyledLine = [(" " * indent, "")] if indent else []
    used = indent
    limit = width
    for word, style in words:
        size = cell_width(word.rstrip())
        split_anyway = size > limit - indent - hang and limit - used > limit // 3
        if (
            used + size > limit
            and used > (indent if not lines else indent + hang)
            and not split_anyway  # a path longer than any line starts here, not below `error:`
        ):
            _trim(current)
            lines.append(current)
            pad = indent + hang
            current, used = ([(" " * pad, "")] if pad else []), pad
        while used + size > limit and size > 1 and limit - used > 1:
            head = word[: _cut_point(word, limit - used)]
            current.append((head.replace(KEEP, " "), style))
            lines.append(current)
            word = word[len(head) :]
            size = cell_width(word.rstrip())
            pad = indent + hang
            current, used = ([(" " * pad, "")] if pad else []), pad
        current.append((word.replace(KEEP, " "), style))
        used += cell_width(word)
    _trim(current)
    lines.append(current)
    return lines


def _cut_point(word: str, room: int) -> int:
    """Where a word longer than the room left breaks: a command between its words, a path
    after a `/` or a `-` (never inside `--`), an output's path after a `_` (as wrap_name
    breaks names), else at the room."""
    keep = word.rfind(KEEP, 0, room)
    if keep > room // 3:
        return keep + 1
    for cut in range(min(room, len(word) - 1), room // 3, -1):
        beside = word[cut - 2 : cut + 1 : 2]  # the characters either side of a `-`
        if word[cut - 1] in "/_" or (word[cut - 1] == "-" and "-" not in beside):
            return cut
    return room


def _trim(line_: StyledLine) -> None:
    while line_ and not line_[-1][0].strip():
        line_.pop()
    if line_:
        text, style = line_[-1]
        line_[-1] = (text.rstrip(), style)


def _fit_cell(text: str, column: Column, width: int) -> list[str]:
    if column.shrink == "name":
        return wrap_name(text, width)
    if column.shrink == "keep_end":
        return [keep_end(text, width)]
    if column.shrink == "cut":
        return [cut_end(text, width)]
    lines = wrap_rows(text, width) if text.startswith("[[") else wrap_words(text, width)
    if column.hang and len(lines) > 1 and width > 2 * column.hang:
        rest = wrap_words(text[len(lines[0]) :].strip(), width - column.hang)
        lines = [lines[0], *(" " * column.hang + piece for piece in rest)]
    return lines


def _column_widths(table: Table, width: int | None) -> list[int]:
    """Natural widths, then the widest flexible column shrinks one step at a time until the
    table fits (or every flexible column is at its minimum)."""
    widths = [
        max(
            [cell_width(c.head) if table.head else 0]
            + [cell_width(row[i].text) for row in table.rows]
        )
        for i, c in enumerate(table.columns)
    ]
    if width is None:
        return widths
    room = width - table.indent - table.gap * (len(widths) - 1)
    flexible = [i for i, c in enumerate(table.columns) if c.shrink != "fixed"]
    while sum(widths) > room:
        candidates = [i for i in flexible if widths[i] > table.columns[i].min_width]
        if not candidates:
            break
        widths[max(candidates, key=widths.__getitem__)] -= 1
    return widths


def _table_lines(table: Table, width: int | None) -> list[StyledLine]:
    widths = _column_widths(table, width)
    heads = tuple(Cell(c.head, table.head_style) for c in table.columns)
    out: list[StyledLine] = []
    for row in (heads, *table.rows) if table.head else table.rows:
        pieces = [
            _fit_cell(cell.text, column, w) for cell, column, w in zip(row, table.columns, widths)
        ]
        height = max(len(p) for p in pieces)
        for k in range(height):
            styled: StyledLine = [(" " * table.indent, "")] if table.indent else []
            for i, (cell, column, w) in enumerate(zip(row, table.columns, widths)):
                text = pieces[i][k] if k < len(pieces[i]) else ""
                pad = w - cell_width(text)
                if column.align == "right":
                    text = " " * pad + text
                elif column.align == "center":
                    text = " " * (pad // 2) + text + " " * (pad - pad // 2)
                else:
                    text += " " * pad
                styled.append((text, cell.style))
                if i < len(widths) - 1:
                    styled.append((" " * table.gap, ""))
            _trim(styled)
            out.append(styled)
    return out


def command_lines(command: Command, width: int | None) -> list[str]:
    """A command as lines that fit `width`, joined by backslash-newline (see Command)."""
    pad = " " * command.indent
    if width is None or cell_width(pad + command.text) <= width:
        return [pad + command.text]
    if command.whole:
        return path_lines(command.text, pad, width)
    lines: list[str] = []
    current = pad
    for word in command.text.split(" "):
        candidate = f"{current} {word}" if current.strip() else current + word
        if cell_width(candidate) + 2 <= width:
            current = candidate
            continue
        if current.strip():
            lines.append(current + " \\")
            current = pad + "  "
        while cell_width(current + word) + 2 > width and len(word) > 1:
            room = max(width - 1 - cell_width(current), 1)
            cut = max(word.rfind("/", 0, room), word.rfind("-", 0, room)) + 1
            cut = cut if cut > 0 else room  # no / or - to break at: cut inside the word
            lines.append(current + word[:cut] + "\\")
            current, word = "", word[cut:]
        current += word
    lines.append(current)
    return lines


PATH_BREAKS = "-_"  # where a folder's name wider than a line goes on: between its words


def path_lines(text: str, pad: str, width: int) -> list[str]:
    """A path too wide for `width`, as a Command shows it: it goes on to the next line after a
    `/` with the shell's backslash, the next piece at column 0 (pasted, the shell joins them
    back), never inside a word (a terminal folding a long line cuts one: «…modelos-generat» /
    «ivos-…»), nor inside a folder's name that fits a line (`324-query-key-value` stays whole);
    only a name wider than a line by itself goes on at a `-` or `_` between its words. A piece
    with nowhere to break (a word wider than the line) stays whole, for the terminal to fold.
    Text without a `/` is not a path: whole."""
    if "/" not in text:
        return [pad + text]

    def too_wide(at: int) -> bool:
        """Whether the folder name holding `text[at]`, with its `/`, fills more than a line."""
        start = text.rfind("/", 0, at) + 1
        end = text.find("/", at)
        return cell_width(text[start : len(text) if end < 0 else end + 1]) > width - 1

    lines: list[str] = []
    current, done = pad, 0
    while cell_width(current + text[done:]) > width:
        room = width - 1 - cell_width(current)  # the backslash takes a column
        cuts = [
            i + 1
            for i in range(done, min(done + max(room, 0), len(text) - 1))
            if text[i] == "/" or (text[i] in PATH_BREAKS and too_wide(i))
        ]
        if not cuts:
            break
        lines.append(current + text[done : cuts[-1]] + "\\")
        current, done = "", cuts[-1]
    lines.append(current + text[done:])
    return lines


def _fit_line(styled: StyledLine, width: int | None) -> list[StyledLine]:
    """A line as it is when it fits; else wrapped, keeping its leading indentation."""
    if width is None or sum(cell_width(text) for text, _ in styled) <= width:
        return [styled]
    segments = [(text, style) for text, style in styled if text]
    if not segments:
        return [styled]
    first, style = segments[0]
    indent = len(first) - len(first.lstrip(" "))
    segments[0] = (first[indent:], style)
    return _wrap_segments(segments, width, min(indent, width // 2), 2)


def lay_out(
    blocks: Sequence[Block], width: int | None, *, colour: bool = False
) -> list[StyledLine]:
    """Every block as styled lines for `width` columns (None: a pipe, nothing is wrapped)."""
    out: list[StyledLine] = []
    for block in blocks:
        if isinstance(block, Line):
            out += _fit_line(list(block.segments), width)
        elif isinstance(block, Para):
            if width is None:
                out.append(
                    [(" " * block.indent, ""), *block.segments]
                    if block.indent
                    else list(block.segments)
                )
            else:
                out += _wrap_segments(block.segments, width, block.indent, block.hang)
        elif isinstance(block, Command):
            out += [[(text, block.style)] for text in command_lines(block, width)]
        elif isinstance(block, Table):
            out += _table_lines(block, width)
        else:  # a chart fits by construction; what does not (a notice) wraps
            out += [
                piece for drawn in block.draw(width, colour) for piece in _fit_line(drawn, width)
            ]
    return out


def plain_text(lines: list[StyledLine]) -> str:
    """Styled lines as plain text, trailing spaces trimmed."""
    return "".join("".join(text for text, _ in styled).rstrip() + "\n" for styled in lines)


def here(path: Path) -> str:
    """A path as the student opens it from the current folder (absolute when far from it)."""
    try:
        shown = os.path.relpath(path, Path.cwd())
    except ValueError:
        return str(path)
    return str(path) if shown.startswith(os.path.join("..", "..", "..")) else shown
