"""`compmath grade`: grade a class of students, or merge the shards of a grading."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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
from compmath.wording import count

if TYPE_CHECKING:
    from compmath.course.tree import ClassInfo, Course
    from compmath.grading.deadline import Lateness
    from compmath.grading.roster import Identity
    from compmath.grading.run import GradingRun
    from compmath.holes.private import PrivateVariants

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
            metavar="ENTREGAS | ORDEN CARPETAS",
            help="La carpeta de las entregas (una carpeta o un .zip por alumno, o la descarga "
            "de Moodle o Canvas); o una orden y sus carpetas: «merge» y las de los fragmentos, "
            "«exportar», «resumen» o «similitud» y una de notas, «comparar» y dos, o "
            "«gradescope» y las clases del autograder.",
            show_default=False,
        ),
    ],
    clases: Annotated[
        list[str] | None,
        typer.Option("--clases", metavar="CLASES", help="Clases a corregir (por defecto: todas)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="CARPETA",
            show_default="notas/",
            help="Dónde escribir las notas (con exportar y gradescope, el archivo).",
        ),
    ] = None,
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
    classroom: Annotated[bool, typer.Option("--classroom", hidden=True)] = False,
    classroom50: Annotated[
        bool,
        typer.Option(
            "--classroom50",
            help="ENTREGAS es el repositorio de un solo alumno; deja en él result.json para "
            "Classroom 50.",
        ),
    ] = False,
    alumnos: Annotated[
        Path | None,
        typer.Option(
            "--alumnos",
            metavar="LISTA.csv",
            help="La lista de participantes del LMS: quien no entregó tiene 0 y una entrega "
            "que no está en ella no se corrige.",
        ),
    ] = None,
    formato: Annotated[
        str | None,
        typer.Option(
            "--formato",
            metavar="FORMATO",
            help="Con exportar: moodle-hoja, moodle-libro, canvas, csv o moodle-comentarios.",
        ),
    ] = None,
    separador: Annotated[
        str | None,
        typer.Option("--separador", metavar="SEP", help="Con exportar: ',', ';' o tab."),
    ] = None,
    decimal: Annotated[
        str | None, typer.Option("--decimal", metavar="MARCA", help="Con exportar: '.' o ','.")
    ] = None,
    escala: Annotated[
        str,
        typer.Option("--escala", metavar="ESCALA", help="Con exportar: puntos, 10 o 100."),
    ] = "puntos",
    tarea: Annotated[
        str,
        typer.Option("--tarea", metavar="NOMBRE", help="Con exportar: el nombre de la tarea."),
    ] = "compmath",
    idioma: Annotated[
        str,
        typer.Option("--idioma", metavar="es|en", help="Con exportar: el idioma de tu Moodle."),
    ] = "es",
    visibilidad: Annotated[
        str,
        typer.Option(
            "--visibilidad",
            metavar="VIS",
            help="Con gradescope: hidden, after_due_date, after_published o visible.",
        ),
    ] = "after_published",
    private: Annotated[
        Path | None,
        typer.Option(
            "--variantes-privadas",
            metavar="RUTA",
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
    entregado_en: Annotated[
        Path | None,
        typer.Option(
            "--entregado-en",
            metavar="LISTA.csv",
            help="Con [entrega] en curso.toml: cuándo entregó cada alumno (alumno,entregado_en, "
            "o la hoja de calificaciones de Moodle); manda sobre las demás fechas.",
        ),
    ] = None,
    prorrogas: Annotated[
        Path | None,
        typer.Option(
            "--prorrogas",
            metavar="LISTA.csv",
            help="Con [entrega]: las prórrogas, filas alumno,fecha,motivo o alumno,dias,motivo "
            "(por defecto: la de prorrogas en [entrega]).",
        ),
    ] = None,
    archivo: Annotated[
        list[Path] | None,
        typer.Option(
            "--archivo",
            metavar="CARPETA",
            help="Con similitud: compara también con otro curso (su carpeta de notas o de "
            "entregas); se repite para varios.",
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
    """Corrige las entregas: notas.csv, un comentario por alumno, informe.json y resumen.md."""
    reports = (as_json, fail_on_change, umbral, archivo)
    exports = (formato, separador, decimal, escala, tarea, idioma, alumnos, visibilidad)
    place = (timeout, root, out, sin_aislamiento)
    if _other_order(entregas, reports, exports, clases, classroom, place):
        return
    out = out or Path("notas")
    if entregas[0] == MERGE:
        with guard():
            merge_only = (classroom50, jobs, private, alumnos, sin_aislamiento, todas)
            if clases or shard or any(merge_only) or entregado_en or prorrogas:
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
        classroom50,
        root,
        _Protection(sin_aislamiento, todas),
        private,
        alumnos,
        (entregado_en, prorrogas),
    )


def _other_order(
    entregas: list[str],
    reports: tuple[bool, bool, float | None, list[Path] | None],
    exports: tuple[Any, ...],
    clases: list[str] | None,
    classroom: bool,
    place: tuple[float, Path | None, Path | None, bool],
) -> bool:
    """`grade resumen`, `comparar`, `similitud`, `exportar` and `gradescope` (True when one of
    them ran), and the refusal of their options anywhere else. `place`: the timeout, the
    course root, --out and whether the instructor accepted grading without full isolation."""
    timeout, root, out, risk_accepted = place
    as_json, fail_on_change, umbral, archivo = reports
    formato, separador, decimal, escala, tarea, idioma, alumnos, visibilidad = exports
    import compmath.cli.grade_reports as grade_reports

    if entregas[0] == grade_reports.SUMMARY:
        grade_reports.summary_command(entregas[1:], as_json)
        return True
    if entregas[0] == grade_reports.COMPARE:
        grade_reports.compare_command(entregas[1:], as_json, fail_on_change)
        return True
    if entregas[0] == grade_reports.SIMILARITY:
        grade_reports.similarity_command(entregas[1:], umbral, as_json, root, archivo)
        return True
    if as_json or fail_on_change or umbral is not None or archivo:
        with guard():
            raise CompmathError(
                "--json, --fail-on-change, --umbral y --archivo son de grade resumen, comparar "
                "y similitud",
                "ejemplo: compmath grade comparar notas-antes notas --fail-on-change",
            )
    import compmath.cli.grade_lms as grade_lms

    if classroom:
        with guard():
            raise grade_lms.GITHUB_CLASSROOM_GONE
    if entregas[0] == grade_lms.EXPORT:
        with guard():
            if len(entregas) != 2:
                raise CompmathError(
                    "grade exportar necesita una carpeta de notas",
                    "ejemplo: compmath grade exportar notas --formato moodle-hoja",
                )
            grade_lms.export_command(
                Path(entregas[1]), formato, separador, decimal, escala, tarea, idioma, alumnos, out
            )
        return True
    exporting = [formato, separador, decimal, escala != "puntos", tarea != "compmath"]
    if entregas[0] != grade_lms.EXPORT and (any(exporting) or idioma != "es"):
        with guard():
            raise CompmathError(
                "--formato, --separador, --decimal, --escala, --tarea e --idioma son de "
                "grade exportar",
                "ejemplo: compmath grade exportar notas --formato moodle-hoja --escala 10",
            )
    if entregas[0] != grade_lms.GRADESCOPE and visibilidad != "after_published":
        with guard():
            raise CompmathError(
                "--visibilidad es de grade gradescope",
                "ejemplo: compmath grade gradescope 323 --visibilidad visible",
            )
    if entregas[0] == grade_lms.GRADESCOPE:
        with guard():
            names = _classes(entregas[1:]) + _classes(clases)
            grade_lms.gradescope_command(names, visibilidad, timeout, root, out, risk_accepted)
        return True
    return False


def _grade(
    folder: Path,
    names: list[str],
    out: Path,
    timeout: float,
    jobs: int | None,
    shard_text: str | None,
    classroom50: bool,
    root: Path | None,
    protection: _Protection,
    private_path: Path | None = None,
    roster_path: Path | None = None,
    deadline_paths: tuple[Path | None, Path | None] = (None, None),
) -> None:
    import compmath.cli.grade_lms as grade_lms
    from compmath.grading import run
    from compmath.grading.names import normalised
    from compmath.grading.protection import probe, refuse_without
    from compmath.grading.shards import parse_shard, write_share

    stack = ExitStack()
    with guard():
        if classroom50:
            from compmath.grading.classroom50 import forget_result

            if not folder.is_dir():
                raise CompmathError(
                    f"«{folder}» no es una carpeta", "dale el repositorio del alumno"
                )
            forget_result(folder)  # first: a result.json the student committed is never the grade
        require_temp_folder()
        course = open_course(root)
        classes = run.graded_classes(course, names)
        private = None
        if private_path is not None:
            from compmath.holes.private import read_private

            private = read_private(private_path, course)
        shard = parse_shard(shard_text) if shard_text else None
        missing = probe()  # before any student's code runs, or any submission is read
        refuse_without(missing, protection.risk_accepted, every=protection.every)
        joined = None
        if classroom50:
            here = folder.resolve()
            student = os.environ.get("GITHUB_REPOSITORY", "").split("/")[-1] or here.name
            if os.environ.get("CLASSROOM"):  # Classroom 50's runner: USERNAME is the owner
                student = os.environ.get("USERNAME", "").strip() or student
            student = normalised(student)
            found: dict[str, Path | None] = {student: here}
            students, ignored, roster = found, list[str](), [student]
        else:
            graded, lms_ignored, joined, scratch = grade_lms.read_students(
                folder, classes, roster_path
            )
            if scratch is not None:
                stack.enter_context(scratch)
            students, ignored, roster = run.select_students(
                folder, shard, out, (graded, lms_ignored)
            )
        identities = joined.identities if joined is not None else {}
        lateness = _lateness(course, (students, roster), folder, identities, deadline_paths)
    with stack:
        outcome = _grade_all(
            students,
            out,
            classes,
            timeout,
            jobs,
            (folder, private_path, private),
            missing,
            lateness,
        )
    outcome.ignored = ignored
    with guard():
        share = write_share(out, shard, roster)
        if share is not None:
            outcome.written.append(share)
        if joined is not None:
            from compmath.grading.roster import write_identities

            identities = {s: joined.identities[s] for s in students}
            outcome.written.append(write_identities(out, identities))
            grade_lms.say_unknown(joined)
    _say_what_was_missing(outcome.missing)
    if classroom50:
        from compmath.grading.classroom50 import write_result

        with guard():
            write_result(folder.resolve(), outcome.book, outcome.missing)
    from compmath.grading.grade_screen import summary_blocks
    from compmath.present.output import emit

    emit(summary_blocks(outcome, shard), sys.stderr if classroom50 else sys.stdout)


def _lateness(
    course: Course,
    who: tuple[dict[str, Path | None], list[str]],
    folder: Path,
    identities: dict[str, Identity],
    paths: tuple[Path | None, Path | None],
) -> dict[str, Lateness] | None:
    """Each student's lateness under curso.toml's [entrega] (None without it): the times
    from `--entregado-en`, the LMS, git; the extensions from `--prorrogas` or [entrega].
    `who`: the students graded here, and every student of the submissions (all the shards')."""
    students, everyone = who
    from compmath.grading.deadline import UNKNOWN, policy_of
    from compmath.grading.delivered import lateness_of, read_extensions, read_given

    given_path, extensions_path = paths
    policy = policy_of(course.meta.delivery)
    if policy is None:
        if given_path or extensions_path:
            raise CompmathError(
                "--entregado-en y --prorrogas necesitan el plazo: [entrega] en curso.toml",
                "añade [entrega] con fecha = 2026-12-15T23:59:00+01:00 (y el descuento)",
            )
        return None
    if extensions_path is None and policy.extensions:
        extensions_path = course.root / policy.extensions
    given = read_given(given_path, policy.zone) if given_path else {}
    extensions = read_extensions(extensions_path, policy) if extensions_path else {}
    lateness = lateness_of(policy, students, folder, identities, given, extensions)
    unknown = sorted(s for s, late in lateness.items() if late.state == UNKNOWN)
    if unknown:
        _warn(
            f"No consta cuándo entregaron {len(unknown)} alumno(s) ({_some(unknown)}): no se les "
            "aplica descuento. Las fechas de los archivos que empaqueta el alumno no cuentan; "
            "da la lista del LMS con --entregado-en."
        )
    strangers = sorted(set(extensions) - set(everyone))
    if strangers:
        _warn(
            f"La lista de prórrogas nombra a {len(strangers)} alumno(s) que no están entre las "
            f"entregas ({_some(strangers)}): ¿es su id del LMS?"
        )
    return lateness


def _some(names: list[str]) -> str:
    more = f" y {len(names) - 10} más" if len(names) > 10 else ""
    return ", ".join(names[:10]) + more


def _warn(text: str) -> None:
    from compmath.present.layout import para
    from compmath.present.output import emit

    emit([para((text, "yellow"), hang=2)], sys.stderr)


def _grade_all(
    students: dict[str, Path | None],
    out: Path,
    classes: list[ClassInfo],
    timeout: float,
    jobs: int | None,
    sources: tuple[Path, Path | None, PrivateVariants | None],
    missing: tuple[str, ...],
    lateness: dict[str, Lateness] | None = None,
) -> GradingRun:
    from compmath.grading import run

    folder, private_path, private = sources

    return _with_progress(
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
            lateness=lateness,
        )
    )


