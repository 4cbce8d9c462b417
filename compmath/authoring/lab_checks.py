"""Lint's checks that run labs, class by class, remembered by the content they depend on.

The exercise checks (authoring.exercises) and the mutants (authoring.mutant_check) run, for
the classes not remembered, in one pass each over every core. What they found for a class is
remembered under a key made of everything its verdict depends on: the class's files, its
part.toml, the course's class schema, compmath's own source, Python's and NumPy's versions.
An edit anywhere in a class checks that class again and no other; an edit to compmath checks
them all. A class is remembered only when every one of its runs reached a verdict and the labs
ran confined (an unconfined run empties this memory with the other caches a lab could poison);
an entry that cannot be read is run again, so a bad entry costs time, never a verdict.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compmath.authoring.beside import Beside
from compmath.authoring.mutant_check import Checked, HoleScore
from compmath.course.tree import ClassInfo, Course
from compmath.errors import Problem
from compmath.wording import count

if TYPE_CHECKING:
    from compmath.judging.report import LabReport

CACHE = "lint"  # the folder of the cache (in scheduler.LAB_CACHES)
FORMAT = 1
NOT_JUDGED = "no se pudo comprobar"  # how the exercise checks say a run reached no verdict


@dataclass
class LabFindings:
    """The problems of the labs' checks, in class order, and every hole's mutation score."""

    problems: list[Problem] = field(default_factory=list)
    scores: list[HoleScore] = field(default_factory=list)
    checked: int = 0  # classes run now (the others were remembered)


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """compmath's own source and contracts, Python's and NumPy's versions."""
    from importlib import metadata

    import compmath

    digest = hashlib.sha256(sys.version.encode())
    try:
        digest.update(metadata.version("numpy").encode())
    except metadata.PackageNotFoundError:
        digest.update(b"-")
    package = Path(compmath.__file__).parent
    # its code and the contracts it carries (compmath/contracts/*.schema.json: class.toml's)
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.schema.json")]):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def class_key(cls: ClassInfo) -> str:
    """The digest of everything the labs' verdict on `cls` depends on."""
    digest = hashlib.sha256(f"{FORMAT}\0{_code_digest()}\0{cls.id}".encode())
    files = [cls.part.meta_path, cls.schema_path]  # class.toml's contract: in _code_digest
    files += sorted(p for p in cls.path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    digest_files(digest, files, cls.root)
    return digest.hexdigest()


def digest_files(digest: Any, files: list[Path], root: Path) -> None:
    """Each file's path (from `root`) and bytes into `digest`; an unreadable one as `-`."""
    for path in files:
        digest.update(b"\0" + str(path.relative_to(root)).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"-")


def _remembered(cls: ClassInfo) -> tuple[list[Problem], list[HoleScore]] | None:
    from compmath.cache import read_json

    data = read_json(f"{CACHE}/{class_key(cls)}.json")
    try:
        problems = [Problem(str(f), str(w), str(h)) for f, w, h in data["problemas"]]
        scores = [HoleScore.of(s) for s in data["puntuaciones"]]
    except (TypeError, KeyError, ValueError):
        return None
    return problems, scores


def _remember(cls: ClassInfo, problems: list[Problem], scores: list[HoleScore]) -> None:
    from compmath.cache import write_json

    data = {
        "problemas": [[p.file, p.what, p.hint] for p in problems],
        "puntuaciones": [s.data() for s in scores],
    }
    write_json(f"{CACHE}/{class_key(cls)}.json", data)


def _owner(problem: Problem, folders: dict[str, ClassInfo]) -> ClassInfo | None:
    return next((c for f, c in folders.items() if problem.file.startswith(f)), None)


def unremembered(classes: list[ClassInfo]) -> list[ClassInfo]:
    """Those of `classes` whose labs' checks lint runs again (nothing remembered for them)."""
    return [cls for cls in classes if _remembered(cls) is None]


def lab_problems(
    course: Course,
    jobs: int,
    classes: list[ClassInfo] | None = None,
    recorded: Callable[[], Mapping[str, LabReport]] | None = None,
) -> LabFindings:
    """Every class's (or `classes'`) lab-running problems and scores, remembered ones
    included. `recorded`: waits for the notebooks' instrumented runs of the course's labs,
    which give the mutants their oracles (authoring.mutant_check)."""
    chosen = list(course.classes) if classes is None else classes
    from compmath.authoring.exercises import exercise_problems
    from compmath.authoring.mutant_check import mutant_check

    known: dict[str, tuple[list[Problem], list[HoleScore]]] = {}
    pending: list[ClassInfo] = []
    for cls in chosen:
        found = _remembered(cls)
        if found is None:
            pending.append(cls)
        else:
            known[cls.id] = found
    findings = LabFindings(checked=len(pending))
    extra: list[Problem] = []
    if pending:
        round_ = Round()
        # the exercise checks beside the mutants: each fills the cores the other's rounds
        # leave idle as they end; both made while the course's labs are recorded, and run
        # once they are (they take what they can from the recordings)
        exercises = Beside(
            lambda: exercise_problems(course, jobs=jobs, classes=pending, recorded=recorded)
        )
        checked = mutant_check(pending, jobs, recorded)
        problems = exercises.result()
        folders = {str(c.path.relative_to(c.root)) + "/": c for c in pending}
        owned: dict[str, list[Problem]] = {c.id: [] for c in pending}
        for problem in problems:
            owner = _owner(problem, folders)
            if owner is None:
                extra.append(problem)
            else:
                owned[owner.id].append(problem)
        confined = round_.confined()
        for cls in pending:
            one = checked.get(cls.id, Checked())
            mine = owned[cls.id] + one.problems
            known[cls.id] = (mine, one.scores)
            complete = one.complete and not any(NOT_JUDGED in p.what for p in mine)
            if complete and confined:
                _remember(cls, mine, one.scores)
    for cls in chosen:
        problems, scores = known.get(cls.id, ([], []))
        findings.problems += problems
        findings.scores += scores
    findings.problems += extra
    return findings


class Round:
    """A mark left in the cache while the labs run: the scheduler empties the cache after a lab
    ran unconfined, taking the mark with it, and then nothing of this round is remembered."""

    def __init__(self) -> None:
        import os

        from compmath.cache import cache_dir

        self.path = cache_dir() / CACHE / f".ronda-{os.getpid()}-{id(self)}"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch()
        except OSError:
            pass  # an unwritable cache: nothing is remembered

    def confined(self) -> bool:
        kept = self.path.exists()
        self.path.unlink(missing_ok=True)
        return kept


def score_problems(course: Course, scores: list[HoleScore], goal: float) -> list[Problem]:
    """A problem per hole whose standard mutants are rejected (or equivalent) below `goal`."""
    files = {c.id: str(c.meta_path.relative_to(c.root)) for c in course.classes}
    return [
        Problem(
            files.get(s.cls, s.cls),
            f"hueco {s.hole}: las variantes rechazan {s.counted} de "
            f"{count(s.total, 'mutante estándar', 'mutantes estándar')} "
            f"({s.share:.0%}, la meta es {goal:.0%})".replace("%", " %"),
            "compmath lint --mutantes los lista con su cambio: añade una variante que los "
            "distinga, o márcalos en equivalentes con la razón si no cambian nada",
        )
        for s in scores
        if s.share < goal
    ]


def score_rows(scores: list[HoleScore]) -> list[dict[str, Any]]:
    """The scores as plain data (for a table)."""
    return [s.data() | {"proporcion": round(s.share, 4)} for s in scores]
