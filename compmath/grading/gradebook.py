"""The outputs of a grading: notas.csv, informe.json and one feedback file per student.

All three are a function of the graded classes and the students' records alone (students in id
order, no times, no machine paths), so one run and `grade merge` of its shards write the same
bytes. Every file is written atomically and left alone when its bytes have not changed.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.errors import CompmathError
from compmath.grading.feedback import feedback_markdown
from compmath.grading.records import VERSION, ClassSpec, StudentGrade, points_text
from compmath.grading.submissions import file_name

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

    @property
    def points(self) -> float:
        return sum(sum(s.points) for s in self.specs)


def _cell(text: str) -> str:
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
        writer.writerow(row)
    return buffer.getvalue()


def report_document(book: Gradebook) -> dict[str, Any]:
    """The JSON report (schemas/grade.schema.json)."""
    from compmath.grading.summary import class_summary

    earned = [g.earned for g in book.grades]
    return {
        "version": VERSION,
        "huella_del_curso": book.course,
        "puntos": round(book.points, 4),
        "clases": [s.to_dict() for s in book.specs],
        "resumen": {
            "alumnos": len(book.grades),
            "media": round(sum(earned) / len(earned), 4) if earned else 0,
            "con_todo": sum(1 for e in earned if e >= book.points),
            "sin_puntos": sum(1 for e in earned if e == 0),
        },
        "resumen_por_hueco": class_summary(book),
        "alumnos": [g.to_dict() for g in book.grades],
    }


def write_gradebook(out: Path, book: Gradebook) -> None:
    """Write notas.csv, informe.json, resumen.md and comentarios/<alumno>.md into `out`."""
    from compmath.grading.summary_text import SUMMARY_NAME, summary_markdown

    (out / FEEDBACK_DIR).mkdir(parents=True, exist_ok=True)
    for grade in book.grades:
        text = feedback_markdown(book.specs, grade)
        write_atomic(out / FEEDBACK_DIR / f"{file_name(grade.student)}.md", text)
    document = report_document(book)
    report = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    write_atomic(out / REPORT_NAME, report)
    write_atomic(out / SUMMARY_NAME, summary_markdown(document["resumen_por_hueco"]))
    write_atomic(out / CSV_NAME, csv_text(book))


def read_report(folder: Path) -> Gradebook:
    """A grading's informe.json back as a Gradebook (for `grade merge`)."""
    path = folder / REPORT_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Gradebook(
            data["huella_del_curso"],
            [ClassSpec.from_dict(s) for s in data["clases"]],
            [StudentGrade.from_dict(g) for g in data["alumnos"]],
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
    for book in books:
        if book.course != first.course or book.specs != first.specs:
            raise CompmathError(
                "los fragmentos se corrigieron con cursos, clases o límites distintos",
                "vuelve a lanzarlos todos con el mismo curso, las mismas --clases y --timeout",
            )
        for grade in book.grades:
            if grade.student in grades and grades[grade.student] != grade:
                raise CompmathError(
                    f"{grade.student} aparece en dos fragmentos con notas distintas",
                    "junta solo los fragmentos K/N de un mismo reparto",
                )
            grades[grade.student] = grade
    return Gradebook(first.course, first.specs, [grades[k] for k in sorted(grades)])
