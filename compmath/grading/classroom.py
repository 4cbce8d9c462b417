"""GitHub: the shards workflow of a course, and GitHub Classroom's per-student autograding.

`shards_workflow` is the text of .github/workflows/corregir.yml (a matrix over shards, each
uploading its folder, then one job merging them). `classroom_workflow` is what
`compmath practice start --github-classroom` writes into the student's repository: on each push
it checks out the instructor's course at a fixed commit, grades the student's own repository
against it, and hands the points to Classroom's grading reporter in its autograding format.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.tree import Course
from compmath.errors import CompmathError
from compmath.grading.gradebook import Gradebook

CHECKOUT = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1  # v7.0.1"
SETUP_PYTHON = "actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97  # v7.0.0"
UPLOAD = "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f  # v7.0.0"
DOWNLOAD = "actions/download-artifact@37930b1c2abaa49bbe596cd826c3c89aef350131  # v7.0.0"
RUNNER = "ubuntu-24.04"
# Ubuntu 24.04's AppArmor refuses unprivileged user namespaces: without them a lab gets no PID,
# mount or IPC namespace, and grade refuses (or, with --todas-las-protecciones, any gap fails).
NAMESPACES_STEP = """\
      - name: Dejar crear espacios de nombres sin privilegios (AppArmor de Ubuntu 24.04)
        run: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"""
REPORTER = (
    "classroom-resources/autograding-grading-reporter@d13b5912daf5042ac1b71bc38bdb4a6bcd61d8ca"
    "  # v1"
)
CLASSROOM_FILE = Path(".github") / "workflows" / "classroom.yml"


def shards_workflow(count: int = 4) -> str:
    """A workflow grading ENTREGAS/ in `count` shards on a matrix, then merging them."""
    shards = ", ".join(str(k) for k in range(1, count + 1))
    return f"""\
# Corrige las entregas de un curso en {count} fragmentos en paralelo y junta las notas
# (compmath grade --shard K/N, luego compmath grade merge). Se lanza a mano desde «Actions»;
# las entregas están en la carpeta que se indique, dentro del repositorio del curso.
name: corregir

on:
  workflow_dispatch:
    inputs:
      entregas:
        description: "Carpeta de las entregas (una carpeta o un .zip por alumno)"
        required: true
        default: entregas

permissions: {{}}

jobs:
  fragmento:
    name: fragmento ${{{{ matrix.shard }}}}/{count}
    strategy:
      fail-fast: false
      matrix:
        shard: [{shards}]
    runs-on: {RUNNER}
    permissions:
      contents: read  # check out the course and the submissions
    steps:
      - uses: {CHECKOUT}
        with:
          persist-credentials: false
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.11"
      - name: Instalar
        run: pip install .
{NAMESPACES_STEP}
      - name: Corregir un fragmento (con todas las protecciones, o falla)
        env:
          ENTREGAS: ${{{{ inputs.entregas }}}}
          SHARD: ${{{{ matrix.shard }}}}
        run: >-
          compmath grade "$ENTREGAS" --shard "$SHARD/{count}" --out "notas-$SHARD"
          --todas-las-protecciones
      - uses: {UPLOAD}
        with:
          name: notas-${{{{ matrix.shard }}}}
          path: notas-${{{{ matrix.shard }}}}

  juntar:
    needs: fragmento
    runs-on: {RUNNER}
    permissions:
      contents: read  # check out the course
    steps:
      - uses: {CHECKOUT}
        with:
          persist-credentials: false
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.11"
      - name: Instalar
        run: pip install .
      - uses: {DOWNLOAD}
        with:
          pattern: notas-*
          path: fragmentos
      - name: Juntar las notas
        run: compmath grade merge fragmentos/notas-* --out notas
      - uses: {UPLOAD}
        with:
          name: notas
          path: notas
"""


def classroom_workflow(repository: str, commit: str) -> str:
    """The student's workflow: grade this repository against the course at `commit`."""
    return f"""\
# Corrección automática para GitHub Classroom: en cada push, compmath corrige los huecos de
# este repositorio con el curso del profesor ({repository} en {commit[:12]}) y pasa los puntos
# a Classroom. No edites este archivo: Classroom lo compara con el de la plantilla.
name: Autograding Tests

on:
  push:
  workflow_dispatch:
  repository_dispatch:

permissions: {{}}

jobs:
  autograding:
    name: Autograding Tests
    if: github.actor != 'github-classroom[bot]'
    runs-on: {RUNNER}
    permissions:
      contents: read  # check out this repository and the course
      checks: write  # the reporter writes the points on the check run
      actions: read  # the reporter finds its own run
    steps:
      - uses: {CHECKOUT}
        with:
          path: entrega
          persist-credentials: false
      - uses: {CHECKOUT}
        with:
          repository: {repository}
          ref: {commit}
          path: curso
          persist-credentials: false
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.11"
      - name: Instalar compmath
        run: pip install ./curso
{NAMESPACES_STEP}
      - name: Corregir (con todas las protecciones, o falla)
        id: compmath
        run: compmath grade entrega --classroom --root curso --out notas --todas-las-protecciones
      - name: Puntos para Classroom
        uses: {REPORTER}
        env:
          COMPMATH_RESULTS: ${{{{ steps.compmath.outputs.result }}}}
        with:
          runners: compmath
"""


def _git(course: Course, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(course.root), *args], capture_output=True, text=True, timeout=30
    )
    return proc.stdout.strip() if proc.returncode == 0 else ""


def course_repository(course: Course) -> tuple[str, str]:
    """(owner/name on GitHub, commit) of the course, from its git checkout."""
    url, commit = _git(course, "remote", "get-url", "origin"), _git(course, "rev-parse", "HEAD")
    match = re.search(r"github\.com[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$", url)
    if not match or not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise CompmathError(
            "--github-classroom necesita que el curso sea un repositorio de GitHub "
            "(git remote origin en github.com, con un commit)",
            "publica el curso en GitHub y vuelve a crear el espacio desde esa copia",
        )
    return match.group(1), commit


def write_classroom_workflow(course: Course, workspace: Path) -> Path:
    """Write the autograding workflow into a new practice workspace; return its path."""
    repository, commit = course_repository(course)
    path = workspace / CLASSROOM_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, classroom_workflow(repository, commit))
    return path


def classroom_result(book: Gradebook) -> dict[str, Any]:
    """One student's grade in Classroom's autograding format: one test per hole."""
    grade = book.grades[0]
    tests = []
    for spec, cls in zip(book.specs, grade.classes):
        for hole in cls.holes:
            tests.append(
                {
                    "name": f"{spec.number} hueco {hole.number}",
                    "status": "pass" if hole.earned >= hole.points else "fail",
                    "message": hole.reason or hole.status,
                    "score": hole.earned,
                    "max_score": hole.points,
                }
            )
    status = "pass" if grade.earned >= book.points else "fail"
    return {"version": 1, "status": status, "max_score": book.points, "tests": tests}


def classroom_output(book: Gradebook) -> str:
    """The `result=<base64 JSON>` line the reporter reads from the step's outputs."""
    text = json.dumps(classroom_result(book), ensure_ascii=False)
    return "result=" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "\n"
