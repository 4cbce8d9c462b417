"""Hidden variants: the parameter sets, besides the defaults, at which every hole is checked.

The first variant is the lab's defaults, or the student's own parameters when the class gives
each student numbers of their own ([practica.por_alumno]). The class's public variants
([practica] variantes) follow, then, when grading with `--variantes-privadas`, the private ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compmath.course.tree import ClassInfo


def shown_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return repr(value)


@dataclass(frozen=True)
class Variant:
    """One parameter set of run(); empty means the lab's defaults (the snapshot's)."""

    params: dict[str, Any] = field(default_factory=dict)
    own: bool = False  # the student's own parameters, in place of the defaults
    private: bool = False  # from the instructor's private file: its numbers are never shown

    @property
    def default(self) -> bool:
        return not self.params

    @property
    def key(self) -> str:
        """A stable name for requests: `defecto` or `dimension=16,posiciones=3`."""
        if self.default:
            return "defecto"
        return ",".join(f"{k}={shown_value(v)}" for k, v in sorted(self.params.items()))

    @property
    def label(self) -> str:
        """`con los parámetros por defecto` or `con dimension = 16, posiciones = 3`."""
        if self.default:
            return "con los parámetros por defecto"
        if self.private:
            return "con una variante privada de la corrección"
        if self.own:
            return (
                "con tus parámetros ("
                + ", ".join(f"{k} = {shown_value(v)}" for k, v in self.params.items())
                + ")"
            )
        return "con " + ", ".join(f"{k} = {shown_value(v)}" for k, v in self.params.items())

    def command(self, number: int) -> str:
        """The command that reproduces this variant: `compmath run 323 --set dimension=16`."""
        sets = "".join(f" --set {k}={shown_value(v)}" for k, v in self.params.items())
        return f"compmath run {number}{sets}"


def variants_of(
    cls: ClassInfo,
    own: Mapping[str, Any] | None = None,
    private: Sequence[Mapping[str, Any]] = (),
) -> tuple[Variant, ...]:
    """The defaults (or the student's `own` parameters) first, then the class's declared
    variants ([practica] variantes), then the `private` ones (grading only)."""
    first = Variant(dict(own), own=True) if own else Variant()
    declared = tuple(Variant(dict(params)) for params in cls.meta.variants if params)
    hidden = tuple(Variant(dict(params), private=True) for params in private if params)
    return (first, *declared, *hidden)
