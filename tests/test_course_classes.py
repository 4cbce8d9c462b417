"""Every real class as one test (id = class id): it runs, validates and matches its snapshot.

Uses the same core as `compmath check` (warm workers, evaluate); `pytest -k 323` runs class 323.
"""

from __future__ import annotations

import pytest

from compmath.course import load_course
from compmath.execute import run_one
from compmath.report import failure_text
from compmath.runner import build_request, evaluate
from tests.conftest import REPO

COURSE = load_course(REPO)


@pytest.mark.parametrize("cls", COURSE.classes, ids=[c.id for c in COURSE.classes])
def test_class_matches_its_snapshot(cls) -> None:
    request = build_request(COURSE, cls, [])
    report = evaluate(COURSE, cls, request, run_one(request))
    if not report.passed:
        pytest.fail(failure_text(report), pytrace=False)


def test_the_whole_part_is_written() -> None:
    (part,) = COURSE.parts
    assert [c.number for c in part.classes] == [entry["numero"] for entry in part.plan]
    assert [c.slug for c in part.classes] == [entry["slug"] for entry in part.plan]
