"""`compmath grade`: grade a class of students, or merge the shards of a grading."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compmath.cli.common import (
    JOBS,
    RootOption,
    TimeoutOption,
    command,
    guard,
    open_course,
    require_temp_folder,
)
from compmath.errors import CompmathError

if TYPE_CHECKING:
    from compmath.grading.gradebook import Gradebook
    from compmath.grading.run import Outcome

DEFAULT_GRADE_TIMEOUT = 10.0
MERGE = "merge"


def _classes(values: list[str] | None) -> list[str]:
    return [name.strip() for value in values or [] for name in value.split(",") if name.strip()]


@command("grade")
def grade(
    entregas: Annotated[
        list[str],
        typer.Argument(
            metavar="ENTREGAS | merge CARPETAS | resumen NOTAS | comparar ANTES DESPUES | "
            "similitud NOTAS",
            help="La carpeta de las entregas (una carpeta o un .zip por alumno); o «merge» y "
            "las carpetas de los fragmentos; o «resumen» o «similitud» y una carpeta de notas; "
            "o «comparar» y dos.",
            show_default=False,
        ),
    ],
    clases: Annotated[
        list[str] | None,
        typer.Option("--clases", metavar="CLASES", help="Clases a corregir (por defecto: todas)."),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out", metavar="CARPETA", show_default="notas/", help="Dónde escribir las notas."
        ),
    ] = Path("notas"),
    timeout: TimeoutOption = DEFAULT_GRADE_TIMEOUT,
    jobs: Annotated[int | None, JOBS] = None,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="K/N",
            help="Corrige solo el fragmento K de N (o «auto»: SLURM_ARRAY_TASK_ID, "
            "JOB_COMPLETION_INDEX).",
        ),
    ] = None,
    classroom: Annotated[
        bool,
        typer.Option(
            "--classroom",
            help="ENTREGAS es la entrega de un solo alumno; da los puntos a GitHub Classroom.",
        ),
    ] = False,
    private: Annotated[
        Path | None,
        typer.Option(
            "--variantes-privadas",
            metavar="RUTA.toml",
            help="Tu archivo de variantes privadas (no se publica con el curso): cada hueco "
            "se comprueba también con ellas.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Con resumen o comparar: imprime el JSON.")
    ] = False,
    fail_on_change: Annotated[
        bool,
        typer.Option("--fail-on-change", help="Con comparar: sale con 1 si alguna nota cambia."),
    ] = False,
    umbral: Annotated[
        float | None,
        typer.Option(
            "--umbral",
            metavar="X",
            help="Con similitud: desde qué parte de huellas en común (0 a 1) se lista una pareja.",
        ),
    ] = None,
    root: RootOption = None,
) -> None:
    """Corrige las entregas: notas.csv, un comentario por alumno, informe.json y resumen.md."""
    from compmath.cli import grade_reports

    if entregas[0] == grade_reports.SUMMARY:
        grade_reports.summary_command(entregas[1:], as_json)
        return
    if entregas[0] == grade_reports.COMPARE:
        grade_reports.compare_command(entregas[1:], as_json, fail_on_change)
        return
    if entregas[0] == grade_reports.SIMILARITY:
        grade_reports.similarity_command(entregas[1:], umbral, as_json, root)
        return
    if as_json or fail_on_change or umbral is not None:
        with guard():
            raise CompmathError(
                "--json, --fail-on-change y --umbral son de grade resumen, comparar y similitud",
                "ejemplo: compmath grade comparar notas-antes notas --fail-on-change",
            )
    if entregas[0] == MERGE:
        with guard():
            if clases or shard or classroom or jobs or private:
                raise CompmathError(
                    "grade merge solo admite las carpetas de los fragmentos y --out",
                    "ejemplo: compmath grade merge notas-1 notas-2 --out notas",
                )
            _merge([Path(p) for p in entregas[1:]], out)
        return
    if len(entregas) > 1:
        with guard():
            raise CompmathError(
                "grade corrige una carpeta de entregas", f"ejemplo: compmath grade {entregas[0]}"
            )
    _grade(Path(entregas[0]), _classes(clases), out, timeout, jobs, shard, classroom, root, private)


def _grade(
    folder: Path,
    names: list[str],
    out: Path,
    timeout: float,
    jobs: int | None,
    shard_text: str | None,
    classroom: bool,
    root: Path | None,
    private_path: Path | None = None,
) -> None:
    from compmath.grading import run
    from compmath.grading.shards import parse_shard, write_share

    with guard():
        require_temp_folder()
        if not folder.is_dir():
            missing = "" if folder.exists() else ": no existe"
            raise CompmathError(
                f"«{folder}» no es una carpeta{missing}",
                "dale la carpeta de las entregas, con una carpeta o un .zip por alumno",
            )
        course = open_course(root)
        classes = run.graded_classes(course, names)
        private = None
        if private_path is not None:
            from compmath.grading.private import read_private

            private = read_private(private_path, course)
        shard = parse_shard(shard_text) if shard_text else None
        if classroom:
            here = folder.resolve()
            student = os.environ.get("GITHUB_REPOSITORY", "").split("/")[-1] or here.name
            students, ignored, roster = {student: here}, list[str](), [student]
        else:
            students, ignored, roster = run.select_students(folder, shard, out)
    outcome = _with_progress(
        lambda started, landed: run.grade_students(
            students,
            out,
            classes,
            timeout=timeout,
            jobs=jobs or os.cpu_count() or 1,
            started=started,
            landed=landed,
            hide=[folder, *([private_path] if private_path else [])],
            private=private,
        )
    )
    outcome.ignored = ignored
    with guard():
        write_share(out, shard, roster)
    _say_what_was_missing(outcome.missing)
    if classroom:
        _report_to_classroom(outcome.book)
    from compmath.grading.screen import summary_blocks
    from compmath.present.output import emit

    emit(summary_blocks(outcome, out, shard), sys.stderr if classroom else sys.stdout)


def _say_what_was_missing(missing: list[str]) -> None:
    """On stderr: the protections the students' labs ran without (README, «Integridad»)."""
    from compmath.execution.facilities import notice

    text = notice(missing)
    if text:
        from compmath.present.layout import para
        from compmath.present.output import emit

        emit([para((text, "yellow"), hang=2)], sys.stderr)


