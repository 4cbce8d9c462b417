"""Notebooks executed top to bottom in a real Jupyter kernel (nbclient + ipykernel), as «Ejecutar
todo» does: the complete one's check cell reports every output matching and its matrices are
drawn; the practice one reports its holes as not done without an error that stops it.

A kernel costs seconds to start, so the default run executes class 323 only; with
COMPMATH_CUADERNOS=todos (.ci/run sets it) every class runs. `pytest -m "not cuadernos"` skips them.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from compmath.notebook.build import build_notebook
from compmath.notebook.cells import dumps_notebook
from compmath.notebook.rules import Reglas
from tests.test_notebook import COURSE

pytestmark = [pytest.mark.cuadernos, pytest.mark.lento]
ALL = os.environ.get("COMPMATH_CUADERNOS", "") == "todos"
SELECTED = COURSE.classes if ALL else [COURSE.resolve("323")]
WITHOUT_MATPLOTLIB = "import sys\nsys.modules['matplotlib'] = None  # como donde no está instalado"


def execute(notebook: dict[str, Any], folder: Path, prelude: str = "") -> Any:
    """Run every cell in a fresh kernel, in `folder`; an error in any cell fails the test."""
    executed = nbformat.reads(dumps_notebook(notebook), as_version=4)
    if prelude:
        executed.cells.insert(0, nbformat.v4.new_code_cell(prelude, id="preludio-del-test"))
    # the kernel's channels on Unix sockets in `folder`: TCP ports picked at random collided
    # («Address already in use») when the suite's workers started kernels at once
    manager = KernelManager(kernel_name="python3", transport="ipc", ip=str(folder / "nucleo"))
    client = NotebookClient(
        executed,
        km=manager,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute()
    return executed


def printed(notebook: Any, cell_id: str) -> str:
    cell = next(c for c in notebook.cells if c.get("id") == cell_id)
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def images(notebook: Any, cell_id: str) -> int:
    cell = next(c for c in notebook.cells if c.get("id") == cell_id)
    return sum("image/png" in o.get("data", {}) for o in cell.outputs)


@pytest.mark.parametrize("cls", SELECTED, ids=[c.id for c in SELECTED])
def test_in_a_kernel_the_check_cell_reports_every_output_matching(cls, tmp_path: Path) -> None:
    done = execute(build_notebook(COURSE, cls), tmp_path)
    expected = json.loads(cls.snapshot.read_text(encoding="utf-8"))
    report = printed(done, "comprobar")
    total = len(expected)
    assert report.rstrip().endswith(f"{total}/{total} salidas coinciden con la instantánea")
    assert "✗" not in report
    declared = tomllib.loads((cls.path / "class.toml").read_text(encoding="utf-8"))["salidas"]
    undrawn = {o["nombre"] for o in declared if o.get("grafica") is False}
    drawn = {name: value for name, value in expected.items() if name not in undrawn}
    matrices = [m for name, value in drawn.items() for m in Reglas.matrices(name, value)]
    if matrices:
        pytest.importorskip("matplotlib", reason="pip install -e '.[test]' instala matplotlib")
        assert images(done, "mapas") == len(matrices)


@pytest.mark.parametrize("cls", SELECTED, ids=[c.id for c in SELECTED])
def test_in_a_kernel_the_practice_notebook_reports_its_holes_not_done(cls, tmp_path: Path) -> None:
    done = execute(build_notebook(COURSE, cls, practice=True), tmp_path)
    holes = len(cls.meta.holes)
    for k in range(1, holes + 1):
        assert printed(done, f"comprobar-hueco-{k}").startswith(f"✗ hueco {k} sin completar")
    assert printed(done, "comprobar").count(": sin completar") == holes
    assert "no hay salidas que comprobar" in printed(done, "comprobar")
    assert not [o for c in done.cells for o in c.get("outputs", []) if o.output_type == "error"]


def test_in_a_kernel_without_matplotlib_the_heatmaps_are_skipped_silently(tmp_path: Path) -> None:
    done = execute(build_notebook(COURSE, COURSE.resolve("323")), tmp_path, WITHOUT_MATPLOTLIB)
    mapas = next(c for c in done.cells if c.get("id") == "mapas")
    assert mapas.outputs == []
    assert printed(done, "comprobar").rstrip().endswith("9/9 salidas coinciden con la instantánea")


def test_in_a_kernel_each_hole_is_judged_alone_even_two_in_one_function(tmp_path: Path) -> None:
    """327 keeps holes 1 and 2 in multicabeza(): in a real kernel (where a cell's code can be
    read back) hole 1 written wrong is blamed and hole 2, right, stays green; first run."""
    from tests.test_notebook import solved, source

    cls = COURSE.resolve("327")
    notebook = solved(build_notebook(COURSE, cls, practice=True), cls.lab)
    cell = next(c for c in notebook["cells"] if c["id"] == "codigo-multicabeza")
    cell["source"] = source(cell).replace("x @ w_q_i", "x @ w_k_i", 1)
    assert "x @ w_k_i, x @ w_k_i" in source(cell)
    done = execute(notebook, tmp_path, WITHOUT_MATPLOTLIB)
    assert printed(done, "comprobar-hueco-1").startswith("✗ hueco 1 (mal): con ")
    assert printed(done, "comprobar-hueco-2").startswith("✓ hueco 2: bien")
    assert printed(done, "comprobar-hueco-3").startswith("✓ hueco 3: bien")
