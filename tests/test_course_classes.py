"""Every real class as one test (id = class id): it runs, validates and matches its snapshot.

Uses the same core as `compmath check` (warm workers, evaluate); `pytest -k 323` runs class 323.
"""

from __future__ import annotations

import pytest

from compmath.course.tree import load_course
from compmath.execution.scheduler import run_one
from compmath.judging.case import prepare
from compmath.judging.judge import judge
from compmath.judging.report import failure_text
from tests.conftest import REPO

COURSE = load_course(REPO)


@pytest.mark.parametrize("cls", COURSE.classes, ids=[c.id for c in COURSE.classes])
def test_class_matches_its_snapshot(cls) -> None:
    case = prepare(COURSE, cls)
    report = judge(case, run_one(case.request))
    if not report.passed:
        pytest.fail(failure_text(report), pytrace=False)


def test_the_whole_part_is_written() -> None:
    (part,) = COURSE.parts
    assert [c.number for c in part.classes] == [entry.number for entry in part.plan]
    assert [c.slug for c in part.classes] == [entry.slug for entry in part.plan]
