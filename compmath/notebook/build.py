"""A class as a Jupyter notebook (the lab to read, run and check, or its exercise), and its bytes.

The notebook is built as a dict from the course model and written as nbformat itself writes
(sorted keys, one-space indent, sources split in lines), so the same sources give the same bytes
and a notebook saved again by Jupyter does not change. Its check cells import nothing but numpy
and the standard library: the checker's source (compmath/notebook/checker.py) travels inside.
"""

from __future__ import annotations

import ast
import json
import pprint
import re
from pathlib import Path
from typing import Any

from compmath.course.records import Tolerance
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.notebook import markdown
from compmath.notebook.checker import matrices
from compmath.notebook.labcode import CodeCell, LabCodeError, cell_id, lab_cells
from compmath.practice.holes import HoleError, exercise_source, without_markers
from compmath.present.page import ClassPage, Neighbour, class_page

FOLDER = "cuadernos"  # where `compmath notebook` writes, relative to the course root
PRACTICE_FOLDER = "practica"
CHECKER = Path(__file__).with_name("checker.py")
TOOLS_TITLE = (
    '#@title Herramientas de comprobación (no hace falta leerlas) { display-mode: "form" }'
)
GITHUB = re.compile(r"^https://github\.com/(?P<owner>[^/]+)/(?P<name>[^/]+?)/?$")
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def notebook_path(cls: ClassInfo, practice: bool = False) -> str:
    """Where a class's notebook lives in the repository (relative to the course root)."""
    folder = f"{FOLDER}/{PRACTICE_FOLDER}" if practice else FOLDER
    return f"{folder}/{cls.id}.ipynb"


def colab_url(course: Course, relative_path: str) -> str | None:
    """The «Abrir en Colab» address of a notebook in the course's repository (curso.toml's
    `repositorio` and `rama`), or None when the repository is not configured."""
    found = GITHUB.match(course.meta.repository)
    if found is None:
        return None
    owner, name = found.group("owner"), found.group("name")
    return (
        f"https://colab.research.google.com/github/{owner}/{name}/blob/"
        f"{course.meta.branch}/{relative_path}"
    )


class _Cells:
    """The notebook's cells in order, each with a unique id."""

    def __init__(self) -> None:
        self.cells: list[dict[str, Any]] = []
        self.ids: set[str] = set()

    def _id(self, name: str) -> str:
        base = cell_id(name)
        unique, n = base, 2
        while unique in self.ids:
            unique, n = f"{base}-{n}", n + 1
        self.ids.add(unique)
        return unique

    def markdown(self, name: str, source: str) -> None:
        self.cells.append(
            {"cell_type": "markdown", "id": self._id(name), "metadata": {}, "source": source}
        )

    def code(self, name: str, source: str, hidden: bool = False) -> None:
        metadata = {"cellView": "form", "jupyter": {"source_hidden": True}} if hidden else {}
        self.cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "id": self._id(name),
                "metadata": metadata,
                "outputs": [],
                "source": source,
            }
        )


def _literal(name: str, value: Any, comment: str = "") -> str:
    """`NAME = value` as readable Python (a dict one key per line; its order kept)."""
    line = f"{name} = "
    if not isinstance(value, dict) or not value:
        body = pprint.pformat(value, width=92 - len(line), sort_dicts=False, compact=True)
        return f"{line}{body}{comment}"
    rows = [f"{line}{{{comment}"]
    for key, item in value.items():
        head = f"    {key!r}: "
        text = pprint.pformat(item, width=96 - len(head), sort_dicts=False, compact=True)
        rows.append(head + text.replace("\n", "\n" + " " * len(head)) + ",")
    return "\n".join([*rows, "}"])


def _tolerance(tol: Tolerance) -> dict[str, float]:
    return {"atol": tol.atol, "rtol": tol.rtol}