def _say_what_was_missing(missing: list[str]) -> None:
    """On stderr: the protections the students' labs ran without (docs/integridad.md)."""
    from compmath.execution.facilities import notice

    text = notice(missing)
    if text:
        from compmath.present.layout import para
        from compmath.present.output import emit

        emit([para((text, "yellow"), hang=2)], sys.stderr)


def _with_progress(
    grading: Callable[[Callable[[list[str]], None], Callable[[str], None]], GradingRun],
) -> GradingRun:
    """Run a grading with a live bar on a terminal's stderr: students judged of those to judge,
    and who is being graded now."""
    from compmath.cli.interrupt import activity
    from compmath.grading.grade_screen import grading_now
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
        kept = "quedó corregida y guardada" if counts[0] == 1 else "quedaron corregidas y guardadas"
        doing.note = (
            f"{counts[0]} de {count(counts[1], 'entrega', 'entregas')} {kept}; "
            "al relanzarla no se repiten"
        )
        if student in pending:
            pending.remove(student)
        if advance:
            advance[0](grading_now(pending))  # who is awaited, not who is done

    with activity("la corrección", "ninguna entrega llegó a corregirse") as doing, stack, guard():
        return grading(started, landed)


def _merge(folders: list[Path], out: Path) -> None:
    from compmath.grading.grade_screen import merged_blocks
    from compmath.grading.gradebook import merge, read_report, write_gradebook
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
        book, written = write_gradebook(out, book)
        from compmath.grading.roster import read_identities, write_identities
        from compmath.grading.similarity import merge_holes

        holes = merge_holes(folders, out)  # for grade similitud
        if holes is not None:
            written.append(holes)
        identities = {k: v for folder in folders for k, v in read_identities(folder).items()}
        if identities:
            written.append(write_identities(out, identities))
    emit(merged_blocks(book, len(folders), written))
