"""The outputs of a grading: notas.csv, informe.json and one feedback file per student.

All three are a function of the graded classes and the students' records alone (students in id
order, no times, no machine paths), so one run and `grade merge` of its shards write the same
bytes. Every file is written atomically and left alone when its bytes have not changed.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.errors import CompmathError
from compmath.grading.deadline import Lateness
from compmath.grading.feedback import feedback_markdown
from compmath.grading.names import file_names, look_alikes
from compmath.grading.records import VERSION, ClassSpec, StudentGrade, points_text, unjudged
from compmath.grading.submissions import Submission
from compmath.grading.summary import class_summary
from compmath.grading.summary_text import SUMMARY_NAME, summary_markdown
from compmath.grading.written import Written
from compmath.visible import visible
from compmath.wording import count

CSV_NAME = "notas.csv"
REPORT_NAME = "informe.json"
FEEDBACK_DIR = "comentarios"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run as a formula


@dataclass(frozen=True)
class Gradebook:
    """What a grading produced: the course it graded against, its classes, every student."""

    course: str  # the course fingerprint
    specs: list[ClassSpec]
    grades: list[StudentGrade]
    missing: tuple[str, ...] = ()  # the protections the students' code ran without
    lateness: dict[str, Lateness] = field(default_factory=dict)  # [entrega]: by student

    @property
    def points(self) -> float:
        return sum(sum(s.points) for s in self.specs)


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: control characters (a line break too) spelt out (`\\x1b`,
    `\\n`), never a formula."""
    text = visible(text)
    return f"'{text}" if text.startswith(FORMULA_START) else text


