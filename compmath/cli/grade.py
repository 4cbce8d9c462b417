"""`compmath grade`: grade a class of students, or merge the shards of a grading."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
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


@dataclass(frozen=True)
class _Protection:
    """What the instructor said about missing protections: go on anyway, or want every one."""

    risk_accepted: bool = False
    every: bool = False


def _classes(values: list[str] | None) -> list[str]:
    return [name.strip() for value in values or [] for name in value.split(",") if name.strip()]


@command("grade")
def grade(
    entregas: Annotated[
        list[str],
        typer.Argument(
            metavar="ENTREGAS | merge CARPETAS",
            help="La carpeta de las entregas (una carpeta o un .zip por alumno); o «merge» y "
            "las carpetas de los fragmentos.",
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
            metavar="RUTA",
            help="Tu archivo de variantes privadas (no se publica con el curso): cada hueco "
            "se comprueba también con ellas.",
        ),
    ] = None,
    sin_aislamiento: Annotated[
        bool,
        typer.Option(
            "--sin-aislamiento-completo",
            help="Corrige aunque falten las protecciones que separan a los alumnos (un alumno "
            "podría leer o cambiar lo de otro); las que falten quedan en cada nota.",
        ),
    ] = False,
    todas: Annotated[
        bool,
        typer.Option(
            "--todas-las-protecciones",
            help="No corrige si falta cualquier protección, aunque no sea de las que separan a "
            "los alumnos (para CI).",
        ),
    ] = False,
    root: RootOption = None,
) -> None:
    """Corrige las entregas: notas.csv, un comentario por alumno e informe.json."""
    if entregas[0] == MERGE:
        with guard():
            if clases or shard or classroom or jobs or private or sin_aislamiento or todas:
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
    with guard():
        if sin_aislamiento and todas:
            raise CompmathError(
                "--sin-aislamiento-completo y --todas-las-protecciones se contradicen",
                "elige una de las dos",
            )
    _grade(
        Path(entregas[0]),
        _classes(clases),
        out,
        timeout,
        jobs,
        shard,
        classroom,
        root,
        _Protection(sin_aislamiento, todas),
        private,
    )


def _grade(
    folder: Path,
    names: list[str],
    out: Path,
    timeout: float,
    jobs: int | None,
    shard_text: str | None,
    classroom: bool,
    root: Path | None,
    protection: _Protection,
    private_path: Path | None = None,
) -> None:
    from compmath.grading import run
    from compmath.grading.names import normalised
    from compmath.grading.protection import probe, refuse_without
    from compmath.grading.shards import parse_shard, write_share

    with guard():
        require_temp_folder()
        if not folder.is_dir():
            absent = "" if folder.exists() else ": no existe"
            raise CompmathError(
                f"«{folder}» no es una carpeta{absent}",
                "dale la carpeta de las entregas, con una carpeta o un .zip por alumno",
            )
        course = open_course(root)
        classes = run.graded_classes(course, names)
        private = None
        if private_path is not None:
            from compmath.grading.private import read_private

            private = read_private(private_path, course)
        shard = parse_shard(shard_text) if shard_text else None
        missing = probe()  # before any student's code runs, or any submission is read
        refuse_without(missing, protection.risk_accepted, every=protection.every)
        if classroom:
            here = folder.resolve()
            student = os.environ.get("GITHUB_REPOSITORY", "").split("/")[-1] or here.name
            student = normalised(student)
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
            missing=missing,
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
    from compmath.grading.shards import check_coverage, check_distinct, read_share
    from compmath.present.output import emit

    with guard():
        if not folders:
            raise CompmathError(
                "grade merge necesita las carpetas de los fragmentos",
                "ejemplo: compmath grade merge notas-1 notas-2 --out notas",
            )
        shares = [read_share(folder) for folder in folders]
        check_distinct(folders, shares)
        book = merge([read_report(folder) for folder in folders])
        if all(shares):  # a folder graded whole (no --shard) covers its own submissions
            check_coverage([s for s in shares if s], {g.student for g in book.grades})
        book = write_gradebook(out, book)
    emit(merged_blocks(book, len(folders), out))
