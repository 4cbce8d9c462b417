"""`compmath practice`: the students' practice mode (start, watch, check, reset, list)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from compmath.cli.common import ExitCode, RootOption, app, guard, open_course, require_temp_folder
from compmath.cli.spanish import SpanishCommand, SpanishGroup
from compmath.errors import CompmathError

practice_app = typer.Typer(
    cls=SpanishGroup,
    help="Practica: escribe el corazón de cada laboratorio y mira cómo se pone en verde.",
    no_args_is_help=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(practice_app, name="practice")
command = partial(practice_app.command, cls=SpanishCommand)

TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=0.1,
        metavar="SEGUNDOS",
        help="Segundos máximos por ejecución de tu código.",
    ),
]
FolderOption = Annotated[
    Path | None,
    typer.Option(
        "--dir", help="El espacio de práctica (por defecto: la carpeta actual).", show_default=False
    ),
]


def _show(blocks: list[Any], fresh: bool) -> None:
    from compmath.present.output import clear_screen, emit

    if fresh:
        clear_screen(sys.stdout)
    emit(blocks)


def _size() -> tuple[int | None, int | None]:
    from compmath.present.output import height_for, width_for

    return width_for(sys.stdout), height_for(sys.stdout)


@practice_app.callback(invoke_without_command=True)
def practice(
    ctx: typer.Context,
    name: Annotated[
        str | None, typer.Option("--clase", metavar="CLASE", help="Empieza por esta clase.")
    ] = None,
    manual: Annotated[
        bool, typer.Option("--manual", help="Sin vigilar archivos: comprueba al pulsar Intro.")
    ] = False,
    timeout: TimeoutOption = 10.0,
    folder: FolderOption = None,
) -> None:
    """Abre la primera clase sin terminar y la comprueba cada vez que guardas."""
    if ctx.invoked_subcommand is not None:
        return
    from compmath.practice import watch, workspace
    from compmath.practice.session import Session, open_class

    with guard():
        require_temp_folder()
        session = Session(workspace.find(folder), _show, timeout, manual=manual, size=_size)
        if name:
            open_class(session, name)
    try:
        watch.run(session, manual=manual)
    except KeyboardInterrupt:
        pass


@command("start")
def start(
    folder: Annotated[
        Path | None,
        typer.Argument(
            metavar="[CARPETA]",
            help="Dónde crear el espacio de práctica (por defecto: compmath-practica en la "
            "carpeta actual, o junto al curso si estás dentro de él).",
        ),
    ] = None,
    root: RootOption = None,
    github_classroom: Annotated[bool, typer.Option("--github-classroom", hidden=True)] = False,
    classroom50: Annotated[
        bool,
        typer.Option(
            "--classroom50",
            help="Añade el autograder.py de Classroom 50 y el workflow que corrige el "
            "repositorio del alumno en cada push (result.json de Classroom 50).",
        ),
    ] = False,
    alumno: Annotated[
        str | None,
        typer.Option(
            "--alumno",
            metavar="ID",
            help="Tu id de alumno (el nombre de tu entrega): las clases que dan números propios "
            "a cada alumno te dan los tuyos.",
        ),
    ] = None,
) -> None:
    """Crea un espacio de práctica: los ejercicios, las instantáneas, los esquemas y las páginas."""
    from compmath.practice import workspace
    from compmath.present.layout import BLANK, Command, line, para
    from compmath.present.output import emit

    with guard():
        if github_classroom:
            from compmath.cli.grade_lms import GITHUB_CLASSROOM_GONE

            raise GITHUB_CLASSROOM_GONE
        course = open_course(root)
        if (course.root / workspace.MARKER).is_file():  # a workspace has the shape of a course
            import shlex

            made_from = shlex.quote(workspace.find(course.root).load_progress().course or "RUTA")
            raise CompmathError(
                "esta carpeta es un espacio de práctica, no un curso: los ejercicios salen del "
                "curso",
                f"créalo desde el curso: compmath practice start CARPETA --root {made_from}",
            )
        target = folder or workspace.default_folder(course)
        if classroom50:  # refused before anything is written
            from compmath.grading.classroom50 import course_repository

            course_repository(course)
        student = ""
        if alumno is not None:
            from compmath.course.per_student import check_student

            check_student(alumno)
            student = alumno.strip()
            require_temp_folder()  # the course's labs run, with the student's numbers
        made = workspace.create(course, target.expanduser().absolute(), student)
        if classroom50:
            from compmath.grading.classroom50 import write_classroom50

            for written in write_classroom50(course, made.root):
                emit([line(("✓ ", "green"), f"corrección para Classroom 50: {written}")])
    from compmath.wording import count

    classes = count(len(made.classes()), "clase", "clases")
    emit(
        [
            line(("✓ ", "green"), f"espacio de práctica creado en {made.root} ({classes})"),
            *_own_lines(made, student),
            para("Cada clase es un laboratorio con huecos. Entra en la carpeta y empieza:"),
            BLANK,
            Command(f"cd {made.root}"),
            Command("compmath practice"),
            BLANK,
            para("Tu progreso se guarda en practica.json; el curso no se toca."),
        ]
    )


def _own_lines(made: Any, student: str) -> list[Any]:
    """What `start` says about numbers of their own: the student's, class by class, or that the
    course has them and `--alumno` gives them."""
    from compmath.course.per_student import shown_value
    from compmath.holes.own import own_params
    from compmath.present.layout import para

    course = made.origin()
    owning = [c for c in course.classes if c.meta.holes and c.meta.per_student]
    if not owning:
        return []
    if not student:
        listed = ", ".join(str(c.number) for c in owning)
        which = f"las clases {listed} dan" if len(owning) > 1 else f"la clase {listed} da"
        return [
            para(
                f"aviso: {which} a cada alumno sus propios números; "
                "para practicar con los tuyos (los de la corrección), crea el espacio con "
                "--alumno TU_ID",
                hang=2,
            )
        ]
    lines = []
    for cls in owning:
        own = own_params(cls, student, course.meta.title)
        shown = ", ".join(f"{k} = {shown_value(v)}" for k, v in own.items())
        lines.append(para(f"tus números en {cls.number} (alumno {student}): {shown}", hang=2))
    return lines


def _source(lab: Path) -> str:
    """The student's lab.py as text ("" when it is gone: every hole is then missing)."""
    try:
        return lab.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


