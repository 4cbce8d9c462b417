"""Validate JSON data against a Draft 2020-12 schema, with Spanish messages and a verdict cache.

jsonschema is the slowest import of the runner, so a "valid" verdict is remembered on disk, keyed
by the hash of (schema text, canonical instance text, jsonschema version): unchanged inputs are
then accepted without importing it. Invalid verdicts are always recomputed, so errors stay exact.
The cache is believed only for outputs of labs that Landlock kept out of it (`use_cache`): a
lab that could write there could leave a "valid" verdict for its own invalid output.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from compmath.cache import cache_dir
from compmath.errors import CompmathError, os_reason
from compmath.wording import value_text

SHOWN = 10  # numbers of a value a schema message shows before `… (N)`


@dataclass(frozen=True)
class SchemaIssue:
    """One schema violation: where (a JSON path), what in Spanish, and as data: the schema's
    rule it breaks (jsonschema's keyword: `required`, `additionalProperties`, `type`…) and the
    key it names, for a missing or a disallowed key ("" otherwise)."""

    path: str
    message: str
    rule: str = ""
    key: str = ""


def json_path(parts: Any, base: str = "salida") -> str:
    """Render a jsonschema path (keys and indices) as `salida.a.b[2]`."""
    out = base
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


@cache
def _jsonschema_version() -> str:
    """The installed jsonschema's version, read from its dist-info name (no import of either)."""
    from importlib.util import find_spec

    spec = find_spec("jsonschema")
    if spec is None or spec.origin is None:
        return "?"
    site = Path(spec.origin).parent.parent
    found = sorted(site.glob("jsonschema-*.dist-info"))
    return found[-1].name if found else spec.origin


def _verdict_file(schema_text: str, instance_text: str) -> Path:
    digest = hashlib.sha256()
    for piece in (schema_text, instance_text, _jsonschema_version()):
        digest.update(piece.encode("utf-8"))
        digest.update(b"\0")
    return cache_dir() / "verdicts" / digest.hexdigest()


def load_schema(path: Path, shown: str | None = None) -> tuple[str, Any]:
    """Read a schema file (`shown` names it in messages); CompmathError if absent or not JSON."""
    label = shown or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CompmathError(
            f"falta el esquema {label}",
            "escríbelo con las salidas de run() (compmath new crea uno en cada clase nueva)",
        ) from None
    except OSError as exc:  # the reason in Spanish, not Python's `[Errno 13] Permission denied`
        raise CompmathError(
            f"no se puede leer {label}: {os_reason(exc)}", "revisa el archivo"
        ) from None
    except UnicodeDecodeError:
        raise CompmathError(
            f"no se puede leer {label}: no está en UTF-8", "revisa el archivo"
        ) from None
    try:
        return text, json.loads(text)
    except json.JSONDecodeError as exc:
        from compmath.errors_es import json_problem

        located = json_problem(exc)
        raise CompmathError(
            f"{label} no es JSON válido: {located.sentence()}",
            "corrige el esquema y vuelve a ejecutar",
            located=located,
        ) from None


def _named_key(error: Any, nth: int) -> str:
    """The key a `required` or `additionalProperties` error is about ("" for other rules)."""
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "required":  # one error per missing key, in the order of `required`
        missing = [k for k in value if isinstance(instance, dict) and k not in instance] or value
        return str(missing[min(nth, len(missing) - 1)])
    if kind == "additionalProperties":
        props = error.schema.get("properties", {})
        extra = [k for k in instance if k not in props] if isinstance(instance, dict) else []
        return str(extra[0]) if extra else "?"
    return ""


def _spanish(error: Any, key: str) -> str:
    """The error in Spanish; `key` is the key it names (a missing or a disallowed one)."""
    kind, value = error.validator, error.validator_value
    instance = error.instance
    if kind == "required":
        return f"falta la clave requerida «{key}»"
    if kind == "additionalProperties":
        return f"clave no permitida «{key}»"
    if kind == "type":
        names = {
            "integer": "entero",
            "number": "número",
            "string": "texto",
            "boolean": "booleano",
            "array": "lista",
            "object": "objeto",
            "null": "null",
        }
        wanted = value if isinstance(value, list) else [value]
        wanted_text = " o ".join(names.get(str(w), str(w)) for w in wanted)
        return f"se esperaba {wanted_text} y hay {value_text(instance, SHOWN)}"
    simple = {
        "minimum": "es menor que el mínimo {v}",
        "maximum": "es mayor que el máximo {v}",
        "exclusiveMinimum": "debe ser mayor que {v}",
        "exclusiveMaximum": "debe ser menor que {v}",
        "minItems": "tiene menos de {v} elementos",
        "maxItems": "tiene más de {v} elementos",
        "const": "debe valer {v}",
        "enum": "debe ser uno de {v}",
        "pattern": "no sigue el patrón {v}",
        "multipleOf": "debe ser múltiplo de {v}",
        "minLength": "es más corto que {v} caracteres",
        "minProperties": "tiene menos de {v} claves",
        "uniqueItems": "tiene elementos repetidos",
    }
    if kind in simple:  # values as every screen shows them to people: 0,5 · [0; 1; … (12)]
        return f"{value_text(instance, SHOWN)} " + simple[kind].format(
            v=value_text(value, SHOWN)
        )
    return str(error.message)


@lru_cache(maxsize=256)
def _check_schema(schema_text: str) -> None:
    """Check a schema against the metaschema once per text and process (raise SchemaError):
    `list` and `lint` validate every class.toml against the same class schema, and checking the
    schema itself costs 50 ms each time. A valid text is remembered; an invalid one raises
    again on every call (lru_cache keeps only returns)."""
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(json.loads(schema_text))


def validate(
    schema_text: str,
    schema: Any,
    instance: Any,
    instance_text: str,
    schema_label: str | Path,
    base: str = "salida",
    *,
    use_cache: bool = True,
) -> list[SchemaIssue]:
    """Return the violations of `instance` against `schema` (empty when valid); `schema` is
    `schema_text` parsed, as load_schema returns them."""
    verdict = _verdict_file(schema_text, instance_text) if use_cache else None
    if verdict is not None and verdict.exists():
        return []
    import jsonschema

    try:
        _check_schema(schema_text)
    except jsonschema.SchemaError as exc:
        where = json_path(exc.path, "esquema") if exc.path else "esquema"
        raise CompmathError(
            f"{schema_label} no es un JSON Schema válido ({where}: {exc.message})",
            "corrígelo según https://json-schema.org/draft/2020-12",
        ) from None
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))
    issues = []
    required: dict[tuple[str, int], int] = {}  # (path, rule) -> required errors seen there
    for e in errors:
        path, nth = json_path(e.absolute_path, base), 0
        if e.validator == "required":
            nth = required[path, id(e.schema)] = required.get((path, id(e.schema)), -1) + 1
        key = _named_key(e, nth)
        issues.append(SchemaIssue(path, _spanish(e, key), str(e.validator), key))
    if verdict is not None and not issues:
        try:
            verdict.parent.mkdir(parents=True, exist_ok=True)
            verdict.touch()
        except OSError:
            pass  # a read-only cache only costs speed
    return issues
