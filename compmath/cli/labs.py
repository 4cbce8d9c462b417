"""The commands that run labs (`run`, `check`, `update`) and the index (`list`)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from compmath.cli.common import (
    CORES,
    DEFAULT_MEMORY_GIB,
    DEFAULT_TIMEOUT,
    ClassArgument,
    ClassesArgument,
    ExitCode,
    JobsOption,
    JsonOption,
    MemoryOption,
    NamedClassesArgument,
    PlainOption,
    RootOption,
    TimeoutOption,
    command,
    guard,
    header_for,
    in_ci,
    open_course,
    require_temp_folder,
)
from compmath.cli.interrupt import activity
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.judging.case import Broken, Case, parse_params, prepare
from compmath.judging.judge import setup_report
from compmath.judging.pipeline import Interrupted, judge_cases
from compmath.judging.report import LabReport, Outcome
from compmath.present.output import waiting
from compmath.wording import count


def preload(*, screens: bool) -> None:
    """While labs run: import what judging them and (with `screens`) showing them will need."""
    import compmath.base.validate

    if screens:
        import compmath.present.screens  # noqa: F401


def _say_what_was_missing(missing: tuple[str, ...]) -> None:
    """Once per command, on stderr: the protections the labs ran without (docs/integridad.md)."""
    from compmath.execution.facilities import notice

    text = notice(missing)
    if text:
        from compmath.present.layout import para
        from compmath.present.output import emit

        emit([para((text, "yellow"), hang=2)], sys.stderr)


def exit_code(reports: list[LabReport]) -> ExitCode:
    if any(r.outcome == Outcome.SETUP for r in reports):
        return ExitCode.USAGE
    return ExitCode.OK if all(r.passed for r in reports) else ExitCode.FAILED


@command("list")
def list_classes(
    part: Annotated[
        int | None, typer.Option("--part", metavar="N", help="Solo esta parte.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Imprime el índice en JSON.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Por qué está rota cada clase rota.")
    ] = False,
    root: RootOption = None,
) -> None:
    """Lista las clases por parte: número, título, nivel y duración (sin ejecutar nada)."""
    with guard():
        from compmath.course.index import course_index

        index = course_index(open_course(root), part)
    if as_json:
        from compmath.base.encode import dumps

        sys.stdout.write(dumps({"version": 1, "partes": [p.to_dict() for p in index]}))
        return
    from compmath.present.output import emit
    from compmath.present.screens import list_screen

    emit(list_screen(index, verbose))


@command("run")
def run_class(
    name: ClassArgument,
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="NOMBRE=VALOR", help="Cambia un parámetro del laboratorio."),
    ] = None,
    as_json: JsonOption = False,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY_GIB,
    plain: PlainOption = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Todas las diferencias y cada valor entero.")
    ] = False,
    root: RootOption = None,
) -> None:
    """Ejecuta un laboratorio, valida su salida y la compara con su instantánea."""
    with guard():
        course = open_course(root)
        cls = course.resolve(name)
        params = parse_params(course, cls, assignments or [])
        require_temp_folder()
        case = prepare(course, cls, params, timeout=timeout, memory=int(memory * 1024**3))
        if isinstance(case, Broken) and not as_json:
            raise case.problem
        started = time.perf_counter()
        missing: tuple[str, ...] = ()
        if isinstance(case, Broken):
            report = setup_report(case)
        else:
            what = f"el laboratorio {cls.number}, «{cls.title}»"
            with (
                activity(what, "no se escribió nada"),
                waiting(what, live=not as_json),
                judge_cases([case]) as judging,
            ):
                judging.start()  # while the lab runs, load what judging and showing it need
                preload(screens=not as_json)
                judged = judging.result()
            report, missing = judged.reports[0], judged.missing
            _say_what_was_missing(missing)
        elapsed = time.perf_counter() - started
        if report.outcome == Outcome.SETUP and not as_json:
            raise CompmathError(report.message, report.hint or report.remedy)
    if as_json:
        from compmath.present.reports import report_document

        sys.stdout.write(report_document([report], elapsed, missing))
        raise typer.Exit(exit_code([report]))
    from compmath.present.output import emit, width_for
    from compmath.present.run_screen import run_screen

    files = (course.rel(cls.schema_path), course.rel(cls.meta_path))
    screen = run_screen(
        report,
        header_for(cls),
        width_for(sys.stdout),
        files=files,
        charts=not plain,
        verbose=verbose,
        root=str(course.root),
        statements=statements_of(cls),
    )
    emit(screen)
    raise typer.Exit(exit_code([report]))


def statements_of(cls: ClassInfo) -> dict[str, str]:
    """Each output's description in class.toml (none when it cannot be read: run still runs)."""
    try:
        return {o.name: o.description for o in cls.meta.outputs}
    except CompmathError:
        return {}


