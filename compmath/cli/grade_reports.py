"""`compmath grade resumen NOTAS/` and `grade comparar ANTES DESPUES`: read graded folders."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from compmath.cli.common import ExitCode, guard
from compmath.errors import CompmathError

SUMMARY, COMPARE, SIMILARITY = "resumen", "comparar", "similitud"


def summary_command(folders: list[str], as_json: bool) -> None:
    """Print the class report of a graded folder (its informe.json), or its JSON."""
    from compmath.grading.gradebook import read_report
    from compmath.grading.summary import class_summary

    with guard():
        if len(folders) != 1:
            raise CompmathError(
                "grade resumen lee una carpeta de notas", "ejemplo: compmath grade resumen notas"
            )
        book = read_report(Path(folders[0]))
        summary = class_summary(book.specs, book.grades)
    if as_json:
        from compmath.base.encode import dumps

        sys.stdout.write(dumps(summary))
        return
    from compmath.grading.summary_text import summary_blocks
    from compmath.present.output import emit

    emit(summary_blocks(summary))


def compare_command(folders: list[str], as_json: bool, fail_on_change: bool) -> None:
    """Compare two gradings; exit 1 with `fail_on_change` when a grade moved."""
    from compmath.grading.gradebook import read_report
    from compmath.grading.regrade import compare

    with guard():
        if len(folders) != 2:
            raise CompmathError(
                "grade comparar necesita dos carpetas de notas: la de antes y la de después",
                "ejemplo: compmath grade comparar notas-antes notas",
            )
        result = compare(read_report(Path(folders[0])), read_report(Path(folders[1])))
    if as_json:
        from compmath.base.encode import dumps

        sys.stdout.write(dumps(result.to_dict()))
    else:
        from compmath.grading.regrade_text import regrade_blocks
        from compmath.present.output import emit

        emit(regrade_blocks(result))
    raise typer.Exit(ExitCode.FAILED if fail_on_change and result.changed else ExitCode.OK)


def similarity_command(
    folders: list[str],
    threshold: float | None,
    as_json: bool,
    root: Path | None,
    archive_folders: list[Path] | None = None,
) -> None:
    """Compare the holes saved in a graded folder (and, with `archive_folders`, against
    earlier terms: similarity_archive.py); write similitud.html there."""
    from compmath.atomic import write_atomic
    from compmath.cli.common import open_course
    from compmath.grading.gradebook import read_report
    from compmath.grading.similarity import (
        DEFAULT_THRESHOLD,
        course_texts,
        read_holes,
        similarity,
        to_dict,
    )
    from compmath.grading.similarity_html import PAGE_NAME, similarity_blocks, similarity_page

    with guard():
        if len(folders) != 1:
            raise CompmathError(
                "grade similitud lee una carpeta de notas",
                "ejemplo: compmath grade similitud notas --umbral 0.8",
            )
        chosen = DEFAULT_THRESHOLD if threshold is None else threshold
        if not 0 < chosen <= 1:
            raise CompmathError(
                f"--umbral {chosen} no está entre 0 y 1", "ejemplo: --umbral 0.8 (el 80 %)"
            )
        folder = Path(folders[0])
        book = read_report(folder)
        course = open_course(root, f"compmath grade {SIMILARITY}")
        classes = course.select([s.class_id for s in book.specs])
        saved = read_holes(folder)
        if not saved:
            raise CompmathError(
                f"{folder} no guarda los huecos de los alumnos",
                f"vuelve a corregir con esta versión: compmath grade ENTREGAS --out {folder}",
            )
        earlier: dict[str, dict[str, dict[str, str]]] = {}
        if archive_folders:
            from compmath.grading.similarity_archive import read_archive, with_archive

            earlier = read_archive(archive_folders, classes)
            saved = with_archive(saved, earlier)
        result = similarity(saved, course_texts(classes), chosen, frozenset(earlier))
        page = folder / PAGE_NAME
        write_atomic(page, similarity_page(result))
    if as_json:
        from compmath.base.encode import dumps

        sys.stdout.write(dumps(to_dict(result)))
        return
    from compmath.present.layout import here
    from compmath.present.output import emit

    emit(similarity_blocks(result, here(page)))
