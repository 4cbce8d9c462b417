"""Classroom 50: one student's repository graded on push, its result.json as result-v1 wants it.

Classroom 50 (foundation50/classroom50) runs an assignment's autograder.py in the student's
checkout and reads the result.json it leaves there, valid against `schemas/result-v1.schema.json`:
integer `score` and `max-score`, one test per entry (`test-name`, `passed`, `score`, `max-score`),
and the identity its runner passes in the environment (CLASSROOM, ASSIGNMENT, USERNAME,
SUBMISSION_TAG, COMMIT_URL, RELEASE_URL, REVIEW_URL, MODE). Points are integers there, so a
course whose holes are worth halves is multiplied by 10 (or 100) and the feedback says so.

`compmath practice start --classroom50` writes, into the new workspace, the autograder.py for the
instructor's Classroom 50 repository and a workflow that grades the student's repository on each
push the same way (the course checked out at the commit the workspace was made from).
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.tree import Course
from compmath.course.workflows import CHECKOUT, NAMESPACES_STEP, RUNNER, SETUP_PYTHON, UPLOAD
from compmath.errors import CompmathError
from compmath.grading.gradebook import Gradebook
from compmath.wording import count

SCHEMA = "classroom50/result/v1"
RESULT_NAME = "result.json"
BODY_NAME = "release-body.md"
AUTOGRADER_FILE = Path("compmath-classroom50") / "autograder.py"
WORKFLOW_FILE = Path(".github") / "workflows" / "compmath.yml"
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def factor(book: Gradebook) -> int:
    """The power of ten that makes every hole's points an integer (1, 10 or 100)."""
    for scale in (1, 10, 100):
        if all(abs(p * scale - round(p * scale)) < 1e-9 for s in book.specs for p in s.points):
            return scale
    return 100


def _integer(points: float, scale: int) -> int:
    """Points on the integer scale, never rounded up: a share of a hole is not the hole."""
    return math.floor(points * scale + 1e-9)


def _env(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def result_document(
    book: Gradebook, repository: Path, now: datetime.datetime | None = None
) -> dict[str, Any]:
    """The one student's grade as Classroom 50's result-v1: one test per hole."""
    grade = book.grades[0]
    scale = factor(book)
    said = "" if scale == 1 else f" (puntos ×{scale}: Classroom 50 solo admite enteros)"
    tests = []
    for spec, cls in zip(book.specs, grade.classes):
        for hole in cls.holes:
            tests.append(
                {
                    "test-name": f"{spec.number} hueco {hole.number}",
                    "passed": hole.earned >= hole.points,
                    "score": _integer(hole.earned, scale),
                    "max-score": _integer(hole.points, scale),
                    "message": f"{hole.status}{': ' + hole.reason if hole.reason else ''}{said}",
                }
            )
    when = (now or datetime.datetime.now(datetime.UTC)).strftime(STAMP)
    commit = _env("COMMIT_URL", _env("GITHUB_SHA", "local"))
    return {
        "schema": SCHEMA,
        "classroom": _env("CLASSROOM", "compmath"),
        "assignment": _env("ASSIGNMENT", "compmath"),
        "assignment_type": "group" if _env("MODE", "") == "group" else "individual",
        "owner": grade.student,  # USERNAME under Classroom 50's runner (grade --classroom50)
        "submission": _env("SUBMISSION_TAG", "submit/local"),
        "commit": commit,
        "release": _env("RELEASE_URL", commit),
        "review": _env("REVIEW_URL", commit),
        "datetime": _commit_time(repository, when),
        "graded_at": when,
        "score": sum(t["score"] for t in tests),
        "max-score": sum(t["max-score"] for t in tests),
        "tests": tests,
    }


def _commit_time(repository: Path, fallback: str) -> str:
    """The graded commit's committer date in UTC (the submission instant), or `fallback`."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(repository), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        stamp = int(proc.stdout.strip())
    except (OSError, ValueError, subprocess.SubprocessError):
        return fallback
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime(STAMP)


def release_body(document: dict[str, Any], scale: int, missing: list[str]) -> str:
    """The release's Markdown: the score, the scale, the protections the grading ran without,
    one line per hole."""
    from compmath.execution.facilities import notice

    points = count(document["max-score"], "punto", "puntos")
    lines = [f"# compmath: {document['score']} de {points}", ""]
    if missing:
        lines += [notice(missing), ""]
    if scale != 1:
        lines += [f"Puntos ×{scale}: Classroom 50 solo admite enteros.", ""]
    lines += ["| hueco | puntos | estado |", "| --- | --- | --- |"]
    for test in document["tests"]:
        state = "PASS" if test["passed"] else "FAIL"
        lines.append(f"| {test['test-name']} | {test['score']}/{test['max-score']} | {state} |")
    return "\n".join(lines) + "\n"


def forget_result(repository: Path) -> None:
    """Remove a result.json already in the repository before grading: one the student
    committed must never be read as the grade (if grading fails, there is none)."""
    for name in (RESULT_NAME, BODY_NAME):
        try:
            (repository / name).unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            why = f"no se puede borrar {repository / name}: {exc.strerror}"
            raise CompmathError(why, "") from None


def write_result(repository: Path, book: Gradebook, missing: list[str]) -> Path:
    """result.json and release-body.md at the repository's root, where the runner reads them."""
    document = result_document(book, repository)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    write_atomic(repository / RESULT_NAME, text)
    write_atomic(repository / BODY_NAME, release_body(document, factor(book), missing))
    return repository / RESULT_NAME


def _git(course: Course, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(course.root), *args], capture_output=True, text=True, timeout=30
    )
    return proc.stdout.strip() if proc.returncode == 0 else ""


