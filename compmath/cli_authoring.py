"""Commands for reading and authoring the course: show, new, lint."""

from __future__ import annotations

from typing import Annotated

import typer

from compmath.cli import RootOption, app, guard, in_ci, open_course
from compmath.errors import CompmathError


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(metavar="CLASE", help="Número, id, slug o ruta.")],
    root: RootOption = None,
) -> None:
    """Muestra la página de una clase: fórmulas, desarrollo, salidas, bibliografía y enlaces."""
    with guard():
        from compmath.page import class_page

        course = open_course(root)
        cls = course.resolve(name)
        markdown = class_page(course, cls)
    from compmath.render import make_console, render_page

    render_page(make_console(), markdown)


@app.command("new")
def new(
    number: Annotated[str, typer.Argument(metavar="NUMERO", help="Tres cifras, p. ej. 341.")],
    slug: Annotated[str, typer.Argument(metavar="SLUG", help="Minúsculas, cifras y guiones.")],
    title: Annotated[str, typer.Option("--title", help="Título de la clase.")],
    part: Annotated[int | None, typer.Option("--part", help="Parte a la que pertenece.")] = None,
    root: RootOption = None,
) -> None:
    """Crea una clase (lab.py, class.toml, README.md y esquema) y la añade al plan de su parte."""
    with guard():
        from compmath.scaffold import scaffold_class

        if in_ci():
            raise CompmathError(
                "compmath new no escribe en el repositorio con CI definido",
                "ejecútalo en tu máquina y sube la clase nueva",
            )
        course = open_course(root)
        created = scaffold_class(course, number, slug, title, part)
    from compmath.render import make_console

    console = make_console()
    for path in created:
        console.print(f"✓ {course.rel(path)}")
    console.print(
        f"siguiente: escribe el laboratorio y luego compmath update {number}; "
        "compmath lint comprueba el curso",
        soft_wrap=True,
    )


@app.command("lint")
def lint(root: RootOption = None) -> None:
    """Comprueba la integridad del curso: archivos, metadatos, esquemas, plan, números y DOI."""
    with guard():
        from compmath.lint import lint_course

        course = open_course(root)
        problems = lint_course(course)
    from compmath.render import make_console, render_lint

    render_lint(make_console(), problems, len(course.classes))
    raise typer.Exit(1 if problems else 0)
