"""What lint checks for the website: TeX-looking text outside math in a class's prose, display
formulas estimated wider than the page's column, and committed notebooks that are not current."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from compmath.course.tree import ClassInfo, Course

TEX = re.compile(r"\^\{|_\{|\\frac\b")
MARGIN = 1.05  # the width estimate's spread over the course's formulas: −14 % … +22 %


def _outside_math(text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every piece of the Markdown that is not math: prose, code spans and
    code blocks (333's equation was an indented code block)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").enable("table")
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False)
    for token in md.parse(text):
        line = token.map[0] + 1 if token.map else 0
        if token.type in ("code_block", "fence"):
            yield line, token.content
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                yield line, child.content


def tex_outside_math(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """README.md text such as `D^{−1/2}` that is TeX but is shown as plain text or code."""
    if not cls.readme.exists():
        return []
    found = []
    text = cls.readme.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    for line, piece in _outside_math(text):
        match = TEX.search(piece)
        if match:
            start = max(0, match.start() - 12)
            near = piece[max(0, match.start() - 4) : match.end()]
            # the block starts at `line`; the fragment is on the first line from there holding it
            line = next((n for n in range(line, len(lines) + 1) if near in lines[n - 1]), line)
            found.append(
                (
                    cls.readme,
                    f"línea {line}: «{piece[start : match.end() + 12].strip()}» parece TeX fuera"
                    " de una fórmula (la web lo muestra tal cual)",
                    "escríbelo entre dólares, $D^{-1/2}$, y la web lo dibuja como fórmula",
                )
            )
    return found


def wide_formulas(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """Display formulas whose estimated width exceeds the page's column at 1280 px."""
    from compmath.errors import CompmathError
    from compmath.site.mathml import LatexError, to_mathml
    from compmath.site.measure import COLUMN_PX, estimated_px

    try:
        formulas = cls.meta.formulas
    except CompmathError:
        return []
    found = []
    for i, formula in enumerate(formulas, 1):
        if not formula.latex:
            continue
        try:
            width = estimated_px(to_mathml(formula.latex))
        except LatexError:
            continue  # the build reports bad LaTeX, naming the class and the formula
        if width > COLUMN_PX * MARGIN:
            found.append(
                (
                    cls.meta_path,
                    f"la fórmula {i} mide unos {width:.0f} px y la columna de la web {COLUMN_PX}",
                    r"pártela en líneas: \begin{gathered} … \\ … \end{gathered}"
                    r" (o aligned, alineando con &)",
                )
            )
    return found


def site_problems(course: Course) -> list[tuple[Path, str, str]]:
    """Every website problem lint reports, class by class."""
    found: list[tuple[Path, str, str]] = []
    for cls in course.classes:
        found += tex_outside_math(cls)
        found += wide_formulas(cls)
    return found
