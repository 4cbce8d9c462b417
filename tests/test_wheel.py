"""The wheel stands alone: built from the package's own files, installed in a fresh venv, it
makes and runs a course outside this repository (init → new → update → check → lint → practice
start → grade → site → notebook), with the contracts it carries."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, (
        f"{' '.join(args)} → {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    )
    return proc.stdout


@pytest.mark.lento  # builds a wheel and a venv: a minute
def test_the_wheel_makes_and_runs_a_course_of_its_own(tmp_path: Path) -> None:
    # The source as a wheel is built from it: pyproject, README and the package, nothing else.
    source = tmp_path / "fuente"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(
        REPO / "compmath", source / "compmath", ignore=shutil.ignore_patterns("__pycache__")
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CI", "COMPMATH_ROOT")}
    env["COMPMATH_CACHE"] = str(tmp_path / "cache")
    env["NO_COLOR"] = "1"
    dist = tmp_path / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(dist), "-q"],
        tmp_path,
        env,
    )
    (wheel,) = dist.glob("compmath-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "compmath/contracts/class.schema.json" in names
    assert "compmath/contracts/private-variants.schema.json" in names
    assert not [n for n in names if n.startswith(("classes/", "schemas/", "tests/", "cuadernos/"))]
    assert not [n for n in names if "/part-16-" in n or n.endswith(("lab.py", "expected.json"))]

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp_path, env)
    python, compmath = venv / "bin" / "python", venv / "bin" / "compmath"
    _run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        tmp_path,
        env,
    )
    where = _run([str(python), "-c", "import compmath; print(compmath.__file__)"], tmp_path, env)
    assert where.strip().startswith(str(venv)), where  # the wheel's, not the source tree's

    course = tmp_path / "curso"
    out = _run([str(compmath), "init", str(course), "--titulo", "Mi curso"], tmp_path, env)
    assert "expected.json" in out
    _run([str(compmath), "lint"], course, env)
    _run([str(compmath), "new", "102", "hola", "--title", "Hola"], course, env)
    _run([str(compmath), "update", "102"], course, env)
    assert "2 laboratorios" in _run([str(compmath), "check"], course, env)
    lint = subprocess.run(
        [str(compmath), "lint"], cwd=course, env=env, capture_output=True, text=True, timeout=600
    )
    problems = [line for line in lint.stdout.splitlines() if ": " in line]
    assert lint.returncode == 1 and problems  # what `new` leaves to write, and nothing else
    assert all("102" in line for line in problems), lint.stdout
    space = tmp_path / "practica"
    _run([str(compmath), "practice", "start", str(space)], course, env)
    (tmp_path / "entregas").mkdir()
    shutil.copytree(space, tmp_path / "entregas" / "ana")
    _run(
        [str(compmath), "grade", str(tmp_path / "entregas"), "--out", str(tmp_path / "notas")],
        course,
        env,
    )
    assert (tmp_path / "notas" / "notas.csv").read_text(encoding="utf-8").startswith("alumno,")
    _run([str(compmath), "site", "--out", str(tmp_path / "web")], course, env)
    assert "Mi curso" in (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    _run([str(compmath), "notebook", "--all"], course, env)
    assert (course / "cuadernos" / "101-media-y-varianza.ipynb").exists()

    # The contract travels with the wheel: the typo is refused here as in this repository.
    meta = next(course.glob("classes/*/101-media-y-varianza/class.toml"))
    text = meta.read_text(encoding="utf-8")
    meta.write_text(
        text.replace('nombre = "media"\n', 'nombre = "media"\ntolerancai = { rtol = 0.5 }\n'),
        encoding="utf-8",
    )
    refused = subprocess.run(
        [str(compmath), "run", "101"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "tolerancai" in refused.stderr, refused.stderr
