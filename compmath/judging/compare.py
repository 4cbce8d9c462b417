"""Compare obtained outputs with the snapshot, leaf by leaf, within declared tolerances."""

from __future__ import annotations

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


@dataclass(frozen=True)
class Difference:
    """One leaf that differs, and how.

    `within` marks a number that moved but stays within tolerance; compare() reports those only
    when asked (`include_within=True`), for `compmath diff` to tell noise from real changes.
    """

    output: str  # the output (top-level key) it is in, as run() names it
    path: str
    kind: DifferenceKind
    expected: Any
    obtained: Any
    abs_error: float | None = None
    tolerance: float | None = None
    within: bool = False

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


def _walk(
    expected: Any,
    obtained: Any,
    at: tuple[str, str],
    tol: Tolerance,
    out: list[Difference],
    *,
    within: bool = False,
) -> None:
    """Append to `out` how `obtained` differs from `expected`; `at` is (output, path)."""
    output, path = at
    ek, ok = _kind(expected), _kind(obtained)
    if ek != ok:
        out.append(Difference(output, path, DifferenceKind.TYPE, expected, obtained))
    elif ek == "objeto":
        for key in expected:
            if key not in obtained:
                out.append(
                    Difference(output, f"{path}.{key}", DifferenceKind.MISSING, expected[key], None)
                )
            else:
                _walk(
                    expected[key], obtained[key], (output, f"{path}.{key}"), tol, out, within=within
                )
        for key in obtained:
            if key not in expected:
                out.append(
                    Difference(output, f"{path}.{key}", DifferenceKind.EXTRA, None, obtained[key])
                )
    elif ek == "lista":
        if len(expected) != len(obtained):
            out.append(
                Difference(output, path, DifferenceKind.LENGTH, len(expected), len(obtained))
            )
        else:
            for i, (e, o) in enumerate(zip(expected, obtained)):
                _walk(e, o, (output, f"{path}[{i}]"), tol, out, within=within)
    elif ek == "real" or (ek == "entero" and tol.declared):
        error = abs(obtained - expected)
        allowed = tol.allowed(expected)
        if error > allowed or (within and error > 0):
            out.append(
                Difference(
                    output,
                    path,
                    DifferenceKind.VALUE,
                    expected,
                    obtained,
                    error,
                    allowed,
                    within=error <= allowed,
                )
            )
    elif expected != obtained:
        error = float(abs(obtained - expected)) if ek == "entero" else None
        exact = 0.0 if ek == "entero" else None
        out.append(Difference(output, path, DifferenceKind.VALUE, expected, obtained, error, exact))


def compare(
    expected: dict[str, Any],
    obtained: dict[str, Any],
    default: Tolerance,
    per_output: dict[str, Tolerance] | None = None,
    *,
    include_within: bool = False,
) -> list[Difference]:
    """Return every difference between snapshot and outputs; key order is the snapshot's.

    With `include_within`, numbers that moved within tolerance are listed too, flagged `within`.
    """
    per_output = per_output or {}
    out: list[Difference] = []
    for key, value in expected.items():
        at = (key, f"salida.{key}")
        if key not in obtained:
            out.append(Difference(key, at[1], DifferenceKind.MISSING, value, None))
        else:
            tol = per_output.get(key, default)
            _walk(value, obtained[key], at, tol, out, within=include_within)
    for key, value in obtained.items():
        if key not in expected:
            out.append(Difference(key, f"salida.{key}", DifferenceKind.EXTRA, None, value))
    return out


def key_order_differs(expected: dict[str, Any], obtained: dict[str, Any]) -> bool:
    """True when both have the same keys but in another order (the lab's order is the contract)."""
    return set(expected) == set(obtained) and list(expected) != list(obtained)
