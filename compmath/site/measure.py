"""A formula's width estimated from its MathML at build time (no browser): lint uses it to flag a
display formula wider than the page's column before a reader meets it scrolling, the build to
know which inline formulas may need a line break (site/mathbreaks.py).

Widths are in em of the math font, summed along rows, the widest line of a table, scripts at
70 %; `PX_PER_EM` was fitted to Chromium's widths of the course's 106 formulas with Latin Modern
Math at the page's size (17 px × 1.15). The estimate is for flagging, not layout: lint warns
from `COLUMN_PX` with a margin for its error."""

from __future__ import annotations

from xml.etree import ElementTree

PX_PER_EM = 19.55
COLUMN_PX = 832  # estilo.css: --columna (54rem) minus the padding, at 1280 px and wider
SCRIPT = 0.7
GLYPH = {"mi": 0.55, "mn": 0.5, "mo": 0.78, "mtext": 0.45, "ms": 0.5}
SPACES = {"thinmathspace": 0.167, "mediummathspace": 0.222, "thickmathspace": 0.278}


def _length(value: str) -> float:
    """An `mspace` width in em (em, or ex at 0.43 em; anything else counts as nothing)."""
    value = value.strip()
    if value in SPACES:
        return SPACES[value]
    for unit, factor in (("em", 1.0), ("ex", 0.43)):
        if value.endswith(unit):
            try:
                return float(value[: -len(unit)]) * factor
            except ValueError:
                return 0.0
    return 0.0


def _width(node: ElementTree.Element) -> float:
    tag, children = node.tag, list(node)
    if tag in GLYPH:
        text = (node.text or "").replace("\u2061", "")
        return GLYPH[tag] * len(text)
    if tag == "mspace":
        return _length(node.get("width", "0"))
    if tag in ("msub", "msup", "msubsup", "mmultiscripts") and children:
        return _width(children[0]) + SCRIPT * max((_width(c) for c in children[1:]), default=0)
    if tag in ("munder", "mover", "munderover", "mfrac") and children:
        scale = 1.0 if tag == "mfrac" else SCRIPT
        rest = (scale * _width(c) for c in children[1:])
        first = _width(children[0]) * (1.0 if tag != "mfrac" else scale)
        return max(first, *rest, 0.0) + (0.3 if tag == "mfrac" else 0.0)
    if tag in ("msqrt", "mroot"):
        return 1.0 + sum(_width(c) for c in children)
    if tag == "mtable":
        rows = [sum(_width(cell) for cell in row) + 0.8 * (len(row) - 1) for row in children]
        return max(rows, default=0.0)
    return sum(_width(c) for c in children)


def estimated_px(mathml: str | ElementTree.Element) -> float:
    """The formula's estimated width in CSS pixels on the class page."""
    root = ElementTree.fromstring(mathml) if isinstance(mathml, str) else mathml
    return _width(root) * PX_PER_EM
