"""Lint's building blocks: problems as data, and readers that turn a bad file into a problem."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compmath.course import Course, PartInfo
from compmath.errors import CompmathError
from compmath.validate import validate

# A loaded schema: its text, its parsed body and where it lives.
Schema = tuple[str, Any, Path]


@dataclass(frozen=True)
class Problem:
    """One integrity problem: the file (relative to the root), what is wrong, what to do."""

    file: str
    what: str
    hint: str

    def line(self) -> str:
        """The problem as the one line `compmath lint` prints."""
        return f"{self.file}: {self.what} — {self.hint}"


class Findings(list[Problem]):
    """The problems found so far, with a helper that makes paths relative to the course root."""

    def __init__(self, course: Course) -> None:
        super().__init__()
        self.course = course

    def add(self, path: Path, what: str, hint: str) -> None:
        self.append(Problem(self.course.rel(path), what, hint))


def isbn_ok(text: str) -> bool:
    """True when an ISBN-10 or ISBN-13 (hyphens allowed) has a correct check digit."""
    digits = re.sub(r"[- ]", "", text).upper()
    if re.fullmatch(r"\d{13}", digits):
        return sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0
    if re.fullmatch(r"\d{9}[\dX]", digits):
        values = [10 if d == "X" else int(d) for d in digits]
        return sum((10 - i) * v for i, v in enumerate(values)) % 11 == 0
    return False


def written_plan(part: PartInfo) -> list[dict[str, Any]]:
    """The plan as part.toml writes it ([] when the file is missing or broken)."""
    try:
        plan = part.meta.get("plan")
    except CompmathError:
        return []
    return [e for e in plan if isinstance(e, dict)] if isinstance(plan, list) else []


def read_toml_into(path: Path, found: Findings, hint: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        found.add(path, f"no se puede leer ({exc})", hint)
    except tomllib.TOMLDecodeError as exc:
        found.add(path, f"no es TOML válido: {exc}", "corrige la línea indicada")
    return None


def read_json_into(path: Path, found: Findings, hint: str) -> tuple[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
        return text, json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        found.add(path, f"no se puede leer ({exc})", hint)
    except json.JSONDecodeError as exc:
        found.add(
            path, f"no es JSON válido (línea {exc.lineno}, columna {exc.colno}: {exc.msg})", hint
        )
    return None


def conforms(
    schema: Schema | None, data: Any, path: Path, base: str, found: Findings, hint: str
) -> bool:
    """Validate data against a schema, adding one problem per violation; True when valid."""
    if schema is None:
        return True
    text, body, schema_path = schema
    instance = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    try:
        issues = validate(text, body, data, instance, schema_path, base=base)
    except CompmathError as exc:
        found.add(schema_path, exc.message.replace(f"{schema_path} ", "", 1), exc.hint)
        return False
    for issue in issues:
        found.add(path, f"no cumple {schema_path.name}: {issue.path}: {issue.message}", hint)
    return not issues


def meta_schema(course: Course, name: str, found: Findings) -> Schema | None:
    path = course.root / "schemas" / name
    if not path.exists():
        found.add(path, "falta el esquema de los metadatos", "recupéralo del repositorio del curso")
        return None
    loaded = read_json_into(path, found, "corrige el esquema")
    return (loaded[0], loaded[1], path) if loaded else None


def output_schema(path: Path, loaded: tuple[str, Any], found: Findings) -> Schema | None:
    """An outputs schema that is a valid JSON Schema and closes the object, else None."""
    import jsonschema

    text, body = loaded
    try:
        jsonschema.Draft202012Validator.check_schema(body)
    except jsonschema.SchemaError as exc:
        found.add(
            path, f"no es un JSON Schema válido: {exc.message}", "corrígelo según la Draft 2020-12"
        )
        return None
    props = body.get("properties") if isinstance(body, dict) else None
    if not isinstance(props, dict) or body.get("type") != "object":
        found.add(
            path,
            "debe describir un objeto con properties",
            "compara con el esquema de la clase 323",
        )
        return None
    if body.get("additionalProperties") is not False:
        found.add(path, "falta additionalProperties: false", "sin él, una salida de más pasaría")
    if set(body.get("required", [])) != set(props):
        found.add(path, "required no lista todas las salidas", "cada salida es obligatoria")
    return text, body, path
