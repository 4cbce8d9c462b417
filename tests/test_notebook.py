"""`compmath notebook`: every class as a valid notebook, byte-identical when regenerated, whose cells
run top to bottom and whose check cell agrees with the snapshot; the exercise variant with its
holes, their checks and their hints. Cells run here in-process, in one namespace, as a kernel runs
them (tests/test_notebook_kernel.py runs them in a real Jupyter kernel)."""

from __future__ import annotations

import ast
import io
import json
import linecache
import math
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import nbformat
import pytest

from compmath.course.tree import load_course
from compmath.holes.regions import HOLE_BEGIN, HOLE_END, Region, solution_regions, student_regions
from compmath.notebook.build import build_notebook, colab_url, notebook_bytes, notebook_path
from tests.conftest import REPO

COURSE = load_course(REPO)
CLASSES = COURSE.classes
IDS = [c.id for c in CLASSES]


def code_cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else text


def run_cells(
    notebook: dict[str, Any], *, sources: bool = True
) -> tuple[dict[str, str], dict[str, Any]]:
    """Run the code cells in order in one namespace, as «Ejecutar todo» does; stop at an error.

    Like IPython, each cell's text is registered in linecache (so inspect.getsource reads a
    function a cell defines); `sources=False` runs as where that cannot be done.
    Returns what each cell printed (stdout and stderr, by cell id) and the namespace."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    printed: dict[str, str] = {}
    for cell in code_cells(notebook):
        stream = io.StringIO()
        name = f"<celda {cell['id']} {id(notebook)}>"
        if sources:
            text = source(cell)
            linecache.cache[name] = (len(text), None, text.splitlines(True), name)
        with redirect_stdout(stream), redirect_stderr(stream):
            try:
                exec(compile(source(cell), name, "exec"), namespace)
            except Exception as exc:  # a cell that fails stops the notebook: the test says which
                raise AssertionError(f"la celda {cell['id']} falló: {exc!r}") from exc
            finally:
                printed[cell["id"]] = stream.getvalue()
    return printed, namespace


def fill_holes(code: str, regions: list[Region]) -> str:
    """A cell's holes (numbered as in the whole exercise) filled with the solution's regions."""
    out: list[str] = []
    skipping = False
    for text in code.splitlines():
        if begin := HOLE_BEGIN.match(text):
            out += [text, *regions[int(begin.group("k")) - 1].body]
            skipping = True
        elif HOLE_END.match(text):
            out.append(text)
            skipping = False
        elif not skipping:
            out.append(text)
    return "\n".join(out)


def solved(notebook: dict[str, Any], lab: Path) -> dict[str, Any]:
    """The practice notebook with every hole filled with the instructor's solution."""
    regions = solution_regions(lab.read_text(encoding="utf-8"))
    cells = [
        {**cell, "source": fill_holes(source(cell), regions)}
        if cell["cell_type"] == "code"
        else cell
        for cell in notebook["cells"]
    ]
    return {**notebook, "cells": cells}


@pytest.fixture(autouse=True)
def no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as where matplotlib is not installed (heatmaps are drawn in the kernel tests)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)


