"""The course on disk: its root, its parts and classes, and what a user names as a class."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from compmath.course import metadata
from compmath.course.records import (
    ClassMeta,
    CourseMeta,
    Link,
    PartMeta,
    class_record,
    course_record,
    part_record,
)
from compmath.errors import CompmathError
from compmath.wording import alternatives

CLASS_DIR = re.compile(r"^(\d{3})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
PART_DIR = re.compile(r"^part-(\d{1,3})-([a-z0-9]+(?:-[a-z0-9]+)*)$")


@dataclass(frozen=True)
class ClassInfo:
    """A class folder of the course: `NNN-slug` inside a part folder."""

    number: int
    slug: str
    path: Path
    part: PartInfo

    @property
    def id(self) -> str:
        return f"{self.number}-{self.slug}"

    @property
    def root(self) -> Path:
        return self.part.root

    @property
    def lab(self) -> Path:
        return self.path / "lab.py"

    @property
    def snapshot(self) -> Path:
        return self.path / "expected.json"

    @property
    def meta_path(self) -> Path:
        return self.path / "class.toml"

    @property
    def readme(self) -> Path:
        return self.path / "README.md"

    @property
    def schema_path(self) -> Path:
        return self.root / "schemas" / f"{self.id}.schema.json"

    @cached_property
    def meta(self) -> ClassMeta:
        """class.toml as a checked record (a bare one when the class has none); raises the
        first problem of a broken file as a CompmathError."""
        if not self.meta_path.exists():
            planned = self.part.planned_title(self.number)
            return ClassMeta(self.number, planned or self.default_title, present=False)
        found = metadata.class_problems(
            self.root, self.meta_path, self.number, self.id, self.schema_path
        )
        return class_record(metadata.require(found))

    @property
    def default_title(self) -> str:
        return self.slug.replace("-", " ").capitalize()

    @property
    def title(self) -> str:
        """class.toml's title, else the plan's, else the slug; never fails on broken metadata."""
        try:
            return self.meta.title
        except CompmathError:
            return self.part.planned_title(self.number) or self.default_title


@dataclass(frozen=True)
class PartInfo:
    """A part folder: `part-NN-slug` with its part.toml and its class folders."""

    number: int
    path: Path
    classes: list[ClassInfo] = field(default_factory=list, compare=False)

    @property
    def root(self) -> Path:
        return self.path.parent.parent

    @property
    def meta_path(self) -> Path:
        return self.path / "part.toml"

    @cached_property
    def meta(self) -> PartMeta:
        """part.toml as a checked record (a bare one when the part has none); raises the first
        problem of a broken file as a CompmathError."""
        if not self.meta_path.exists():
            return PartMeta(self.number, self.path.name, present=False)
        found = metadata.part_problems(self.root, self.meta_path, self.number, self.path.name)
        return part_record(metadata.require(found))

    @property
    def title(self) -> str:
        try:
            return self.meta.title
        except CompmathError:
            return self.path.name

    @property
    def plan(self) -> tuple[Link, ...]:
        """The ordered plan of the part (every class, written or not); the written classes when
        part.toml has no usable plan."""
        try:
            if self.meta.plan:
                return self.meta.plan
        except CompmathError:
            pass
        return tuple(Link(c.number, c.title, c.slug) for c in self.classes)

    def planned_title(self, number: int) -> str | None:
        try:
            entry = self.meta.planned(number)
        except CompmathError:
            return None
        return entry.title if entry else None

    def position(self, number: int) -> tuple[int, int]:
        """(k, N): class `number` is the k-th of the N planned in this part."""
        numbers = [entry.number for entry in self.plan]
        if number in numbers:
            return numbers.index(number) + 1, len(numbers)
        written = [c.number for c in self.classes]
        return written.index(number) + 1, len(written)


@dataclass(frozen=True)
class Course:
    """The course found under a root folder."""

    root: Path
    parts: list[PartInfo]
    duplicates: list[tuple[ClassInfo, ClassInfo]]

    @property
    def classes(self) -> list[ClassInfo]:
        return sorted((c for p in self.parts for c in p.classes), key=lambda c: c.number)

    @property
    def meta_path(self) -> Path:
        return self.root / "curso.toml"

    @cached_property
    def meta(self) -> CourseMeta:
        """curso.toml as a checked record (the defaults when the course has none); raises the
        first problem of a broken file as a CompmathError."""
        if not self.meta_path.exists():
            return CourseMeta()
        return course_record(metadata.require(metadata.course_problems(self.root, self.meta_path)))

    def require_unique(self) -> None:
        """Raise if two class folders share a number."""
        if self.duplicates:
            a, b = self.duplicates[0]
            raise CompmathError(
                f"el número {a.number} está repetido: {self.rel(a.path)} y {self.rel(b.path)}",
                "renombra una de las carpetas con un número libre",
            )

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    def part(self, number: int) -> PartInfo:
        for part in self.parts:
            if part.number == number:
                return part
        numbers = sorted(part.number for part in self.parts)
        if not numbers:
            raise CompmathError(
                f"no hay parte {number}: el curso no tiene partes todavía",
                f"crea su primera clase: compmath new NUMERO SLUG --title T --part {number}",
            )
        nearest = min(numbers, key=lambda n: abs(n - number))
        listed = alternatives([str(n) for n in numbers])
        raise CompmathError(
            f"no hay parte {number}; partes del curso: {listed}",
            f"prueba: compmath list --part {nearest}",
        )

    def resolve(self, name: str) -> ClassInfo:
        """Find the class a user named by number, id, slug or path; suggest close ones if none."""
        self.require_unique()
        text = name.strip()
        for cls in self.classes:
            if text in (str(cls.number), cls.id, cls.slug):
                return cls
        candidate = Path(text).expanduser()
        if candidate.exists():
            target = candidate.resolve()
            if target.is_file():
                target = target.parent
            for cls in self.classes:
                if cls.path.resolve() == target:
                    return cls
        raise CompmathError(
            f"no existe la clase «{text}»",
            "prueba: compmath list",
            suggestions=self.suggest(text),
        )

    def suggest(self, text: str) -> list[str]:
        """The classes closest to a name that matched none, as `323 (Positional encoding)`."""
        names = [str(c.number) for c in self.classes] + [c.id for c in self.classes]
        close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
        if text.isdigit() and not close:
            number = int(text)
            close = [
                str(c.number)
                for c in sorted(self.classes, key=lambda c: abs(c.number - number))[:3]
            ]
        labels = []
        for name in dict.fromkeys(close):
            cls = next(c for c in self.classes if name in (str(c.number), c.id))
            labels.append(f"{cls.number} ({cls.title})")
        return labels

    def select(self, names: list[str], part: int | None = None) -> list[ClassInfo]:
        """The classes named (all of them when none is named), optionally within one part."""
        self.require_unique()
        chosen = [self.resolve(n) for n in names] if names else self.classes
        if part is not None:
            self.part(part)
            chosen = [c for c in chosen if c.part.number == part]
        return list(dict.fromkeys(chosen))

    def neighbours(self, cls: ClassInfo) -> tuple[Link | None, Link | None]:
        """The previous and next class: from the part's plan, across parts at its ends.

        At a part's ends, the neighbouring part's plan wins when that part is in the course;
        otherwise part.toml's `anterior` / `siguiente` name the classes beyond it.
        """
        plan = list(cls.part.plan)
        numbers = [entry.number for entry in plan]
        before, after = self._beyond(cls.part, -1), self._beyond(cls.part, +1)
        if cls.number in numbers:
            i = numbers.index(cls.number)
            before = plan[i - 1] if i > 0 else before
            after = plan[i + 1] if i + 1 < len(plan) else after
        return before, after

    def _beyond(self, part: PartInfo, step: int) -> Link | None:
        for other in self.parts:
            if other.number == part.number + step and other.plan:
                return other.plan[-1 if step < 0 else 0]
        try:
            return part.meta.before if step < 0 else part.meta.after
        except CompmathError:
            return None


def find_root(explicit: str | None = None, command: str = "compmath list") -> Path:
    """The course root: --root, else COMPMATH_ROOT, else the nearest ancestor holding classes/.
    `command`: the command that was run, which the hint repeats with --root."""
    given = explicit or os.environ.get("COMPMATH_ROOT")
    if given:
        root = Path(given).expanduser().resolve()
        if not (root / "classes").is_dir():
            origin = "--root" if explicit else "COMPMATH_ROOT"
            hint = (
                f"indica la carpeta del curso, tras la orden: {command} --root RUTA"
                if explicit
                else "corrígela o quítala: unset COMPMATH_ROOT"
            )
            raise CompmathError(
                f"{origin} apunta a {root}, que no tiene carpeta classes/",
                f"{hint}; para empezar un curso: compmath init CARPETA",
            )
        return root
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "classes").is_dir():
            return folder
    raise CompmathError(
        "no se encuentra la raíz del curso (ninguna carpeta classes/ aquí ni más arriba)",
        f"entra en la carpeta del curso o indícala: {command} --root RUTA; "
        "para empezar uno: compmath init CARPETA",
    )


def load_course(root: Path) -> Course:
    """Scan classes/ for part and class folders (no lab is imported, no metadata is parsed)."""
    parts: list[PartInfo] = []
    seen: dict[int, ClassInfo] = {}
    duplicates: list[tuple[ClassInfo, ClassInfo]] = []
    for part_dir in sorted((root / "classes").iterdir()):
        match = PART_DIR.match(part_dir.name)
        if not match or not part_dir.is_dir():
            continue
        part = PartInfo(int(match.group(1)), part_dir)
        for class_dir in sorted(part_dir.iterdir()):
            found = CLASS_DIR.match(class_dir.name)
            if not found or not class_dir.is_dir():
                continue
            cls = ClassInfo(int(found.group(1)), found.group(2), class_dir, part)
            if cls.number in seen:
                duplicates.append((seen[cls.number], cls))
            seen.setdefault(cls.number, cls)
            part.classes.append(cls)
        parts.append(part)
    parts.sort(key=lambda p: p.number)
    return Course(root, parts, duplicates)
