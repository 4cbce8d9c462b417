"""Numbers and counts as a Spanish reader expects them: the decimal comma everywhere people read.

The one rule: every number shown to people (a lab's value in a table or a heatmap, a Δ, a
tolerance, a duration, a percentage, a limit) takes the decimal comma, and a power of ten is
written 3,2·10⁻⁵; only JSON (`--json`, the files, the JSON sample of a page) keeps JSON's form,
and what is typed as input (`--set escala=0.5`, parameter defaults) keeps its point.
`number` is the one function that writes them (the terminal and the website share it); lists of
them separate their items with `; ` (`value_text`: a long list is shown by whole items up to
`limit` numbers, then `… (N)`, N its length; a single item is never left out). The screen
layer never puts a unit on another line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# a difference's Δ keeps the digits of the values it compares (the snapshot's six): 5000 against
# 5 is Δ 4995, not 5·10³
DELTA_DIGITS = 6


def number(value: float, digits: int | None = None) -> str:
    """A number for people: `digits` significant digits (None: as written in the JSON), a decimal
    comma and ·10ⁿ for a power of ten: 2 · 0,841471 · -0,5 · 3,2·10⁻⁵ · 1,5·10¹⁶."""
    if isinstance(value, int) and digits is None:
        return str(value)
    text = repr(float(value)) if digits is None else f"{value:.{digits}g}"
    if text in ("nan", "inf", "-inf"):
        return {"nan": "NaN", "inf": "∞", "-inf": "-∞"}[text]
    mantissa, _, power = text.partition("e")
    mantissa = mantissa.replace(".", ",")
    if not power:
        return mantissa
    exponent = str(int(power)).translate(SUPERSCRIPT)
    return f"{mantissa}·10{exponent}"


def decimal(value: float, digits: int = 2) -> str:
    """A human measure with `digits` decimals and a decimal comma: 0,04."""
    return f"{value:.{digits}f}".replace(".", ",")


def short(value: float) -> str:
    """A human measure in at most 3 significant digits, decimal comma: 0,5 · 60 · 1,5·10³."""
    return number(value, 3)


def measure(value: float) -> str:
    """A human measure as written, decimal comma: 0,1 · 86400."""
    return number(value, 6)


def seconds(value: float) -> str:
    """A duration: 0,04 s; under 10 ms in whole milliseconds (4 ms, <1 ms), never 0,00 s."""
    if value < 0.0095:
        whole = round(value * 1000)
        return f"{whole} ms" if whole >= 1 else "<1 ms"
    return f"{decimal(value)} s"


def limit_seconds(value: float) -> str:
    """A time limit as the user gave it: 60 s, 0,5 s."""
    return f"{short(value)} s"


def gib(size: float) -> str:
    """A memory limit in GiB: 2 GiB, 0,5 GiB."""
    return f"{short(size / 1024**3)} GiB"


def mib(size: float) -> str:
    """A memory size in MiB, whole: 183 MiB."""
    return f"{size / 1024**2:.0f} MiB"


def percent(fraction: float) -> str:
    """A fraction as a percentage: 12,5 %."""
    return f"{short(100 * fraction)} %"


def count(n: int, singular: str, plural: str) -> str:
    """`1 clase` / `3 clases`."""
    return f"{n} {singular if n == 1 else plural}"


# --- a lab's values on a screen ------------------------------------------------------------

SHOWN_NUMBERS = 40  # a 5×8 matrix or a vector of 40 is shown whole in `run`
DETAIL_NUMBERS = 6  # a difference's line quotes this many


def leaves(value: Any) -> int:
    """How many scalars a value holds (a scalar holds one)."""
    if isinstance(value, list):
        return sum(leaves(v) for v in value)
    if isinstance(value, dict):
        return sum(leaves(v) for v in value.values())
    return 1


def scalar_text(value: Any) -> str:
    """One scalar for people: a number with a decimal comma, a boolean in Spanish, text quoted."""
    if isinstance(value, bool):
        return "verdadero" if value else "falso"
    if isinstance(value, (int, float)):
        return number(value)
    if value is None:
        return "nulo"
    return json.dumps(value, ensure_ascii=False)


def value_text(value: Any, limit: int | None = SHOWN_NUMBERS) -> str:
    """A value on one line for people; `limit` numbers at most (None: all of it)."""
    if not isinstance(value, (list, dict)):
        return scalar_text(value)
    items: list[tuple[str, Any]] = (
        [("", v) for v in value]
        if isinstance(value, list)
        else [(f"{json.dumps(k, ensure_ascii=False)}: ", v) for k, v in value.items()]
    )
    opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
    shown: list[str] = []
    used = 0
    for k, (key, item) in enumerate(items):
        size = leaves(item)
        rest = len(items) - k
        if limit is not None and used + size > limit and shown and rest > 1:
            return f"{opening}{'; '.join(shown)}; … ({len(items)}){closing}"
        inner = None if limit is None else max(limit - used, 1)
        shown.append(key + value_text(item, inner))
        used += size
    return f"{opening}{'; '.join(shown)}{closing}"


def decimal_point(typed: str) -> str | None:
    """`0.5` for `0,5`: a number typed with the decimal comma, as the parser takes it (or None)."""
    dotted = typed.replace(",", ".", 1)
    if "," not in typed or "," in dotted:
        return None
    try:
        float(dotted)
    except ValueError:
        return None
    return dotted


def alternatives(items: list[str]) -> str:
    """`a`, `a o b`, `a, b o c`: choices as Spanish lists them."""
    return " o ".join(filter(None, (", ".join(items[:-1]), items[-1] if items else "")))


def listed(items: Sequence[str]) -> str:
    """`a`, `a y b`, `a, b y c`: a Spanish list."""
    return " y ".join(filter(None, (", ".join(items[:-1]), items[-1] if items else "")))


def quoted(items: Sequence[str]) -> str:
    """Keys, outputs or fields in a message, each quoted as every message quotes one:
    `«vector», «mitad»`."""
    return ", ".join(f"«{item}»" for item in items)
