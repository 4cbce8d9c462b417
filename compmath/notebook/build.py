"""A class as a Jupyter notebook: the lab to read, run and check, or its exercise with holes.

Built as a dict from the course model: the page's sections as Markdown, the lab's code split at
its top-level definitions, a cell that runs run() and shows its outputs, and a check cell that
compares them with the snapshot carried inside. Nothing in it imports compmath.
"""

from __future__ import annotations

import re
from typing import Any

from compmath.course.per_student import filled, filled_hole
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.holes.own import defaults_values
from compmath.holes.regions import HoleError, exercise_source, without_markers
from compmath.notebook import markdown
from compmath.notebook.cells import Cells, dumps_notebook, validate_notebook
from compmath.notebook.labcode import CodeCell, LabCodeError, defined_names, lab_cells
from compmath.notebook.rules import Reglas
from compmath.notebook.toolcode import tools_source
from compmath.notebook.tools import data_source, reference_source, taken_names
from compmath.present.page import ClassPage, Neighbour, class_page

FOLDER = "cuadernos"  # where `compmath notebook` writes, relative to the course root
PRACTICE_FOLDER = "practica"
GITHUB = re.compile(r"^https://github\.com/(?P<owner>[^/]+)/(?P<name>[^/]+?)/?$")
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}
TOOLS_TEXT = (
    "La primera celda trae las herramientas de comprobación (plegada: no hace falta leerla; "
    "solo usa la biblioteca estándar) y la segunda, los datos con que se comprueba: la "
    "instantánea y sus tolerancias, las mismas que usa `compmath run`."
)


def notebook_path(cls: ClassInfo, *, practice: bool = False) -> str:
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


def _lab(course: Course, cls: ClassInfo, *, practice: bool) -> list[CodeCell]:
    """The lab's code cells (its exercise with `practice`), checked against the tools' names."""
    source = cls.lab.read_text(encoding="utf-8")
    rel = course.rel(cls.lab)
    defaults = defaults_values(cls, {})  # a task's {{nombre}}: the lab's default value
    tasks = [filled(hole.task, defaults) for hole in cls.meta.holes]
    if practice and not tasks:
        raise CompmathError(
            f"la clase {cls.number} no tiene huecos ([[huecos]] en class.toml)",
            f"el cuaderno sin huecos: compmath notebook {cls.number}",
        )
    try:
        cells = lab_cells(exercise_source(source, tasks) if practice else without_markers(source))
    except (HoleError, LabCodeError) as exc:
        raise CompmathError(f"{rel}: {exc}", "corrígelo; compmath lint lo comprueba") from None
    clash = sorted(defined_names(source) & taken_names())
    if clash:
        raise CompmathError(
            f"{rel} define {', '.join(clash)}, que el cuaderno usa para comprobarse",
            "cambia ese nombre en el laboratorio",
        )
    return cells


