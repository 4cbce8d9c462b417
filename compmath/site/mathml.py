"""LaTeX to MathML at build time (math-core): the page needs no script and no web request."""

from __future__ import annotations

from functools import cache
from typing import Any

from compmath.site.mathml_compact import compact


class LatexError(ValueError):
    """A formula that is not valid LaTeX; the message says where, in English, from math-core."""


@cache
def _converter() -> Any:
    import math_core

    return math_core.LatexToMathML(fancy_error=False)


def to_mathml(latex: str, *, display: bool = True) -> str:
    """Convert one LaTeX formula to a `<math>` element; raise LatexError on bad LaTeX."""
    try:
        markup = str(_converter().convert_with_local_state(latex, displaystyle=display))
    except Exception as exc:  # math_core.LatexError, which the wheel defines in Rust
        raise LatexError(str(exc).strip()) from None
    # math-core writes the one HTML entity XML parsers lack
    return compact(_styles_outside(markup.replace("&ApplyFunction;", "\u2061")))


STYLE = ("displaystyle", "scriptlevel")


def _styles_outside(markup: str) -> str:
    """Move `displaystyle` / `scriptlevel` from any element onto an `<mstyle>` around it.

    MathML Core allows them everywhere, but the Nu checker's MathML schema only on `<mstyle>`
    (and `<math>`, `<mtable>` for displaystyle); Chromium renders both forms alike."""
    if not any(f" {name}=" in markup for name in STYLE):
        return markup
    from xml.etree import ElementTree

    root = ElementTree.fromstring(markup)
    for parent in root.iter():
        for i, child in enumerate(list(parent)):
            moved = {k: child.attrib.pop(k) for k in STYLE if k in child.attrib}
            if child.tag == "mstyle" or not moved:
                child.attrib.update(moved)
                continue
            wrapper = ElementTree.Element("mstyle", moved)
            wrapper.tail, child.tail = child.tail, None
            wrapper.append(child)
            parent[i] = wrapper
    return ElementTree.tostring(root, encoding="unicode")
