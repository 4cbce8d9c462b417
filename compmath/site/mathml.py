"""LaTeX to MathML at build time (math-core): the page needs no script and no web request."""

from __future__ import annotations

from functools import cache
from typing import Any


class LatexError(ValueError):
    """A formula that is not valid LaTeX; the message says where, in English, from math-core."""


@cache
def _converter() -> Any:
    import math_core

    return math_core.LatexToMathML(fancy_error=False)


def to_mathml(latex: str, display: bool = True) -> str:
    """Convert one LaTeX formula to a `<math>` element; raise LatexError on bad LaTeX."""
    try:
        markup = str(_converter().convert_with_local_state(latex, displaystyle=display))
    except Exception as exc:  # math_core.LatexError, which the wheel defines in Rust
        raise LatexError(str(exc).strip()) from None
    # math-core writes the one HTML entity XML parsers (and the Nu checker in XML mode) lack
    return markup.replace("&ApplyFunction;", "\u2061")
