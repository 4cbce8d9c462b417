"""The class page as a document, built once from the course model: `show` draws it in the
terminal (present.page_screen) and `site` writes it as HTML. No lab is imported or run.

The sections follow the seed page: breadcrumb, header, lemma, formulas, development, worked
example, what the lab computes (with its two commands), parameters, outputs, sample of a real
run, common errors, where it is used, the part's ideas, bibliography, files, previous and next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.course.params import ParamSpec, specs_from_source
from compmath.course.records import BookReference, ClassMeta, Formula, Link, OutputSpec, PartMeta
from compmath.course.tree import ClassInfo, Course
from compmath.judging.snapshot import read_snapshot

FILE_ROLES = {
    "lab.py": "el laboratorio",
    "class.toml": "la ficha de la página",
    "README.md": "la prosa: Desarrollo y Ejemplo trabajado",
    "expected.json": "la instantánea de la salida",
}
PROSE = ("Desarrollo", "Ejemplo trabajado")


@dataclass(frozen=True)
class Neighbour:
    """A previous or next class: its number and title, and whether this course has it."""

    number: int
    title: str
    in_course: bool
    class_id: str = ""


@dataclass(frozen=True)
class Parameters:
    """run()'s parameters as read from the lab's source, and a `--set` worth trying."""

    specs: tuple[ParamSpec, ...]
    readable: bool
    example: str = ""


@dataclass(frozen=True)
class ClassPage:
    """Every section of a class page, in the seed page's order, as data."""

    class_id: str
    number: int
    title: str
    part: PartMeta
    level: str
    duration: str
    position: tuple[int, int]
    lemma: str
    formulas: tuple[Formula, ...]
    development: str  # Markdown from README.md ("" when it is still to write)
    example: str
    computes: str
    lab_path: str  # relative to the course root
    commands: tuple[str, ...]
    parameters: Parameters
    outputs: tuple[OutputSpec, ...]
    sample: dict[str, Any] | None  # the snapshot, whole
    common_errors: tuple[str, ...]
    uses: str
    references: tuple[BookReference, ...]
    folder: str
    files: tuple[tuple[str, str], ...]  # (name in the class folder, its role)
    schema: tuple[str, bool]  # (path relative to the root, exists)
    previous: Neighbour | None
    next: Neighbour | None
    demo: str = ""  # class.toml's demo name, shown as the seed does: «demostración · nombre»

    @property
    def breadcrumb(self) -> tuple[str, str]:
        return ("Inicio", f"Parte {self.part.number} — {self.part.title}")

    @property
    def facts(self) -> list[str]:
        """The metadata line: level · clase k de N · duration · demostración · demo name."""
        k, n = self.position
        kind = ("demostración", self.demo) if self.demo else ()
        return [f for f in (self.level, f"clase {k} de {n}", self.duration, *kind) if f]


def readme_sections(path: Path) -> dict[str, str]:
    """The `## Heading` sections of a class README.md, by heading (empty if there is no file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        elif line.startswith("# "):
            current = None
        elif current is not None:
            current.append(line)
    return {name: "\n".join(lines).strip() for name, lines in sections.items()}


def example_value(spec: ParamSpec) -> str:
    """A value worth trying with `--set` for one parameter (one the lab accepts)."""
    default = spec.default
    if spec.type_name == "bool":
        return "false" if default else "true"
    if spec.type_name == "int" and isinstance(default, int):
        return str(default * 2 if default else 1)
    if spec.type_name == "float" and isinstance(default, (int, float)):
        if 0 < default < 1:  # a probability, a rate, a discount: stay inside (0, 1)
            return repr(round(default / 2, 6))
        return repr(float(default) * 2 if default else 1.0)
    return str(default) if default is not None else "VALOR"


def shown_default(spec: ParamSpec) -> str:
    """A parameter's default as the page shows it: a literal, or the expression that computes it."""
    if spec.default_source and spec.default is None:
        return spec.default_source
    return json.dumps(spec.default, ensure_ascii=False)


