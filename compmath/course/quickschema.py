"""A fast yes for the course's metadata schemas: True only when jsonschema would find nothing.

`list` must say `rota` for a class.toml that `run` would refuse, without paying jsonschema for
a thousand sound files (4 s cold). QuickSchema compiles a schema once into one Python check per
keyword, for the keywords the course's schemas use (type, enum, required, properties,
additionalProperties, items, minItems, minLength, pattern, minimum, maximum, exclusiveMinimum,
uniqueItems, minProperties, propertyNames, local `$ref`) with jsonschema's draft 2020-12 meaning,
as strict as the metaschema about their values, or stricter. `valid(data)` answers False for
anything else: a violation, a value whose judging is jsonschema's own (1.0 as an integer, equality
of containers), a schema with a keyword it does not know. False is never a verdict, only "ask
jsonschema", which then gives the verdict and its message. tests/test_quickschema.py holds it to
jsonschema on mutated class.toml files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]
ANNOTATIONS = {"title", "description", "$comment"}
ROOT_ONLY = {"$schema", "$id", "$defs"}
TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


class _Unknown(Exception):
    """A keyword or a value this interpreter does not judge."""


class QuickSchema:
    """A parsed schema compiled once: `valid(data)` is True only when jsonschema finds nothing."""

    def __init__(self, schema: Any) -> None:
        self.defs: dict[str, Check] = {}
        self.check: Check | None = None
        try:
            if not isinstance(schema, dict):
                raise _Unknown
            defs = schema.get("$defs", {})
            if not isinstance(defs, dict):
                raise _Unknown
            self.raw_defs = defs
            self.check = self._compile(schema, root=True)
            for name in defs:  # a $def nobody references is still checked by the metaschema
                self._def(name)
        except (_Unknown, re.error, TypeError, ValueError, RecursionError):
            self.check = None

    def valid(self, data: Any) -> bool:
        if self.check is None:
            return False
        try:
            return self.check(data)
        except (_Unknown, RecursionError):
            return False

    def _def(self, name: str) -> Check:
        if name not in self.defs:
            if name not in self.raw_defs:
                raise _Unknown
            self.defs[name] = _never  # a reference to itself while compiling: not judged
            self.defs[name] = self._compile(self.raw_defs[name])
        return self.defs[name]

    def _compile(self, schema: Any, *, root: bool = False) -> Check:
        # Complexity D, on purpose: one branch per keyword, as the draft lists them; a table of
        # functions would hide which keywords need the schema around them (additionalProperties).
        if schema is True:
            return _always
        if schema is False:
            return _never_valid
        if not isinstance(schema, dict):
            raise _Unknown
        text = _string_leaf(schema)
        if text is not None:
            return text
        checks: list[Check] = []
        for keyword, value in schema.items():
            if keyword in ANNOTATIONS or (root and keyword in ROOT_ONLY):
                if keyword != "$defs" and not isinstance(value, str):
                    raise _Unknown
            elif keyword == "type":
                checks.append(_type(value))
            elif keyword == "enum":
                checks.append(_enum(value))
            elif keyword == "required":
                checks.append(_required(value))
            elif keyword == "properties":
                checks.append(self._properties(value, schema.get("additionalProperties", True)))
            elif keyword == "additionalProperties":
                if "properties" not in schema:
                    checks.append(self._properties({}, value))
            elif keyword == "items":
                checks.append(_all_items(self._compile(value)))
            elif keyword == "propertyNames":
                checks.append(_all_names(self._compile(value)))
            elif keyword == "$ref":
                checks.append(self._ref(value))
            elif keyword in SIMPLE:
                checks.append(SIMPLE[keyword](value))
            else:
                raise _Unknown
        return _every(checks)

    def _properties(self, value: Any, additional: Any) -> Check:
        if not isinstance(value, dict):
            raise _Unknown
        named = {name: self._compile(sub) for name, sub in value.items()}
        other = self._compile(additional)

        def check(instance: Any) -> bool:
            if not isinstance(instance, dict):
                return True
            return all(named.get(key, other)(item) for key, item in instance.items())

        return check

    def _ref(self, value: Any) -> Check:
        if not isinstance(value, str) or not value.startswith("#/$defs/"):
            raise _Unknown
        name = value.removeprefix("#/$defs/")
        if any(c in name for c in "/~%"):
            raise _Unknown
        self._def(name)
        return lambda instance: self.defs[name](instance)


def _string_leaf(schema: dict[str, Any]) -> Check | None:
    """`{"type": "string"}` with a minLength and/or pattern, as one check (most of a class.toml's
    leaves); None for any other schema."""
    if schema.get("type") != "string" or not set(schema) <= {"type", "minLength", "pattern"}:
        return None
    least = _count(schema.get("minLength", 0))
    pattern = schema.get("pattern")
    if pattern is None:
        return lambda instance: isinstance(instance, str) and len(instance) >= least
    if not isinstance(pattern, str):
        raise _Unknown
    search = re.compile(pattern).search
    return lambda instance: (
        isinstance(instance, str) and len(instance) >= least and search(instance) is not None
    )


def _every(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda instance: first(instance) and second(instance)

    return lambda instance: all(one(instance) for one in checks)


def _always(instance: Any) -> bool:
    return True


def _never_valid(instance: Any) -> bool:
    return False


def _never(instance: Any) -> bool:
    raise _Unknown


def _type(value: Any) -> Check:
    kinds = value if isinstance(value, list) else [value]
    if not kinds or not all(isinstance(k, str) and k in TYPES for k in kinds):
        raise _Unknown
    if len(set(kinds)) != len(kinds):
        raise _Unknown
    if "number" in kinds and "integer" in kinds:
        kinds = [k for k in kinds if k != "integer"]
    if "boolean" in kinds:  # bool is an int to Python: its own test
        others = tuple(t for k in kinds if k != "boolean" for t in TYPES[k])
        return lambda instance: isinstance(instance, bool) or (
            isinstance(instance, others) and not isinstance(instance, bool)
        )
    types = tuple(t for k in kinds for t in TYPES[k])
    return lambda instance: isinstance(instance, types) and not isinstance(instance, bool)


def _enum(value: Any) -> Check:
    if not isinstance(value, list):
        raise _Unknown

    def check(instance: Any) -> bool:
        if isinstance(instance, (list, dict)):
            raise _Unknown  # jsonschema's equality of containers is its own to judge
        return any(type(v) is type(instance) and v == instance for v in value)

    return check


def _required(value: Any) -> Check:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Unknown
    if len(set(value)) != len(value):
        raise _Unknown
    return lambda instance: not isinstance(instance, dict) or all(k in instance for k in value)


def _all_items(item: Check) -> Check:
    def check(instance: Any) -> bool:
        if isinstance(instance, list):
            for value in instance:
                if not item(value):
                    return False
        return True

    return check


def _all_names(name: Check) -> Check:
    return lambda instance: not isinstance(instance, dict) or all(name(k) for k in instance)


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _Unknown
    return value


def _limit(value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
        raise _Unknown
    return value


def _number(instance: Any) -> bool:
    return isinstance(instance, (int, float)) and not isinstance(instance, bool)


def _min_items(value: Any) -> Check:
    least = _count(value)
    return lambda instance: not isinstance(instance, list) or len(instance) >= least


def _min_length(value: Any) -> Check:
    least = _count(value)
    return lambda instance: not isinstance(instance, str) or len(instance) >= least


def _min_properties(value: Any) -> Check:
    least = _count(value)
    return lambda instance: not isinstance(instance, dict) or len(instance) >= least


def _pattern(value: Any) -> Check:
    if not isinstance(value, str):
        raise _Unknown
    search = re.compile(value).search
    return lambda instance: not isinstance(instance, str) or search(instance) is not None


def _minimum(value: Any) -> Check:
    bound = _limit(value)
    return lambda instance: not _number(instance) or instance >= bound


def _maximum(value: Any) -> Check:
    bound = _limit(value)
    return lambda instance: not _number(instance) or instance <= bound


def _exclusive_minimum(value: Any) -> Check:
    bound = _limit(value)
    return lambda instance: not _number(instance) or instance > bound


def _unique(value: Any) -> Check:
    if not isinstance(value, bool):
        raise _Unknown

    def check(instance: Any) -> bool:
        if not value or not isinstance(instance, list):
            return True
        if not all(isinstance(v, str) for v in instance):
            raise _Unknown  # jsonschema's equality (1 == 1.0, True != 1) is its own to judge
        return len(set(instance)) == len(instance)

    return check


SIMPLE: dict[str, Callable[[Any], Check]] = {
    "minItems": _min_items,
    "minLength": _min_length,
    "minProperties": _min_properties,
    "pattern": _pattern,
    "minimum": _minimum,
    "maximum": _maximum,
    "exclusiveMinimum": _exclusive_minimum,
    "uniqueItems": _unique,
}
