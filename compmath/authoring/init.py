"""`compmath init`: a course anyone can run at once, with a worked example class and its CI.

Writes curso.toml, a part with its plan, the example class (lab, class.toml, README, outputs
schema) and its snapshot, recorded by the judge as `compmath update` records it, a README for
the students, .gitignore, requirements.txt and the workflows. Refuses a folder that is not
empty unless told (`forzar`), and never overwrites a file either way.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from compmath import __version__
from compmath.atomic import WriteError, write_atomic
from compmath.authoring import course_files, example_class
from compmath.errors import CompmathError, os_reason

MAX_PART = 49  # the example's number has three digits and no leading zero (see first_number)


def first_number(part: int) -> int:
    """The example class's number: N01 for parts 1 to 9, else 20·N + 1 (as this repository's
    part 16 starts at 321), so that it has three digits without a leading zero."""
    return 100 * part + 1 if part <= 9 else 20 * part + 1


def slugify(text: str) -> str:
    """`Álgebra lineal` → `algebra-lineal`: lower case a-z, digits and hyphens."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "parte"


def planned_files(folder: Path, title: str, part: int, part_title: str) -> dict[Path, str]:
    """Every file init writes (the snapshot apart), by path, in the order they are written."""
    number = first_number(part)
    class_id = f"{number}-{example_class.SLUG}"
    part_dir = folder / "classes" / f"part-{part:02d}-{slugify(part_title)}"
    lab_dir = part_dir / class_id
    files = {
        folder / "curso.toml": course_files.course_toml(title),
        folder / "README.md": course_files.course_readme(title, number),
        folder / ".gitignore": course_files.GITIGNORE,
        folder / "requirements.txt": course_files.requirements(__version__),
        part_dir / "part.toml": course_files.part_toml(
            part, part_title, number, example_class.SLUG, example_class.TITLE, example_class.DEMO
        ),
        lab_dir / "lab.py": example_class.LAB,
        lab_dir / "class.toml": example_class.class_toml(number),
        lab_dir / "README.md": example_class.readme(number),
        folder / "schemas" / f"{class_id}.schema.json": example_class.output_schema(
            class_id, number
        ),
    }
    for name, text in course_files.WORKFLOWS.items():
        files[folder / ".github" / "workflows" / name] = text
    return files


def _check_target(folder: Path, files: dict[Path, str], forzar: bool) -> None:
    if folder.exists() and not folder.is_dir():
        raise CompmathError(f"{folder} existe y no es una carpeta", "elige otra ruta")
    if folder.is_dir() and not forzar and any(folder.iterdir()):
        raise CompmathError(
            f"{folder} no está vacía",
            f"elige una carpeta vacía o nueva, o añade --forzar: compmath init {folder} --forzar",
        )
    for path in files:
        if path.exists():
            raise CompmathError(
                f"ya existe {path.relative_to(folder)}; init nunca sobrescribe",
                "bórralo o elige otra carpeta",
            )
    if any((folder / "classes").glob("part-*")) if (folder / "classes").is_dir() else False:
        raise CompmathError(
            f"{folder} ya tiene un curso (classes/part-…)",
            "añade clases con: compmath new NUMERO SLUG --title TÍTULO",
        )


def init_course(
    folder: Path, title: str | None, part: tuple[int, str] | None, *, forzar: bool = False
) -> list[Path]:
    """Write the new course into `folder`; return the files written (the snapshot last)."""
    folder = folder.expanduser().absolute()
    number, part_title = part or (1, "Primera parte")
    if not 1 <= number <= MAX_PART:
        raise CompmathError(
            f"la parte {number} no está entre 1 y {MAX_PART}",
            f'ejemplo: compmath init {folder.name} --parte 1 "Primera parte"',
        )
    part_title = part_title.strip()
    title = (folder.name if title is None else title).strip()
    for what, text in (("del curso", title), ("de la parte", part_title)):
        if not text or "\n" in text:
            raise CompmathError(
                f"el título {what} está vacío o tiene saltos de línea",
                f'ejemplo: compmath init {folder.name} --titulo "Mi curso"',
            )
    files = planned_files(folder, title, number, part_title)
    _check_target(folder, files, forzar)
    written: list[Path] = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text)
            written.append(path)
    except (OSError, WriteError) as exc:
        reason = exc.reason if isinstance(exc, WriteError) else os_reason(exc)
        raise CompmathError(
            f"no se puede escribir en {folder}: {reason}",
            "elige una carpeta donde puedas escribir",
        ) from None
    return [*written, record_snapshot(folder)]


def record_snapshot(folder: Path) -> Path:
    """The example's expected.json, as `compmath update` writes it: run and judged by the one
    pipeline, its canonical output written atomically."""
    from compmath.course.tree import load_course
    from compmath.judging.case import prepare
    from compmath.judging.pipeline import judge_cases
    from compmath.judging.report import Outcome

    course = load_course(folder)
    (cls,) = course.classes
    report = judge_cases([prepare(course, cls, record=True)]).result().reports[0]
    if report.outcome != Outcome.VALID:
        raise CompmathError(
            f"el laboratorio de ejemplo no se pudo ejecutar: {report.full_message}",
            f"mira por qué con: compmath run {cls.number} --root {folder}",
        )
    write_atomic(cls.snapshot, report.output_text)
    return cls.snapshot
