"""`compmath site`: the course as a static website, its numbers verified at build time."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from compmath.cli.common import (
    CORES,
    DEFAULT_MEMORY_GIB,
    DEFAULT_TIMEOUT,
    ExitCode,
    JobsOption,
    MemoryOption,
    RootOption,
    TimeoutOption,
    app,
    guard,
    open_course,
)
from compmath.course.tree import Course
from compmath.errors import CompmathError


def build_once(
    course: Course,
    out: Path,
    jobs: int,
    timeout: float,
    memory: float,
    *,
    allow_stale: bool,
    book: bool = False,
) -> ExitCode:
    """Build the site (with `book`, its pages link the book and its PDF, written next) and print
    what happened; the exit code of the build."""
    from compmath.present.output import emit, is_terminal
    from compmath.site.build import build_site
    from compmath.site.site_screen import site_screen

    limit = int(memory * 1024**3)
    if is_terminal(sys.stderr):
        from compmath.present.output import colour_for, still_running
        from compmath.present.terminal import spinner

        pending = [cls.id for cls in course.classes]
        with spinner(
            sys.stderr, len(course.classes), "laboratorios", colour=colour_for(sys.stderr)
        ) as tick:

            def done(class_id: str) -> None:  # the live line names what it awaits, as check's
                if class_id in pending:
                    pending.remove(class_id)
                tick(still_running(pending))

            result = build_site(
                course, out, jobs, timeout, limit, allow_stale=allow_stale, book=book, on_done=done
            )
    else:
        result = build_site(course, out, jobs, timeout, limit, allow_stale=allow_stale, book=book)
    emit(site_screen(result, course.rel(out)))
    return ExitCode.FAILED if result.stale and not allow_stale else ExitCode.OK


def write_pdf(course: Course, out: Path) -> None:
    """The book of the built site, and its PDF; say where they are."""
    from compmath.present.layout import Command, line
    from compmath.present.output import emit
    from compmath.site.book import print_book

    meta = course.meta
    pdf = print_book(course, out, meta.title, meta.subtitle)
    made = Command(course.rel(pdf), whole=True)
    emit([line(("✓ ", "green"), "el curso como libro:"), made])


@app.command("site")
def site(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="CARPETA",
            help="Dónde escribir la web (por defecto: _site/ en la raíz del curso).",
            show_default=False,
        ),
    ] = None,
    serve: Annotated[
        bool, typer.Option("--serve", help="Sirve la web en 127.0.0.1 y la rehace al cambiar.")
    ] = False,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Puerto de --serve.")
    ] = 8000,
    allow_stale: Annotated[
        bool,
        typer.Option(
            "--allow-stale",
            help="Publica también las clases que no coinciden con su "
            "instantánea, marcadas como no verificadas.",
        ),
    ] = False,
    pdf: Annotated[
        bool,
        typer.Option(
            "--pdf",
            help="Escribe además el curso entero como un libro: libro.html y curso.pdf "
            "(impreso con Chromium, con índice, cabeceras y números de página).",
        ),
    ] = False,
    jobs: JobsOption = CORES,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    memory: MemoryOption = DEFAULT_MEMORY_GIB,
    root: RootOption = None,
) -> None:
    """Escribe la web del curso: cada número verificado al construirla, fórmulas en MathML."""
    with guard():
        course = open_course(root)
        target = (out or course.root / "_site").resolve()
        if target == course.root or (target / "classes").is_dir():
            raise CompmathError(
                f"--out {target} es la raíz de un curso; la web necesita su propia carpeta",
                "prueba: compmath site --out _site",
            )
        if pdf:
            from compmath.site.book import chromium, require_pypdf

            chromium()  # before the build: a missing Chromium or pypdf is said at once
            require_pypdf()

        def build(course: Course) -> ExitCode:
            """The site, and with --pdf its book (its pages link it only then)."""
            code = build_once(
                course, target, jobs, timeout, memory, allow_stale=allow_stale, book=pdf
            )
            if pdf and code == ExitCode.OK:
                try:
                    write_pdf(course, target)
                except CompmathError:
                    # the pages link a book that could not be printed: made again without
                    # the links (the labs' verdicts are cached), and the book's files removed
                    from compmath.site.build import build_site

                    limit = int(memory * 1024**3)
                    build_site(course, target, jobs, timeout, limit, allow_stale=allow_stale)
                    raise
            return code

        code = build(course)
        if not serve or code != ExitCode.OK:
            raise typer.Exit(code)
        from compmath.site.serve import serve_forever

        serve_forever(course.root, target, port, lambda: build(open_course(course.root)))