def _cases(
    course: Course,
    classes: list[ClassInfo],
    timeout: float,
    memory: float,
    *,
    record: bool = False,
) -> list[Case]:
    memory_bytes = int(memory * 1024**3)
    return [
        prepare(course, cls, timeout=timeout, memory=memory_bytes, record=record) for cls in classes
    ]


@command("check")
def check(
    names: ClassesArgument = None,
    part: Annotated[
        int | None, typer.Option("--part", metavar="N", help="Solo esta parte.")
    ] = None,
    jobs: JobsOption = CORES,
    as_json: JsonOption = False,
    junit_xml: Annotated[
        str | None,
        typer.Option("--junit-xml", metavar="ARCHIVO", help="Escribe un informe JUnit XML."),
    ] = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY_GIB,
    plain: PlainOption = False,
    root: RootOption = None,
) -> None:
    """Ejecuta y comprueba todos los laboratorios elegidos; pensado para CI."""
    from compmath.present.output import is_terminal

    with guard():
        course = open_course(root)
        classes = course.select(names or [], part)
        if not classes:
            raise CompmathError("no hay clases que comprobar", "prueba: compmath list")
        require_temp_folder()
        cases = _cases(course, classes, timeout, memory)
        started = time.perf_counter()
        runnable = sum(not isinstance(c, Broken) for c in cases)
        live = is_terminal(sys.stderr) and not as_json  # a spinner, and a count for Ctrl-C
        what = f"la comprobación de {count(len(cases), 'clase', 'clases')}"
        with activity(what, "no se escribió nada", runnable if live else 0) as doing:
            try:
                if live:
                    from compmath.present.output import colour_for, still_running
                    from compmath.present.terminal import spinner

                    colour = colour_for(sys.stderr)
                    pending = [c.key for c in cases if not isinstance(c, Broken)]
                    with (
                        spinner(sys.stderr, runnable, "laboratorios", colour=colour) as advance,
                        judge_cases(cases, jobs=jobs) as judging,
                    ):
                        for case, _report in judging:
                            if not isinstance(case, Broken):
                                if case.key in pending:
                                    pending.remove(case.key)
                                advance(still_running(pending))  # what is awaited, not done
                                doing.advance()
                        judged = judging.result()
                else:
                    judged = judge_cases(cases, jobs=jobs).result()
            except Interrupted as stop:
                # what was judged is shown, then Ctrl-C goes on to say what was left
                _summary(stop.reports, time.perf_counter() - started, (), as_json=as_json)
                doing.labs, doing.ended = stop.total, len(stop.reports)
                if stop.reports:  # with none judged, no summary was shown above
                    doing.note = "arriba, el resumen de lo ya juzgado; no se escribió nada"
                raise
        elapsed = time.perf_counter() - started
        reports = judged.reports
        _say_what_was_missing(judged.missing)
    _summary(reports, elapsed, judged.missing, as_json=as_json)
    if junit_xml is not None:  # after the summary: a report that cannot be written loses nothing
        with guard():
            _write_report(junit_xml, reports, elapsed, judged.missing)
    raise typer.Exit(exit_code(reports))


