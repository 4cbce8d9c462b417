"""The student's practice workspace: made from the course once, then the student's own.

A workspace mirrors the course's layout, so every command works in it as in the course
(`compmath run 323 --root CARPETA`, `compmath show 323 --root CARPETA`):

    CARPETA/
      practica.json           the workspace's marker and the student's progress
      curso.toml, schemas/    copied from the course
      classes/part-…/NNN-…/   lab.py is the EXERCISE (the holes to fill); expected.json,
                              class.toml and README.md as in the course
      .compmath/NNN-…/        ejercicio.py (the pristine exercise, for `reset`); solucion.py
                              appears only once the class is done and the student asks for it

The reference solution is not in the workspace: the verdict reads each class's lab from the
course the workspace was made from (practica.json names it; COMPMATH_ROOT overrides it).
Nothing is ever written into the course.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.per_student import filled
from compmath.course.tree import ClassInfo, Course, load_course
from compmath.errors import CompmathError
from compmath.errors_es import syntax_problem
from compmath.holes.own import defaults_values, own_params, own_snapshots, with_defaults
from compmath.holes.regions import HoleError, exercise_source

MARKER = "practica.json"
PRISTINE = ".compmath"
DEFAULT_NAME = "compmath-practica"


@dataclass
class ClassProgress:
    """Where the student stands in one class."""

    done: bool = False
    hints_seen: dict[str, int] = field(default_factory=dict)  # hole number -> hints shown
    done_at: str = ""


@dataclass
class Progress:
    """The student's progress over the workspace's classes (kept in practica.json)."""

    classes: dict[str, ClassProgress]
    current: str
    course: str  # where the workspace was made from (for the record; never written to)
    student: str = ""  # `practice start --alumno ID`: whose numbers of their own it holds

    def done_count(self) -> int:
        return sum(p.done for p in self.classes.values())

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "version": 1,
            "curso_de_origen": self.course,
            "actual": self.current,
            **({"alumno": self.student} if self.student else {}),
            "clases": {
                cid: {"hecha": p.done, "pistas_vistas": p.hints_seen, "hecha_en": p.done_at}
                for cid, p in self.classes.items()
            },
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Progress:
        data = json.loads(text)
        classes = {
            cid: ClassProgress(
                bool(entry.get("hecha")),
                {str(k): int(v) for k, v in entry.get("pistas_vistas", {}).items()},
                str(entry.get("hecha_en", "")),
            )
            for cid, entry in data["clases"].items()
        }
        course, student = str(data.get("curso_de_origen", "")), str(data.get("alumno", ""))
        return cls(classes, str(data["actual"]), course, student)


@dataclass(frozen=True)
class Workspace:
    """An opened workspace: its folder, its course model, and the student's progress."""

    root: Path
    course: Course

    @property
    def progress_path(self) -> Path:
        return self.root / MARKER

    def exercise(self, cls: ClassInfo) -> Path:
        """The pristine exercise of a class (what `reset` puts back)."""
        return self.root / PRISTINE / cls.id / "ejercicio.py"

    def solution(self, cls: ClassInfo) -> Path:
        """Where the course's lab is copied once the class is done and the student asks."""
        return self.root / PRISTINE / cls.id / "solucion.py"

    def kept_copy(self, cls: ClassInfo) -> Path:
        """Where the student's lab.py is copied before `r` in the practice screen rewrites it."""
        return self.root / PRISTINE / cls.id / "anterior.py"

    def keep_copy(self, cls: ClassInfo, text: str) -> Path:
        """Keep `text` (the student's lab.py as it was) in `kept_copy` before it is rewritten."""
        copy = self.kept_copy(cls)
        copy.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(copy, text)
        return copy

    def origin(self) -> Course:
        """The course this workspace was made from: where each class's reference lab is."""
        recorded = Path(self.load_progress().course)
        folder = Path(os.environ.get("COMPMATH_ROOT", "") or recorded)
        if not (folder / "classes").is_dir():
            raise CompmathError(
                f"no encuentro el curso del que salió este espacio de práctica ({folder})",
                "indica dónde está: COMPMATH_ROOT=CARPETA_DEL_CURSO compmath practice",
            )
        return load_course(folder.resolve())

    def reference(self, cls: ClassInfo, course: Course | None = None) -> ClassInfo:
        """The course's class behind the workspace's `cls` (its lab is the reference)."""
        found = next((c for c in (course or self.origin()).classes if c.id == cls.id), None)
        if found is None:
            raise CompmathError(
                f"el curso ya no tiene la clase {cls.id}", "prueba: compmath practice list"
            )
        return found

    def own(self, reference: ClassInfo, course: Course | None = None) -> dict[str, Any]:
        """The student's own parameters in a class (the course's `reference`, of `course`):
        re-derived from the id practica.json remembers; {} without one or when the class
        declares none."""
        title = course.meta.title if course is not None else None
        return own_params(reference, self.load_progress().student, title)

    def out_of_sight(self, course: Course) -> list[Path]:
        """What a hole's code may not read while practice judges it, as `grade` hides it: this
        workspace (the student's other classes, a solution copied once a class was done) and
        the course the references come from (its labs, its schemas). The verdict adds the
        cache and the other grafted programs (runs.private_folders)."""
        return [self.root, course.root / "classes", course.root / "schemas"]

    def classes(self) -> list[ClassInfo]:
        """The classes that have an exercise, in course order."""
        return [c for c in self.course.classes if self.exercise(c).exists()]

    def student(self) -> str:
        """The student's id as practica.json remembers it ("" when none was given)."""
        return self.load_progress().student

    def load_progress(self) -> Progress:
        try:
            progress = Progress.from_json(self.progress_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError):
            raise CompmathError(
                f"{self.progress_path} está dañado o no se puede leer",
                "restáuralo o empieza otro espacio: compmath practice start OTRA_CARPETA",
            ) from None
        for cls in self.classes():
            progress.classes.setdefault(cls.id, ClassProgress())
        return progress

    def save_progress(self, progress: Progress) -> None:
        write_atomic(self.progress_path, progress.to_json())

    def reset(self, cls: ClassInfo) -> None:
        """Put the pristine exercise back in place of the student's lab.py, and start the
        class's progress over (not done, no hints seen, the solution's copy removed)."""
        write_atomic(cls.lab, self.exercise(cls).read_text(encoding="utf-8"))
        progress = self.load_progress()
        progress.classes[cls.id] = ClassProgress()
        self.save_progress(progress)
        self.solution(cls).unlink(missing_ok=True)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def default_folder(course: Course) -> Path:
    """`compmath-practica` here, or beside the course when here is inside it."""
    here = Path.cwd()
    base = course.root.parent if _inside(here, course.root) else here
    return base / DEFAULT_NAME