def course_repository(
    course: Course, what: str = "practice start --classroom50"
) -> tuple[str, str]:
    """(owner/name on GitHub, commit) of the course, from its git checkout."""
    url, commit = _git(course, "remote", "get-url", "origin"), _git(course, "rev-parse", "HEAD")
    match = re.search(r"github\.com[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$", url)
    if not match or not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise CompmathError(
            f"{what} necesita que el curso sea un repositorio de GitHub "
            "(git remote origin en github.com, con un commit)",
            "publica el curso en GitHub y repite la orden en una copia suya (git clone)",
        )
    return match.group(1), commit


def autograder_script(repository: str, commit: str) -> str:
    """Classroom 50's autograder.py: install the course at `commit`, grade the checkout."""
    return f'''\
#!/usr/bin/env python3
"""Corrección de compmath para Classroom 50: el curso {repository} en {commit[:12]}.

Ponlo en tu repositorio classroom50 como CLASE/autograders/TAREA/autograder.py (o
gh teacher autograder set-default). El runner lo ejecuta en la copia del alumno; compmath
corrige sus huecos y deja result.json (classroom50/result/v1) y release-body.md.
"""

import os
import subprocess
import sys
import tempfile

COURSE = "https://github.com/{repository}"
COMMIT = "{commit}"

course = os.path.join(tempfile.mkdtemp(prefix="curso-"), "curso")
subprocess.run(["git", "init", "-q", course], check=True)
subprocess.run(["git", "-C", course, "fetch", "-q", "--depth", "1", COURSE, COMMIT], check=True)
subprocess.run(["git", "-C", course, "checkout", "-q", "FETCH_HEAD"], check=True)
subprocess.run([sys.executable, "-m", "pip", "install", "-q", course], check=True)
notas = tempfile.mkdtemp(prefix="notas-")
command = ["compmath", "grade", ".", "--classroom50", "--root", course, "--out", notas]
sys.exit(subprocess.run(command).returncode)
'''


def classroom50_workflow(repository: str, commit: str) -> str:
    """The student's workflow: on each push, grade this repository as Classroom 50 would."""
    return f"""\
# Corrección de compmath en cada push, como la hace Classroom 50: el curso del profesor
# ({repository} en {commit[:12]}) corrige los huecos de este repositorio y deja result.json
# (classroom50/result/v1) como artefacto. No edites este archivo.
name: compmath

on:
  push:
  workflow_dispatch:

permissions: {{}}

jobs:
  corregir:
    runs-on: {RUNNER}
    permissions:
      contents: read  # check out this repository and the course
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
        working-directory: entrega
        run: >-
          compmath grade . --classroom50 --root ../curso --out ../notas
          --todas-las-protecciones
      - uses: {UPLOAD}
        with:
          name: result
          path: entrega/result.json
"""


def write_classroom50(course: Course, workspace: Path) -> list[Path]:
    """Write the autograder.py and the workflow into a new practice workspace."""
    repository, commit = course_repository(course)
    written = []
    for relative, text in (
        (AUTOGRADER_FILE, autograder_script(repository, commit)),
        (WORKFLOW_FILE, classroom50_workflow(repository, commit)),
    ):
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
        written.append(path)
    return written
