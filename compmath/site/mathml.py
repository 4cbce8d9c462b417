"""LaTeX to MathML at build time (math-core): the page needs no script and no web request.

math-core's MathML is adjusted in three places where Chromium, laying it out by the font's MATH
table, departs from TeX (and from KaTeX, which follows TeX):

- `\\left…\\right` fences stretch to cover their content whole, a size or two larger than
  TeX's around `P^{\\pi}` or a root: they are given TeX's size (site/fences.py).
- a prime is written as a superscript `′`, but U+2032 is already a raised prime, drawn for the
  base's size: as a superscript it shrinks to a speck above the letter (Chromium does not apply
  the font's `ssty` variant). It is set beside its base, at full size, as TeX draws `s'`.
- a subscript hangs below a letter's descender (p, q, β: the font's baseline drop from the
  base's depth) where TeX sets it as it does under x: such a one-letter base is given no depth for
  placing its scripts (`<mpadded depth="0">`; its ink still shows).

What is left is compacted (site/mathml_compact.py): the same drawing in fewer bytes. An inline
formula wider than a phone's column is written as pieces a line may break between
(site/mathbreaks.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any
from xml.etree import ElementTree

from compmath.site.fences import size_fences
from compmath.site.mathbreaks import pieces
from compmath.site.mathml_compact import compact


class LatexError(ValueError):
    """A formula that is not valid LaTeX; the message says where, in English, from math-core."""


@cache
def _converter() -> Any:
    import math_core

    return math_core.LatexToMathML(fancy_error=False)


def to_mathml(latex: str, *, display: bool = True) -> str:
    """Convert one LaTeX formula to a `<math>` element; raise LatexError on bad LaTeX."""
    root = converted(latex, display=display)
    adjust(root)
    if display:
        return _written(root)
    # inline, a formula wider than a phone's column may break where TeX would break it
    return "<wbr>".join(_written(piece) for piece in pieces(root))


def _written(root: ElementTree.Element) -> str:
    markup = compact(ElementTree.tostring(root, encoding="unicode"))
    # an empty element as math-core writes it, `<mspace/>` (ElementTree adds a blank)
    return markup.replace(" />", "/>")


def converted(latex: str, *, display: bool = True) -> ElementTree.Element:
    """math-core's MathML for `latex`, as it writes it (before `adjust`)."""
    try:
        markup = str(_converter().convert_with_local_state(latex, displaystyle=display))
    except Exception as exc:  # math_core.LatexError, which the wheel defines in Rust
        raise LatexError(str(exc).strip()) from None
    # math-core writes the one HTML entity XML parsers lack
    return ElementTree.fromstring(markup.replace("&ApplyFunction;", "\u2061"))


def adjust(root: ElementTree.Element) -> None:
    """math-core's MathML made to read as TeX sets it (the module says where), and valid for the
    Nu checker."""
    _primes_unscripted(root)
    size_fences(root)
    _scripts_as_tex(root)
    _styles_outside(root)


PRIMES = set("′″‴⁗")


def _is_prime(node: ElementTree.Element) -> bool:
    return node.tag in ("mo", "mi") and (node.text or "").strip() in PRIMES and not len(node)


def _primes_unscripted(root: ElementTree.Element) -> None:
    """`s^{\\prime}` as `s′` (an `mrow`), and `h^{\\prime}_i` as `h′` with its subscript."""
    for parent in root.iter():
        for i, child in enumerate(list(parent)):
            if child.tag == "msup" and len(child) == 2 and _is_prime(child[1]):
                base, prime = child[0], child[1]
                replacement = ElementTree.Element("mrow")
                replacement.extend([base, prime])
            elif child.tag == "msubsup" and len(child) == 3 and _is_prime(child[2]):
                base, prime = child[0], child[2]
                primed = ElementTree.Element("mrow")
                primed.extend([base, prime])
                replacement = ElementTree.Element("msub", child.attrib)
                replacement.extend([primed, child[1]])
            else:
                continue
            prime.tag = "mo"
            prime.attrib.update({"lspace": "0", "rspace": "0"})
            replacement.tail = child.tail
            parent[i] = replacement


SCRIPTED = ("msub", "msubsup")
DESCENDERS = set("gjpqyfβγζημξρςφχψ")  # letters whose depth the font's baseline drop adds to


def _scripts_as_tex(root: ElementTree.Element) -> None:
    """A one-letter base's subscript set at the font's subscript shift, not below its descender
    (a letter without one has no depth to add: it stays as it is)."""
    for node in root.iter():
        if node.tag not in SCRIPTED or not len(node):
            continue
        base = node[0]
        if base.tag == "mi" and (base.text or "").strip() in DESCENDERS:
            wrapper = ElementTree.Element("mpadded", {"depth": "0"})
            wrapper.append(base)
            node[0] = wrapper


STYLE = ("displaystyle", "scriptlevel")


def _styles_outside(root: ElementTree.Element) -> None:
    """Move `displaystyle` / `scriptlevel` from any element onto an `<mstyle>` around it.

    MathML Core allows them everywhere, but the Nu checker's MathML schema only on `<mstyle>`
    (and `<math>`, `<mtable>` for displaystyle); Chromium renders both forms alike."""
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
