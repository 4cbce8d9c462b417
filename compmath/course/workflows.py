"""GitHub Actions workflows compmath writes: the shards of a course's grading, run in parallel.

`shards_workflow` is the text of .github/workflows/corregir.yml (a matrix over shards, each
uploading its folder, then one job merging them).
"""

from __future__ import annotations

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


def setup_steps(install: str, name: str = "Instalar") -> str:
    """A job's first steps: check out (no credentials kept), Python 3.11, install compmath."""
    return f"""\
      - uses: {CHECKOUT}
        with:
          persist-credentials: false
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.11"
      - name: {name}
        run: {install}
"""


def shards_workflow(count: int = 4, install: str = "pip install .") -> str:
    """A workflow grading ENTREGAS/ in `count` shards on a matrix, then merging them;
    `install` is how the course installs compmath (a course made by `compmath init` pins it in
    requirements.txt)."""
    shards = ", ".join(str(k) for k in range(1, count + 1))
    setup = setup_steps(install)
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
{setup}{NAMESPACES_STEP}
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
{setup}      - uses: {DOWNLOAD}
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
