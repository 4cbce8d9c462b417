"""A class's Markdown prose (README.md sections) as blocks for the terminal, via markdown-it."""

from __future__ import annotations

from typing import Any

from compmath.mathtext import plain_math
from compmath.present.layout import BLANK, Block, Cell, Column, Line, Para, Segment, Table

INLINE_STYLES = {"strong": "bold", "em": "italic"}


def _inline(token: Any) -> list[Segment]:
    """The inline children of a token as styled segments (markup removed)."""
    segments: list[Segment] = []
    styles: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind.endswith("_open") and kind[:-5] in INLINE_STYLES:
            styles.append(INLINE_STYLES[kind[:-5]])
        elif kind.endswith("_close") and kind[:-6] in INLINE_STYLES:
            styles.pop()
        elif kind == "code_inline":
            segments.append((child.content, "cyan"))
        elif kind == "math_inline":  # `$…$`, as readable Unicode
            segments.append((plain_math(child.content), " ".join(styles)))
        elif kind in ("softbreak", "hardbreak"):
            segments.append((" ", ""))
        elif kind == "text":
            segments.append((child.content, " ".join(styles)))
    return segments


def _text(segments: list[Segment]) -> str:
    return "".join(text for text, _ in segments)


def prose_blocks(markdown: str) -> list[Block]:
    """Paragraphs, bullet lists, tables and code of a Markdown text, as terminal blocks."""
    # Complexity D, on purpose: one pass over markdown-it's flat token stream, one branch per
    # token type; the list depth and the table being read are state the branches share.
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").enable("table")
    # the website's rules for math: "cuesta $5 y $10" is prose
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False)
    tokens = md.parse(markdown)
    blocks: list[Block] = []
    depth = 0
    bullet_next = False
    table_rows: list[list[list[Segment]]] = []
    row: list[list[Segment]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                blocks.append(BLANK)
        elif kind == "list_item_open":
            bullet_next = True
        elif kind == "inline" and tokens[i - 1].type == "paragraph_open":
            segments = _inline(token)
            if depth and bullet_next:
                pad = 2 * (depth - 1)
                blocks.append(Para((("• ", ""), *segments), indent=pad, hang=2))
                bullet_next = False
            elif depth:
                blocks.append(Para(tuple(segments), indent=2 * depth))
            else:
                blocks += [Para(tuple(segments)), BLANK]
        elif kind == "inline" and tokens[i - 1].type == "heading_open":
            blocks += [Line(((_text(_inline(token)), "bold"),)), BLANK]
        elif kind in ("th_open", "td_open"):
            row.append(_inline(tokens[i + 1]))
        elif kind == "tr_close":
            table_rows.append(row)
            row = []
        elif kind == "table_close":
            head, *body = table_rows
            columns = tuple(Column(_text(h), 4) for h in head)
            cells = tuple(tuple(Cell(_text(c)) for c in r) for r in body)
            blocks += [Table(columns, cells, indent=2), BLANK]
            table_rows = []
        elif kind == "math_block":  # `$$…$$`, one readable line of its own
            blocks += [Para(((plain_math(token.content), ""),), indent=4, hang=2), BLANK]
        elif kind in ("fence", "code_block"):
            blocks += [Line(((f"    {text}", "cyan"),)) for text in token.content.splitlines()]
            blocks.append(BLANK)
        i += 1
    while blocks and blocks[-1] == BLANK:
        blocks.pop()
    return blocks
