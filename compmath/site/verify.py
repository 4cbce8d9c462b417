"""Verify the course's numbers at build time: every lab through the same judge as `check`.

A lab whose reply matches its snapshot is remembered in the user cache, keyed by the hash of
everything the verdict depends on (the class folder's files, its outputs schema, compmath's own
code, Python's and numpy's versions): a second build with nothing changed runs no lab, and its
pages keep the date of the run that verified them. Only matches are cached; anything else runs
again, so a failure is always reported from a fresh run.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from compmath.cache import read_json, write_json
from compmath.course.tree import ClassInfo, Course
from compmath.judging.case import prepare
from compmath.judging.pipeline import judge_cases
from compmath.judging.report import LabReport, Outcome

PACKAGE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Verification:
    """What the build knows about one class's numbers: verified or not, when, and why not."""

    class_id: str
    outcome: Outcome
    when: str  # ISO 8601, UTC: when the lab last ran and matched (or failed)
    message: str = ""
    hint: str = ""
    ran: bool = True  # False when the verdict came from the cache (nothing it depends on changed)

    @property
    def verified(self) -> bool:
        return self.outcome == Outcome.MATCHES


@cache
def code_fingerprint() -> str:
    """A hash of compmath's own source and the versions a lab's numbers depend on."""
    digest = hashlib.sha256(sys.version.encode())
    try:
        digest.update(version("numpy").encode())
    except PackageNotFoundError:
        pass
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def files_digest(paths: list[Path]) -> str:
    """A hash of files' names and bytes (a missing file counts as absent, not as an error)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0absent\0")
    return digest.hexdigest()


def class_files(cls: ClassInfo) -> list[Path]:
    """The files a class's page and verdict are made of: its folder's files and its schema."""
    inside = sorted(p for p in cls.path.iterdir() if p.is_file() and not p.name.startswith("."))
    return [*inside, cls.schema_path]


def verdict_key(digest: str) -> str:
    """The cache key of a verdict: compmath's code and the class's files (`digest`)."""
    return hashlib.sha256((code_fingerprint() + digest).encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _from_report(report: LabReport) -> Verification:
    return Verification(
        report.class_id, report.outcome, _now(), report.message, report.hint or report.remedy
    )


def verify(
    course: Course,
    classes: list[ClassInfo],
    digests: dict[str, str],
    jobs: int,
    timeout: float,
    memory: int,
    on_done: Callable[[str], None] | None = None,
) -> dict[str, Verification]:
    """Judge every class (from the cache when nothing it depends on changed), by class id;
    `digests` are the hashes of each class's files (class_files)."""
    found: dict[str, Verification] = {}
    keys = {cls.id: verdict_key(digests[cls.id]) for cls in classes}
    to_run = []
    for cls in classes:
        cached = read_json(f"web/{keys[cls.id]}.json")
        if isinstance(cached, dict) and isinstance(cached.get("cuando"), str):
            found[cls.id] = Verification(cls.id, Outcome.MATCHES, cached["cuando"], ran=False)
            if on_done:
                on_done(cls.id)
        else:
            to_run.append(cls)

    cases = [prepare(course, cls, timeout=timeout, memory=memory) for cls in to_run]
    for case, report in judge_cases(cases, jobs=jobs):
        found[report.class_id] = _from_report(report)
        if on_done:
            on_done(case.key)
    for cls in to_run:  # after the run: a run without Landlock empties the cache as it ends
        if found[cls.id].verified:
            write_json(f"web/{keys[cls.id]}.json", {"cuando": found[cls.id].when})
    return {cls.id: found[cls.id] for cls in classes}
