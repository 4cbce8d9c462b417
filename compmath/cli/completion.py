"""Shell completion: install it, print its script, and complete class numbers and slugs.

The shell scripts and their installation are Typer's (bash, zsh, fish, PowerShell); what they
print is ours, in Spanish. The shell calls `compmath` with `_COMPMATH_COMPLETE` set, and
`entry.main` calls `prepare` first so that Typer's completion classes answer it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer

from compmath.errors import ExitCode

PROG = "compmath"
COMPLETE_VAR = "_COMPMATH_COMPLETE"
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def requested() -> bool:
    """Whether this call is the shell asking for completions."""
    return bool(os.environ.get(COMPLETE_VAR))


def prepare() -> None:
    """Register Typer's completion classes (its bash script expects their answers)."""
    from typer._completion_classes import completion_init

    completion_init()


def detect_shell() -> str:
    """The shell this command runs under (its parent process), else $SHELL's name."""
    from typer._completion_shared import _get_shell_name

    return _get_shell_name() or Path(os.environ.get("SHELL", "")).name.lower()


def _shell_or_fail() -> str:
    from compmath.errors import CompmathError

    shell = detect_shell()
    if shell not in SHELLS:
        raise CompmathError(
            f"no sé instalar el autocompletado para la shell «{shell or 'desconocida'}»",
            "funciona con bash, zsh, fish y PowerShell; "
            "compmath --show-completion imprime el guion para instalarlo a mano",
        )
    return shell


def install_completion(ctx: Any, _param: Any, value: bool) -> None:
    """Install completion for the current shell and say where (the --install-completion option)."""
    if not value or ctx.resilient_parsing:
        return
    from compmath.cli.guard import guard
    from compmath.present.layout import Command, line, para
    from compmath.present.output import emit

    with guard():
        from typer._completion_shared import install

        shell, path = install(shell=_shell_or_fail(), prog_name=PROG, complete_var=COMPLETE_VAR)
    emit(
        [
            line(("✓ ", "green"), f"autocompletado de {shell} instalado en {path}"),
            para("abre un terminal nuevo para que se cargue; luego, por ejemplo:"),
            Command("compmath run 32<Tab>"),
        ]
    )
    raise typer.Exit(ExitCode.OK)


def show_completion(ctx: Any, _param: Any, value: bool) -> None:
    """Print the completion script for the current shell (the --show-completion option)."""
    if not value or ctx.resilient_parsing:
        return
    from compmath.cli.guard import guard

    with guard():
        from typer._completion_shared import get_completion_script

        script = get_completion_script(
            prog_name=PROG, complete_var=COMPLETE_VAR, shell=_shell_or_fail()
        )
    typer.echo(script)
    raise typer.Exit(ExitCode.OK)


def complete_class(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Class numbers (or slugs, for letters) that start with what was typed, with their titles."""
    from compmath.course.tree import find_root, load_course
    from compmath.errors import CompmathError

    root = ctx.params.get("root")
    try:
        course = load_course(find_root(str(root) if root else None))
    except CompmathError:
        return []
    found = []
    for cls in course.classes:
        title = cls.part.planned_title(cls.number) or cls.default_title
        if str(cls.number).startswith(incomplete):
            found.append((str(cls.number), title))
        elif incomplete and cls.slug.startswith(incomplete):
            found.append((cls.slug, title))
        elif incomplete and cls.id.startswith(incomplete):
            found.append((cls.id, title))
    return found
