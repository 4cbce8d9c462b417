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
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

from compmath.cache import cache_dir
from compmath.errors import CompmathError, os_reason
from compmath.wording import value_text

SMALL = 64 * 1024  # characters of a lab's outputs validated in full, every violation listed
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
    return _rule_text(error.validator, error.validator_value, error.instance, key, error.message)


def _rule_text(kind: str, value: Any, instance: Any, key: str, message: str) -> str:
    """A broken rule in Spanish: the schema's keyword, its value, the value that breaks it."""
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
        "maxLength": "es más largo que {v} caracteres",
        "maxProperties": "tiene más de {v} claves",
        "minProperties": "tiene menos de {v} claves",
        "uniqueItems": "tiene elementos repetidos",
    }
    if kind in simple:  # values as every screen shows them to people: 0,5 · [0; 1; … (12)]
        return f"{value_text(instance, SHOWN)} " + simple[kind].format(v=value_text(value, SHOWN))
    return str(message)


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
    deadline: float | None = None,
) -> list[SchemaIssue]:
    """Return the violations of `instance` against `schema` (empty when valid); `schema` is
    `schema_text` parsed, as load_schema returns them.

    With a `deadline` (time.monotonic(); a lab's outputs, which the lab chose) OverBudget is
    raised once it passes, and an instance past SMALL characters of text meets the cheap bounds
    (`bound_issue`) first, then a validation that stops at its first violation. A smaller one,
    like the course's own files, gets every violation listed (a screen names them all)."""
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
    large = deadline is not None and len(instance_text) > SMALL
    if large and (bound := bound_issue(schema, instance, base)) is not None:
        return [bound]
    if deadline is None:
        found = jsonschema.Draft202012Validator(schema).iter_errors(instance)
    else:
        found = _timed_errors(schema, instance, deadline, first=large)
    errors = sorted(found, key=lambda e: list(map(str, e.absolute_path)))
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


class OverBudget(Exception):
    """Validating a lab's outputs took longer than the time the judge gives one lab."""


_clock = {"deadline": 0.0, "calls": 0}  # the deadline of the validation under way
CLOCK_EVERY = 256  # keyword checks between two looks at the clock


def _timed(keyword: Any) -> Any:
    """`keyword` (a jsonschema rule's function) looking at the deadline every CLOCK_EVERY calls."""

    def timed(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        _clock["calls"] += 1
        if _clock["calls"] % CLOCK_EVERY == 0 and time.monotonic() > _clock["deadline"]:
            raise OverBudget
        return keyword(validator, value, instance, schema)

    return timed


@cache
def _timed_validator() -> Any:
    """Draft 2020-12 with every rule timed (created once per process)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    rules = {name: _timed(rule) for name, rule in base.VALIDATORS.items()}
    return jsonschema.validators.extend(base, rules)


def _timed_errors(schema: Any, instance: Any, deadline: float, *, first: bool) -> list[Any]:
    """The violations of `schema` by `instance` (only the first, with `first`) before `deadline`."""
    _clock["deadline"], _clock["calls"] = deadline, 0
    if time.monotonic() > deadline:
        raise OverBudget
    found = _timed_validator()(schema).iter_errors(instance)
    if first:
        return list(islice(found, 1))
    return list(found)


BOUNDS = ("maxItems", "maxLength", "maxProperties")


def _bounded(schema: Any, seen: dict[int, bool], root: Any) -> bool:
    """Whether a cheap bound (BOUNDS) appears anywhere in `schema` or the local `$ref`s it
    follows (`root` holds them; memo by id in `seen`)."""
    if id(schema) in seen:
        return seen[id(schema)]
    seen[id(schema)] = False  # a schema that holds itself is no bound by itself
    if isinstance(schema, dict):
        found = (
            any(k in schema for k in BOUNDS)
            or _bounded(_local(root, schema.get("$ref")), seen, root)
            or any(_bounded(v, seen, root) for v in schema.values())
        )
    elif isinstance(schema, list):
        found = any(_bounded(v, seen, root) for v in schema)
    else:
        found = False
    seen[id(schema)] = found
    return found


def _local(root: Any, ref: Any) -> Any:
    """The subschema a local `$ref` (`#/$defs/x`) names in `root`, or None."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _inner(schema: dict[str, Any], instance: Any) -> Iterator[tuple[Any, Any, Any]]:
    """(subschema, value, step) pairs a value's own bounds lead to: its items, its properties."""
    if isinstance(instance, list):
        prefix = schema.get("prefixItems")
        prefix = prefix if isinstance(prefix, list) else []
        items = schema.get("items")
        for i, item in enumerate(instance):
            sub = prefix[i] if i < len(prefix) else items
            if isinstance(sub, dict):
                yield sub, item, i
    elif isinstance(instance, dict):
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        extra = schema.get("additionalProperties")
        for key, item in instance.items():
            sub = props.get(key, extra)
            if isinstance(sub, dict):
                yield sub, item, key


def bound_issue(schema: Any, instance: Any, base: str = "salida") -> SchemaIssue | None:
    """The first cheap bound (`maxItems`, `maxLength`, `maxProperties`) the instance breaks,
    found without jsonschema: lengths only, following properties, items, `allOf` and local
    `$ref`s. A list of 5 M numbers against `maxItems: 10` is refused at its length, where a
    full validation would look at every number first."""
    seen: dict[int, bool] = {}
    stack: list[tuple[Any, Any, tuple[Any, ...]]] = [(schema, instance, ())]
    while stack:
        sub, value, steps = stack.pop()
        if not isinstance(sub, dict) or not _bounded(sub, seen, schema):
            continue
        for key, size in (("maxItems", list), ("maxLength", str), ("maxProperties", dict)):
            cap = sub.get(key)
            if isinstance(value, size) and isinstance(cap, int) and len(value) > cap:
                text = _rule_text(key, cap, value, "", "")
                return SchemaIssue(json_path(steps, base), text, key)
        every = sub.get("allOf")
        more = [_local(schema, sub.get("$ref")), *(every if isinstance(every, list) else [])]
        stack += [(m, value, steps) for m in more if isinstance(m, dict)]
        stack += [(s, v, (*steps, step)) for s, v, step in _inner(sub, value)]
    return None
