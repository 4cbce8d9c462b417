"""The notebook's own check: its tools cell (rules.py and checker.py as one cell, folded), its
data cell (the snapshot, the decimals, the tolerances, the holes) and the names they take."""

from __future__ import annotations

import ast
from functools import cache
from typing import Any

from compmath.course.records import Tolerance
from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.notebook.cells import literal
from compmath.notebook.recording import recordings, regions
from compmath.notebook.toolcode import tools_source

REFERENCE_NAME = "REFERENCIA_DEL_CURSO"
CELL_NAMES = {
    "comprobacion",
    "salidas",
    "coinciden",
    REFERENCE_NAME,
}  # what the notebook's own cells assign
REFERENCE_TITLE = (
    "#@title Lo que da el laboratorio del curso en cada variante, comprimido: argumentos y "
    "resultados de cada función con hueco, sin su código (no hace falta leerlo) "
    '{ display-mode: "form" }'
)


@cache
def taken_names() -> frozenset[str]:
    """The names the notebook's tools and check cells bind, which a lab must leave free."""
    names = set(CELL_NAMES)
    for node in parse(tools_source()).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
    return frozenset(names)


def _tolerance(tol: Tolerance) -> dict[str, float]:
    return {"atol": tol.atol, "rtol": tol.rtol}


def variants(cls: ClassInfo) -> list[dict[str, Any]]:
    """The parameters each hole is judged with: the defaults, then the hidden variants."""
    return [{}, *(dict(v) for v in cls.meta.variants)]


def reference_source(cls: ClassInfo, *, recorded: bool = True) -> str:
    """The hidden cell holding what the course's lab gives at each variant, compressed: for each
    function with a hole, the arguments of its smallest call and what it returned (never the
    course's code: see recording.py). Not `recorded`: the same cell holding none (what the site
    compares a committed notebook with, its labs not run)."""
    import base64
    import json
    import zlib

    made = recordings(cls, variants(cls)) if recorded else []
    text = json.dumps(made, sort_keys=True, separators=(",", ":"))
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    rows = [f'    "{packed[i : i + 80]}"' for i in range(0, len(packed), 80)]
    return "\n".join([REFERENCE_TITLE, f"{REFERENCE_NAME} = (", *rows, ")"])


def read_reference(source: str) -> tuple[Any, str] | None:
    """What reference_source packed in a cell's `source`, and the rest of that source without
    it; None when the cell holds no such reference or it does not unpack."""
    import base64
    import json
    import re
    import zlib

    found = re.search(rf"^{REFERENCE_NAME} = \(\n(.*?)\n\)", source, re.S | re.M)
    if found is None:
        return None
    packed = "".join(re.findall(r'"([^"]*)"', found.group(1)))
    try:
        data = json.loads(zlib.decompress(base64.b64decode(packed, validate=True)))
    except (ValueError, zlib.error):
        return None
    return data, source[: found.start()] + source[found.end() :]


def data_source(cls: ClassInfo, snapshot: dict[str, Any], holes: dict[int, Any]) -> str:
    """The data cell: `comprobacion = Comprobacion(...)` with everything the check expects."""
    default, per_output = cls.meta.tolerances()
    own = {name: _tolerance(tol) for name, tol in per_output.items()}
    lines = [
        "# Lo que la comprobación espera: la instantánea (expected.json), los decimales con",
        "# que se redondean las salidas y las tolerancias: |o − e| ≤ atol + rtol·|e|.",
        "comprobacion = Comprobacion(",
        f"    decimales={cls.meta.decimals},",
        f"    tolerancia={literal(_tolerance(default), 4)},",
        f"    tolerancias={literal(own, 4)},  # las salidas con tolerancia propia",
    ]
    if holes:
        lines += [
            f"    huecos={literal(holes, 4)},  # la función de cada hueco, sus salidas",
            f"    variantes={literal(variants(cls), 4)},  # cada hueco se juzga con cada una",
            f"    referencia={REFERENCE_NAME},",
        ]
        shared = regions(cls)
        if shared:  # what a hole that shares its function reads and leaves (names only)
            lines.append(f"    tramos={literal(shared, 4)},")
    lines += [f"    esperado={literal(snapshot, 4)},", ")"]
    return "\n".join(lines)
