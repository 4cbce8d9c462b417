"""`compmath diff`: review snapshot changes against a git revision (table, Markdown or JSON)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from compmath.cli.common import ClassesArgument, ExitCode, RootOption, command, guard, open_course
from compmath.errors import CompmathError

FORMATS = ("tabla", "markdown", "json")


@command("diff")
def diff(
    names: ClassesArgument = None,
    base: Annotated[
        str, typer.Option("--base", metavar="REV", help="Revisión de git con la que comparar.")
    ] = "HEAD",
    fmt: Annotated[
        str,
        typer.Option("--format", metavar="FORMATO", help="Formato: tabla, markdown o json."),
    ] = "tabla",
    as_json: Annotated[bool, typer.Option("--json", help="Imprime el resultado en JSON.")] = False,
    every: Annotated[
        bool,
        typer.Option("--all", help="Cada elemento que cambió, no solo el peor de cada salida."),
    ] = False,
    fail_on_change: Annotated[
        bool,
        typer.Option("--fail-on-change", help="Sale con 1 si algún cambio supera la tolerancia."),
    ] = False,
    root: RootOption = None,
) -> None:
    """Compara las instantáneas con las de una revisión de git: qué salidas cambian y cuánto."""
    with guard():
        if fmt not in FORMATS:
            raise CompmathError(
                f"formato desconocido «{fmt}»", "usa --format tabla, --format markdown o --json"
            )
        if as_json and fmt not in ("tabla", "json"):
            raise CompmathError("--json y --format markdown no se combinan", "elige uno de los dos")
        fmt = "json" if as_json else fmt
        from compmath.authoring.snapdiff import diff_snapshots

        result = diff_snapshots(open_course(root), names or [], base)
    if fmt == "json":
        from compmath.base.encode import dumps

        sys.stdout.write(dumps(result.to_dict(elements=every)))
    elif fmt == "markdown":
        from compmath.authoring.diff_screen import markdown

        sys.stdout.write(markdown(result, elements=every))
    else:
        from compmath.authoring.diff_screen import diff_screen
        from compmath.present.output import emit, width_for

        emit(diff_screen(result, width_for(sys.stdout), elements=every))
    raise typer.Exit(ExitCode.FAILED if fail_on_change and result.real else ExitCode.OK)
