"""A student's grade as a record: per class and per hole, points and the reason, as JSON.

Records are what a grading run writes as each student lands (one file per student, so a killed
run resumes), what the report gathers and what `grade merge` joins. They hold no times and no
paths of the machine that graded them, so one run and shards merged give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from compmath.course.tree import ClassInfo
from compmath.grading.failure import Failure
from compmath.grading.submissions import Submission
from compmath.grading.verdict import ClassVerdict, GradedHole
from compmath.holes.graft import HoleStatus
from compmath.mathtext import plain_prose

VERSION = 1
ALL_OR_NOTHING, PROPORTIONAL = "todo_o_nada", "proporcional"  # [practica] credito


def points_text(value: float) -> str:
    """Points as data: `1`, `0.5`, `2.25` (decimal point, no trailing zeros)."""
    return f"{round(value, 4):g}"


@dataclass(frozen=True)
class ClassSpec:
    """A graded class as the gradebook needs it: id, number, title, each hole's points and task."""

    class_id: str
    number: int
    title: str
    points: tuple[float, ...]
    tasks: tuple[str, ...]
    credit: str = ALL_OR_NOTHING  # [practica] credito: or PROPORTIONAL to the variants passed
    # What a regrade names when it changes (None: not recorded, a report of an older compmath):
    # [practica] variantes, each as JSON (private variants are never here); the
    # class's tolerance and each output's own, as (name, atol, rtol), "" for the class's; and
    # the time limit of each run, in seconds.
    variants: tuple[str, ...] | None = None
    tolerances: tuple[tuple[str, float, float], ...] | None = None
    timeout: float | None = None

    @property
    def proportional(self) -> bool:
        return self.credit == PROPORTIONAL

    @classmethod
    def of(cls, info: ClassInfo, timeout: float | None = None) -> ClassSpec:
        holes = info.meta.holes
        default, own = info.meta.tolerances()
        tolerances = [("", default.atol, default.rtol)]
        tolerances += [(name, t.atol, t.rtol) for name, t in sorted(own.items())]
        return cls(
            info.id,
            info.number,
            info.title,
            tuple(h.points for h in holes),
            tuple(plain_prose(h.task) for h in holes),  # a comment is plain text
            info.meta.credit,
            tuple(variant_json(v) for v in info.meta.variants if v),
            tuple(tolerances),
            timeout,
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "clase": self.class_id,
            "numero": self.number,
            "titulo": self.title,
            "huecos": [{"puntos": p, "tarea": t} for p, t in zip(self.points, self.tasks)],
            "puntos": sum(self.points),
            "credito": self.credit,
        }
        if self.variants is not None:
            data["variantes"] = [json.loads(v) for v in self.variants]
        if self.tolerances is not None:
            data["tolerancias"] = [
                {"salida": name, "atol": atol, "rtol": rtol} for name, atol, rtol in self.tolerances
            ]
        if self.timeout is not None:
            data["limite_de_tiempo"] = self.timeout
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClassSpec:
        holes = data["huecos"]
        variants = data.get("variantes")
        tolerances = data.get("tolerancias")
        timeout = data.get("limite_de_tiempo")
        return cls(
            data["clase"],
            int(data["numero"]),
            data["titulo"],
            tuple(float(h["puntos"]) for h in holes),
            tuple(h["tarea"] for h in holes),
            str(data.get("credito", ALL_OR_NOTHING)),
            None if variants is None else tuple(variant_json(v) for v in variants),
            None
            if tolerances is None
            else tuple((str(t["salida"]), float(t["atol"]), float(t["rtol"])) for t in tolerances),
            None if timeout is None else float(timeout),
        )


