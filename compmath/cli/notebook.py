"""`compmath notebook`: write each class as a Jupyter notebook, or check the written ones."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from compmath.cli.common import ExitCode, RootOption, app, guard, in_ci, open_course
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError, os_reason
from compmath.present.layout import Block, Command, line, para


class State(StrEnum):
    """What happened to one notebook (the word is what the screen says)."""

    WRITTEN = "escrito"
    UNCHANGED = "sin cambios"
    CURRENT = "al día"
    STALE = "no está al día"
    MISSING = "falta"
    BROKEN = "no se puede generar"


MARKS = {
    State.WRITTEN: ("✓", "green"),
    State.UNCHANGED: ("·", "dim"),
    State.CURRENT: ("·", "dim"),
    State.STALE: ("✗", "red"),
    State.MISSING: ("✗", "red"),
    State.BROKEN: ("✗", "red"),
}


def _state_line(state: State, shown: str, problem: CompmathError | None = None) -> list[Block]:
    mark, style = MARKS[state]
    if problem is None:
        return [para((f"{mark} {state}: {shown}", style), hang=4)]
    blocks: list[Block] = [para((f"{mark} {state}: {shown}: {problem.message}", style), hang=4)]
    return blocks + ([para(problem.hint, indent=2, hang=2)] if problem.hint else [])


def _one(
    course: Course,
    cls: ClassInfo,
    target: Path,
    *,
    practice: bool,
    check: bool,
    neighbours: frozenset[str],
) -> State:
    """Write (or, with `check`, compare) one notebook; raise CompmathError if it cannot be built."""
    from compmath.atomic import write_atomic
    from compmath.notebook.build import notebook_bytes
    from compmath.notebook.freshness import up_to_date

    data = notebook_bytes(course, cls, practice=practice, neighbours=neighbours)
    # one that differs only by the float noise of another processor is left as it is
    kept = target.is_file() and up_to_date(target.read_bytes(), data)
    if not check and kept:
        return State.UNCHANGED
    if not check:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CompmathError(
                f"no se puede crear la carpeta {target.parent}: {os_reason(exc)}",
                "elige otra con --out CARPETA",
            ) from None
        return State.WRITTEN if write_atomic(target, data.decode("utf-8")) else State.UNCHANGED
    if not target.is_file():
        return State.MISSING
    return State.CURRENT if kept else State.STALE


def _next_steps(
    course: Course, classes: list[ClassInfo], *, practice: bool, stale: bool
) -> list[Block]:
    from compmath.notebook.build import colab_url, notebook_path

    if stale:
        flag = " --practice" if practice else ""
        return [line("regenéralos y sube el cambio:"), Command(f"compmath notebook --all{flag}")]
    url = (
        colab_url(course, notebook_path(classes[0], practice=practice))
        if len(classes) == 1
        else None
    )
    # A Line, never wrapped: an address split by the layout could not be copied whole.
    return (
        [line("en Colab, una vez subido al repositorio:"), line(("  " + url, "cyan"))]
        if url
        else []
    )


@app.command("notebook")
def notebook(
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="[CLASE]...", help="Número, id, slug o ruta de cada clase."),
    ] = None,
    all_classes: Annotated[bool, typer.Option("--all", help="Todas las clases.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="CARPETA",
            help="Dónde escribirlos (por defecto: cuadernos/ en la raíz del curso).",
            show_default=False,
        ),
    ] = None,
    practice: Annotated[
        bool, typer.Option("--practice", help="La versión de práctica: con huecos y pistas.")
    ] = False,
    check: Annotated[
        bool,
        typer.Option("--check", help="No escribe: sale con 1 si alguno falta o no está al día."),
    ] = False,
    root: RootOption = None,
) -> None:
    """Escribe cada clase como un cuaderno de Jupyter que comprueba sus propias salidas."""
    from compmath.notebook.build import FOLDER, notebook_path
    from compmath.present.output import emit

    with guard():
        if not names and not all_classes:
            raise CompmathError(
                "indica las clases o --all", "ejemplo: compmath notebook NUMERO (o --all)"
            )
        course = open_course(root)
        classes = course.select([] if all_classes else (names or []))
        base = out if out is not None else course.root / FOLDER
        if in_ci() and not check and base.resolve().is_relative_to(course.root.resolve()):
            raise CompmathError(
                "compmath notebook no escribe en el repositorio con CI definido",
                "usa --out CARPETA fuera del curso, o --check para comprobar los ya escritos",
            )
    blocks: list[Block] = []
    states: list[State] = []
    targets = {
        c.id: base / notebook_path(c, practice=practice).removeprefix(f"{FOLDER}/")
        for c in course.classes
    }
    # a neighbour is linked when its notebook is written now or already sits beside
    neighbours = frozenset(
        {c.id for c in classes} | {i for i, path in targets.items() if path.is_file()}
    )
    for cls in classes:
        target = targets[cls.id]
        try:
            states.append(
                _one(course, cls, target, practice=practice, check=check, neighbours=neighbours)
            )
            blocks += _state_line(states[-1], course.rel(target))
        except CompmathError as exc:
            if len(classes) == 1:  # one class: the usual one-line error and its hint
                with guard():
                    raise exc from None
            states.append(State.BROKEN)
            blocks += _state_line(State.BROKEN, course.rel(target), exc)
    stale = any(s in (State.STALE, State.MISSING) for s in states)
    emit(blocks + _next_steps(course, classes, practice=practice, stale=stale))
    if State.BROKEN in states:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(ExitCode.FAILED if stale else ExitCode.OK)
