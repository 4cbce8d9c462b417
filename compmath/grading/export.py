"""Grades out to where they live: Moodle's worksheet and gradebook, Canvas, a spreadsheet's CSV.

Everything is made from NOTAS/informe.json (compmath/contracts/grade.schema.json) and the
identities grade wrote beside it (NOTAS/identidades.json), so an export never re-runs anything.
The formats:

- `moodle-hoja`: the assignment's offline grading worksheet, as Moodle's gradingtable.php
  downloads it; its importer (assignfeedback_offline) finds the columns by their names in the
  instructor's language: the identifier («Participante 123456»), the grade, the time the grade
  was last modified and the feedback comments;
- `moodle-libro`: the gradebook's CSV import, a user mapped by e-mail or ID number;
- `canvas`: Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then
  the assignment, with the «Points Possible» row;
- `csv`: one row per student for a spreadsheet, with the separator and decimal mark asked for;
- `moodle-comentarios`: a zip of feedback files in the layout «Subir varios archivos de
  comentarios en un ZIP» reads: one folder `Nombre_123456_assignfeedback_file_` per student.

No text cell may start a spreadsheet formula: one that starts with =, +, -, @, a tab or a CR
gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError
from compmath.grading.gradebook import FEEDBACK_DIR, FORMULA_START, REPORT_NAME, report_document
from compmath.grading.gradebook import read_report as read_gradebook
from compmath.grading.roster import HANDED_IN, NOT_HANDED_IN, Identity
from compmath.grading.submissions import file_name
from compmath.wording import count

FORMATS = ("moodle-hoja", "moodle-libro", "canvas", "csv", "moodle-comentarios")
SCALES = ("puntos", "10", "100")
LANGUAGES = ("es", "en")
DEFAULT_TASK = "compmath"
ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed: the same grades give the same zip

# Moodle's strings (mod/assign/lang/…/assign.php, lang/…/moodle.php), by the key Moodle uses
MOODLE = {
    "es": {
        "recordid": "Identificador",
        "hiddenuser": "Participante ",
        "fullname": "Nombre completo",
        "email": "Dirección de correo",
        "status": "Estado",
        "grade": "Calificación",
        "maxgrade": "Calificación máxima",
        "gradecanbechanged": "La calificación puede ser cambiada",
        "lastmodifiedsubmission": "Última modificación (entrega)",
        "lastmodifiedgrade": "Última modificación (calificación)",
        "feedbackcomments": "Comentarios de retroalimentación",
        "idnumber": "Número de ID",
        "yes": "Sí",
        HANDED_IN: "Enviado para calificar",
        NOT_HANDED_IN: "Sin entrega",
    },
    "en": {
        "recordid": "Identifier",
        "hiddenuser": "Participant ",
        "fullname": "Full name",
        "email": "Email address",
        "status": "Status",
        "grade": "Grade",
        "maxgrade": "Maximum grade",
        "gradecanbechanged": "Grade can be changed",
        "lastmodifiedsubmission": "Last modified (submission)",
        "lastmodifiedgrade": "Last modified (grade)",
        "feedbackcomments": "Feedback comments",
        "idnumber": "ID number",
        "yes": "Yes",
        HANDED_IN: "Submitted for grading",
        NOT_HANDED_IN: "No submission",
    },
}
CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_POINTS = "Points Possible"


@dataclass(frozen=True)
class Options:
    """How to write an export: separator, decimal mark, scale, the assignment's name, Moodle's
    language, and the time written as the grades' last modification."""

    separator: str = ","
    decimal: str = "."
    scale: str = "puntos"
    task: str = DEFAULT_TASK
    language: str = "es"
    now: datetime.datetime | None = None


def read_report(folder: Path) -> dict[str, Any]:
    """NOTAS/informe.json as data, read back as `grade merge` reads it (anything else: one
    error), then written out as the report's own document."""
    if not (folder / REPORT_NAME).is_file():
        raise CompmathError(
            f"{folder / REPORT_NAME} no existe: {folder} no es una carpeta de notas",
            "exporta la carpeta que escribió compmath grade (su --out)",
        )
    return report_document(read_gradebook(folder))


