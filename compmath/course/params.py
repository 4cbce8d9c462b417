"""Read a lab's parameters (name, type, default) and parse `--set NAME=VALUE` against them."""

from __future__ import annotations

import ast
import inspect
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from compmath.course.syntax import parsed
from compmath.wording import decimal_point

TYPE_NAMES = {int: "int", float: "float", bool: "bool", str: "str"}
SPANISH_TYPES = {"int": "entero", "float": "real", "bool": "booleano", "str": "texto"}
TRUE_WORDS = {"true", "1", "si", "sí", "yes"}
FALSE_WORDS = {"false", "0", "no"}


class ParamError(ValueError):
    """A `--set` that names no parameter, has no `=`, or holds a value of the wrong type."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


class ParamSpec(NamedTuple):
    """One parameter of a lab's run(): its name, type name and default value (a NamedTuple:
    `python lab.py` reads these, and a dataclass would cost its start-up ~15 ms)."""

    name: str
    type_name: str
    default: Any
    default_source: str = ""  # the default as written in lab.py, when read from its source


def specs_from_function(run: Callable[..., Any]) -> list[ParamSpec]:
    """List the parameters of a live run() function from its signature."""
    specs = []
    for param in inspect.signature(run).parameters.values():
        annotation = param.annotation
        type_name = annotation if isinstance(annotation, str) else TYPE_NAMES.get(annotation, "")
        default = None if param.default is inspect.Parameter.empty else param.default
        specs.append(ParamSpec(param.name, type_name, default))
    return specs


def assignments(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """Module-level `NAME = value` (and `NAME: T = value`) statements: the name, the value."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            yield target.id, value


def _constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level `NAME = literal` assignments, so `dimension: int = DIMENSION` resolves."""
    found: dict[str, Any] = {}
    for name, value in assignments(tree):
        try:
            found[name] = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    return found


def _default(node: ast.expr | None, constants: dict[str, Any]) -> Any:
    if node is None:
        return None
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None  # the type annotation is what parsing needs; the default is only shown


def specs_from_source(lab_path: Path) -> list[ParamSpec] | None:
    """List run()'s parameters by reading lab.py's syntax tree (no import); None if no run()."""
    try:
        tree = parsed(lab_path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    constants = _constants(tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "run":
            args = node.args
            positional = args.posonlyargs + args.args
            defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
            pairs = list(zip(positional, defaults + list(args.defaults)))
            pairs += list(zip(args.kwonlyargs, args.kw_defaults))
            specs = []
            for arg, default in pairs:
                annotation = arg.annotation
                if isinstance(annotation, ast.Name):
                    type_name = annotation.id
                elif isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                    type_name = annotation.value
                else:
                    type_name = ""
                source = ast.unparse(default) if default is not None else ""
                specs.append(ParamSpec(arg.arg, type_name, _default(default, constants), source))
            return specs
    return None


def coerce(spec: ParamSpec, raw: str) -> Any:
    """Convert the text of a `--set` value to the parameter's type, or raise ParamError."""
    kind = SPANISH_TYPES.get(spec.type_name, spec.type_name or "sin tipo")
    dotted = decimal_point(raw) if spec.type_name == "float" else None
    problem = ParamError(
        f"el valor «{raw}» no es válido para el parámetro {spec.name} ({spec.type_name}: {kind})",
        f"escribe el decimal con punto: --set {spec.name}={dotted}"
        if dotted is not None
        else f"ejemplo: --set {spec.name}={spec.default!r}".replace("'", ""),
    )
    try:
        if spec.type_name == "int":
            return int(raw)
        if spec.type_name == "float":
            value = float(raw)
            if not math.isfinite(value):
                raise problem
            return value
        if spec.type_name == "bool":
            word = raw.strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise problem
        if spec.type_name == "str":
            return raw
    except ValueError as exc:
        if isinstance(exc, ParamError):
            raise
        raise problem from None
    raise ParamError(
        f"el parámetro {spec.name} no declara un tipo admitido (int, float, bool, str)",
        "anota el parámetro en run(), por ejemplo: dimension: int = 8",
    )


def parse_assignments(specs: list[ParamSpec], assignments: list[str]) -> dict[str, Any]:
    """Parse `NAME=VALUE` strings into typed keyword arguments for run()."""
    by_name = {spec.name: spec for spec in specs}
    names = ", ".join(f"{s.name} ({s.type_name})" for s in specs) or "ninguno"
    params: dict[str, Any] = {}
    for item in assignments:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ParamError(
                f"--set espera NOMBRE=VALOR y recibió «{item}»", f"parámetros: {names}"
            )
        if name not in by_name:
            raise ParamError(
                f"el laboratorio no tiene el parámetro «{name}»", f"parámetros: {names}"
            )
        params[name] = coerce(by_name[name], raw)
    return params
