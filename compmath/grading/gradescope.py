"""Gradescope: the autograder zip, and the entry that grades one submission inside it.

Gradescope's «Autograder Specifications»: the zip holds `setup.sh` (run once, when the image is
built) and `run_autograder` (run per submission, the files in /autograder/submission); the
results go to /autograder/results/results.json: `score`, and `tests`, each with `score`,
`max_score`, `name`, `output` and `visibility` (hidden, after_due_date, after_published,
visible), plus `stdout_visibility` for the run's own output.

Here setup.sh fetches the course at the commit the zip was built from and installs it (compmath
with it); run_autograder calls `python3 -m compmath.grading.gradescope /autograder`, which grades
the submission with every protection the machine offers and writes one test per hole. A grading
that cannot finish writes a score of 0 with the reason: never a grade it did not judge.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from compmath.course.tree import Course
from compmath.errors import CompmathError
from compmath.grading.gradebook import Gradebook

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
CONFIG_NAME = "compmath-gradescope.json"
ZIP_TIME = (2026, 1, 1, 0, 0, 0)
MAX_OUTPUT = 8_000  # characters of a hole's output shown to the student


def setup_script(repository: str, commit: str) -> str:
    return f"""\
#!/usr/bin/env bash
# compmath para Gradescope: el curso {repository} en {commit[:12]}, con compmath.
set -euo pipefail
apt-get update -q && apt-get install -y -q git python3 python3-pip
CURSO=/autograder/source/curso
rm -rf "$CURSO" && git init -q "$CURSO"
git -C "$CURSO" fetch -q --depth 1 "https://github.com/{repository}" {commit}
git -C "$CURSO" checkout -q FETCH_HEAD
python3 -m pip install -q "$CURSO"
"""


RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# compmath corrige /autograder/submission y escribe /autograder/results/results.json.
exec python3 -m compmath.grading.gradescope /autograder
"""


def build_zip(
    repository: str,
    commit: str,
    classes: list[str],
    visibility: str,
    timeout: float,
    risk_accepted: bool = False,
) -> bytes:
    """The autograder zip: setup.sh, run_autograder and the grading's settings; with
    `risk_accepted` (grade gradescope --sin-aislamiento-completo) it grades even without the
    layers that keep a hole from the course's solution."""
    if visibility not in VISIBILITIES:
        raise CompmathError(
            f"--visibilidad {visibility}: Gradescope no la conoce",
            "elige " + ", ".join(VISIBILITIES),
        )
    config = {
        "curso": "/autograder/source/curso",
        "repositorio": repository,
        "commit": commit,
        "clases": classes,
        "visibilidad": visibility,
        "timeout": timeout,
        "sin_aislamiento_completo": risk_accepted,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text, mode in (
            ("setup.sh", setup_script(repository, commit), 0o755),
            ("run_autograder", RUN_AUTOGRADER, 0o755),
            (CONFIG_NAME, json.dumps(config, indent=2, ensure_ascii=False) + "\n", 0o644),
        ):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text)
    return buffer.getvalue()


def _student(root: Path) -> str:
    """The submitter's id: the e-mail in submission_metadata.json, or «alumno»."""
    try:
        meta = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
        user = meta["users"][0]
        return str(user.get("email") or user.get("id") or "alumno")
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "alumno"


def results_document(book: Gradebook, visibility: str, missing: list[str]) -> dict[str, Any]:
    """One submission's grade as Gradescope's results.json: one test per hole."""
    from compmath.execution.facilities import notice

    grade = book.grades[0]
    tests = []
    for spec, cls in zip(book.specs, grade.classes):
        for hole, task in zip(cls.holes, spec.tasks):
            text = f"{hole.status}: {hole.reason}" if hole.reason else hole.status
            if hole.number == 1 and cls.prints:
                text += f"\n\nLo que imprimió tu código:\n{cls.prints}"
            tests.append(
                {
                    "name": f"{spec.number} hueco {hole.number}: {task}"[:200],
                    "number": f"{spec.number}.{hole.number}",
                    "score": round(hole.earned, 4),
                    "max_score": hole.points,
                    "status": "passed" if hole.earned >= hole.points else "failed",
                    "output": text[:MAX_OUTPUT],
                    "visibility": visibility,
                }
            )
    said = notice(missing)
    return {
        "score": round(grade.earned, 4),
        "output": said or "Corregido por compmath con todas las protecciones del sistema.",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def failed_document(reason: str) -> dict[str, Any]:
    """The results of a grading that could not finish: 0 and why, never a guessed grade."""
    return {
        "score": 0,
        "output": f"compmath no pudo corregir la entrega: {reason}. Avisa a tu profesor.",
        "visibility": "visible",
        "tests": [],
    }


def autograde(root: Path) -> dict[str, Any]:
    """Grade `root`/submission with the settings in `root`/source and return results.json."""
    from compmath.course.tree import find_root, load_course
    from compmath.grading import run
    from compmath.grading.protection import probe, refuse_without

    config = json.loads((root / "source" / CONFIG_NAME).read_text(encoding="utf-8"))
    course: Course = load_course(find_root(str(config["curso"])))
    classes = run.graded_classes(course, list(config["clases"]))
    # fail closed, as grade does: without the layers, a hole could read /autograder/source
    missing = probe()
    refuse_without(missing, bool(config.get("sin_aislamiento_completo", False)), every=False)
    submission = root / "submission"
    with tempfile.TemporaryDirectory(prefix="compmath-notas-") as out:
        outcome = run.grade_students(
            {_student(root): submission},
            Path(out),
            classes,
            timeout=float(config.get("timeout", 10.0)),
            jobs=os.cpu_count() or 1,
            missing=missing,
            hide=[root / "source"],
        )
    return results_document(outcome.book, str(config["visibilidad"]), outcome.missing)


def main(argv: list[str]) -> int:
    """`python -m compmath.grading.gradescope /autograder`: grade, write results.json."""
    root = Path(argv[0] if argv else "/autograder")
    try:
        document = autograde(root)
    except CompmathError as exc:
        document = failed_document(exc.message)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        document = failed_document(f"{type(exc).__name__}: {exc}")
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    (results / "results.json").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
