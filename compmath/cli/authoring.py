"""Commands for reading and authoring the course: show, init, new, lint."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compmath.cli.common import (
    ClassArgument,
    ExitCode,
    PlainOption,
    RootOption,
    command,
    guard,
    in_ci,
    open_course,
)
from compmath.course.tree import Course
from compmath.errors import CompmathError

if TYPE_CHECKING:
    from compmath.present.layout import Block


@command("show")
def show(
    name: ClassArgument,
    plain: PlainOption = False,
    no_pager: Annotated[
        bool, typer.Option("--no-pager", help="Sin paginador ($PAGER o less) en un terminal.")
    ] = False,
    root: RootOption = None,
) -> None:
    """Muestra la página de una clase: fórmulas, desarrollo, salidas, bibliografía y enlaces."""
    with guard():
        from compmath.present.page import class_page

        course = open_course(root)
        page = class_page(course, course.resolve(name))
    from compmath.present.output import emit
    from compmath.present.output import page as paged
    from compmath.present.page_screen import page_blocks

    (emit if no_pager else paged)(page_blocks(page))


@command("init")
def init(
    folder: Annotated[
        Path, typer.Argument(metavar="CARPETA", help="Dónde crear el curso (vacía o nueva).")
    ],
    title: Annotated[
        str | None,
        typer.Option(
            "--titulo",
            "--title",
            metavar="TÍTULO",
            help="Título del curso (por defecto: el de la carpeta).",
        ),
    ] = None,
    part: Annotated[
        tuple[int, str] | None,
        typer.Option(
            "--parte",
            "--part",
            metavar="N TÍTULO",
            help='Número y título de la primera parte (por defecto: 1 "Primera parte").',
        ),
    ] = None,
    forzar: Annotated[
        bool,
        typer.Option(
            "--forzar", help="Escribe también en una carpeta no vacía (nunca sobrescribe)."
        ),
    ] = False,
) -> None:
    """Crea un curso listo para usar: curso.toml, una clase de ejemplo, README y workflows."""
    with guard():
        from compmath.authoring.init import init_course

        if in_ci():
            raise CompmathError(
                "compmath init no escribe instantáneas con CI definido",
                "ejecútalo en tu máquina y sube el curso nuevo",
            )
        created = init_course(folder, title, part, forzar=forzar)
    from compmath.present.layout import Command, para
    from compmath.present.output import emit

    root = created[0].parent
    number = created[-1].parent.name[:3]
    shown = [str(p.relative_to(root)) for p in created]
    emit(
        [
            *(para(("✓ ", "green"), name, hang=2) for name in shown),
            para("siguiente: entra en el curso y pruébalo; luego añade tus clases:"),
            Command(f"cd {root}"),
            Command(f"compmath run {number}"),
            Command("compmath lint"),
            Command(f'compmath new {int(number) + 1} mi-clase --title "Mi clase"'),
        ]
    )


@command("new")
def new(
    number: Annotated[str, typer.Argument(metavar="NUMERO", help="Tres cifras, p. ej. 341.")],
    slug: Annotated[str, typer.Argument(metavar="SLUG", help="Minúsculas, cifras y guiones.")],
    title: Annotated[str, typer.Option("--title", metavar="TÍTULO", help="Título de la clase.")],
    part: Annotated[
        int | None, typer.Option("--part", metavar="N", help="Parte a la que pertenece.")
    ] = None,
    root: RootOption = None,
) -> None:
    """Crea una clase (lab.py, class.toml, README.md y esquema) y la añade al plan de su parte."""
    with guard():
        from compmath.authoring.scaffold import scaffold_class

        if in_ci():
            raise CompmathError(
                "compmath new no escribe en el repositorio con CI definido",
                "ejecútalo en tu máquina y sube la clase nueva",
            )
        course = open_course(root)
        created = scaffold_class(course, number, slug, title, part)
    from compmath.present.layout import Command, para
    from compmath.present.output import emit

    folders: dict[str, list[str]] = {}  # files of one folder named once: its path, then them
    for path in created:
        folders.setdefault(course.rel(path.parent), []).append(path.name)
    emit(
        [
            *(
                para(
                    ("✓ ", "green"),
                    f"{folder}/{names[0]}" if len(names) == 1 else f"{folder}/: {', '.join(names)}",
                    hang=2,
                )
                for folder, names in folders.items()
            ),
            para("siguiente: escribe lab.py, class.toml y README.md; luego:"),
            Command(f"compmath update {number}"),
            Command(f"compmath run {number}"),
            Command("compmath lint"),
            para("(lint señala lo que queda por escribir)"),
            *_notebooks_to_redo(course),
        ]
    )


def _notebooks_to_redo(course: Course) -> list[Block]:
    """The notebooks the course has committed link to their neighbours («siguiente»): a new
    class makes its neighbours' stale, so `new` says how to regenerate them."""
    from compmath.notebook.build import FOLDER, PRACTICE_FOLDER
    from compmath.present.layout import Command, para

    folder = course.root / FOLDER
    if not any(folder.glob("*.ipynb")):
        return []
    practice = any((folder / PRACTICE_FOLDER).glob("*.ipynb"))
    return [
        para("los cuadernos de las clases vecinas enlazan a la nueva: regenéralos y súbelos:"),
        Command("compmath notebook --all"),
        *([Command("compmath notebook --all --practice")] if practice else []),
    ]


def _uncovered(course: Course, private: Path | None) -> list[int] | None:
    """The classes with holes no private variant covers (None: no private file); [] when the
    file cannot be read (lint lists why)."""
    if private is None:
        return None
    from compmath.authoring.lookup_check import uncovered
    from compmath.holes.private import private_problems

    found, problems = private_problems(private, course)
    return [] if problems else [c.number for c in uncovered(course, found.by_class)]


@command("lint")
def lint(
    no_run: Annotated[
        bool,
        typer.Option(
            "--no-run", help="Sin ejecutar laboratorios (omite los ejercicios de práctica)."
        ),
    ] = False,
    private: Annotated[
        Path | None,
        typer.Option(
            "--variantes-privadas",
            metavar="RUTA",
            help="Comprueba también tu archivo de variantes privadas (el de compmath grade).",
        ),
    ] = None,
    mutantes: Annotated[
        bool,
        typer.Option(
            "--mutantes",
            help="Lista por hueco los mutantes estándar que ninguna variante rechaza, con su "
            "cambio, y da por problema un hueco por debajo del 90 %.",
        ),
    ] = False,
    root: RootOption = None,
) -> None:
    """Comprueba la integridad del curso: archivos, metadatos, esquemas, plan, DOI y ejercicios."""
    with guard():
        import os

        from compmath.authoring.lint import lint_findings
        from compmath.cli.interrupt import activity

        course = open_course(root)
        with activity("la comprobación del curso", "no se escribió nada"):
            problems, scores = lint_findings(
                course,
                run_labs=not no_run,
                jobs=os.cpu_count() or 1,
                mutants=mutantes,
                private=private,
            )
    from compmath.present.output import emit
    from compmath.present.screens import lint_screen

    shown = []
    if mutantes:
        from compmath.authoring.mutant_check import SCORE_GOAL
        from compmath.authoring.mutant_screen import lookup_note, mutants_screen

        shown = mutants_screen(scores, SCORE_GOAL) + lookup_note(_uncovered(course, private))
    emit(shown + lint_screen(problems, len(course.classes)))
    raise typer.Exit(ExitCode.FAILED if problems else ExitCode.OK)