def _exercises(course: Course, student: str = "") -> list[tuple[ClassInfo, str, dict[str, Any]]]:
    """Every class's exercise source and the student's own parameters in it, generated from its
    lab's solution regions (run()'s defaults set to those parameters, the tasks' {{nombre}}
    filled in); an error names the class whose regions or holes are broken (the course's lint
    says the same)."""
    made = []
    for cls in course.classes:
        if not cls.lab.exists():
            continue
        holes = cls.meta.holes
        if not holes:
            continue
        own = own_params(cls, student, course.meta.title)
        values = defaults_values(cls, own)
        tasks = [filled(h.task, values) for h in holes]
        try:
            source = exercise_source(cls.lab.read_text(encoding="utf-8"), tasks)
            source = with_defaults(source, own)
        except (HoleError, SyntaxError) as exc:
            why = syntax_problem(exc).sentence() if isinstance(exc, SyntaxError) else str(exc)
            raise CompmathError(
                f"no se puede generar el ejercicio de {cls.id}: {why}",
                "revisa las marcas ### BEGIN/END SOLUTION y [[huecos]]; compmath lint lo detalla",
            ) from None
        made.append((cls, source, own))
    return made


def create(course: Course, folder: Path, student: str = "") -> Workspace:
    """Write a new workspace for the course's classes that have holes; return it opened.

    With `student`, each class that gives numbers of their own ([practica.por_alumno]) gets
    the student's: in its exercise's defaults and in its expected.json (the course's lab run
    with them, here and now)."""
    if _inside(folder, course.root):
        raise CompmathError(
            f"{folder} está dentro del curso y el espacio de práctica nunca escribe en él",
            f"elige una carpeta fuera, p. ej.: compmath practice start {default_folder(course)}",
        )
    if folder.exists() and any(folder.iterdir()):
        hint = "sigue practicando en ella: cd a la carpeta y compmath practice"
        if not (folder / MARKER).exists():
            hint = "elige una carpeta vacía o nueva"
        raise CompmathError(f"{folder} ya existe y no está vacía", hint)
    exercises = _exercises(course, student)
    if not exercises:
        raise CompmathError(
            "ninguna clase del curso tiene huecos de práctica", "prueba: compmath list"
        )
    snapshots = own_snapshots([(cls, own) for cls, _, own in exercises if own])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("schemas",):
            shutil.copytree(course.root / name, folder / name)
        if course.meta_path.exists():
            shutil.copy2(course.meta_path, folder / course.meta_path.name)
        for cls, source, _own in exercises:
            target = folder / cls.path.relative_to(course.root)
            target.mkdir(parents=True)
            part_toml = cls.part.meta_path
            if part_toml.exists() and not (target.parent / part_toml.name).exists():
                shutil.copy2(part_toml, target.parent / part_toml.name)
            for name in ("class.toml", "README.md", "expected.json"):
                if (cls.path / name).exists():
                    shutil.copy2(cls.path / name, target / name)
            if cls.id in snapshots:  # the course's lab with the student's numbers
                (target / "expected.json").write_text(snapshots[cls.id], encoding="utf-8")
            (target / "lab.py").write_text(source, encoding="utf-8")
            pristine = folder / PRISTINE / cls.id
            pristine.mkdir(parents=True)
            (pristine / "ejercicio.py").write_text(source, encoding="utf-8")
    except OSError as exc:
        raise CompmathError(
            f"no se puede crear el espacio de práctica en {folder}: {exc.strerror}",
            "elige una carpeta donde puedas escribir",
        ) from None
    workspace = Workspace(folder.resolve(), load_course(folder.resolve()))
    first = exercises[0][0].id
    progress = Progress(
        {cls.id: ClassProgress() for cls, _, _ in exercises}, first, str(course.root), student
    )
    workspace.save_progress(progress)
    return workspace


def find(start: Path | None = None) -> Workspace:
    """The workspace holding `start` (default: here): the nearest folder with practica.json."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / MARKER).is_file() and (folder / "classes").is_dir():
            return Workspace(folder, load_course(folder))
    raise CompmathError(
        "aquí no hay un espacio de práctica (ninguna carpeta con practica.json)",
        "créalo con: compmath practice start [CARPETA], y entra en ella",
    )


def mark_done(workspace: Workspace, progress: Progress, cls: ClassInfo) -> bool:
    """Record a class as done; True if it was not done before."""
    entry = progress.classes.setdefault(cls.id, ClassProgress())
    if entry.done:
        return False
    entry.done = True
    entry.done_at = time.strftime("%Y-%m-%dT%H:%M:%S")
    workspace.save_progress(progress)
    return True


def relative(workspace: Workspace, path: Path) -> str:
    """A workspace path as the student types it from the workspace's folder."""
    return os.path.relpath(path, workspace.root)
