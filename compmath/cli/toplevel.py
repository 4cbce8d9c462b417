"""The options of `compmath` itself, before any command: version, colour and shell completion."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from compmath.cli.common import app
from compmath.cli.completion import install_completion, show_completion
from compmath.errors import ExitCode


def _version(ctx: Any, _param: Any, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from compmath import __version__
    from compmath.present.layout import line
    from compmath.present.output import emit

    emit([line(f"compmath {__version__}")])
    raise typer.Exit(ExitCode.OK)


@app.callback()
def toplevel(
    _version_flag: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="Muestra la versión y sale."
        ),
    ] = False,
    colour: Annotated[
        bool | None,
        typer.Option(
            "--color/--no-color",
            help="Con o sin color. Si no la das: color en un terminal, salvo con NO_COLOR; "
            "FORCE_COLOR lo pone también en una tubería.",
            show_default=False,
        ),
    ] = None,
    _install: Annotated[
        bool,
        typer.Option(
            "--install-completion",
            is_eager=True,
            callback=install_completion,
            help="Instala el autocompletado de órdenes, números y nombres de clase en tu shell.",
        ),
    ] = False,
    _show: Annotated[
        bool,
        typer.Option(
            "--show-completion",
            is_eager=True,
            callback=show_completion,
            help="Imprime el guion de autocompletado, para instalarlo a mano.",
        ),
    ] = False,
) -> None:
    """Ejecuta los laboratorios del curso de matemática computacional."""
    from compmath.present.output import choose_colour, printable_streams

    choose_colour(colour)
    printable_streams()  # also for what commands write themselves (JSON, CSV)
