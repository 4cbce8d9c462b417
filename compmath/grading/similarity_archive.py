"""Earlier terms for `grade similitud --archivo`: their students' holes, read from a folder of
grades (its huecos/, which `grade` writes) or from a folder of submissions (read as `grade`
reads them, nothing of them run).

An earlier term's students are named `carpeta/alumno` (the folder's name, then the student),
which no student of this term can be called (a student's name is a folder's or a zip's). Only
what involves a student of this term is reported; two students of earlier terms are no news.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError
from compmath.grading.similarity import HOLES_DIR, read_holes
from compmath.grading.submissions import discover, read_submission
from compmath.holes.regions import student_holes

ARCHIVED = "/"  # in a student's name: one of an earlier term
Holes = dict[str, dict[str, dict[str, str]]]  # student -> class -> hole -> text


def _from_submissions(folder: Path, classes: list[ClassInfo]) -> Holes:
    found, _ = discover(folder)
    holes: Holes = {}
    for student, path in found.items():
        submission = read_submission(student, path, classes)
        mine: dict[str, dict[str, str]] = {}
        for class_id, file in submission.files.items():
            if file.source is None:
                continue
            regions, _ = student_holes(file.source)
            mine[class_id] = {str(k): "\n".join(r.body) for k, r in sorted(regions.items())}
        if mine:
            holes[student] = mine
    return holes


def read_archive(folders: list[Path], classes: list[ClassInfo]) -> Holes:
    """Every earlier term's students' holes, named `carpeta/alumno`; a folder that holds
    neither a grading's huecos/ nor submissions is one Spanish error."""
    archive: Holes = {}
    names: dict[str, Path] = {}
    for folder in folders:
        if not folder.is_dir():
            raise CompmathError(
                f"--archivo {folder}: no es una carpeta",
                "dale la carpeta de notas de otro curso (con su huecos/) o la de sus entregas",
            )
        label = folder.resolve().name
        if label in names:
            raise CompmathError(
                f"--archivo: {names[label]} y {folder} se llaman igual ({label})",
                "renombra una de las dos carpetas",
            )
        names[label] = folder
        if (folder / HOLES_DIR).is_dir():
            holes = read_holes(folder)
        elif (folder / "informe.json").is_file():
            raise CompmathError(
                f"--archivo {folder}: esa corrección no guardó los huecos de los alumnos",
                f"dale la carpeta de sus entregas, o vuelve a corregirlas: compmath grade "
                f"ENTREGAS --out {folder}",
            )
        else:
            holes = _from_submissions(folder, classes)
        archive |= {f"{label}{ARCHIVED}{student}": h for student, h in holes.items()}
    return archive


def with_archive(saved: Mapping[str, Mapping[str, Mapping[str, str]]], archive: Holes) -> Holes:
    """This term's students and the earlier terms' as one class to compare."""
    joined: Holes = {s: {c: dict(h) for c, h in cs.items()} for s, cs in saved.items()}
    joined.update(archive)
    return joined


def archived(student: str) -> bool:
    return ARCHIVED in student
