"""Grade a folder of submissions: judge what is new, write each student's record as it lands.

Each student's record goes to `OUT/alumnos/<alumno>.json` (atomically) the moment their last
hole is judged. A record whose fingerprint (the course's graded files, the limits, the student's
files) still holds is reused, so a run that was killed resumes where it stopped and a rerun
judges only the submissions that changed. The gradebook is written from the records at the end.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.grading.gradebook import Gradebook, write_gradebook
from compmath.grading.private import PrivateVariants
from compmath.grading.receipt import receipt_note
from compmath.grading.records import (
    ClassSpec,
    StudentGrade,
    course_fingerprint,
    grade,
    submission_fingerprint,
)
from compmath.grading.shards import Shard
from compmath.grading.similarity import save_holes
from compmath.grading.submissions import Submission, discover, file_name, read_submission
from compmath.grading.verdict import ClassVerdict, judge_many
from compmath.practice.own import course_name, own_params

RECORDS_DIR = "alumnos"


@dataclass
class Outcome:
    """What a grading run did: how many students it judged now, reused, and ignored."""

    book: Gradebook
    judged: int = 0
    reused: int = 0
    ignored: list[str] = field(default_factory=list)
    seconds: float = 0.0
    missing: list[str] = field(default_factory=list)  # protections the labs ran without


def graded_classes(course: Course, names: list[str]) -> list[ClassInfo]:
    """The classes to grade: those named, or every class with practice holes."""
    if not names:
        classes = [c for c in course.classes if c.lab.exists() and c.meta.holes]
        if not classes:
            raise CompmathError(
                "ninguna clase del curso tiene huecos que corregir", "prueba: compmath list"
            )
        return classes
    chosen = course.select(names)
    for cls in chosen:
        if not cls.meta.holes:
            raise CompmathError(
                f"la clase {cls.id} no tiene huecos de práctica: no hay nada que corregir",
                "quítala de --clases",
            )
    return chosen


def _record_path(out: Path, student: str) -> Path:
    return out / RECORDS_DIR / f"{file_name(student)}.json"


def _saved(out: Path, student: str, fingerprint: str) -> StudentGrade | None:
    """The student's record, if one is there for exactly these files; anything odd is None."""
    try:
        text = _record_path(out, student).read_text(encoding="utf-8")
        saved = StudentGrade.from_dict(json.loads(text))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return saved if saved.student == student and saved.fingerprint == fingerprint else None


def select_students(
    folder: Path, shard: Shard | None, out: Path
) -> tuple[dict[str, Path], list[str], list[str]]:
    """The students in `folder` (their share, with `shard`), what was ignored there, and every
    student there (the roster a shard records); the output folder is never a student, even
    when it sits among them."""
    found, ignored = discover(folder)
    kept = {s: p for s, p in found.items() if p.resolve() != out.resolve()}
    selected = {s: p for s, p in kept.items() if shard is None or shard.holds(s)}
    return selected, ignored, list(kept)


def _out_of_sight(students: dict[str, Path], out: Path, hide: Sequence[Path]) -> list[Path]:
    """What no student's code may see: `hide`, the grades, the folders holding submissions."""
    return [*hide, out, *{path.parent for path in students.values()}]


def _private_by_class(private: PrivateVariants | None) -> dict[int, Any] | None:
    return private.by_class if private is not None else None


def _course_print(
    classes: list[ClassInfo], timeout: float, private: PrivateVariants | None
) -> tuple[str, str]:
    """The course's fingerprint, with what else every verdict depends on (the private
    variants, the course title the students' own numbers are derived from), and that title.
    A [practica.por_alumno] that does not fit run() stops the grading here, before any run."""
    title = course_name(classes[0]) if classes else ""
    for cls in classes:
        own_params(cls, "comprobacion", title)
    course_print = course_fingerprint(classes, timeout)
    owning = title if any(c.meta.per_student for c in classes) else ""
    if private is None and not owning:
        return course_print, title
    extra = f"{course_print}\0{private.digest if private else ''}\0{owning}"
    return hashlib.sha256(extra.encode("utf-8")).hexdigest(), title