def csv_text(book: Gradebook) -> str:
    """One row per student: each hole, each class, the total and the maximum. A hole of a class
    with proportional credit says so in its column's name (`323 hueco 1 (proporcional)`)."""
    header = ["alumno"]
    for spec in book.specs:
        credit = " (proporcional)" if spec.proportional else ""
        header += [f"{spec.number} hueco {k}{credit}" for k in range(1, len(spec.points) + 1)]
        header.append(f"{spec.number} total")
    header += ["total", "maximo"]
    if book.lateness:  # [entrega]: the deduction in columns of its own, the points untouched
        header += ["entrega", "entregado_en", "dias_tarde", "penalizacion", "nota_final"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for grade in book.grades:
        by_id = {c.class_id: c for c in grade.classes}
        row = [_cell(grade.student)]
        for spec in book.specs:
            cls = by_id[spec.class_id]
            row += [points_text(h.earned) for h in cls.holes]
            row.append(points_text(cls.earned))
        row += [points_text(grade.earned), points_text(book.points)]
        if book.lateness:
            row += _lateness_cells(book.lateness.get(grade.student), grade.earned)
        writer.writerow(row)
    return buffer.getvalue()


def _lateness_cells(lateness: Lateness | None, earned: float) -> list[str]:
    if lateness is None:  # nothing handed in
        return ["", "", "", "", points_text(earned)]
    return [
        lateness.state,
        lateness.delivered,
        str(lateness.days),
        points_text(lateness.percent),
        points_text(lateness.final(earned)),
    ]


def report_document(book: Gradebook) -> dict[str, Any]:
    """The JSON report (compmath/contracts/grade.schema.json)."""
    earned = [g.earned for g in book.grades]
    return {
        "version": VERSION,
        "huella_del_curso": book.course,
        "puntos": round(book.points, 4),
        "protecciones_ausentes": list(book.missing),
        "nombres_parecidos": [list(group) for group in look_alikes(g.student for g in book.grades)],
        "clases": [s.to_dict() for s in book.specs],
        "resumen": {
            "alumnos": len(book.grades),
            "media": round(sum(earned) / len(earned), 4) if earned else 0,
            "con_todo": sum(1 for e in earned if e >= book.points),
            "sin_puntos": sum(1 for e in earned if e == 0),
        },
        "resumen_por_hueco": class_summary(book.specs, book.grades),
        "alumnos": [_student_document(book, g) for g in book.grades],
    }


def _student_document(book: Gradebook, grade: StudentGrade) -> dict[str, Any]:
    """A student in informe.json: the record, and under `entrega` their lateness and the
    points after its deduction (the record's `obtenidos` stay the points earned)."""
    data = grade.to_dict()
    lateness = book.lateness.get(grade.student)
    if lateness is not None:
        data["entrega"] = {**lateness.to_dict(), "nota_final": lateness.final(grade.earned)}
    return data


def write_gradebook(out: Path, book: Gradebook) -> tuple[Gradebook, list[Written]]:
    """Write notas.csv, informe.json, resumen.md and comentarios/<alumno>.md into `out`. A
    student whose feedback cannot be written gets 0 with the reason in the others; the book
    written back, and what was written, in the order the summary lists it."""
    (out / FEEDBACK_DIR).mkdir(parents=True, exist_ok=True)
    names = file_names(g.student for g in book.grades)
    grades = []
    for grade in book.grades:
        try:
            text = feedback_markdown(book.specs, grade, book.lateness.get(grade.student))
            write_atomic(out / FEEDBACK_DIR / f"{names[grade.student]}.md", text)
        except Exception as exc:  # one student's file, not the class's
            why = f"no se pudo escribir su comentario (error de compmath: {type(exc).__name__})"
            submission = Submission(grade.student, {}, grade.notes)
            grade = unjudged(book.specs, submission, grade.fingerprint, why, grade.missing)
        grades.append(grade)
    book = Gradebook(book.course, book.specs, grades, book.missing, book.lateness)
    document = report_document(book)
    report = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    write_atomic(out / REPORT_NAME, report)
    write_atomic(out / SUMMARY_NAME, summary_markdown(document["resumen_por_hueco"]))
    write_atomic(out / CSV_NAME, csv_text(book))
    feedback = count(len(grades), "comentario", "comentarios") + " (uno por alumno)"
    return book, [
        Written(out / CSV_NAME, "las notas"),
        Written(out / REPORT_NAME, "el informe"),
        Written(out / SUMMARY_NAME, "el resumen de la clase"),
        Written(out / FEEDBACK_DIR, feedback, folder=True),
    ]


def read_report(folder: Path) -> Gradebook:
    """A grading's informe.json back as a Gradebook (for `grade merge`)."""
    path = folder / REPORT_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        missing = data.get("protecciones_ausentes", [])
        if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
            raise TypeError("protecciones_ausentes no es una lista de nombres")
        return Gradebook(
            data["huella_del_curso"],
            [ClassSpec.from_dict(s) for s in data["clases"]],
            [StudentGrade.from_dict(g) for g in data["alumnos"]],
            tuple(missing),
            {
                g["alumno"]: Lateness.from_dict(g["entrega"])
                for g in data["alumnos"]
                if "entrega" in g
            },
        )
    except FileNotFoundError:
        raise CompmathError(
            f"{path} no existe: ese fragmento no terminó", "vuelve a lanzarlo con el mismo --out"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CompmathError(f"{path} no es un informe de compmath grade ({exc})", "") from None


def merge(books: list[Gradebook]) -> Gradebook:
    """Shards' gradebooks as one: same course and classes, each student once."""
    first = books[0]
    grades: dict[str, StudentGrade] = {}
    lateness = {k: v for book in books for k, v in book.lateness.items()}
    for book in books:
        if book.missing != first.missing:
            raise CompmathError(
                "los fragmentos se corrigieron con protecciones distintas: "
                f"{', '.join(first.missing) or 'todas'} frente a "
                f"{', '.join(book.missing) or 'todas'}",
                "vuelve a corregirlos todos en máquinas con las mismas protecciones",
            )
        if book.course != first.course or book.specs != first.specs:
            raise CompmathError(
                "los fragmentos se corrigieron con cursos, clases o límites distintos",
                "vuelve a lanzarlos todos con el mismo curso, las mismas --clases y --timeout",
            )
        for grade in book.grades:
            if grade.student in grades:
                same = "la misma nota" if grades[grade.student] == grade else "notas distintas"
                raise CompmathError(
                    f"{visible(grade.student)} aparece en dos fragmentos, con {same}",
                    "junta solo los fragmentos K/N de un mismo reparto, cada uno una vez",
                )
            grades[grade.student] = grade
    ordered = [grades[k] for k in sorted(grades)]
    return Gradebook(first.course, first.specs, ordered, first.missing, lateness)
