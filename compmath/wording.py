"""Numbers and counts as a Spanish reader expects them in prose (data values keep their JSON form).

The one rule: a value of the lab's data prints as in the canonical JSON (decimal point); a human
measure (a duration, a percentage, a limit, a size) takes the decimal comma (and the screen
layer never puts its unit on another line).
"""

from __future__ import annotations


def decimal(value: float, digits: int = 2) -> str:
    """A human measure with `digits` decimals and a decimal comma: 0,04."""
    return f"{value:.{digits}f}".replace(".", ",")


def short(value: float) -> str:
    """A human measure in at most 3 significant digits, decimal comma: 0,5 · 60 · 1,5e+03."""
    return f"{value:.3g}".replace(".", ",")


def measure(value: float) -> str:
    """A human measure as written, decimal comma: 0,1 · 86400."""
    return f"{value:g}".replace(".", ",")


def seconds(value: float) -> str:
    """A duration: 0,04 s."""
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
