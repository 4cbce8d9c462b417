"""Grade a folder of submissions: judge what is new, write each student's record as it lands.

Each student's record goes to `OUT/alumnos/<alumno>.json` (atomically) the moment their last
hole is judged. A record whose fingerprint (the course's graded files, the limits, the student's
files) still holds is reused, so a run that was killed resumes where it stopped and a rerun
judges only the submissions that changed. The gradebook is written from the records at the end.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.grading import checkpoint
from compmath.grading.deadline import Lateness
from compmath.grading.gradebook import Gradebook, write_gradebook
from compmath.grading.names import by_student, file_names
from compmath.grading.protection import REQUIRED, named, probe
from compmath.grading.receipt import receipt_note
from compmath.grading.records import (
    ClassSpec,
    StudentGrade,
    course_fingerprint,
    grade,
    submission_fingerprint,
    unjudged,
)
from compmath.grading.roster import absent
from compmath.grading.seal import (
    OPEN_KEY,
    SEAL_FIELD,
    forget_protected_key,
    protected_key,
    seal,
    sealed,
)
from compmath.grading.shards import Shard
from compmath.grading.similarity import save_holes
from compmath.grading.submissions import Found, Submission, discover, read_submission
from compmath.grading.verdict import ClassVerdict, grade_submissions
from compmath.grading.written import Written
from compmath.holes.own import course_name, own_params
from compmath.holes.private import PrivateVariants

RECORDS_DIR = "alumnos"


@dataclass
class GradingRun:
    """What a grading run did: how many students it judged now, reused, and ignored."""

    book: Gradebook
    judged: int = 0
    reused: int = 0
    ignored: list[str] = field(default_factory=list)
    seconds: float = 0.0
    missing: list[str] = field(default_factory=list)  # protections the labs ran without
    written: list[Written] = field(default_factory=list)  # what it wrote, as the summary lists


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


def _saved(path: Path, student: str, fingerprint: str, key: bytes) -> StudentGrade | None:
    """The student's record, if one is there for exactly these files and protections, sealed
    with this run's key (seal.py); anything odd, forged or damaged is None: judged again."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not sealed(data, key):
            return None
        saved = StudentGrade.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return saved if saved.student == student and saved.fingerprint == fingerprint else None


def select_students(
    folder: Path,
    shard: Shard | None,
    out: Path,
    found: tuple[dict[str, Path | None], list[str]] | None = None,
) -> tuple[dict[str, Path | None], list[str], list[str]]:
    """The students in `folder` by NFC id (their share, with `shard`), what was ignored there,
    and every student there (the roster a shard records); the output folder is never a student,
    even when it sits among them. `found` is what an LMS download and a roster gave instead
    (None: a student on the roster who handed in nothing). Two submissions of one student are
    refused (names.py)."""
    students, ignored = found if found is not None else discover(folder)
    kept = by_student(
        {s: p for s, p in students.items() if p is None or p.resolve() != out.resolve()}
    )
    selected = {s: p for s, p in kept.items() if shard is None or shard.holds(s)}
    return selected, ignored, list(kept)


def _out_of_sight(students: dict[str, Path | None], out: Path, hide: Sequence[Path]) -> list[Path]:
    """What no student's code may see: `hide`, the grades, the folders holding submissions."""
    return [*hide, out, *{path.parent for path in students.values() if path is not None}]


def _private_by_class(private: PrivateVariants | None) -> dict[int, Any] | None:
    return private.by_class if private is not None else None


def _course_print(
    classes: list[ClassInfo],
    timeout: float,
    private: PrivateVariants | None,
    missing: tuple[str, ...],
) -> tuple[str, str]:
    """The course's fingerprint, with what else every verdict depends on (the private
    variants, the course title the students' own numbers are derived from), and that title.
    A [practica.por_alumno] that does not fit run() stops the grading here, before any run."""
    title = course_name(classes[0]) if classes else ""
    for cls in classes:
        own_params(cls, "comprobacion", title)
    course_print = course_fingerprint(classes, timeout, missing)
    owning = title if any(c.meta.per_student for c in classes) else ""
    if private is None and not owning:
        return course_print, title
    extra = f"{course_print}\0{private.digest if private else ''}\0{owning}"
    return hashlib.sha256(extra.encode("utf-8")).hexdigest(), title


def _internal(what: str, exc: BaseException) -> str:
    """Why a student got 0 through compmath's fault: the stage and the exception's type only
    (its message could name a path of this machine, and records hold none)."""
    return f"no se pudo {what} esta entrega (error interno de compmath: {type(exc).__name__})"


