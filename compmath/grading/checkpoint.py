"""Each judged class of each student, saved the moment it lands, so a killed grading resumes.

A student's record is written when their last class is judged; until then each of their classes
judged so far waits in `OUT/alumnos/.en-curso/<alumno>/<clase>.json`, atomically written and
sealed with the run's key (seal.py), under a fingerprint of the course, the limits, the student
and that class's file. A run that is killed loses only the classes in flight; the next run takes
every class whose fingerprint and seal still hold and judges the rest. A student's checkpoints
go once their record is written.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.grading.failure import Failure
from compmath.grading.seal import SEAL_FIELD, seal, sealed
from compmath.grading.verdict import ClassVerdict, GradedHole
from compmath.holes.graft import HoleStatus

FOLDER = ".en-curso"


def class_print(course_print: str, student: str, class_id: str, source: str) -> str:
    """What one class's verdict depends on: the course's fingerprint, who, which file."""
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    text = json.dumps([course_print, student, class_id, digest])
    return hashlib.sha256(text.encode()).hexdigest()


def _document(verdict: ClassVerdict, fingerprint: str) -> dict[str, Any]:
    return {
        "huella": fingerprint,
        "salida_del_alumno": verdict.prints,
        "fuera_de_los_huecos_cambiado": verdict.outside_changed,
        "error_de_sintaxis_fuera": verdict.syntax,
        "huecos": [
            {
                "numero": h.number,
                "bien": h.passed,
                "estado": h.status,
                "motivo": h.reason,
                "variantes_superadas": h.variants_passed,
                "variantes": h.variants,
                "fallo": h.failure.to_dict() if h.failure else None,
            }
            for h in verdict.holes
        ],
    }


def _verdict(data: dict[str, Any]) -> ClassVerdict:
    holes = tuple(
        GradedHole(
            int(h["numero"]),
            bool(h["bien"]),
            HoleStatus(str(h["estado"])),  # a word no judge gives: judged again
            str(h["motivo"]),
            int(h["variantes_superadas"]),
            int(h["variantes"]),
            Failure.from_dict(h["fallo"]) if h.get("fallo") else None,
        )
        for h in data["huecos"]
    )
    return ClassVerdict(
        holes,
        str(data["salida_del_alumno"]),
        bool(data["fuera_de_los_huecos_cambiado"]),
        str(data["error_de_sintaxis_fuera"]),
    )


def path(records: Path, stem: str, class_id: str) -> Path:
    return records / FOLDER / stem / f"{class_id}.json"


def save(
    records: Path, stem: str, class_id: str, fingerprint: str, verdict: ClassVerdict, key: bytes
) -> Path | None:
    """Write one class's verdict (atomically, sealed); its path, or None when it could not be
    written (the run goes on: only the resume loses it)."""
    data = _document(verdict, fingerprint)
    data[SEAL_FIELD] = seal(data, key)
    target = path(records, stem, class_id)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # not durable: a kill leaves the page cache whole, and a checkpoint a power cut left
        # empty or torn fails its seal and is judged again (16 ms an fsync here, 1,000 of them)
        write_atomic(target, json.dumps(data, ensure_ascii=False) + "\n", durable=False)
    except Exception:  # a full disk costs the resume, never the grading
        return None
    return target


def load(
    records: Path, stem: str, class_id: str, fingerprint: str, key: bytes
) -> ClassVerdict | None:
    """The class's saved verdict if it is there for exactly this file, sealed with this run's
    key; anything odd, forged or damaged is None: judged again."""
    try:
        data = json.loads(path(records, stem, class_id).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not sealed(data, key) or data.get("huella") != fingerprint:
            return None
        return _verdict(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def forget(records: Path, stem: str) -> None:
    """A student's checkpoints, once their record holds them all."""
    shutil.rmtree(records / FOLDER / stem, ignore_errors=True)
