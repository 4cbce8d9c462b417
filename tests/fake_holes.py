"""A student's lab.py for the fake course's 901, its one hole written as given (no fixture)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from compmath.course.tree import load_course
from compmath.holes.regions import exercise_source, solution_regions, splice


def with_hole_901(fake: Path, code: str) -> str:
    """901's exercise with hole 1 holding `code` (lines at the hole's indentation)."""
    cls = load_course(fake).resolve("901")
    lab = cls.lab.read_text("utf-8")
    source = splice(exercise_source(lab, [h.task for h in cls.meta.holes]), lab, {1})
    indent = solution_regions(lab)[0].indent
    body = "\n".join(indent + line for line in code.splitlines())
    return re.sub(
        r"^\s*raise NotImplementedError\(\"hueco 1 .*$", lambda _: body, source, flags=re.M
    )


def hand_in_901(fake: Path, entregas: Path, student: str, code: str) -> Path:
    """The student's folder in `entregas`, with 901's lab.py in the course layout."""
    cls = load_course(fake).resolve("901")
    target = entregas / student / cls.lab.relative_to(fake)
    target.parent.mkdir(parents=True)
    target.write_text(with_hole_901(fake, code), encoding="utf-8")
    return entregas / student


def grade_901(cli: Any, entregas: Path, fake: Path, out: Path, *extra: str) -> Any:
    """`compmath grade` of `entregas` on the fake course's 901 into `out` (30 s per run)."""
    args = ["--root", str(fake), "--clases", "901", "--out", str(out), "--timeout", "30"]
    return cli("grade", str(entregas), *args, *extra)
