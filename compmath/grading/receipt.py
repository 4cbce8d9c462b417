"""A receipt before the deadline: the zip `grade` will read, read back as `grade` reads it.

`compmath practice entregar` puts the workspace's lab.py files (nothing else: the rest is the
course's) into a zip with fixed dates, so the same files give the same bytes and the same
SHA-256; then reads it back with the grader's own reader and says, class by class and hole by
hole, what will be graded and what will not count, and re-runs the public checks. `grade`
writes the SHA-256 of each zip it reads into the student's feedback, so both sides can tell
whether what was graded is what was handed in.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from compmath.course.tree import ClassInfo, Course
from compmath.grading.submissions import read_submission
from compmath.holes.graft import HoleStatus, programs_for
from compmath.holes.verdict import Attempt, judge_many

FIXED_DATE = (2000, 1, 1, 0, 0, 0)  # every member's date: the same files, the same bytes


class Space(Protocol):
    """What a receipt needs of the student's workspace (practice.workspace.Workspace has it):
    grading reads it through this, so it does not import the practice feature."""

    @property
    def root(self) -> Path: ...

    def classes(self) -> list[ClassInfo]: ...
    def origin(self) -> Course: ...
    def reference(self, cls: ClassInfo, course: Course | None = None) -> ClassInfo: ...
    def own(self, reference: ClassInfo, course: Course | None = None) -> dict[str, Any]: ...
    def student(self) -> str: ...


def zip_digest(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_zip(space: Space, out: Path) -> str:
    """Write the workspace's lab.py files into `out` (atomically); return its SHA-256."""
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=".entrega-", suffix=".zip", dir=out.parent)
    os.close(handle)
    try:
        with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as archive:
            for cls in space.classes():
                if cls.lab.is_file():
                    member = zipfile.ZipInfo(cls.lab.relative_to(space.root).as_posix(), FIXED_DATE)
                    member.compress_type = zipfile.ZIP_DEFLATED
                    member.external_attr = 0o644 << 16
                    archive.writestr(member, cls.lab.read_bytes())
        os.replace(name, out)
    finally:
        if os.path.exists(name):
            os.unlink(name)
    return zip_digest(out)


@dataclass(frozen=True)
class ClassReceipt:
    """One class as `grade` will see it."""

    cls: ClassInfo
    problem: str  # why it will score 0 whole (missing, empty, not text), or ""
    written: tuple[int, ...]  # holes with code
    open: tuple[int, ...]  # holes still to write
    broken: tuple[tuple[int, str], ...]  # holes that cannot run (marks, syntax), and why
    outside_changed: bool  # code outside the holes differs: it will not count
    attempt: Attempt | None  # the public checks, as practice check runs them


@dataclass(frozen=True)
class Receipt:
    student: str
    digest: str
    classes: tuple[ClassReceipt, ...]
    missing: tuple[str, ...]  # classes of the course with holes that are not in the workspace
    notes: tuple[str, ...]  # what the grader's reader ignored, and why


def _class_receipt(
    reference: ClassInfo,
    source: str | None,
    problem: str,
    own: dict[str, Any],
    attempts: dict[str, Attempt],
) -> ClassReceipt:
    if source is None:
        return ClassReceipt(reference, problem, (), (), (), False, None)
    plan = programs_for(reference, source, own)
    static = sorted(plan.static.items())
    return ClassReceipt(
        reference,
        "",
        tuple(sorted(plan.programs)),
        tuple(k for k, (status, _) in static if status == HoleStatus.OPEN),
        tuple((k, why) for k, (status, why) in static if status != HoleStatus.OPEN),
        plan.outside_changed,
        attempts.get(reference.id),
    )


def receipt(space: Space, path: Path, digest: str, *, timeout: float, jobs: int) -> Receipt:
    """Read the zip at `path` back as `grade` does and judge it as `practice check` does."""
    course = space.origin()
    mine = space.classes()
    references = [space.reference(cls, course) for cls in mine]
    student = path.stem
    submission = read_submission(student, path, references)
    items = [(r, submission.files[r.id].source) for r in references]
    judged = [(r, s) for r, s in items if s is not None]
    own = [space.own(r, course) for r, _ in judged]
    attempts = dict(
        zip([r.id for r, _ in judged], judge_many(judged, timeout=timeout, jobs=jobs, own=own))
    )
    classes = [
        _class_receipt(r, s, submission.files[r.id].problem, space.own(r, course), attempts)
        for r, s in items
    ]
    present = {c.id for c in mine}
    missing = tuple(c.id for c in course.classes if c.meta.holes and c.id not in present)
    notes = list(submission.notes)
    mine_id = space.student()
    if any(r.meta.per_student for r in references) and student != mine_id:
        yours = f"los tuyos salen de «{mine_id}»" if mine_id else "tu espacio no tiene id"
        notes.append(
            f"la corrección toma el nombre del .zip («{student}») por tu id, y de él saca tus "
            f"números propios ({yours}): llama al .zip con tu id (--out TU_ID.zip)"
        )
    return Receipt(student, digest, tuple(classes), missing, tuple(notes))


def receipt_note(path: Path) -> str:
    """The line `grade` adds to the feedback of a student who handed in a zip."""
    return (
        f"el .zip corregido tiene SHA-256 {zip_digest(path)}: compáralo con el que dio "
        "compmath practice entregar"
    )
