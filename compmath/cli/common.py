"""What every command shares: the app, its options, exit codes, the error guard, the course."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from compmath.cli.completion import complete_class
from compmath.cli.guard import guard
from compmath.cli.spanish import SpanishCommand, SpanishGroup
from compmath.course.tree import ClassInfo, Course, find_root, load_course
from compmath.errors import CompmathError, ExitCode
from compmath.execution.protocol import DEFAULT_MEMORY, DEFAULT_TIMEOUT
from compmath.present.run_screen import Header
from compmath.wording import measure

app = typer.Typer(
    name="compmath",
    cls=SpanishGroup,
    help="Ejecuta los laboratorios del curso de matemática computacional.",
    add_completion=False,  # cli/toplevel.py adds Spanish --install-completion/--show-completion
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
command = partial(app.command, cls=SpanishCommand)  # every command's help is Spanish too

ClassArgument = Annotated[
    str,
    typer.Argument(metavar="CLASE", help="Número, id, slug o ruta.", autocompletion=complete_class),
]
ClassesArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[CLASE]...", help="Clases (por defecto: todas).", autocompletion=complete_class
    ),
]
NamedClassesArgument = Annotated[  # update: no default, the classes are named or --all
    list[str] | None,
    typer.Argument(
        metavar="[CLASE]...", help="Clases (o --all para todas).", autocompletion=complete_class
    ),
]
RootOption = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Raíz del curso (por defecto: COMPMATH_ROOT o la carpeta con classes/).",
        show_default=False,
    ),
]
TIMEOUT_RANGE = (0.1, 86400.0)  # seconds: a tenth of a second to a day
MEMORY_RANGE = (0.1, 1024.0)  # GiB of address space


def span(low: float, high: float, unit: str) -> str:
    """`de 0,1 a 86400 s`: an allowed range as help texts and errors say it."""
    return f"de {measure(low)} a {measure(high)} {unit}"


def bounded(low: float, high: float, unit: str) -> Callable[[float], float]:
    """A parser check: the value must be a finite number from `low` to `high` (`unit`)."""

    def check(value: float) -> float:
        if not (math.isfinite(value) and low <= value <= high):
            raise typer.BadParameter(
                f"{value:g} (debe ser un número finito {span(low, high, unit)})"
            )
        return value

    return check


TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        callback=bounded(*TIMEOUT_RANGE, "s"),
        metavar="SEGUNDOS",
        help=f"Segundos máximos por laboratorio, {span(*TIMEOUT_RANGE, 's')}",
    ),
]
MemoryOption = Annotated[
    float,
    typer.Option(
        "--memory",
        callback=bounded(*MEMORY_RANGE, "GiB"),
        metavar="GIB",
        help="Límite de memoria (espacio de direcciones) por laboratorio, "
        f"{span(*MEMORY_RANGE, 'GiB')}",
    ),
]


def _plain(value: bool) -> bool:
    """`--plain`: colour off for this command, decided where every colour decision is."""
    if value:
        from compmath.present.output import choose_colour

        choose_colour(False)
    return value


PlainOption = Annotated[
    bool,
    typer.Option(
        "--plain",
        callback=_plain,
        help="Texto plano: sin color ni gráficos, también en un terminal.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Imprime el informe en JSON.")]
JOBS = typer.Option(
    "--jobs",
    "-j",
    min=1,
    metavar="N",
    show_default="uno por núcleo",
    help="Laboratorios en paralelo.",
)
JobsOption = Annotated[int, JOBS]
CORES = os.cpu_count() or 1  # the default of --jobs
DEFAULT_MEMORY_GIB = DEFAULT_MEMORY / 1024**3
__all__ = ["DEFAULT_MEMORY_GIB", "DEFAULT_TIMEOUT", "ExitCode", "guard"]


def in_ci() -> bool:
    """True when the CI variable is set to anything but an explicit false."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def open_course(root: Path | None, command: str | None = None) -> Course:
    """The course at --root (or found from here). `command`: the command that was run, for the
    hint when there is no course (by default the running click command: `compmath grade`)."""
    if command is None:
        from compmath.cli.clicklib import get_current_context

        ctx = get_current_context(silent=True)
        command = ctx.command_path if ctx is not None else "compmath list"
    return load_course(find_root(str(root) if root else None, command))


def require_temp_folder() -> None:
    """Refuse to run labs when the temporary folder (TMPDIR) cannot hold their files."""
    folder = os.environ.get("TMPDIR") or "/tmp"
    if os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
        return
    other = "/var/tmp" if folder == "/tmp" else "/tmp"
    hint = f"usa otra: export TMPDIR={other}"
    if not os.path.exists(folder):
        problem, hint = "no existe", f"créala (mkdir -p {folder}) o {hint}"
    elif not os.path.isdir(folder):
        problem = "no es una carpeta"
    else:
        problem = "no admite escritura"
    raise CompmathError(
        f"la carpeta temporal {folder} (TMPDIR) {problem}: ahí dejan los laboratorios sus "
        "resultados",
        hint,
    )


def header_for(cls: ClassInfo) -> Header:
    """The header of a class's screens, from the course model (never fails on broken files)."""
    k, n = cls.part.position(cls.number)
    try:
        level, duration = cls.meta.level, cls.meta.duration
    except CompmathError:
        level = duration = ""
    try:
        level, duration = level or cls.part.meta.level, duration or cls.part.meta.duration
    except CompmathError:
        pass
    return Header(cls.number, cls.title, cls.part.number, level, k, n, duration)
