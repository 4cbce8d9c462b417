"""Compare obtained outputs with the snapshot, leaf by leaf, within declared tolerances."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from compmath.course.records import Tolerance


class DifferenceKind(StrEnum):
    """How a leaf differs (the Spanish word is what the JSON report says)."""

    VALUE = "valor"
    TYPE = "tipo"
    MISSING = "falta"
    EXTRA = "sobra"
    LENGTH = "longitud"


Step = str | int  # a key of an object or an index of a list


def path_text(output: str, steps: tuple[Step, ...] = ()) -> str:
    """Where a leaf is, as the reports write it: `salida.x.y[2]`."""
    return f"salida.{output}" + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in steps)


@dataclass(frozen=True)
class Difference:
    """One leaf that differs, and how: in which output, and where inside it (`steps`).

    `within` marks a number that moved but stays within tolerance; compare() reports those only
    when asked (`include_within=True`), for `compmath diff` to tell noise from real changes.
    """

    output: str  # the output (top-level key) it is in, as run() names it
    steps: tuple[Step, ...]  # from the output's value down to the leaf
    kind: DifferenceKind
    expected: Any
    obtained: Any
    abs_error: float | None = None
    tolerance: float | None = None
    within: bool = False
    lesson: bool = False  # a number in another type where the class says the type is the lesson

    @property
    def path(self) -> str:
        return path_text(self.output, self.steps)

    @property
    def relative(self) -> float | None:
        """|Δ| / |expected| of a numeric element, or None."""
        numeric = isinstance(self.expected, (int, float)) and not isinstance(self.expected, bool)
        if not numeric or self.abs_error is None or not self.expected:
            return None
        return float(self.abs_error / abs(self.expected))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "booleano"
    if isinstance(value, int):
        return "entero"
    if isinstance(value, float):
        return "real"
    if isinstance(value, str):
        return "texto"
    if isinstance(value, list):
        return "lista"
    if isinstance(value, dict):
        return "objeto"
    return "null"


def _distance(obtained: float, expected: float) -> float:
    """|obtained - expected| as a float: inf when beyond a float's range, NaN when either is."""
    try:
        return float(abs(obtained - expected))
    except OverflowError:  # integers too large for a float
        return math.inf


NUMBERS = frozenset({"entero", "real"})


def _walk(
    expected: Any,
    obtained: Any,
    at: tuple[str, tuple[Step, ...]],
    tol: Tolerance,
    out: list[Difference],
    *,
    within: bool = False,
    loose: bool = False,
) -> None:
    """Append to `out` how `obtained` differs from `expected`; `at` is (output, steps).
    With `loose`, an integer and a real are both numbers (unless the output's `strict_type`)."""
    output, steps = at
    ek, ok = _kind(expected), _kind(obtained)
    numbers = {ek, ok} <= NUMBERS
    if ek != ok and not (loose and numbers and not tol.strict_type):
        kind = DifferenceKind.TYPE
        out.append(Difference(output, steps, kind, expected, obtained, lesson=loose and numbers))
    elif ek == "objeto":
        for key in expected:
            inner = (output, (*steps, key))
            if key not in obtained:
                out.append(Difference(*inner, DifferenceKind.MISSING, expected[key], None))
            else:
                _walk(expected[key], obtained[key], inner, tol, out, within=within, loose=loose)
        for key in obtained:
            if key not in expected:
                out.append(
                    Difference(output, (*steps, key), DifferenceKind.EXTRA, None, obtained[key])
                )
    elif ek == "lista":
        if len(expected) != len(obtained):
            out.append(
                Difference(output, steps, DifferenceKind.LENGTH, len(expected), len(obtained))
            )
        else:
            for i, (e, o) in enumerate(zip(expected, obtained)):
                _walk(e, o, (output, (*steps, i)), tol, out, within=within, loose=loose)
    else:  # 2.0 for 2 (or 2 for 2.0) reaches here only loose: one number, within tolerance
        _leaf(expected, obtained, "real" if ek != ok else ek, at, tol, out, within=within)


def _leaf(
    expected: Any,
    obtained: Any,
    kind: str,
    at: tuple[str, tuple[Step, ...]],
    tol: Tolerance,
    out: list[Difference],
    *,
    within: bool,
) -> None:
    """Append how two leaves of one `kind` differ: a real (or a counted integer) within its
    tolerance, anything else exactly."""
    output, steps = at
    if kind == "real" or (kind == "entero" and tol.declared):
        error = _distance(obtained, expected)
        try:
            allowed = tol.allowed(expected)
        except OverflowError:
            allowed = math.inf
        if not error <= allowed:  # NaN is never within any tolerance
            shown = error if math.isfinite(error) else None  # reports hold finite numbers only
            out.append(
                Difference(output, steps, DifferenceKind.VALUE, expected, obtained, shown, allowed)
            )
        elif within and error > 0:
            out.append(
                Difference(
                    output,
                    steps,
                    DifferenceKind.VALUE,
                    expected,
                    obtained,
                    error,
                    allowed,
                    within=error <= allowed,
                )
            )
    elif expected != obtained:
        gap = _distance(obtained, expected) if kind == "entero" else math.nan
        shown = gap if math.isfinite(gap) else None
        exact = 0.0 if kind == "entero" else None
        out.append(
            Difference(output, steps, DifferenceKind.VALUE, expected, obtained, shown, exact)
        )


def compare(
    expected: dict[str, Any],
    obtained: dict[str, Any],
    default: Tolerance,
    per_output: dict[str, Tolerance] | None = None,
    *,
    include_within: bool = False,
    loose: bool = False,
) -> list[Difference]:
    """Return every difference between snapshot and outputs; key order is the snapshot's.

    With `include_within`, numbers that moved within tolerance are listed too, flagged `within`.
    With `loose` (a student's hole judged: grade, practice), a number's representation does
    not count: `2.0` for `2` passes within the tolerance, unless the output's `strict_type`
    says the type is the lesson. A boolean is never a number, nor a text "2".
    """
    per_output = per_output or {}
    out: list[Difference] = []
    for key, value in expected.items():
        if key not in obtained:
            out.append(Difference(key, (), DifferenceKind.MISSING, value, None))
        else:
            tol = per_output.get(key, default)
            _walk(value, obtained[key], (key, ()), tol, out, within=include_within, loose=loose)
    for key, value in obtained.items():
        if key not in expected:
            out.append(Difference(key, (), DifferenceKind.EXTRA, None, value))
    return out


def key_order_differs(expected: dict[str, Any], obtained: dict[str, Any]) -> bool:
    """True when both have the same keys but in another order (the lab's order is the contract)."""
    return set(expected) == set(obtained) and list(expected) != list(obtained)