def variant_json(params: dict[str, Any]) -> str:
    """A variant's parameters as JSON, in class.toml's order (compare them parsed)."""
    return json.dumps(params, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class HoleGrade:
    number: int
    points: float
    earned: float
    status: HoleStatus
    reason: str
    variants_passed: int = 0  # of `variants` (the defaults included), how many it matched
    variants: int = 0
    failure: Failure | None = None  # where it first failed, as data (grading.failure)


@dataclass(frozen=True)
class ClassGrade:
    class_id: str
    holes: tuple[HoleGrade, ...]
    problem: str = ""  # why the whole class scored 0 (missing, empty, not text), if it did
    prints: str = ""
    outside_changed: bool = False  # the student changed code outside the holes (not graded)
    syntax: str = ""  # a syntax error outside every hole (not graded, said in the feedback)

    @property
    def points(self) -> float:
        return sum(h.points for h in self.holes)

    @property
    def earned(self) -> float:
        return sum(h.earned for h in self.holes)


@dataclass(frozen=True)
class StudentGrade:
    """One student's grade over the selected classes, with the fingerprint of what was graded."""

    student: str
    fingerprint: str
    classes: tuple[ClassGrade, ...]
    notes: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # the protections the student's code ran without

    @property
    def points(self) -> float:
        return sum(c.points for c in self.classes)

    @property
    def earned(self) -> float:
        return sum(c.earned for c in self.classes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "alumno": self.student,
            "huella": self.fingerprint,
            "obtenidos": round(self.earned, 4),
            "puntos": round(self.points, 4),
            "avisos": list(self.notes),
            "protecciones_ausentes": list(self.missing),
            "clases": [
                {
                    "clase": c.class_id,
                    "obtenidos": round(c.earned, 4),
                    "puntos": round(c.points, 4),
                    "problema": c.problem,
                    "salida_del_alumno": c.prints,
                    "fuera_de_los_huecos_cambiado": c.outside_changed,
                    "error_de_sintaxis_fuera": c.syntax,
                    "huecos": [
                        {
                            "numero": h.number,
                            "estado": h.status.value,
                            "obtenidos": h.earned,
                            "puntos": h.points,
                            "motivo": h.reason,
                            "variantes_superadas": h.variants_passed,
                            "variantes": h.variants,
                            "fallo": h.failure.to_dict() if h.failure else None,
                        }
                        for h in c.holes
                    ],
                }
                for c in self.classes
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StudentGrade:
        classes = tuple(
            ClassGrade(
                c["clase"],
                tuple(
                    HoleGrade(
                        int(h["numero"]),
                        float(h["puntos"]),
                        float(h["obtenidos"]),
                        HoleStatus(h["estado"]),
                        h["motivo"],
                        int(h.get("variantes_superadas", 0)),
                        int(h.get("variantes", 0)),
                        Failure.from_dict(h["fallo"]) if h.get("fallo") else None,
                    )
                    for h in c["huecos"]
                ),
                c["problema"],
                c["salida_del_alumno"],
                bool(c.get("fuera_de_los_huecos_cambiado", False)),
                str(c.get("error_de_sintaxis_fuera", "")),
            )
            for c in data["clases"]
        )
        missing = data.get("protecciones_ausentes", [])
        if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
            raise TypeError("protecciones_ausentes no es una lista de nombres")
        return cls(
            data["alumno"], data["huella"], classes, tuple(data.get("avisos", [])), tuple(missing)
        )


def course_fingerprint(
    classes: list[ClassInfo], timeout: float, missing: tuple[str, ...] = ()
) -> str:
    """What every verdict depends on: the graded classes' files, the limits, the runner, and
    the protections the students' code runs without (a grade earned with fewer is not reused
    by a run with more)."""
    from compmath import __version__

    absent = ",".join(sorted(missing))
    digest = hashlib.sha256(f"{__version__}\0{timeout!r}\0{absent}".encode())
    for cls in classes:
        for path in (cls.lab, cls.snapshot, cls.meta_path, cls.schema_path):
            digest.update(f"\0{cls.id}/{path.name}\0".encode())
            digest.update(path.read_bytes() if path.exists() else b"-")
    return digest.hexdigest()


def submission_fingerprint(course: str, submission: Submission) -> str:
    """The course's fingerprint and the student's files: equal means the grade still holds."""
    files = [
        [cid, hashlib.sha256(f.source.encode()).hexdigest() if f.source is not None else f.problem]
        for cid, f in submission.files.items()
    ]
    text = json.dumps([course, submission.student, files, list(submission.notes)])
    return hashlib.sha256(text.encode()).hexdigest()


def _earned(spec: ClassSpec, hole: GradedHole, points: float) -> float:
    """A judged hole's points: all or nothing, or the share of the variants it matched."""
    if hole.passed:
        return points
    if spec.proportional and hole.variants:
        return round(points * hole.variants_passed / hole.variants, 4)
    return 0.0


def grade(
    specs: list[ClassSpec],
    submission: Submission,
    fingerprint: str,
    verdicts: dict[str, ClassVerdict],
    missing: tuple[str, ...] = (),
) -> StudentGrade:
    """Score a judged submission: a hole earns its points when it passed, 0 otherwise; in a
    class with proportional credit, the share of its variants it matched."""
    classes = []
    for spec in specs:
        found = submission.files[spec.class_id]
        verdict = verdicts.get(spec.class_id)
        if verdict is None:  # nothing to judge: every hole scores 0 for the same reason
            holes = tuple(
                HoleGrade(k, p, 0.0, HoleStatus.MISSING, found.problem)
                for k, p in enumerate(spec.points, 1)
            )
            classes.append(ClassGrade(spec.class_id, holes, found.problem))
            continue
        holes = tuple(
            HoleGrade(
                h.number,
                p,
                _earned(spec, h, p),
                h.status,
                h.reason,
                h.variants_passed,
                h.variants,
                h.failure,
            )
            for h, p in zip(verdict.holes, spec.points)
        )
        classes.append(
            ClassGrade(
                spec.class_id,
                holes,
                "",
                verdict.prints,
                verdict.outside_changed,
                verdict.syntax,
            )
        )
    return StudentGrade(submission.student, fingerprint, tuple(classes), submission.notes, missing)


def unjudged(
    specs: list[ClassSpec],
    submission: Submission,
    fingerprint: str,
    reason: str,
    missing: tuple[str, ...] = (),
) -> StudentGrade:
    """A student who could not be judged or recorded: 0 in every hole, and why."""
    classes = tuple(
        ClassGrade(
            spec.class_id,
            tuple(
                HoleGrade(k, p, 0.0, HoleStatus.FAILS, reason) for k, p in enumerate(spec.points, 1)
            ),
            reason,
        )
        for spec in specs
    )
    return StudentGrade(submission.student, fingerprint, classes, submission.notes, missing)
