"""The notebook's own check: its tools cell (rules.py and checker.py as one cell, folded), its
data cell (the snapshot, the decimals, the tolerances, the holes) and the names they take."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import Any

from compmath.course.records import Tolerance
from compmath.course.tree import ClassInfo
from compmath.notebook.cells import literal

HERE = Path(__file__).parent
SOURCES = (HERE / "rules.py", HERE / "checker.py")
TITLE = '#@title Herramientas de comprobación (no hace falta leerlas) { display-mode: "form" }'
FUTURE = "from __future__ import annotations"
REFERENCE_NAME = "REFERENCIA_DEL_CURSO"
CELL_NAMES = {
    "comprobacion",
    "salidas",
    "coinciden",
    REFERENCE_NAME,
}  # what the notebook's own cells assign
REFERENCE_TITLE = (
    "#@title El laboratorio del curso, comprimido: con él se juzga cada hueco "
    '(no hace falta leerlo) { display-mode: "form" }'
)


@cache
def tools_source() -> str:
    """rules.py and checker.py as one cell: their imports first, then their classes (module
    docstrings and compmath imports left out: in the notebook, the classes are all there is)."""
    imports: dict[str, None] = {}
    bodies: list[str] = []
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.parse(source).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                text = "\n".join(lines[node.lineno - 1 : node.end_lineno])
                if text != FUTURE and not text.startswith("from compmath"):
                    imports[text] = None
            elif isinstance(node, ast.ClassDef):
                bodies.append("\n".join(lines[node.lineno - 1 : node.end_lineno]))
    return "\n\n\n".join([f"{TITLE}\n{FUTURE}\n\n" + "\n".join(sorted(imports)), *bodies])


@cache
def taken_names() -> frozenset[str]:
    """The names the notebook's tools and check cells bind, which a lab must leave free."""
    names = set(CELL_NAMES)
    for node in ast.parse(tools_source()).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
    return frozenset(names)


def _tolerance(tol: Tolerance) -> dict[str, float]:
    return {"atol": tol.atol, "rtol": tol.rtol}


def reference_source(cls: ClassInfo) -> str:
    """The hidden cell holding the course's lab, compressed: its solution regions between the
    exercise's hole markers, without its `__main__` block (each hole is judged inside it)."""
    import base64
    import zlib

    from compmath.course.syntax import parsed
    from compmath.notebook.labcode import lab_cells
    from compmath.practice.holes import solution_regions

    lines = cls.lab.read_text(encoding="utf-8").splitlines()
    source = "\n".join(lines) + "\n"
    for region in solution_regions(source):
        lines[region.begin] = f"{region.indent}### HUECO {region.number} ###"
        lines[region.end] = f"{region.indent}### FIN DEL HUECO {region.number} ###"
    # only comment lines changed: the lab's own syntax tree still places every statement
    cells = lab_cells("\n".join(lines) + "\n", parsed(source))
    text = "\n\n\n".join(cell.source for cell in cells) + "\n"
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    rows = [f'    "{packed[i : i + 80]}"' for i in range(0, len(packed), 80)]
    return "\n".join([REFERENCE_TITLE, f"{REFERENCE_NAME} = (", *rows, ")"])


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
        variants = [{}, *(dict(v) for v in cls.meta.variants)]
        lines += [
            f"    huecos={literal(holes, 4)},  # la función de cada hueco, sus salidas",
            f"    variantes={literal(variants, 4)},  # cada hueco se juzga con cada una",
            f"    referencia={REFERENCE_NAME},",
        ]
    lines += [f"    esperado={literal(snapshot, 4)},", ")"]
    return "\n".join(lines)