def _with_progress(
    grading: Callable[[Callable[[list[str]], None], Callable[[str], None]], Outcome],
) -> Outcome:
    """Run a grading with a live bar on a terminal's stderr: students judged of those to judge,
    and who is being graded now."""
    from compmath.cli.interrupt import activity
    from compmath.grading.screen import grading_now
    from compmath.present.output import colour_for, is_terminal

    stack = ExitStack()
    advance: list[Callable[[str], None]] = []
    counts = [0, 0]  # landed, to judge
    pending: list[str] = []  # the students not graded yet, in order

    def started(students: list[str]) -> None:
        count = counts[1] = len(students)
        pending.extend(students)
        if count and is_terminal(sys.stderr):
            from compmath.present.terminal import spinner

            bar = spinner(sys.stderr, count, "entregas", colour=colour_for(sys.stderr))
            advance.append(stack.enter_context(bar))

    def landed(student: str) -> None:
        counts[0] += 1
        doing.note = (
            f"{counts[0]} de {counts[1]} entregas quedaron corregidas y guardadas; "
            "al relanzarla no se repiten"
        )
        if student in pending:
            pending.remove(student)
        if advance:
            advance[0](grading_now(pending))  # who is awaited, not who is done

    with activity("la corrección", "ninguna entrega llegó a corregirse") as doing, stack, guard():
        return grading(started, landed)


def _report_to_classroom(book: Gradebook) -> None:
    """Hand the points to Classroom's reporter (the step's `result` output), or print them."""
    from compmath.grading.classroom import classroom_output

    line = classroom_output(book)
    target = os.environ.get("GITHUB_OUTPUT")
    if target:
        with open(target, "a", encoding="utf-8") as output:
            output.write(line)
    else:
        sys.stdout.write(line)


def _merge(folders: list[Path], out: Path) -> None:
    from compmath.grading.gradebook import merge, read_report, write_gradebook
    from compmath.grading.screen import merged_blocks
    from compmath.grading.shards import check_coverage, read_share
    from compmath.present.output import emit

    with guard():
        if not folders:
            raise CompmathError(
                "grade merge necesita las carpetas de los fragmentos",
                "ejemplo: compmath grade merge notas-1 notas-2 --out notas",
            )
        book = merge([read_report(folder) for folder in folders])
        shares = [read_share(folder) for folder in folders]
        if all(shares):  # a folder graded whole (no --shard) covers its own submissions
            check_coverage([s for s in shares if s], {g.student for g in book.grades})
        write_gradebook(out, book)
        from compmath.grading.similarity import merge_holes

        merge_holes(folders, out)  # for grade similitud
    emit(merged_blocks(book, len(folders), out))