def test_the_cells_of_323_follow_the_page_then_the_lab_then_the_check() -> None:
    notebook = build_notebook(COURSE, COURSE.resolve("323"))
    cells = [(c["cell_type"], c["id"], source(c).splitlines()[0]) for c in notebook["cells"]]
    assert cells == [
        ("markdown", "titulo", "# 323 — Positional encoding"),
        ("markdown", "formulas", "## Fórmulas"),
        ("markdown", "desarrollo", "## Desarrollo"),
        ("markdown", "ejemplo", "## Ejemplo trabajado"),
        ("markdown", "que-calcula", "## Qué calcula el laboratorio"),
        ("markdown", "laboratorio", "## El laboratorio"),
        (
            "code",
            "codigo-preambulo",
            '"""Positional encoding sinusoidal: la posición como un banco de relojes.',
        ),
        ("code", "codigo-frecuencias", "def frecuencias(d: int) -> np.ndarray:"),
        (
            "code",
            "codigo-codificacion",
            "def codificacion(posiciones: np.ndarray, d: int) -> np.ndarray:",
        ),
        ("code", "codigo-run", "def run(dimension: int = DIMENSION, posiciones: int = POSICIONES,"),
        ("markdown", "salidas", "## Salidas del laboratorio (9)"),
        ("markdown", "ejecutar-md", "## Ejecutar y comprobar"),
        (
            "code",
            "herramientas",
            '#@title Herramientas de comprobación (no hace falta leerlas) { display-mode: "form" }',
        ),
        (
            "code",
            "datos",
            "# Lo que la comprobación espera: la instantánea (expected.json), los decimales con",
        ),
        ("code", "ejecutar", "salidas = run()"),
        ("code", "mapas", "comprobacion.mapas(salidas)  # las matrices, si hay matplotlib"),
        ("code", "comprobar", "coinciden = comprobacion.comprobar(salidas)"),
        ("markdown", "errores-comunes", "## Errores comunes"),
        ("markdown", "donde-se-usa", "## Dónde se usa"),
        ("markdown", "ideas-de-la-parte", "## Idea rectora de la parte"),
        ("markdown", "bibliografia", "## Bibliografía de la clase"),
        (
            "markdown",
            "navegacion",
            "← [322 Embeddings y similitud coseno](322-embeddings-y-similitud-coseno.ipynb) · "
            "[324 Query, Key y Value](324-query-key-value.ipynb) →",
        ),
    ]
    text = {c["id"]: source(c) for c in notebook["cells"]}
    assert "$$\\operatorname{PE}(\\mathit{pos}, 2i) = \\sin" in text["formulas"]
    assert "### BEGIN SOLUTION" not in text["codigo-frecuencias"]
    assert "omega = 1.0 / BASE ** (2 * i / d)" in text["codigo-frecuencias"]
    assert "__main__" not in text["codigo-run"] and "compmath.labmain" not in text["codigo-run"]
    assert "comprobacion = Comprobacion(" in text["datos"]
    assert "        'producto_pos0_pos1': 3.535256," in text["datos"]
    assert notebook["cells"][12]["metadata"] == {
        "cellView": "form",
        "jupyter": {"source_hidden": True},
    }