def _safe(text: str) -> str:
    """A text cell no spreadsheet runs as a formula."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def _number(value: float, options: Options) -> str:
    return f"{round(value, 2):g}".replace(".", options.decimal)


def _scaled(earned: float, points: float, options: Options) -> tuple[float, float]:
    """(grade, maximum) on the chosen scale."""
    if options.scale == "puntos":
        return earned, points
    top = float(options.scale)
    return (earned / points * top if points else 0.0), top


def _csv(rows: list[list[str]], options: Options, bom: bool = False) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=options.separator, lineterminator="\r\n")
    writer.writerows(rows)
    return ("\ufeff" if bom else "") + buffer.getvalue()


def _identity(identities: dict[str, Identity], student: str) -> Identity:
    return identities.get(student, Identity(student))


def _final(student: dict[str, Any]) -> float:
    """The points the LMS gets: after the deduction for lateness ([entrega]), if any."""
    late = student.get("entrega")
    return float(late["nota_final"]) if late else float(student["obtenidos"])


def _late_line(student: dict[str, Any]) -> list[str]:
    """The lateness as the comment's first line, when it cost anything."""
    late = student.get("entrega")
    if not late or late["estado"] not in ("tarde", "fuera de plazo"):
        return []
    if late["estado"] == "fuera de plazo":
        late_by = count(late["dias_tarde"], "día", "días")
        return [f"Entrega fuera de plazo ({late_by} tarde, después del cierre): 0"]
    percent = f"{late['penalizacion']:g}".replace(".", ",")
    days = late["dias_tarde"]
    return [f"Entrega tardía: {count(days, 'día', 'días')}, −{percent} %"]


def _status(student: dict[str, Any], who: Identity) -> str:
    if who.status == NOT_HANDED_IN:
        return NOT_HANDED_IN
    problems = [c.get("problema", "") for c in student["clases"]]
    return (
        NOT_HANDED_IN
        if problems and all(p.startswith(NOT_HANDED_IN) for p in problems)
        else (who.status or HANDED_IN)
    )


def feedback_summary(report: dict[str, Any], student: dict[str, Any]) -> str:
    """The feedback comment for an LMS: each class's points, each hole short of full and why."""
    titles = {c["clase"]: f"{c['numero']} {c['titulo']}" for c in report["clases"]}
    lines = _late_line(student)
    for cls in student["clases"]:
        points = f"{cls['obtenidos']:g} de {cls['puntos']:g}".replace(".", ",")
        lines.append(f"{titles.get(cls['clase'], cls['clase'])}: {points}")
        if cls.get("problema"):
            lines.append(f"  {cls['problema']}")
            continue
        for hole in cls["huecos"]:
            if hole["obtenidos"] < hole["puntos"]:
                why = f": {hole['motivo']}" if hole.get("motivo") else ""
                lines.append(f"  hueco {hole['numero']}, {hole['estado']}{why}")
    return "\n".join(lines)


def _html(text: str) -> str:
    """Moodle's feedback comments are HTML: the text escaped, one line per line."""
    return "<br>".join(html.escape(line) for line in text.splitlines())


def moodle_worksheet(
    report: dict[str, Any], identities: dict[str, Identity], options: Options
) -> str:
    """The offline grading worksheet, with the grade and the feedback comments filled in."""
    words = MOODLE[options.language]
    when = (options.now or datetime.datetime.now(datetime.UTC)).strftime("%Y-%m-%d %H:%M:%S")
    keys = ["recordid", "fullname", "email", "status", "grade", "maxgrade", "gradecanbechanged"]
    keys += ["lastmodifiedsubmission", "lastmodifiedgrade", "feedbackcomments"]
    rows = [[words[k] for k in keys]]
    _require(report, identities, lambda who: who.student.isdigit(), "moodle-hoja")
    for student in report["alumnos"]:
        who = _identity(identities, student["alumno"])
        grade, top = _scaled(_final(student), report["puntos"], options)
        rows.append(
            [
                f"{words['hiddenuser']}{who.student}",
                _safe(who.name),
                _safe(who.email),
                words[_status(student, who)],
                _number(grade, options),
                _number(top, options),
                words["yes"],
                "",  # Moodle writes «-»; a cell starting with «-» is one a spreadsheet may run
                when,
                _safe(_html(feedback_summary(report, student))),
            ]
        )
    return _csv(rows, options)


def moodle_gradebook(
    report: dict[str, Any], identities: dict[str, Identity], options: Options
) -> str:
    """The gradebook's CSV import: ID number, e-mail, name, the grade and its feedback."""
    words = MOODLE[options.language]
    _require(report, identities, lambda who: bool(who.email or who.id_number), "moodle-libro")
    header = [words["idnumber"], words["email"], words["fullname"], _safe(options.task)]
    rows = [[*header, _safe(f"{options.task} ({words['feedbackcomments'].lower()})")]]
    for student in report["alumnos"]:
        who = _identity(identities, student["alumno"])
        grade, _ = _scaled(_final(student), report["puntos"], options)
        summary = feedback_summary(report, student)
        rows.append(
            [
                _safe(who.id_number),
                _safe(who.email),
                _safe(who.name),
                _number(grade, options),
                _safe(summary),
            ]
        )
    return _csv(rows, options)


