"""The JSON report of `run --json` and `check --json` (schemas/report.schema.json)."""

from __future__ import annotations

from compmath.judging.encode import dumps
from compmath.judging.report import LabReport


def report_document(reports: list[LabReport], elapsed: float) -> str:
    """The canonical JSON text of a run or a check."""
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
        }
    )