@pytest.mark.lento  # 40 notebooks built and validated
@pytest.mark.parametrize("practice", [False, True], ids=["completo", "practica"])
@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_every_notebook_is_valid_and_regenerates_byte_identically(cls, practice: bool) -> None:
    data = notebook_bytes(COURSE, cls, practice=practice)
    assert notebook_bytes(COURSE, cls, practice=practice) == data
    assert (
        notebook_bytes(COURSE, cls, practice=practice, validate=False) == data
    )  # what the site writes
    text = data.decode("utf-8")
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    # Saved again by Jupyter, the file does not change: committed notebooks diff cleanly.
    assert nbformat.writes(notebook) + "\n" == text
    allowed = set(sys.stdlib_module_names) | {"numpy", "matplotlib"}
    for cell in code_cells(json.loads(text)):
        for node in ast.walk(ast.parse(source(cell))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                assert {n.split(".")[0] for n in names} <= allowed, (cell["id"], names)


@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_every_notebook_runs_and_its_check_cell_matches_every_output(cls) -> None:
    printed, namespace = run_cells(build_notebook(COURSE, cls))
    total = len(namespace["comprobacion"].esperado)
    report = printed["comprobar"]
    assert report.rstrip().endswith(f"{total}/{total} salidas coinciden con la instantánea")
    assert report.count("  ✓ ") == total and "✗" not in report
    assert namespace["coinciden"] is True
    assert printed.get("mapas", "") == ""  # no matplotlib: nothing drawn, nothing said


@pytest.mark.lento  # every class's practice notebook run: 20 × up to 3 s
@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_every_practice_notebook_runs_and_reports_its_holes_not_done(cls) -> None:
    notebook = build_notebook(COURSE, cls, practice=True)
    printed, _ = run_cells(notebook)
    holes = len(cls.meta.holes)
    for k in range(1, holes + 1):
        assert printed[f"comprobar-hueco-{k}"].startswith(f"✗ hueco {k} sin completar")
        assert f"hueco {k} (" in printed["comprobar"]
    assert printed["comprobar"].count(": sin completar") == holes
    assert "run() aún no termina: el hueco" in printed["ejecutar"]
    assert "no hay salidas que comprobar" in printed["comprobar"]
    hints = [c for c in notebook["cells"] if c["id"].startswith("pistas-hueco-")]
    assert len(hints) == holes
    for cell, hole in zip(hints, cls.meta.holes):
        assert source(cell).count("<details><summary>Pista ") == len(hole.hints)


@pytest.mark.lento  # every class's practice notebook, each hole judged at every variant
@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_a_solved_practice_notebook_matches_hole_by_hole(cls) -> None:
    """The first «Ejecutar todo» judges every hole where it stands (the reference the check
    needs is defined above it), at the defaults and at the hidden variants."""
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    printed, namespace = run_cells(notebook)
    total = len(namespace["comprobacion"].esperado)
    assert (
        printed["comprobar"]
        .rstrip()
        .endswith(f"{total}/{total} salidas coinciden con la instantánea")
    )
    assert ": sin completar" not in printed["comprobar"]
    variants = len(cls.meta.variants)
    for k in range(1, len(cls.meta.holes) + 1):
        assert printed[f"comprobar-hueco-{k}"].startswith(f"✓ hueco {k}: bien"), printed
        said = printed[f"comprobar-hueco-{k}"]  # every variant, or says which it could not
        assert f"en {variants} variante" in said or f"de {variants + 1} conjuntos de" in said
        assert f"  ✓ hueco {k} (" in printed["comprobar"]


def _cell(notebook: dict[str, Any], cell_id: str) -> dict[str, Any]:
    return next(c for c in notebook["cells"] if c["id"] == cell_id)


def test_a_wrong_number_is_named_with_its_difference() -> None:
    notebook = build_notebook(COURSE, COURSE.resolve("323"))
    preamble = _cell(notebook, "codigo-preambulo")
    preamble["source"] = source(preamble).replace("BASE = 10_000.0", "BASE = 1_000.0")
    printed, namespace = run_cells(notebook)
    report = printed["comprobar"]
    assert namespace["coinciden"] is False
    assert "  ✓ dimension" in report and "  ✗ codificaciones" in report
    moved = round(math.sin(1 / 1000 ** (2 / 8)), 6)  # PE(1, 2) = sin(1 / base^(2i/d)), i = 1
    shown = str(moved).replace(".", ",")  # numbers for people take the decimal comma
    assert f"salida.codificaciones.pos_1[2]: esperado 0,099833, obtenido {shown} · Δ " in report
    assert "… y 27 diferencias más" in report
    assert "  ✗ producto_pos0_pos1" in report and "  ✓ normas" in report
    assert report.rstrip().endswith("6/9 salidas coinciden con la instantánea")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_wrong_hole_or_a_hole_that_raises_is_reported_and_the_notebook_goes_on() -> None:
    """Hole 1 wrong, hole 2 right: hole 1 is blamed, hole 2 is green (issue #26)."""
    cls = COURSE.resolve("323")
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    first = _cell(notebook, "codigo-frecuencias")
    first["source"] = source(first).replace("2 * i / d", "i / d")  # a classic slip
    printed, _namespace = run_cells(notebook)
    assert printed["comprobar-hueco-1"].startswith(  # its own function's result, named
        "✗ hueco 1 (mal): con los parámetros por defecto: frecuencias() devuelve, en [1]: "
        "esperado 0,1, obtenido 0,316228"
    )
    assert printed["comprobar-hueco-2"].startswith("✓ hueco 2: bien")
    assert "  ✗ hueco 1 (frecuencias): mal — con los parámetros" in printed["comprobar"]
    assert "  ✓ hueco 2 (codificacion): bien" in printed["comprobar"]
    second = _cell(notebook, "codigo-codificacion")
    second["source"] = source(second).replace(
        "pe[:, 0::2] = np.sin(angulos)", "pe[:, 0::2] = 1 / 0"
    )
    printed, _ = run_cells(notebook)
    assert "✗ run() lanzó ZeroDivisionError: division by zero" in printed["ejecutar"]
    assert "Traceback" in printed["ejecutar"]
    assert "no hay salidas que comprobar" in printed["comprobar"]
    assert printed["comprobar-hueco-2"].startswith(
        "✗ hueco 2 (falla): con los parámetros por defecto: ZeroDivisionError"
    )


@pytest.mark.parametrize("sources", [True, False], ids=["region", "funcion"])
def test_a_hard_coded_hole_fails_on_a_named_variant_in_the_notebook(sources: bool) -> None:
    cls = COURSE.resolve("323")
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    first = _cell(notebook, "codigo-frecuencias")
    first["source"] = source(first).replace(
        "omega = 1.0 / BASE ** (2 * i / d)", "omega = np.array([1.0, 0.1, 0.01, 0.001])"
    )
    assert "np.array([1.0, 0.1" in source(first)
    printed, _ = run_cells(notebook, sources=sources)
    assert printed["comprobar-hueco-1"].startswith(
        "✗ hueco 1 (mal): con dimension = 16: frecuencias() devuelve: esperado 8, obtenido 4 · "
        "cambia la longitud"
    )
    assert printed["comprobar-hueco-2"].startswith("✓ hueco 2: bien")


def test_two_holes_in_one_function_are_judged_each_on_its_own() -> None:
    """327 holds holes 1 and 2 in multicabeza(): hole 2 right stays green beside hole 1 wrong."""
    cls = COURSE.resolve("327")
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    cell = _cell(notebook, "codigo-multicabeza")
    text = source(cell)
    region = next(r for r in student_regions(text) if "q_i, k_i, v_i" in "\n".join(r.body))
    lines = text.splitlines()
    lines[region.begin + 1 : region.end] = [
        line.replace("x @ w_q_i", "x @ w_k_i") for line in region.body
    ]
    cell["source"] = "\n".join(lines)
    printed, _ = run_cells(notebook)
    assert printed["comprobar-hueco-1"].startswith("✗ hueco 1 (mal)")
    assert printed["comprobar-hueco-2"].startswith("✓ hueco 2: bien")


def test_a_print_in_a_hole_is_shown_under_its_check() -> None:
    cls = COURSE.resolve("323")
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    first = _cell(notebook, "codigo-frecuencias")
    first["source"] = source(first).replace(
        "omega = 1.0 / BASE ** (2 * i / d)",
        "omega = 1.0 / BASE ** (2 * i / d)\n    print('frecuencias', len(omega))",
    )
    printed, _ = run_cells(notebook)
    assert printed["comprobar-hueco-1"].startswith("✓ hueco 1: bien")
    assert "tus print (" in printed["comprobar-hueco-1"]
    assert "  │ frecuencias 4" in printed["comprobar-hueco-1"]


@pytest.mark.lento  # imports matplotlib and draws every matrix
def test_heatmaps_are_drawn_for_each_matrix_when_matplotlib_is_there(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "matplotlib")
    plt = pytest.importorskip("matplotlib.pyplot")
    plt.switch_backend("agg")
    drawn: list[str] = []
    monkeypatch.setattr(plt, "show", lambda: drawn.append(plt.gca().get_title()))
    run_cells(build_notebook(COURSE, COURSE.resolve("324")))
    plt.close("all")
    assert drawn == [  # not «formas»: class.toml says a drawing of shapes says nothing
        "proyecciones.q",
        "proyecciones.k",
        "proyecciones.v",
        "puntuaciones_escaladas",
        "pesos_de_atencion",
        "salida",
        "salida_con_tokens_permutados",
    ]


def test_the_colab_link_comes_from_curso_toml(fake_course: Path) -> None:
    course = load_course(fake_course)
    cls = course.resolve("901")
    assert colab_url(course, notebook_path(cls)) is None
    assert "colab" not in source(build_notebook(course, cls)["cells"][0])
    (fake_course / "curso.toml").write_text(
        'titulo = "Curso"\nrepositorio = "https://github.com/uni/curso"\nrama = "2026"\n',
        encoding="utf-8",
    )
    course = load_course(fake_course)
    url = "https://colab.research.google.com/github/uni/curso/blob/2026/cuadernos/901-pasa.ipynb"
    assert colab_url(course, notebook_path(course.resolve("901"))) == url
    assert (
        f"[![Abrir en Colab](https://colab.research.google.com/assets/colab-badge.svg)]({url})"
        in source(build_notebook(course, course.resolve("901"))["cells"][0])
    )
    practice = notebook_path(course.resolve("901"), practice=True)
    assert practice == "cuadernos/practica/901-pasa.ipynb"