def _read(
    student: str, path: Path | None, classes: list[ClassInfo], out: Path, stem: str
) -> tuple[Submission, Written | None]:
    """The student's submission as grading reads it, or the empty one of a roster student who
    handed in nothing; a zip's SHA-256 goes in the feedback (as `practice entregar` printed
    it), the holes into OUT/huecos/<stem>.json (for `grade similitud`: that folder, as
    written)."""
    if path is None:
        return absent(student, classes), None
    try:
        submission = read_submission(student, path, classes)
    except Exception as exc:  # one unreadable submission scores 0; the others are graded
        reason = _internal("leer", exc)
        return Submission(student, {c.id: Found(None, reason) for c in classes}), None
    if path.is_file():
        submission = replace(submission, notes=(*submission.notes, receipt_note(path)))
    return submission, save_holes(out, submission, stem)


class _Recorder:
    """Writes each student's record, sealed, the moment they land; a student whose grade
    cannot be made or written gets 0 with the reason, and the others go on."""

    def __init__(
        self,
        out: Path,
        specs: list[ClassSpec],
        missing: tuple[str, ...],
        names: dict[str, str],
        key: bytes,
    ) -> None:
        self.out, self.specs, self.missing, self.names, self.key = out, specs, missing, names, key
        self.grades: dict[str, StudentGrade] = {}
        self.written: list[Path] = []
        self.holes: Written | None = None  # OUT/huecos/, once a student's holes are saved there
        self.course_print = ""  # what each class checkpoint's fingerprint starts from

    def resumed(self, student: str, class_id: str, fingerprint: str) -> ClassVerdict | None:
        """A class of this student judged by an earlier run that did not finish (checkpoint)."""
        records = self.out / RECORDS_DIR
        return checkpoint.load(records, self.names[student], class_id, fingerprint, self.key)

    def checkpoint(
        self, student: str, class_id: str, fingerprint: str, verdict: ClassVerdict
    ) -> None:
        """Save one judged class the moment it lands (checkpoint.py)."""
        records = self.out / RECORDS_DIR
        stem = self.names[student]
        saved = checkpoint.save(records, stem, class_id, fingerprint, verdict, self.key)
        if saved is not None:
            self.written.append(saved)

    def path(self, student: str) -> Path:
        return self.out / RECORDS_DIR / f"{self.names[student]}.json"

    def write(self, record: StudentGrade) -> None:
        data = record.to_dict()
        data[SEAL_FIELD] = seal(data, self.key)
        path = self.path(record.student)
        write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        self.written.append(path)
        checkpoint.forget(self.out / RECORDS_DIR, self.names[record.student])

    def finish(
        self, submission: Submission, fingerprint: str, verdicts: dict[str, ClassVerdict]
    ) -> None:
        try:
            record = grade(self.specs, submission, fingerprint, verdicts, self.missing)
            self.write(record)
        except Exception as exc:  # this student's grade alone is lost: 0 with the reason
            stage = "guardar" if isinstance(exc, OSError | CompmathError) else "juzgar"
            record = unjudged(
                self.specs, submission, fingerprint, _internal(stage, exc), self.missing
            )
            try:
                self.write(record)
            except Exception:  # the report and notas.csv still say it
                pass
        self.grades[submission.student] = record


def _key(missing: tuple[str, ...]) -> bytes:
    """The key that seals this run's records: the protected one, or, when a layer that keeps
    students apart is missing, none that is secret (the protected key is removed first)."""
    if any(name in REQUIRED for name in missing):
        forget_protected_key()
        return OPEN_KEY
    return protected_key()


