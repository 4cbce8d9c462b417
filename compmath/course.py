"""Find the course root, its parts and classes, and resolve what a user names as a class."""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError

CLASS_DIR = re.compile(r"^(\d{3})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
PART_DIR = re.compile(r"^part-(\d{1,3})-([a-z0-9]+(?:-[a-z0-9]+)*)$")


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning any failure into a CompmathError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CompmathError(
            f"no se puede leer {path}: {exc.strerror}", "revisa el archivo"
        ) from None
    except UnicodeDecodeError:
        raise CompmathError(f"{path} no está en UTF-8", "guárdalo como UTF-8") from None
    if not text.strip():
        raise CompmathError(f"{path} está vacío", "compara con el de la clase 323") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CompmathError(
            f"{path} no es TOML válido: {exc}", "corrige la línea indicada"
        ) from None


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
    def lab(self) -> Path:
        return self.path / "lab.py"

    @property
    def snapshot(self) -> Path:
        return self.path / "expected.json"

    @property
    def meta_path(self) -> Path:
        return self.path / "class.toml"

    def schema_path(self, root: Path) -> Path:
        return root / "schemas" / f"{self.id}.schema.json"

    @cached_property
    def meta(self) -> dict[str, Any]:
        """The parsed class.toml, or {} when the class has none."""
        from compmath.metacache import full_metadata

        return full_metadata(self.part.path.parent.parent, self.meta_path)

    @property
    def title(self) -> str:
        """class.toml's title, else the plan's, else the slug; never fails on broken metadata."""
        try:
            title = self.meta.get("titulo")
            if not (isinstance(title, str) and title.strip()):
                title = self.part.planned_title(self.number)
        except CompmathError:
            title = None  # the broken file is reported where it is checked
        return title or self.slug.replace("-", " ").capitalize()


@dataclass(frozen=True)
class PartInfo:
    """A part folder: `part-NN-slug` with its part.toml and its class folders."""

    number: int
    path: Path
    classes: list[ClassInfo] = field(default_factory=list, compare=False)

    @property
    def meta_path(self) -> Path:
        return self.path / "part.toml"

    @cached_property
    def meta(self) -> dict[str, Any]:
        """The parsed part.toml, or {} when the part has none."""
        from compmath.metacache import full_metadata

        return full_metadata(self.path.parent.parent, self.meta_path)

    @property
    def title(self) -> str:
        return str(self.meta.get("titulo", self.path.name))

    @property
    def plan(self) -> list[dict[str, Any]]:
        """The ordered plan of the part: one {numero, slug, titulo} per class, written or not."""
        plan = self.meta.get("plan")
        if isinstance(plan, list) and all(isinstance(p, dict) for p in plan):
            return plan
        return [{"numero": c.number, "slug": c.slug, "titulo": c.slug} for c in self.classes]

    def planned_title(self, number: int) -> str | None:
        for entry in self.plan:
            if entry.get("numero") == number:
                title = entry.get("titulo")
                return title if isinstance(title, str) and title.strip() else None
        return None


@dataclass(frozen=True)
class Course:
    """The course found under a root folder."""

    root: Path
    parts: list[PartInfo]
    duplicates: list[tuple[ClassInfo, ClassInfo]]

    @property
    def classes(self) -> list[ClassInfo]:
        return sorted((c for p in self.parts for c in p.classes), key=lambda c: c.number)

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
        raise CompmathError(f"no existe la parte {number}", "prueba: compmath list")

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
        names = [str(c.number) for c in self.classes] + [c.id for c in self.classes]
        close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
        if text.isdigit():
            number = int(text)
            near = sorted(self.classes, key=lambda c: abs(c.number - number))[:3]
            close = close or [str(c.number) for c in near]
        suggestions = [self._label(n) for n in dict.fromkeys(close)]
        raise CompmathError(
            f"no existe la clase «{text}»",
            "prueba: compmath list",
            suggestions=suggestions,
        )

    def _label(self, name: str) -> str:
        for cls in self.classes:
            if name in (str(cls.number), cls.id):
                return f"{cls.number} ({cls.title})"
        return name

    def select(self, names: list[str], part: int | None = None) -> list[ClassInfo]:
        """The classes named (all of them when none is named), optionally within one part."""
        self.require_unique()
        chosen = [self.resolve(n) for n in names] if names else self.classes
        if part is not None:
            self.part(part)
            chosen = [c for c in chosen if c.part.number == part]
        return list(dict.fromkeys(chosen))


def find_root(explicit: str | None = None) -> Path:
    """The course root: --root, else COMPMATH_ROOT, else the nearest ancestor holding classes/."""
    given = explicit or os.environ.get("COMPMATH_ROOT")
    if given:
        root = Path(given).expanduser().resolve()
        if not (root / "classes").is_dir():
            origin = "--root" if explicit else "COMPMATH_ROOT"
            raise CompmathError(
                f"{origin} apunta a {root}, que no tiene carpeta classes/",
                "indica la raíz del curso: compmath --root RUTA ...",
            )
        return root
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "classes").is_dir():
            return folder
    raise CompmathError(
        "no se encuentra la raíz del curso (ninguna carpeta classes/ aquí ni más arriba)",
        "entra en el repositorio del curso o usa --root RUTA (o COMPMATH_ROOT)",
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


def position_in_part(cls: ClassInfo) -> tuple[int, int]:
    """Return (k, N): the class is the k-th of the N planned in its part."""
    numbers = [entry.get("numero") for entry in cls.part.plan]
    if cls.number in numbers:
        return numbers.index(cls.number) + 1, len(numbers)
    written = [c.number for c in cls.part.classes]
    return written.index(cls.number) + 1, len(written)