def _data_cell(cls: ClassInfo, snapshot: dict[str, Any], holes: dict[int, Any]) -> str:
    meta = cls.meta
    default, per_output = meta.tolerances()
    own = {name: _tolerance(tol) for name, tol in per_output.items()}
    lines = [
        "# Lo que la comprobación espera: la instantánea (expected.json), los decimales con",
        "# que se redondean las salidas y las tolerancias: |o − e| ≤ atol + rtol·|e|.",
        f"DECIMALES = {meta.decimals}",
        _literal("TOLERANCIA", _tolerance(default)),
        _literal("TOLERANCIAS", own, "  # salidas con tolerancia propia"),
    ]
    if holes:
        lines.append(
            _literal("HUECOS", holes, "  # la función de cada hueco y las salidas que alimenta")
        )
    lines.append(_literal("ESPERADO", snapshot))
    return "\n".join(lines)


def _tools() -> str:
    """The checker's source without its module docstring, under a Colab form title."""
    source = CHECKER.read_text(encoding="utf-8")
    body = ast.parse(source).body[0]
    rest = source.splitlines()[body.end_lineno or 0 :]
    return "\n".join([TOOLS_TITLE, *rest]).rstrip()


def _lab(course: Course, cls: ClassInfo, practice: bool) -> list[CodeCell]:
    source = cls.lab.read_text(encoding="utf-8")
    rel = course.rel(cls.lab)
    try:
        if practice:
            tasks = [hole.task for hole in cls.meta.holes]
            if not tasks:
                raise CompmathError(
                    f"la clase {cls.number} no tiene huecos ([[huecos]] en class.toml)",
                    f"el cuaderno sin huecos: compmath notebook {cls.number}",
                )
            return lab_cells(exercise_source(source, tasks))
        return lab_cells(without_markers(source))
    except (HoleError, LabCodeError) as exc:
        raise CompmathError(f"{rel}: {exc}", "corrígelo; compmath lint lo comprueba") from None