def _parameters(cls: ClassInfo) -> Parameters:
    specs = specs_from_source(cls.lab) if cls.lab.exists() else None
    if specs is None:
        return Parameters((), False)
    tried = next((s for s in specs if s.type_name in ("int", "float")), specs[0] if specs else None)
    example = (
        f"compmath run {cls.number} --set {tried.name}={example_value(tried)}" if tried else ""
    )
    return Parameters(tuple(specs), True, example)


def _neighbour(course: Course, link: Link | None) -> Neighbour | None:
    if link is None:
        return None
    found = next((c for c in course.classes if c.number == link.number), None)
    title = link.title or (found.title if found else "")
    return Neighbour(link.number, title, found is not None, found.id if found else "")


def _files(course: Course, cls: ClassInfo) -> tuple[tuple[str, str], ...]:
    names = sorted(
        p.name for p in cls.path.iterdir() if not p.name.startswith(".") and p.name != "__pycache__"
    )
    return tuple((name, FILE_ROLES.get(name, "")) for name in names)


def class_page(course: Course, cls: ClassInfo) -> ClassPage:
    """Build the page of a class from the course model (raises on broken class files)."""
    meta: ClassMeta = cls.meta
    part = cls.part.meta
    found = read_snapshot(cls.snapshot, course.rel(cls.snapshot), cls.number)
    prose = readme_sections(cls.readme)
    outputs = meta.outputs or tuple(OutputSpec(key, "") for key in (found[1] if found else {}))
    before, after = course.neighbours(cls)
    lab = course.rel(cls.lab)
    return ClassPage(
        class_id=cls.id,
        number=cls.number,
        title=meta.title,
        part=part,
        level=meta.level or part.level,
        duration=meta.duration or part.duration,
        position=cls.part.position(cls.number),
        lemma=meta.lemma,
        formulas=meta.formulas,
        development=prose.get(PROSE[0], ""),
        example=prose.get(PROSE[1], ""),
        computes=meta.computes,
        lab_path=lab,
        commands=(f"python {lab}", f"compmath run {cls.number}"),
        parameters=_parameters(cls),
        outputs=outputs,
        sample=found[1] if found else None,
        common_errors=meta.common_errors,
        uses=meta.uses,
        references=meta.references,
        folder=course.rel(cls.path),
        files=_files(course, cls),
        schema=(course.rel(cls.schema_path), cls.schema_path.exists()),
        previous=_neighbour(course, before),
        next=_neighbour(course, after),
        demo=meta.demo,
    )


def _abridged_dict(value: dict[str, Any], indent: int, limit: int | None, what: str) -> str:
    """A dict for abridge: its first `limit` keys (all with None), then how many there are."""
    pad = "  " * (indent + 1)
    keys = list(value)
    lines = [
        f"{pad}{json.dumps(k, ensure_ascii=False)}: {abridge(value[k], indent + 1)}"
        for k in keys[:limit]
    ]
    if limit is not None and len(keys) > limit:
        lines.append(f"{pad}… ({len(keys)} {what} en total)")
    return "{\n" + ",\n".join(lines) + "\n" + "  " * indent + "}"


def abridge(
    value: Any, indent: int = 0, max_items: int = 8, shown: int = 6, outputs: int | None = None
) -> str:
    """A value as indented JSON, with long lists and dicts cut (`… (N en total)`); a lab's
    outputs (the dict at the top) cut to the first `outputs` when given."""
    pad = "  " * (indent + 1)

    def scalar(v: Any) -> str:
        text = json.dumps(v, ensure_ascii=False)
        return text if len(text) <= 80 else text[:78] + '…"'

    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        items = [scalar(v) for v in value[: shown if len(value) > max_items else None]]
        if len(value) > max_items:
            items.append(f"… ({len(value)} en total)")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, list):
        cut = len(value) > max_items
        lines = [pad + abridge(v, indent + 1) for v in value[: shown if cut else None]]
        if cut:
            lines.append(f"{pad}… ({len(value)} elementos en total)")
        return "[\n" + ",\n".join(lines) + "\n" + "  " * indent + "]"
    if isinstance(value, dict) and value:
        if indent == 0:  # a lab's outputs
            return _abridged_dict(value, 0, outputs, "salidas")
        return _abridged_dict(value, indent, shown if len(value) > max_items else None, "claves")
    return scalar(value)
