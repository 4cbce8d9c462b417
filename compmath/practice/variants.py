"""Hidden variants: the parameter sets, besides the defaults, at which every hole is checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compmath.course.tree import ClassInfo


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return repr(value)


@dataclass(frozen=True)
class Variant:
    """One parameter set of run(); empty means the lab's defaults (the snapshot's)."""

    params: dict[str, Any] = field(default_factory=dict)

    @property
    def default(self) -> bool:
        return not self.params

    @property
    def key(self) -> str:
        """A stable name for requests: `defecto` or `dimension=16,posiciones=3`."""
        if self.default:
            return "defecto"
        return ",".join(f"{k}={_shown(v)}" for k, v in sorted(self.params.items()))

    @property
    def label(self) -> str:
        """`con los parámetros por defecto` or `con dimension = 16, posiciones = 3`."""
        if self.default:
            return "con los parámetros por defecto"
        return "con " + ", ".join(f"{k} = {_shown(v)}" for k, v in self.params.items())

    def command(self, number: int) -> str:
        """The command that reproduces this variant: `compmath run 323 --set dimension=16`."""
        sets = "".join(f" --set {k}={_shown(v)}" for k, v in self.params.items())
        return f"compmath run {number}{sets}"


def variants_of(cls: ClassInfo) -> tuple[Variant, ...]:
    """The defaults first, then the class's declared variants ([practica] variantes)."""
    declared = tuple(Variant(dict(params)) for params in cls.meta.variants if params)
    return (Variant(), *declared)