@command("check")
def check(
    name: Annotated[
        str | None, typer.Argument(metavar="[CLASE]", help="Clase (por defecto: todas).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Imprime el resultado en JSON.")] = False,
    timeout: TimeoutOption = 10.0,
    folder: FolderOption = None,
) -> None:
    """Comprueba sin vigilar: sale con 0 si la clase (o todas) está hecha, 1 si aún no."""
    import os

    from compmath.holes.verdict import judge_many
    from compmath.practice import workspace
    from compmath.practice.workspace import mark_done

    with guard():
        require_temp_folder()
        space = workspace.find(folder)
        progress = space.load_progress()
        course = space.origin()
        classes = [space.course.resolve(name)] if name else space.classes()
        items = [(space.reference(cls, course), _source(cls.lab)) for cls in classes]
        own = [space.own(reference, course) for reference, _ in items]
        hide = space.out_of_sight(course)  # each hole runs private, as in grade
        attempts = judge_many(items, timeout=timeout, jobs=os.cpu_count() or 1, own=own, hide=hide)
    for attempt in attempts:
        if attempt.done:
            mark_done(space, progress, attempt.cls)
    if as_json:
        from compmath.base.encode import dumps
        from compmath.practice.report import attempts_document

        sys.stdout.write(dumps(attempts_document(attempts, progress)))
    else:
        from compmath.practice.report import check_blocks
        from compmath.present.output import emit

        emit(check_blocks(attempts, progress))
    raise typer.Exit(ExitCode.OK if all(a.done for a in attempts) else ExitCode.FAILED)


@command("entregar")
def entregar(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="RUTA.zip",
            help="Dónde dejar el .zip (por defecto: TU_ID.zip, o entrega.zip, en la carpeta "
            "actual, o junto al espacio de práctica si estás dentro de él). Su nombre es tu id "
            "para la corrección.",
            show_default=False,
        ),
    ] = None,
    timeout: TimeoutOption = 10.0,
    folder: FolderOption = None,
) -> None:
    """Prepara tu entrega: el .zip que leerá la corrección, qué contará y su SHA-256."""
    import os

    from compmath.grading.receipt import build_zip, receipt
    from compmath.grading.receipt_text import receipt_blocks
    from compmath.practice import workspace
    from compmath.present.output import emit

    with guard():
        require_temp_folder()
        space = workspace.find(folder)
        student = space.load_progress().student
        target = out or default_target(space.root, student)
        if target.suffix.lower() != ".zip":
            raise CompmathError(
                f"«{target}» no acaba en .zip", "ejemplo: compmath practice entregar --out ana.zip"
            )
        if target.resolve().is_relative_to(space.root.resolve()):
            raise CompmathError(
                "el .zip no puede quedar dentro de tu espacio de práctica",
                "ejemplo: compmath practice entregar --out ../entrega.zip",
            )
        digest = build_zip(space, target)
        result = receipt(space, target, digest, timeout=timeout, jobs=os.cpu_count() or 1)
    emit(receipt_blocks(result, target))


def default_target(root: Path, student: str | None) -> Path:
    """TU_ID.zip in the current folder; beside the workspace when that folder is inside it
    (the zip may not be inside: it would be packed into the next one)."""
    import os

    name = f"{student or 'entrega'}.zip"
    here = Path.cwd().resolve()
    if not here.is_relative_to(root.resolve()):
        return Path(name)
    return Path(os.path.relpath(root.resolve().parent / name, here))  # ../ana.zip, as typed


@command("reset")
def reset(
    name: Annotated[str, typer.Argument(metavar="CLASE", help="Número, id o slug.")],
    folder: FolderOption = None,
) -> None:
    """Vuelve a poner el ejercicio original de una clase y su progreso a cero."""
    from compmath.practice import workspace
    from compmath.present.layout import Command, here, para
    from compmath.present.output import emit

    with guard():
        space = workspace.find(folder)
        cls = space.course.resolve(name)
        space.reset(cls)
    emit(
        [  # the path whole on its own line, as the practice screen shows it: to open or copy
            para(
                ("✓ ", "green"),
                f"{cls.id}: ejercicio original; la clase vuelve a estar sin hacer",
                hang=2,
            ),
            Command(here(cls.lab), whole=True),
        ]
    )


@command("list")
def list_progress(folder: FolderOption = None) -> None:
    """Lista las clases del espacio de práctica con tu progreso."""
    from compmath.practice import workspace
    from compmath.practice.practice_screen import list_blocks
    from compmath.present.output import emit

    with guard():
        space = workspace.find(folder)
        progress = space.load_progress()
    emit(list_blocks(space, progress))