def _read(student: str, path: Path, classes: list[ClassInfo], out: Path) -> Submission:
    """The student's submission as grading reads it; a zip's SHA-256 goes in the feedback (as
    `practice entregar` printed it), the holes into OUT/huecos/ (for `grade similitud`)."""
    submission = read_submission(student, path, classes)
    if path.is_file():
        submission = replace(submission, notes=(*submission.notes, receipt_note(path)))
    save_holes(out, submission)
    return submission


def grade_students(
    students: dict[str, Path],
    out: Path,
    classes: list[ClassInfo],
    *,
    timeout: float,
    jobs: int,
    started: Callable[[list[str]], None] | None = None,
    landed: Callable[[str], None] | None = None,
    hide: Sequence[Path] = (),
    private: PrivateVariants | None = None,
) -> Outcome:
    """Grade each student's submission (folder or zip, by id) into `out`.

    No student's code sees `out`, `hide` (the submissions folder) or any student's files.
    Each hole is judged at the student's own parameters where the class declares them
    (re-derived from the student id: course.per_student) and at the `private` variants too.

    `started(students)` names the students judged now (a live line says who is awaited);
    `landed(student)` is called as each one's record is written.
    """
    begin = time.monotonic()
    specs = [ClassSpec.of(c) for c in classes]
    course_print, title = _course_print(classes, timeout, private)
    (out / RECORDS_DIR).mkdir(parents=True, exist_ok=True)
    grades: dict[str, StudentGrade] = {}
    pending: dict[str, tuple[Submission, str]] = {}
    for student, path in students.items():
        submission = _read(student, path, classes, out)
        fingerprint = submission_fingerprint(course_print, submission)
        saved = _saved(out, student, fingerprint)
        if saved is not None:
            grades[student] = saved
        else:
            pending[student] = (submission, fingerprint)
    reused = len(grades)
    if started is not None:
        started(list(pending))

    items: list[tuple[ClassInfo, str]] = []
    own: list[dict[str, Any]] = []  # per item: the student's own parameters in that class
    owners: list[tuple[str, str]] = []  # per item: (student, class id)
    verdicts: dict[str, dict[str, ClassVerdict]] = {s: {} for s in pending}
    left: dict[str, int] = {}
    for student, (submission, _) in pending.items():
        for cls in classes:
            source = submission.files[cls.id].source
            if source is not None:
                items.append((cls, source))
                owners.append((student, cls.id))
                own.append(own_params(cls, student, title))
        left[student] = sum(1 for owner, _ in owners if owner == student)

    def finish(student: str) -> None:
        submission, fingerprint = pending[student]
        record = grade(specs, submission, fingerprint, verdicts[student])
        text = json.dumps(record.to_dict(), indent=2, ensure_ascii=False) + "\n"
        write_atomic(_record_path(out, student), text)
        grades[student] = record
        if landed is not None:
            landed(student)

    delivered: dict[int, ClassVerdict] = {}
    missing: list[str] = []

    def judged(index: int, verdict: ClassVerdict) -> None:
        student, class_id = owners[index]
        delivered[index] = verdicts[student][class_id] = verdict
        left[student] -= 1
        if left[student] == 0:
            finish(student)

    for student in pending:
        if left[student] == 0:  # nothing to run: every class missing, empty or not text
            finish(student)
    if items:
        out_of_sight = _out_of_sight(students, out, hide)
        final = judge_many(
            items,
            timeout=timeout,
            jobs=jobs,
            on_done=judged,
            hide=out_of_sight,
            missing=missing,
            own=own,
            private=_private_by_class(private),
        )
        for index, verdict in enumerate(final):  # a verdict never delivered, or changed since
            if delivered.get(index) != verdict:
                student, class_id = owners[index]
                verdicts[student][class_id] = verdict
                left[student] = 0
        for student in {owners[i][0] for i, v in enumerate(final) if delivered.get(i) != v}:
            finish(student)
    book = Gradebook(course_print, specs, [grades[s] for s in sorted(grades)])
    write_gradebook(out, book)
    return Outcome(book, len(pending), reused, [], time.monotonic() - begin, missing)