def build_notebook(
    course: Course,
    cls: ClassInfo,
    *,
    practice: bool = False,
    neighbours: frozenset[str] | None = None,
    page: ClassPage | None = None,
    recorded: bool = True,
) -> dict[str, Any]:
    """The notebook of a class as an nbformat 4 dict (raise CompmathError on broken sources).

    `neighbours`: the class ids whose notebooks sit beside this one (None: every class's); a
    neighbour outside it is named without a link, unless Colab can open it from the repository.
    `page`: the class's page when the caller has it (the site: made once for every file).
    Not `recorded`: the practice notebook without what the course's lab gives (no lab runs)."""
    page = page or class_page(course, cls)
    if page.sample is None:
        raise CompmathError(
            f"la clase {cls.number} no tiene instantánea: el cuaderno no tendría con qué comprobar",
            f"créala con compmath update {cls.number}",
        )
    code = _lab(course, cls, practice=practice)
    owner = {k: cell.name for cell in code for k in cell.holes}
    holes = {
        k: {"funcion": owner[k], "salidas": list(hole.outputs)}
        for k, hole in enumerate(cls.meta.holes if practice else (), 1)
    }
    cells = Cells()
    colab = colab_url(course, notebook_path(cls, practice=practice))
    cells.markdown("titulo", markdown.header(page, colab, practice=practice))
    if practice:
        cells.markdown("practica", markdown.practice_intro(cls.meta.holes))
    cells.markdown("formulas", markdown.formulas(page))
    for name, text in zip(("desarrollo", "ejemplo"), markdown.prose(page)):
        cells.markdown(name, text)
    cells.markdown("que-calcula", markdown.computes(page))
    if practice:  # the hole checks below need the tools and the data first
        cells.markdown("comprobacion", f"## Herramientas de comprobación\n\n{TOOLS_TEXT}")
        _tools_and_data(cells, cls, page, holes, recorded=recorded)
    cells.markdown("laboratorio", _lab_intro(course, cls, practice=practice))
    for cell in code:
        cells.code(f"codigo-{cell.name}", cell.source)
        for k in cell.holes:
            cells.code(f"comprobar-hueco-{k}", f"comprobacion.hueco({k})")
            hole = filled_hole(cls.meta.holes[k - 1], defaults_values(cls, {}))
            cells.markdown(f"pistas-hueco-{k}", markdown.hints(k, hole))
    cells.markdown("salidas", markdown.outputs(page))
    _run_and_check(cells, cls, page, practice=practice)
    link = _linker(course, practice=practice, neighbours=neighbours)
    names = ("errores-comunes", "donde-se-usa", "ideas-de-la-parte", "bibliografia", "navegacion")
    for name, text in zip(names, markdown.closing(page, link)):
        cells.markdown(name, text)
    return {
        "cells": cells.cells,
        "metadata": {"kernelspec": KERNEL, "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _lab_intro(course: Course, cls: ClassInfo, *, practice: bool) -> str:
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


def _tools_and_data(
    cells: Cells, cls: ClassInfo, page: ClassPage, holes: dict[int, Any], *, recorded: bool = True
) -> None:
    cells.code("herramientas", tools_source(), hidden=True)
    if holes:
        cells.code("referencia", reference_source(cls, recorded=recorded), hidden=True)
    cells.code("datos", data_source(cls, page.sample or {}, holes))


def _run_and_check(cells: Cells, cls: ClassInfo, page: ClassPage, *, practice: bool) -> None:
    if practice:
        cells.markdown(
            "ejecutar-md",
            "## Ejecutar y comprobar\n\nCon todos los huecos completos, `run()` termina y la "
            "última celda compara cada salida con la instantánea.",
        )
        cells.code(
            "ejecutar",
            "salidas = comprobacion.ejecutar(run)  # None mientras quede un hueco sin completar\n"
            "if salidas is not None:\n    comprobacion.mostrar(salidas)",
        )
    else:
        cells.markdown(
            "ejecutar-md",
            f"## Ejecutar y comprobar\n\n{TOOLS_TEXT} La tercera ejecuta `run()` y muestra sus "
            "salidas; la última las compara con la instantánea, una a una.",
        )
        _tools_and_data(cells, cls, page, {})
        cells.code("ejecutar", "salidas = run()\ncomprobacion.mostrar(salidas)")
    undrawn = tuple(o.name for o in page.outputs if not o.chart.drawn)
    drawn = {k: v for k, v in (page.sample or {}).items() if k not in undrawn}
    if any(Reglas.matrices(name, value) for name, value in drawn.items()):
        skip = f", sin_dibujo={undrawn!r}" if undrawn else ""
        cells.code("mapas", f"comprobacion.mapas(salidas{skip})  # las matrices, si hay matplotlib")
    check = "coinciden = comprobacion.comprobar(salidas)"
    cells.code("comprobar", f"comprobacion.estado_de_los_huecos()\n{check}" if practice else check)


def _linker(course: Course, *, practice: bool, neighbours: frozenset[str] | None) -> markdown.Link:
    """Neighbouring notebooks: in Colab when the repository is set, else the file beside this
    when it was generated ("" when not: the neighbour is named without a link)."""

    def link(found: Neighbour) -> str:
        target = next(c for c in course.classes if c.number == found.number)
        colab = colab_url(course, notebook_path(target, practice=practice))
        if colab:
            return colab
        return f"{target.id}.ipynb" if neighbours is None or target.id in neighbours else ""

    return link


def notebook_bytes(
    course: Course,
    cls: ClassInfo,
    *,
    practice: bool = False,
    validate: bool = True,
    neighbours: frozenset[str] | None = None,
    page: ClassPage | None = None,
    recorded: bool = True,
) -> bytes:
    """A class's notebook as the bytes to write or serve, checked against nbformat's schema
    unless `validate` is False (the site: the same bytes every class's test validates, and
    nbformat's import alone costs a build 0,16 s). `recorded`: see build_notebook."""
    notebook = build_notebook(
        course, cls, practice=practice, neighbours=neighbours, page=page, recorded=recorded
    )
    text = dumps_notebook(notebook)
    if validate:
        validate_notebook(text, notebook_path(cls, practice=practice))
    return text.encode("utf-8")
