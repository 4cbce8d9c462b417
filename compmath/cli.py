"""The command line: parse arguments, call the library, print, choose the exit code."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from compmath.course import ClassInfo, Course, find_root, load_course, position_in_part
from compmath.errors import CompmathError
from compmath.execute import DEFAULT_MEMORY, DEFAULT_TIMEOUT, LabRequest, run_labs, run_one
from compmath.params import ParamError
from compmath.report import LabReport
from compmath.runner import build_request, evaluate

app = typer.Typer(
    name="compmath",
    help="Ejecuta los laboratorios del curso de matemática computacional.",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

RootOption = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Raíz del curso (por defecto COMPMATH_ROOT o la carpeta con classes/).",
        show_default=False,
    ),
]
TimeoutOption = Annotated[
    float, typer.Option("--timeout", min=0.1, help="Segundos máximos por laboratorio.")
]
MemoryOption = Annotated[
    float,
    typer.Option(
        "--memory",
        min=0.1,
        help="Límite de memoria (espacio de direcciones) por laboratorio, en GiB.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Imprime el informe en JSON.")]


def in_ci() -> bool:
    """True when the CI variable is set to anything but an explicit false."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@contextmanager
def guard() -> Iterator[None]:
    """Turn library errors into `error: ...` plus a hint, exit code 2, no traceback."""
    try:
        yield
    except (CompmathError, ParamError) as exc:
        from compmath.render import render_error

        message = exc.message if isinstance(exc, CompmathError) else str(exc)
        suggestions = exc.suggestions if isinstance(exc, CompmathError) else None
        render_error(message, exc.hint, suggestions)
        raise typer.Exit(2) from None


def open_course(root: Path | None) -> Course:
    return load_course(find_root(str(root) if root else None))


def header_info(course: Course, cls: ClassInfo) -> dict[str, Any]:
    k, n = position_in_part(cls)
    meta, part_meta = cls.meta, cls.part.meta
    return {
        "numero": cls.number,
        "titulo": cls.title,
        "parte": cls.part.number,
        "nivel": meta.get("nivel", part_meta.get("nivel")),
        "k": k,
        "n": n,
        "duracion": meta.get("duracion", part_meta.get("duracion")),
    }


def styled_terminal() -> bool:
    """True when stdout is a colour terminal: the only case that needs Rich."""
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def screen_width() -> int:
    return shutil.get_terminal_size((100, 24)).columns


def emit(lines: list[Any]) -> None:
    """Print screen lines: styled through Rich on a colour terminal, plain text otherwise."""
    if styled_terminal():
        from compmath.render import make_console, print_lines

        print_lines(make_console(), lines)
    else:
        from compmath.screen import write_plain

        write_plain(lines, sys.stdout)


def preload_judging(as_json: bool, cls: ClassInfo | None = None) -> None:
    """While a lab runs: import the renderer and read the metadata judging will need."""
    if not as_json and styled_terminal():
        import compmath.render  # noqa: F401
    if cls is not None:
        try:  # parsed once, cached on the objects
            _ = cls.meta, cls.part.meta
        except CompmathError:
            pass  # reported by evaluate() with the right outcome


def report_document(reports: list[LabReport], elapsed: float) -> str:
    """The JSON of `run --json` and `check --json` (schemas/report.schema.json)."""
    from compmath.encode import dumps

    passed = sum(r.passed for r in reports)
    return dumps(
        {
            "version": 1,
            "resumen": {
                "total": len(reports),
                "correctos": passed,
                "fallidos": len(reports) - passed,
                "duracion_s": round(elapsed, 3),
            },
            "clases": [r.to_dict() for r in reports],
        }
    )


def exit_code(reports: list[LabReport]) -> int:
    if any(r.outcome == "configuracion" for r in reports):
        return 2
    return 0 if all(r.passed for r in reports) else 1


def execute(
    course: Course,
    requests: list[tuple[ClassInfo, LabRequest]],
    jobs: int,
    show_progress: bool = False,
    against_snapshot: bool = True,
) -> list[LabReport]:
    """Run the requests on warm workers, judging each reply as it lands; reports in class order."""
    by_key = {request.key: (cls, request) for cls, request in requests}
    reports: dict[str, LabReport] = {}
    advance: Any = None

    def done(request: LabRequest, reply: dict[str, Any]) -> None:
        cls, _ = by_key[request.key]
        reports[request.key] = evaluate(course, cls, request, reply, against_snapshot)
        if advance:
            advance(request.key)

    if show_progress:
        from compmath.render import progress

        with progress(len(requests), True) as advance:
            run_labs([r for _, r in requests], jobs, on_done=done)
    else:
        run_labs(
            [r for _, r in requests], jobs, on_done=done, meanwhile=lambda: preload_judging(False)
        )
    return [reports[key] for key in by_key]


@app.command("list")
def list_classes(
    part: Annotated[int | None, typer.Option("--part", help="Solo esta parte.")] = None,
    root: RootOption = None,
) -> None:
    """Lista las clases por parte: número, título, nivel y duración (sin ejecutar nada)."""
    with guard():
        from compmath.listing import course_rows
        from compmath.screen import list_screen

        course = open_course(root)
        rows = course_rows(course, part)
    emit(list_screen(rows, screen_width()))


