"""`compmath grade` with an LMS: a download and a roster in, gradebook files and autograders out.

`grade.py` keeps the command; this module holds what `grade exportar`, `grade gradescope`,
`--alumnos` and `--classroom50` do, and the message that replaced GitHub Classroom.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from compmath.errors import CompmathError

if TYPE_CHECKING:
    from compmath.course.tree import ClassInfo
    from compmath.grading.roster import Identity, Joined

EXPORT = "exportar"
GRADESCOPE = "gradescope"
SEPARATORS = {",": ",", ";": ";", "tab": "\t", "\\t": "\t", "\t": "\t"}
GITHUB_CLASSROOM_GONE = CompmathError(
    "GitHub Classroom cerró el 28 de agosto de 2026: compmath ya no le da los puntos",
    "usa Classroom 50 (compmath practice start --classroom50), Gradescope (compmath grade "
    "gradescope) o las notas para tu LMS (compmath grade exportar NOTAS --formato moodle-hoja)",
)


def export_command(
    folder: Path,
    fmt: str | None,
    separator: str | None,
    decimal: str | None,
    scale: str,
    task: str,
    language: str,
    roster_path: Path | None,
    out: Path | None,
) -> None:
    """Write the export `fmt` of the grading in `folder` to `out` (or into `folder`)."""
    from compmath.atomic import write_atomic
    from compmath.grading.export import DEFAULT_NAMES, FORMATS, LANGUAGES, SCALES, Options, export
    from compmath.grading.roster import read_identities, read_roster

    if fmt not in FORMATS:
        raise CompmathError(
            f"--formato {fmt or '(falta)'}: no es un formato de exportación",
            "elige uno: " + ", ".join(FORMATS),
        )
    if scale not in SCALES:
        raise CompmathError(f"--escala {scale}: no es una escala", "elige puntos, 10 o 100")
    if language not in LANGUAGES:
        raise CompmathError(f"--idioma {language}: no es un idioma de Moodle", "elige es o en")
    sep = SEPARATORS.get(separator or ",")
    if sep is None:
        raise CompmathError(f"--separador {separator!r}: no es un separador", "usa ',', ';' o tab")
    if (decimal or ".") not in (".", ","):
        raise CompmathError(f"--decimal {decimal!r}: no es una marca decimal", "usa '.' o ','")
    if decimal == "," and separator is None and fmt == "csv":
        sep = ";"  # the decimal comma asks for the semicolon, as Spanish spreadsheets read it
    identities = read_identities(folder)
    if roster_path is not None:
        for person in read_roster(roster_path):
            seen = identities.get(person.student)
            identities[person.student] = seen.merged(person) if seen else person
    options = Options(sep, decimal or ".", scale, task, language)
    content = export(folder, fmt, identities, options)
    target = out or folder / DEFAULT_NAMES[fmt]
    write_atomic(target, content)
    from compmath.present.layout import line
    from compmath.present.output import emit

    emit([line(("✓ ", "green"), f"{fmt}: {target}")])


def read_students(
    folder: Path, classes: list[ClassInfo], roster_path: Path | None
) -> tuple[dict[str, Path | None], list[str], Joined, tempfile.TemporaryDirectory[str] | None]:
    """The students to grade from a download or a submissions folder, joined to the roster:
    (by id, what was ignored, the join, the scratch folder to remove when done)."""
    from compmath.grading.lms import is_download, read_download
    from compmath.grading.roster import join, read_roster
    from compmath.grading.submissions import discover

    scratch = None
    known: dict[str, Identity] = {}
    if is_download(folder):
        scratch = tempfile.TemporaryDirectory(prefix="compmath-entregas-")
        sole = classes[0].id if len(classes) == 1 else None
        download = read_download(folder, Path(scratch.name), sole)
        found, ignored, known = download.students, download.ignored, download.identities
    elif folder.is_dir():
        found, ignored = discover(folder)
    else:
        missing = "" if folder.exists() else ": no existe"
        raise CompmathError(
            f"«{folder}» no es una carpeta ni una descarga .zip del LMS{missing}",
            "dale la carpeta de las entregas (una carpeta o un .zip por alumno) o la descarga "
            "de Moodle o Canvas",
        )
    roster = read_roster(roster_path) if roster_path is not None else None
    joined = join(found, known, roster)
    ignored += [f"{s}: no está en la lista de alumnos, no se corrige" for s in joined.unknown]
    return joined.graded, ignored, joined, scratch


def say_unknown(joined: Joined) -> None:
    """On stderr: the submissions that match nobody on the roster, never graded."""
    if not joined.unknown:
        return
    from compmath.present.layout import para
    from compmath.present.output import emit

    names = ", ".join(joined.unknown)
    text = (
        f"{len(joined.unknown)} entrega(s) no están en la lista de alumnos y no se corrigieron: "
        f"{names}. Comprueba el id del LMS en la lista (--alumnos)."
    )
    emit([para((text, "yellow"), hang=2)], sys.stderr)


def gradescope_command(
    names: list[str],
    visibility: str,
    timeout: float,
    root: Path | None,
    out: Path | None,
    risk_accepted: bool = False,
) -> None:
    """Build the Gradescope autograder zip for the classes `names` of the course."""
    from compmath.atomic import write_atomic
    from compmath.cli.common import open_course
    from compmath.grading.classroom50 import course_repository
    from compmath.grading.gradescope import build_zip
    from compmath.grading.run import graded_classes
    from compmath.present.layout import line
    from compmath.present.output import emit
    from compmath.wording import count

    course = open_course(root, f"compmath grade {GRADESCOPE}")
    classes = [c.id for c in graded_classes(course, names)]
    repository, commit = course_repository(course, "gradescope")
    target = out or Path("autograder.zip")
    made = build_zip(repository, commit, classes, visibility, timeout, risk_accepted)
    write_atomic(target, made)
    emit(
        [
            line(
                ("✓ ", "green"),
                f"autograder de Gradescope en {target} ({count(len(classes), 'clase', 'clases')})",
            )
        ]
    )
