"""Where a hole first failed, as data: the run's outcome, the variant, the output, the values.

The feedback says it in prose (`motivo`); the class report (`resumen.md`) and the regrade diff
(`grade comparar`) need it as fields, so a record keeps both. A private variant keeps neither
its parameters nor the values (they would tell the variant); a long value is cut.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from compmath.grading.reasons import KNOWN_ERRORS
from compmath.holes import verdict as practice
from compmath.judging.report import Outcome

VALUE_CHARS = 80  # of an expected or obtained value, what a record keeps
ERROR_CHARS = 300
DEFAULTS, OWN, PUBLIC, PRIVATE = "defecto", "propia", "publica", "privada"


def _value(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + "…"


@dataclass(frozen=True)
class Failure:
    """The first run a hole failed: its outcome (judging's word), which parameters, and there
    the first wrong output (its path, both values) or the error it raised."""

    outcome: str  # «difiere», «esquema_invalido», «excepcion», «tiempo_agotado», …
    kind: str  # DEFAULTS, OWN (the student's own parameters), PUBLIC or PRIVATE
    params: dict[str, Any] | None = None  # the variant's parameters (None: defaults, private)
    output: str = ""  # the output that differs (run()'s key), "" when none
    path: str = ""  # where inside it: `salida.pe[3][1]`
    expected: str = ""  # the values there, as compact JSON (cut)
    obtained: str = ""
    error: str = ""  # the exception (or limit) as the report says it
    tolerance: float | None = None  # the tolerance the wrong number was held to

    def to_dict(self) -> dict[str, Any]:
        return {
            "resultado": self.outcome,
            "variante": self.kind,
            "parametros": self.params,
            "salida": self.output,
            "ruta": self.path,
            "esperado": self.expected,
            "obtenido": self.obtained,
            "error": self.error,
            "tolerancia": self.tolerance,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Failure:
        params = data.get("parametros")
        return cls(
            str(data["resultado"]),
            str(data["variante"]),
            dict(params) if isinstance(params, dict) else None,
            str(data.get("salida", "")),
            str(data.get("ruta", "")),
            str(data.get("esperado", "")),
            str(data.get("obtenido", "")),
            str(data.get("error", "")),
            _number(data.get("tolerancia")),
        )


def _error(hole: practice.HoleVerdict) -> str:
    """What the failing run raised, as the class report keeps it: an exception's type when
    Python or numpy defines it, else «una excepción» (its message is the program's own text:
    it can carry a temporary path, or what a grafted program read of the course's holes); a
    limit as the judge says it."""
    if hole.outcome != Outcome.EXCEPTION:
        return hole.error[:ERROR_CHARS]
    kind = hole.error.split(":", 1)[0].strip()
    return kind if kind in KNOWN_ERRORS else "una excepción"


def failure_of(hole: practice.HoleVerdict) -> Failure | None:
    """The failure of a judged hole, or None when it passed or never ran (open, no markers,
    a syntax error: its reason says all there is)."""
    variant = hole.variant
    if hole.done or variant is None or not hole.outcome:
        return None
    if variant.private:
        kind = PRIVATE
    elif variant.own:
        kind = OWN
    else:
        kind = DEFAULTS if variant.default else PUBLIC
    params = None if kind in (PRIVATE, DEFAULTS) else dict(variant.params)
    wrong = hole.difference
    if wrong is None or kind == PRIVATE:
        output = wrong.output if wrong is not None else ""
        return Failure(hole.outcome, kind, params, output, error=_error(hole))
    return Failure(
        hole.outcome,
        kind,
        params,
        wrong.output,
        wrong.path,
        _value(wrong.expected),
        _value(wrong.obtained),
        _error(hole),
        wrong.tolerance,
    )


def _number(value: Any) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok else None
