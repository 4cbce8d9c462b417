"""The JSON report of `run --json` and `check --json` (compmath/contracts/report.schema.json)."""

from __future__ import annotations

from collections.abc import Sequence

from compmath.base.encode import dumps
from compmath.judging.report import LabReport


def report_document(reports: list[LabReport], elapsed: float, missing: Sequence[str] = ()) -> str:
    """The canonical JSON text of a run or a check (`missing`: the protections the labs ran
    without, as COMPMATH_SIN names them)."""
    passed = sum(r.passed for r in reports)
    return dumps(
        {
            "version": 1,
            "resumen": {
                "total": len(reports),
                "correctos": passed,
                "fallidos": len(reports) - passed,
                "duracion_s": round(elapsed, 3),
            },
            "clases": [r.to_dict() for r in reports],
            "protecciones_ausentes": list(missing),
        }
    )