def build_notebook(course: Course, cls: ClassInfo, practice: bool = False) -> dict[str, Any]:
    """The notebook of a class as an nbformat 4 dict (raise CompmathError on broken sources)."""
    page = class_page(course, cls)
    if page.sample is None:
        raise CompmathError(
            f"la clase {cls.number} no tiene instantánea: el cuaderno no tendría con qué comprobar",
            f"créala con compmath update {cls.number}",
        )
    code = _lab(course, cls, practice)
    owner = {k: cell.name for cell in code for k in cell.holes}
    holes = {
        k: {"funcion": owner[k], "salidas": list(hole.outputs)}
        for k, hole in enumerate(cls.meta.holes if practice else (), 1)
    }
    cells = _Cells()
    here = notebook_path(cls, practice)
    cells.markdown("titulo", markdown.header(page, colab_url(course, here), practice))
    if practice:
        cells.markdown("practica", markdown.practice_intro(cls.meta.holes))
    cells.markdown("formulas", markdown.formulas(page))
    for name, text in zip(("desarrollo", "ejemplo"), markdown.prose(page)):
        cells.markdown(name, text)
    cells.markdown("que-calcula", markdown.computes(page))
    if practice:  # the hole checks below need the tools and the data first
        cells.markdown("comprobacion", f"## Herramientas de comprobación\n\n{TOOLS_TEXT}")
        _tools_and_data(cells, cls, page, holes)
    cells.markdown("laboratorio", _lab_intro(course, cls, practice))
    for cell in code:
        cells.code(f"codigo-{cell.name}", cell.source)
        for k in cell.holes:
            cells.code(f"comprobar-hueco-{k}", f"comprobar_hueco({k})")
            cells.markdown(f"pistas-hueco-{k}", markdown.hints(k, cls.meta.holes[k - 1]))
    cells.markdown("salidas", markdown.outputs(page))
    if not practice:
        cells.markdown(
            "ejecutar-md",
            f"## Ejecutar y comprobar\n\n{TOOLS_TEXT} La tercera ejecuta `run()` y muestra sus "
            "salidas; la última las compara con la instantánea, una a una.",
        )
        _tools_and_data(cells, cls, page, holes)
    _run_and_check(cells, page, practice)
    link = _linker(course, practice)
    for name, text in zip(
        ("errores-comunes", "donde-se-usa", "ideas-de-la-parte", "bibliografia", "navegacion"),
        markdown.closing(page, link),
    ):
        cells.markdown(name, text)
    return {
        "cells": cells.cells,
        "metadata": {"kernelspec": KERNEL, "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _lab_intro(course: Course, cls: ClassInfo, practice: bool) -> str:
    where = f"`{course.rel(cls.lab)}`"
    if practice:
        return (
            f"## El laboratorio, con sus huecos\n\nEl código de {where}, celda a celda. Tras cada "
            "hueco, una celda comprueba las salidas que alimenta y otra guarda sus pistas."
        )
    return (
        f"## El laboratorio\n\nEl código de {where}, celda a celda: las constantes del ejemplo, "
        "una función por paso y `run()`, que devuelve las salidas en el orden de la página."
    )


TOOLS_TEXT = (
    "La primera celda trae las herramientas de comprobación (plegada: no hace falta leerla; "
    "solo usa numpy y la biblioteca estándar) y la segunda, los datos con que se comprueba: la "
    "instantánea y sus tolerancias, las mismas que usa `compmath run`."
)


def _tools_and_data(cells: _Cells, cls: ClassInfo, page: ClassPage, holes: dict[int, Any]) -> None:
    cells.code("herramientas", _tools(), hidden=True)
    cells.code("datos", _data_cell(cls, page.sample or {}, holes))


def _run_and_check(cells: _Cells, page: ClassPage, practice: bool) -> None:
    if practice:
        cells.markdown(
            "ejecutar-md",
            "## Ejecutar y comprobar\n\nCon todos los huecos completos, `run()` termina y la "
            "última celda compara cada salida con la instantánea.",
        )
        cells.code(
            "ejecutar",
            "salidas = ejecutar(run)  # None mientras quede un hueco sin completar\n"
            "if salidas is not None:\n    mostrar(salidas)",
        )
    else:
        cells.code("ejecutar", "salidas = run()\nmostrar(salidas)")
    if any(matrices(name, value) for name, value in (page.sample or {}).items()):
        cells.code(
            "mapas", "dibujar_mapas(salidas)  # las salidas 2-D, si matplotlib está instalado"
        )
    check = "coinciden = comprobar(salidas)"
    cells.code("comprobar", f"estado_de_los_huecos()\n{check}" if practice else check)


def _linker(course: Course, practice: bool) -> markdown.Link:
    """Neighbouring notebooks: in Colab when the repository is set, else the file beside this."""

    def link(found: Neighbour) -> str:
        target = next(c for c in course.classes if c.number == found.number)
        return colab_url(course, notebook_path(target, practice)) or f"{target.id}.ipynb"

    return link


def dumps_notebook(notebook: dict[str, Any]) -> str:
    """The notebook as nbformat writes it: sorted keys, indent 1, sources as lists of lines."""
    cells = [
        {**cell, "source": cell["source"].splitlines(keepends=True)} for cell in notebook["cells"]
    ]
    text = json.dumps(
        {**notebook, "cells": cells},
        indent=1,
        sort_keys=True,
        separators=(",", ": "),
        ensure_ascii=False,
    )
    return text + "\n"


def validate_notebook(text: str, shown: str) -> None:
    """Raise CompmathError unless `text` is a valid nbformat 4 notebook (nbformat's schema)."""
    import nbformat

    try:
        nbformat.validate(json.loads(text))
    except nbformat.ValidationError as exc:
        raise CompmathError(
            f"el cuaderno {shown} no es válido: {exc.message}",
            "es un fallo de compmath notebook; avisa con este mensaje",
        ) from None


def notebook_bytes(course: Course, cls: ClassInfo, practice: bool = False) -> bytes:
    """A class's notebook, checked against nbformat's schema, as the bytes to write or serve."""
    text = dumps_notebook(build_notebook(course, cls, practice))
    validate_notebook(text, notebook_path(cls, practice))
    return text.encode("utf-8")
