"""The hole written as a table of the values it computes at the defaults and at the class's
public variants: what a student who copies numbers (`if d == 16: omega = …`) hands in.

The course's lab runs instrumented (`capturing_source`) at the defaults and at each public
variant: each time a hole's region starts, the values of the names it reads are fingerprinted;
each time it ends, the values of the names it assigns are recorded as Python literals, under
that fingerprint. The table hole (`lookup_body`) fingerprints what it reads the same way and
assigns the values the course's lab gave the same inputs (the same time it saw them); inputs it
never saw get the defaults' values, the ones the hole had the same time it ran at the defaults.
So it matches the course's lab wherever it was captured, and elsewhere only where the hole
computes what it computed at the defaults: lint (authoring.lookup_check) judges it at the
instructor's private variants, which must reject it. Nothing here runs code.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping, Sequence

from compmath.course.syntax import parse
from compmath.holes.mutation import assigned
from compmath.holes.regions import Region, student_regions

MAX_ROWS = 20_000  # times a hole may run in one lab for its table to be written
MAX_TEXT = 4_000_000  # characters of literals per hole and run
DEFAULTS = "defecto"  # the table's key for the defaults' rows, in the order the hole ran
UNBOUND = "<sin valor>"  # the fingerprint of a name not bound when the hole starts

# The fingerprint of a value, in the capture and in the table hole alike: arrays by type, shape
# and a digest of their bytes, numbers and text by their repr, containers item by item, modules
# and functions by name, anything else by its type.
FINGERPRINT = """\
def _huella(value):
    import hashlib, numpy, types
    if isinstance(value, numpy.ndarray):
        if value.dtype.kind == "O":
            return f"O{value.shape}[" + ",".join(_huella(v) for v in value.ravel().tolist()) + "]"
        data = hashlib.sha256(numpy.ascontiguousarray(value).tobytes()).hexdigest()
        return f"nd{value.dtype.str}{value.shape}{data}"
    if isinstance(value, numpy.generic):
        return f"{type(value).__name__}({value.item()!r})"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return f"{type(value).__name__}({value!r})"
    if isinstance(value, (list, tuple)):
        return type(value).__name__ + "[" + ",".join(_huella(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_huella(k) + ":" + _huella(v) for k, v in value.items()) + "}"
    named = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
    if isinstance(value, named):
        return getattr(value, "__qualname__", getattr(value, "__name__", "?"))
    return type(value).__qualname__
def _forma(value):
    return (type(value).__name__, getattr(value, "shape", None), str(getattr(value, "dtype", "")))
"""

CAPTURE = (
    """
def __tabla_literal__(value):
    import numpy
    if isinstance(value, numpy.ndarray) and value.dtype.kind in "biufc":
        import base64
        data = base64.b64encode(numpy.ascontiguousarray(value).tobytes()).decode()
        return (f"__import__('numpy').frombuffer(__import__('base64').b64decode('{data}'), "
                f"dtype={value.dtype.str!r}).reshape({value.shape!r}).copy()")
    if isinstance(value, numpy.ndarray) and value.dtype.kind == "U":
        return f"__import__('numpy').array({value.tolist()!r}, dtype={value.dtype.str!r})"
    if isinstance(value, numpy.generic):
        return f"__import__('numpy').{type(value).__name__}({__tabla_literal__(value.item())})"
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f"float({str(value)!r})"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(__tabla_literal__(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(__tabla_literal__(v) + ", " for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(
            f"{__tabla_literal__(k)}: {__tabla_literal__(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value).__name__)
"""
    + FINGERPRINT
    + """__tablas__ = {}
__tablas_rotas__ = set()
__tablas_texto__ = {}
__tablas_entradas__ = {}
def __tabla_entrada__(hole, names, shallow, scope, module):
    import builtins, sys
    code = sys._getframe(1).f_code  # a function's own names are never its module's
    own = set(code.co_varnames + code.co_cellvars + code.co_freevars)
    found = []
    for name in names:
        places = (scope,) if name in own else (module, vars(builtins))
        where = next((w for w in places if name in w), None)
        value = where[name] if where is not None else %(unbound)r
        found.append(_forma(value) if name in shallow else value)
    __tablas_entradas__[hole] = _huella(found)
def __tabla_captura__(hole, names, scope):
    if hole in __tablas_rotas__:
        return
    try:
        row = "{" + ", ".join(
            f"{name!r}: {__tabla_literal__(scope[name])}" for name in names if name in scope) + "}"
    except Exception:
        __tablas_rotas__.add(hole)
        return
    rows = __tablas__.setdefault(hole, [])
    rows.append([__tablas_entradas__.get(hole, ""), row])
    __tablas_texto__[hole] = __tablas_texto__.get(hole, 0) + len(row)
    if len(rows) > %(rows)d or __tablas_texto__[hole] > %(text)d:
        __tablas_rotas__.add(hole)
"""
)
WRAP = """
__run__ = run
def run(**parametros):
    __run__(**parametros)
    return {f"hueco_{k}": ([] if k in __tablas_rotas__ else rows) for k, rows in __tablas__.items()}
"""


def read(region: Region) -> list[str]:
    """The names a region reads (loads, and the targets of `x += …`), in order of appearance."""
    tree = parse(textwrap.dedent("\n".join(region.body)))
    names: list[str] = []
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AugAssign) else None
        for name in (node, target):
            loaded = isinstance(name, ast.Name) and (
                isinstance(name.ctx, ast.Load) or name is target
            )
            if loaded and name.id not in names:  # type: ignore[union-attr]
                names.append(name.id)  # type: ignore[union-attr]
    return names


def changed(region: Region) -> list[str]:
    """The names a region binds or changes (mutation.assigned), and those whose method it calls
    as a statement (`historia.append(…)` changes historia)."""
    names = assigned(region)
    tree = parse(textwrap.dedent("\n".join(region.body)))
    for node in ast.walk(tree):
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            base = call.func.value
            if isinstance(base, ast.Name) and base.id not in names:
                names.append(base.id)
    return names


def overwritten(region: Region) -> list[str]:
    """The names a region writes into without reading what they held (`pe[:, 0::2] = …`): their
    content is no input (np.empty's may be anything), their type and shape are."""
    tree = parse(textwrap.dedent("\n".join(region.body)))
    names: list[str] = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            base = target
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if base is not target and isinstance(base, ast.Name) and base.id not in names:
                names.append(base.id)
    return names


def capturing_source(lines: Sequence[str], regions: Sequence[Region]) -> str:
    """The course's lab (its `lines`, holding the solution in `regions`), instrumented to return
    each hole's table: per time its region ended, [its inputs' fingerprint, its values as
    text]."""
    instrumented = list(lines)
    for region in reversed(regions):
        n = region.number
        end = f"{region.indent}__tabla_captura__({n}, {changed(region)!r}, locals())"
        names, shallow = read(region), overwritten(region)
        start = (
            f"{region.indent}__tabla_entrada__({n}, {names!r}, {shallow!r}, locals(), globals())"
        )
        instrumented.insert(region.end, end)
        instrumented.insert(region.begin + 1, start)
    capture = CAPTURE % {"unbound": UNBOUND, "rows": MAX_ROWS, "text": MAX_TEXT}
    return "\n".join(instrumented) + "\n" + capture + WRAP


def table(runs: Sequence[tuple[bool, Sequence[Sequence[str]]]]) -> dict[str, list[str]]:
    """One hole's table from its captured runs ((at the defaults, [[fingerprint, row], …])
    each): the rows by their inputs' fingerprint, in the order the hole ran, and the defaults'
    rows in that order under DEFAULTS; {} when some run could not be captured (an empty run:
    values with no literal, too many of them, a hole that never ran)."""
    found: dict[str, list[str]] = {}
    for default, rows in runs:
        if not rows:
            return {}
        for key, row in rows:
            found.setdefault(str(key), []).append(str(row))
            if default:
                found.setdefault(DEFAULTS, []).append(str(row))
    return found


def lookup_body(
    number: int,
    names: Sequence[str],
    inputs: Sequence[str],
    rows: Mapping[str, list[str]],
    shallow: Sequence[str] = (),
) -> tuple[str, ...]:
    """Hole `number` as a table: for what it reads (`inputs`), the values of its `names` the
    course's lab gave the same inputs (the same time it saw them); for inputs it never saw, the
    values it had the same time it ran at the defaults. Of the `shallow` inputs only the type
    and the shape count (see `overwritten`)."""
    store = f"__tabla_{number}__"
    entries = ",\n".join(
        f"        {key!r}: [\n" + "".join(f"            {row},\n" for row in values) + "        ]"
        for key, values in rows.items()
    )
    lines = [
        "# los valores del laboratorio del curso con los parámetros por defecto y con las",
        "# variantes públicas, copiados: una fila por cada vez que corre el hueco",
        *FINGERPRINT.splitlines(),
        "_entradas = []",
    ]
    for name in inputs:
        lines += [
            "try:",
            f"    _valor = {name}",
            "except NameError:",
            f"    _valor = {UNBOUND!r}",
            f"_entradas.append({'_forma(_valor)' if name in shallow else '_valor'})",
        ]
    lines += [
        "_clave = _huella(_entradas)",
        '_vistas = globals().setdefault("__tabla_vistas__", {})',
        f"_vez = _vistas[({number}, _clave)] = _vistas.get(({number}, _clave), -1) + 1",
        f"_orden = _vistas[{number}] = _vistas.get({number}, -1) + 1",
        f"if {store!r} not in globals():",
        f"    globals()[{store!r}] = {{",
        entries,
        "    }",
        f"_filas = globals()[{store!r}]",
        "if _clave in _filas and _vez < len(_filas[_clave]):",
        "    _fila = _filas[_clave][_vez]",
        "else:",
        f"    _fila = _filas[{DEFAULTS!r}][_orden]",
        '_fila = __import__("copy").deepcopy(_fila)',
    ]
    for name in names:
        lines += [f"if {name!r} in _fila:", f"    {name} = _fila[{name!r}]"]
    return tuple("\n".join(lines).splitlines())


def filled(exercise: str, bodies: Mapping[int, Sequence[str]]) -> str:
    """The exercise with hole k's body replaced by `bodies[k]` (dedented lines), as a student's
    lab.py; the holes not in `bodies` stay as they are."""
    lines = exercise.splitlines()
    for region in sorted(student_regions(exercise), key=lambda r: -r.begin):
        if region.number in bodies:
            placed = [
                f"{region.indent}{line}" if line.strip() else "" for line in bodies[region.number]
            ]
            lines[region.begin + 1 : region.end] = placed
    return "\n".join(lines) + "\n"