def grade_students(
    students: dict[str, Path | None],
    out: Path,
    classes: list[ClassInfo],
    *,
    timeout: float,
    jobs: int,
    missing: tuple[str, ...] | None = None,
    started: Callable[[list[str]], None] | None = None,
    landed: Callable[[str], None] | None = None,
    hide: Sequence[Path] = (),
    private: PrivateVariants | None = None,
    lateness: dict[str, Lateness] | None = None,
) -> GradingRun:
    """Grade each student's submission (folder or zip, by id; None: on the roster, nothing
    handed in) into `out`.

    No student's code sees `out`, `hide` (the submissions folder) or any student's files.
    Each hole is judged at the student's own parameters where the class declares them
    (re-derived from the student id: course.per_student) and at the `private` variants too.
    `missing`: the protections the labs go without (protection.probe, asked here when None),
    written into every record and the fingerprint; a batch that ran with fewer is refused
    (nothing it wrote stays). Whether to grade at all without them is the caller's decision.

    `started(students)` names the students judged now (a live line says who is awaited);
    `landed(student)` is called as each one's record is written. `lateness` (from [entrega]:
    grading.delivered) goes into the gradebook beside the points, never into the records.
    """
    begin = time.monotonic()
    missing = probe() if missing is None else missing
    specs = [ClassSpec.of(c, timeout) for c in classes]
    course_print, title = _course_print(classes, timeout, private, missing)
    (out / RECORDS_DIR).mkdir(parents=True, exist_ok=True)
    key = _key(missing)
    recorder = _Recorder(out, specs, missing, file_names(students), key)
    recorder.course_print = course_print
    try:
        pending = _reuse(students, classes, recorder, course_print)
        if started is not None:
            started(list(pending))
        hidden = _out_of_sight(students, out, hide)
        ran_missing = _judge(
            pending, classes, recorder, (timeout, jobs), landed, hidden, (title, private)
        )
    finally:
        if key == OPEN_KEY:
            forget_protected_key()  # whatever a lab planted there while it ran
    fewer = [name for name in ran_missing if name not in missing]
    if fewer:  # the records say protections the labs did not have: none of them stays
        for path in recorder.written:
            path.unlink(missing_ok=True)
        shutil.rmtree(out / RECORDS_DIR / checkpoint.FOLDER, ignore_errors=True)
        forget_protected_key()  # the labs may have read it
        raise CompmathError(
            f"los laboratorios corrieron sin {named(fewer)}, que el sistema ofrecía al empezar: "
            "no se guarda ninguna nota de esta pasada",
            "vuelve a lanzar la orden",
        )
    grades = recorder.grades
    ordered = [grades[s] for s in sorted(grades)]
    book = Gradebook(course_print, specs, ordered, missing, dict(lateness or {}))
    book, written = write_gradebook(out, book)
    if recorder.holes is not None:
        written.append(recorder.holes)
    written.append(
        Written(out / RECORDS_DIR, "la nota sellada de cada alumno (para reanudar)", folder=True)
    )
    reused = len(students) - len(pending)
    took = time.monotonic() - begin
    return GradingRun(book, len(pending), reused, [], took, list(missing), written)


def _reuse(
    students: dict[str, Path | None],
    classes: list[ClassInfo],
    recorder: _Recorder,
    course_print: str,
) -> dict[str, tuple[Submission, str]]:
    """Read every submission; keep the records that still hold; the rest are to be judged."""
    pending: dict[str, tuple[Submission, str]] = {}
    for student, path in students.items():
        submission, holes = _read(student, path, classes, recorder.out, recorder.names[student])
        recorder.holes = recorder.holes or holes
        fingerprint = submission_fingerprint(course_print, submission)
        saved = _saved(recorder.path(student), student, fingerprint, recorder.key)
        if saved is not None:
            recorder.grades[student] = saved
        else:
            pending[student] = (submission, fingerprint)
    return pending


def _judge(
    pending: dict[str, tuple[Submission, str]],
    classes: list[ClassInfo],
    recorder: _Recorder,
    limits: tuple[float, int],
    landed: Callable[[str], None] | None,
    hidden: list[Path],
    numbers: tuple[str, PrivateVariants | None],
) -> tuple[str, ...]:
    """Judge every pending student's classes in one batch, recording each as they land;
    the protections the labs ran without. `limits`: the timeout and the jobs; `numbers`: the
    course title the students' own numbers come from, and the private variants."""
    timeout, jobs = limits
    title, private = numbers
    items: list[tuple[ClassInfo, str]] = []
    own: list[dict[str, Any]] = []  # per item: the student's own parameters in that class
    owners: list[tuple[str, str]] = []  # per item: (student, class id)
    class_prints: list[str] = []  # per item: its class checkpoint's fingerprint
    verdicts: dict[str, dict[str, ClassVerdict]] = {s: {} for s in pending}
    left: dict[str, int] = {}
    for student, (submission, _) in pending.items():
        for cls in classes:
            source = submission.files[cls.id].source
            if source is None:
                continue
            class_print = checkpoint.class_print(recorder.course_print, student, cls.id, source)
            resumed = recorder.resumed(student, cls.id, class_print)
            if resumed is not None:  # judged by a run that was killed before this student
                verdicts[student][cls.id] = resumed
                continue
            items.append((cls, source))
            owners.append((student, cls.id))
            own.append(own_params(cls, student, title))
            class_prints.append(class_print)
        left[student] = sum(1 for owner, _ in owners if owner == student)

    def finish(student: str) -> None:
        submission, fingerprint = pending[student]
        recorder.finish(submission, fingerprint, verdicts[student])
        if landed is not None:
            landed(student)

    delivered: dict[int, ClassVerdict] = {}
    missing: list[str] = []

    def judged(index: int, verdict: ClassVerdict) -> None:
        student, class_id = owners[index]
        delivered[index] = verdicts[student][class_id] = verdict
        if left[student] > 1:  # the last one goes straight into the student's record
            recorder.checkpoint(student, class_id, class_prints[index], verdict)
        left[student] -= 1
        if left[student] == 0:
            finish(student)

    for student in pending:
        if left[student] == 0:  # nothing to run: every class missing, empty or not text
            finish(student)
    if not items:
        return ()
    final = grade_submissions(
        items,
        timeout=timeout,
        jobs=jobs,
        on_done=judged,
        hide=hidden,
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
    return tuple(missing)