def canvas_gradebook(
    report: dict[str, Any], identities: dict[str, Identity], options: Options
) -> str:
    """Canvas's gradebook import: the identity columns, the «Points Possible» row, one
    assignment column."""
    if options.separator != "," or options.decimal != ".":
        raise CompmathError(
            "Canvas solo importa CSV con coma como separador y punto decimal",
            "quita --separador y --decimal con --formato canvas",
        )

    def known(who: Identity) -> bool:
        return who.student.isdigit() or bool(who.sis_user_id or who.sis_login_id)

    _require(report, identities, known, "canvas")
    _, top = _scaled(0.0, report["puntos"], options)
    rows = [[*CANVAS_HEADER, _safe(options.task)]]
    rows.append([CANVAS_POINTS, "", "", "", "", _number(top, options)])
    for student in report["alumnos"]:
        who = _identity(identities, student["alumno"])
        grade, _ = _scaled(_final(student), report["puntos"], options)
        ident = who.student if who.student.isdigit() else ""
        cells = [who.name, ident, who.sis_user_id, who.sis_login_id, who.section]
        rows.append([*(_safe(c) for c in cells), _number(grade, options)])
    return _csv(rows, options)


def plain_csv(report: dict[str, Any], identities: dict[str, Identity], options: Options) -> str:
    """One row per student: identity, status, each class's points, the grade on the scale."""
    if options.separator == options.decimal:
        raise CompmathError(
            f"el separador y la marca decimal no pueden ser los dos «{options.separator}»",
            "con la coma decimal usa --separador ';' (o un tabulador: --separador tab)",
        )
    classes = [c["clase"] for c in report["clases"]]
    header = ["alumno", "nombre", "correo", "estado", *[f"{c[:3]} puntos" for c in classes]]
    late = any("entrega" in s for s in report["alumnos"])  # [entrega]: the deduction, apart
    rows = [[*header, *(["penalizacion"] if late else []), "nota", "sobre"]]
    for student in report["alumnos"]:
        who = _identity(identities, student["alumno"])
        by_class = {c["clase"]: c for c in student["clases"]}
        grade, top = _scaled(_final(student), report["puntos"], options)
        points = [_number(by_class[c]["obtenidos"], options) for c in classes if c in by_class]
        identity = [_safe(who.student), _safe(who.name), _safe(who.email)]
        percent = [_number(student.get("entrega", {}).get("penalizacion", 0), options)]
        cells = [*identity, _status(student, who), *points, *(percent if late else [])]
        rows.append([*cells, _number(grade, options)])
        rows[-1].append(_number(top, options))
    return _csv(rows, options, bom=True)


def _require(
    report: dict[str, Any],
    identities: dict[str, Identity],
    known: Callable[[Identity], bool],
    what: str,
) -> None:
    """Refuse an export whose LMS could not match some students, naming them."""
    missing = [
        s["alumno"] for s in report["alumnos"] if not known(_identity(identities, s["alumno"]))
    ]
    if missing:
        shown = ", ".join(missing[:5]) + (f" y {len(missing) - 5} más" if len(missing) > 5 else "")
        raise CompmathError(
            f"--formato {what}: el LMS no reconocería a {shown} (falta su id del LMS"
            + (", su correo o su número de ID" if what == "moodle-libro" else "")
            + ")",
            "corrige la descarga del LMS tal como viene, o da la lista: --alumnos LISTA.csv",
        )


def _folder_name(who: Identity) -> str:
    """The folder Moodle names a participant's files with: its importer splits it at «_»."""
    name = " ".join(who.name.replace("_", " ").replace("/", " ").split()) or "Participante"
    return f"{name}_{who.student}_assignfeedback_file_"


def feedback_zip(folder: Path, report: dict[str, Any], identities: dict[str, Identity]) -> bytes:
    """The feedback files (NOTAS/comentarios/<alumno>.md) zipped as Moodle uploads them."""
    _require(report, identities, lambda who: who.student.isdigit(), "moodle-comentarios")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for student in report["alumnos"]:
            who = _identity(identities, student["alumno"])
            source = folder / FEEDBACK_DIR / f"{file_name(who.student)}.md"
            try:
                data = source.read_bytes()
            except OSError as exc:
                raise CompmathError(
                    f"no se puede leer {source}: {exc.strerror}",
                    "vuelve a lanzar compmath grade con el mismo --out",
                ) from None
            info = zipfile.ZipInfo(f"{_folder_name(who)}/comentarios.md", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


WRITERS = {
    "moodle-hoja": moodle_worksheet,
    "moodle-libro": moodle_gradebook,
    "canvas": canvas_gradebook,
    "csv": plain_csv,
}
DEFAULT_NAMES = {
    "moodle-hoja": "moodle-hoja.csv",
    "moodle-libro": "moodle-libro.csv",
    "canvas": "canvas.csv",
    "csv": "notas-exportadas.csv",
    "moodle-comentarios": "moodle-comentarios.zip",
}


def export(
    folder: Path, fmt: str, identities: dict[str, Identity], options: Options
) -> str | bytes:
    """The export `fmt` of the grading in `folder`."""
    report = read_report(folder)
    if fmt == "moodle-comentarios":
        return feedback_zip(folder, report, identities)
    if options.scale != "puntos" and not report["puntos"]:
        raise CompmathError("la corrección no tiene puntos: no hay escala a la que pasarlos", "")
    return WRITERS[fmt](report, identities, options)