@app.command("run")
def run_class(
    name: Annotated[str, typer.Argument(metavar="CLASE", help="Número, id, slug o ruta.")],
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="NOMBRE=VALOR", help="Cambia un parámetro del laboratorio."),
    ] = None,
    as_json: JsonOption = False,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY / 1024**3,
    plain: Annotated[bool, typer.Option("--plain", help="Sin mapas de calor.")] = False,
    root: RootOption = None,
) -> None:
    """Ejecuta un laboratorio, valida su salida y la compara con su instantánea."""
    if assignments is None:
        assignments = []
    with guard():
        course = open_course(root)
        cls = course.resolve(name)
        request = build_request(course, cls, assignments, timeout, int(memory * 1024**3))
        started = time.perf_counter()
        # While the lab runs, load what judging and showing it will need.
        reply = run_one(request, meanwhile=lambda: preload_judging(as_json, cls))
        report = evaluate(course, cls, request, reply)
        elapsed = time.perf_counter() - started
        if report.outcome == "configuracion" and not as_json:
            raise CompmathError(*report.message.split(" · ", 1))
    if as_json:
        sys.stdout.write(report_document([report], elapsed))
    elif styled_terminal():
        from compmath.render import make_console, render_run

        render_run(make_console(), report, header_info(course, cls), heatmaps=not plain)
    else:
        from compmath.screen import run_screen

        top, bottom = run_screen(report, header_info(course, cls), screen_width())
        emit(top + bottom)
    raise typer.Exit(exit_code([report]))


@app.command("check")
def check(
    names: Annotated[
        list[str] | None, typer.Argument(metavar="[CLASE]...", help="Clases (por defecto, todas).")
    ] = None,
    part: Annotated[int | None, typer.Option("--part", help="Solo esta parte.")] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Laboratorios en paralelo.")
    ] = os.cpu_count() or 1,
    as_json: JsonOption = False,
    junit_xml: Annotated[
        Path | None,
        typer.Option("--junit-xml", metavar="ARCHIVO", help="Escribe un informe JUnit XML."),
    ] = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY / 1024**3,
    root: RootOption = None,
) -> None:
    """Ejecuta y comprueba todos los laboratorios elegidos; pensado para CI."""
    with guard():
        course = open_course(root)
        classes = course.select(names or [], part)
        if not classes:
            raise CompmathError("no hay clases que comprobar", "prueba: compmath list")
        requests = []
        for cls in classes:
            requests.append((cls, build_request(course, cls, [], timeout, int(memory * 1024**3))))
        started = time.perf_counter()
        on_terminal = sys.stdout.isatty() and not as_json
        reports = execute(course, requests, jobs, show_progress=on_terminal)
        elapsed = time.perf_counter() - started
        if junit_xml:
            from compmath.junit import write_junit

            write_junit(junit_xml, reports, elapsed)
    if as_json:
        sys.stdout.write(report_document(reports, elapsed))
    else:
        from compmath.screen import check_screen

        emit(check_screen(reports, elapsed, screen_width()))
    raise typer.Exit(exit_code(reports))


@app.command("update")
def update(
    names: Annotated[list[str] | None, typer.Argument(metavar="[CLASE]...")] = None,
    all_classes: Annotated[bool, typer.Option("--all", help="Todas las clases.")] = False,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY / 1024**3,
    root: RootOption = None,
) -> None:
    """Escribe las instantáneas (expected.json) con la salida actual de los laboratorios."""
    from compmath.render import make_console
    from compmath.snapshot import stale_temporaries, write_atomic

    with guard():
        if in_ci():
            raise CompmathError(
                "compmath update no escribe instantáneas con CI definido",
                "ejecútalo en tu máquina y sube el cambio revisado",
            )
        if not names and not all_classes:
            raise CompmathError("indica las clases o --all", "ejemplo: compmath update 323")
        course = open_course(root)
        classes = course.select([] if all_classes else (names or []))
        requests = [
            (cls, build_request(course, cls, [], timeout, int(memory * 1024**3))) for cls in classes
        ]
        reports = execute(course, requests, os.cpu_count() or 1, against_snapshot=False)
    console = make_console()
    failed = 0
    for cls, report in zip(classes, reports):
        for tmp in stale_temporaries(cls.path):
            tmp.unlink(missing_ok=True)
        if report.outcome != "valida":
            failed += 1
            console.print(f"✗ {cls.id}: no se escribe la instantánea: {report.message}")
            continue
        changed = write_atomic(cls.snapshot, report.output_text)
        console.print(f"{'✓ escrita' if changed else '· sin cambios'}: {course.rel(cls.snapshot)}")
    raise typer.Exit(exit_code(reports) if failed else 0)


# Commands that live in their own modules register themselves on `app` when imported.
from compmath import cli_authoring, cli_diff  # noqa: E402,F401