def _summary(
    reports: list[LabReport], elapsed: float, missing: tuple[str, ...], *, as_json: bool
) -> None:
    """`check`'s report: the JSON document or the summary screen (of what was judged)."""
    if as_json:
        from compmath.present.reports import report_document

        sys.stdout.write(report_document(reports, elapsed, missing))
    elif reports:
        from compmath.present.output import emit
        from compmath.present.screens import check_screen

        emit(check_screen(reports, elapsed))


def _write_report(
    path: str, reports: list[LabReport], elapsed: float, missing: tuple[str, ...]
) -> None:
    from compmath.atomic import WriteError
    from compmath.present.junit import write_junit

    example = "compmath check --junit-xml informe-labs.xml"
    if not path.strip():
        raise CompmathError("--junit-xml recibió una ruta vacía", f"nombra un archivo: {example}")
    try:
        write_junit(Path(path), reports, elapsed, missing)
    except WriteError as exc:
        raise CompmathError(
            f"no se puede escribir el informe JUnit en {path}: {exc.reason}",
            f"elige otra ruta: {example}",
        ) from None


@command("update")
def update(
    names: NamedClassesArgument = None,
    all_classes: Annotated[bool, typer.Option("--all", help="Todas las clases.")] = False,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY_GIB,
    root: RootOption = None,
) -> None:
    """Escribe las instantáneas (expected.json) con la salida actual de los laboratorios."""
    from compmath.atomic import WriteError, remove_stale_temporaries, write_atomic
    from compmath.present.output import emit, emit_error
    from compmath.present.screens import update_line

    with guard():
        if in_ci():
            raise CompmathError(
                "compmath update no escribe instantáneas con CI definido",
                "ejecútalo en tu máquina y sube el cambio revisado",
            )
        if not names and not all_classes:
            raise CompmathError(
                "indica las clases o --all", "ejemplo: compmath update NUMERO (o --all)"
            )
        course = open_course(root)
        classes = course.select([] if all_classes else (names or []))
        require_temp_folder()
        cases = _cases(course, classes, timeout, memory, record=True)
        what = f"la ejecución de {count(len(cases), 'laboratorio', 'laboratorios')}"
        with activity(what, "aún no se escribió ninguna instantánea"):
            judged = judge_cases(cases, jobs=os.cpu_count() or 1).result()
        reports = judged.reports
        _say_what_was_missing(judged.missing)
    failed: list[LabReport] = []
    unwritten: dict[int, str] = {}  # class number -> which snapshot could not be written, why
    for cls, report in zip(classes, reports):
        shown = course.rel(cls.snapshot)
        remove_stale_temporaries(cls.path)
        if report.outcome != Outcome.VALID:
            failed.append(report)
            emit([update_line(shown, None, report.full_message)])
            continue
        try:
            emit([update_line(shown, write_atomic(cls.snapshot, report.output_text))])
        except WriteError as exc:
            emit([update_line(shown, None, exc.reason)])
            unwritten[cls.number] = f"{shown}: {exc.reason}"
    if unwritten:
        what = (
            f"no se puede escribir {next(iter(unwritten.values()))}"
            if len(unwritten) == 1
            else f"{len(unwritten)} instantáneas sin escribir (arriba, por qué)"
        )
        again = " ".join(map(str, unwritten))
        emit_error(what, f"haz que se pueda escribir ahí y repite: compmath update {again}")
        raise typer.Exit(ExitCode.USAGE)
    if failed:  # as check ends: the command that shows why, with its differences and trace
        from compmath.present.layout import line

        emit([line("siguiente: ", (f"compmath run {failed[0].number}", "bold"))])
    raise typer.Exit(exit_code(failed) if failed else ExitCode.OK)
