"""Text from a lab made harmless for a terminal: every control character shown, none obeyed.

A lab's stdout, stderr, output keys and values and exception text reach the screens of `run`,
`check` and `practice`; an escape sequence among them could set the window title, write the
clipboard (OSC 52), move the cursor and draw a fake verdict over the real one. `visible` is the
one function that prevents it: C0 and C1 controls and DEL print as `\\x1b`, `\\r`; the
characters that reorder text (bidirectional overrides and isolates) print as `U+202E`; lone
surrogates as `\\ud800`. The present layer applies it to every line it writes; grading's
Markdown and HTML apply it with `keep_lines` (a student's prints keep their line breaks).
"""

from __future__ import annotations

import re

# C0 controls but tab (and, where lines are kept, line feed), DEL, C1 controls; bidi marks,
# embeddings, overrides and isolates; lone surrogates; line and paragraph separators.
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
CONTROLS = re.compile(f"[\x00-\x08\x0a-\x1f{_OTHERS}]")
LINE_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")
SHOWN = {"\n": "\\n", "\r": "\\r", "\x1b": "\\x1b", "\x07": "\\x07", "\x08": "\\x08"}


def _show(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in SHOWN:
        return SHOWN[ch]
    code = ord(ch)
    if code <= 0x9F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return f"U+{code:04X}"


def visible(text: str, *, keep_lines: bool = False) -> str:
    """`text` with every control character shown instead of obeyed (a tab stays a tab; with
    `keep_lines`, a line break too)."""
    controls = LINE_CONTROLS if keep_lines else CONTROLS
    if text.isprintable() or not controls.search(text):
        return text
    return controls.sub(_show, text)


def one_line(text: str) -> str:
    """`text` visible and on one line: each run of spaces and line breaks becomes one space."""
    return " ".join(visible(text, keep_lines=True).split())
