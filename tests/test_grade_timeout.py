"""A hole that runs out of time has failed: grading runs it at no further variant (one time
limit per hanging hole, not one per variant), says so, and credits it no variant; a hole that
fails any other way is still judged at every variant."""

from __future__ import annotations

import pytest

from compmath.course.tree import load_course
from compmath.holes.graft import programs_for
from compmath.holes.hole_verdict import NOT_RUN_AFTER_TIMEOUT
from compmath.holes.regions import solution_regions, splice, student_regions
from compmath.holes.runs import Results
from compmath.holes.variants import variants_of
from compmath.holes.verdict import Attempt, HoleStatus, judge_many
from tests.conftest import REPO

pytestmark = pytest.mark.lento  # each test waits out real time limits

COURSE = load_course(REPO)
C323 = COURSE.resolve("323")
HANG = "while True:\n    pass"


def with_hole(number: int, code: str) -> str:
    """323 answered as the course does, but hole `number`, which holds `code`."""
    from compmath.holes.graft import course_lab

    source = splice(course_lab(C323).exercise, C323.lab.read_text("utf-8"), set())
    region = student_regions(source)[number - 1]
    lines = source.splitlines()
    lines[region.begin + 1 : region.end] = [f"{region.indent}{t}" for t in code.splitlines()]
    return "\n".join(lines) + "\n"


def graded(source: str, timeout: float = 1.5) -> tuple[Attempt, Results]:
    """Judged as grading does (hide given: the programs run private, chained by variant)."""
    results = Results()
    attempt = judge_many([(C323, source)], timeout=timeout, jobs=2, hide=[], into=results)[0]
    return attempt, results


def keys(source: str, number: int) -> list[str]:
    program = programs_for(C323, source).programs[number]
    return [program.key(v) for v in variants_of(C323)]


def test_a_hanging_hole_costs_one_time_limit_and_says_so() -> None:
    source = with_hole(1, HANG)
    attempt, results = graded(source)
    first, *later = keys(source, 1)
    assert results.reports[first].outcome == "tiempo_agotado"
    assert set(later) <= results.skipped and not set(later) & results.reports.keys()
    hole = attempt.holes[0]
    assert hole.status == HoleStatus.FAILS and hole.outcome == "tiempo_agotado"
    assert NOT_RUN_AFTER_TIMEOUT in hole.reason and hole.variants_passed == 0
    # the other holes are the course's: judged at every variant, all right
    for number in range(2, len(attempt.holes) + 1):
        assert all(k in results.reports for k in keys(source, number))
        assert attempt.holes[number - 1].status == HoleStatus.RIGHT


def test_a_hole_that_raises_is_still_judged_at_every_variant() -> None:
    source = with_hole(1, "raise ZeroDivisionError('1/0 en la fila 3')")
    attempt, results = graded(source, timeout=10)
    assert all(k in results.reports for k in keys(source, 1)) and not results.skipped
    hole = attempt.holes[0]
    assert hole.status == HoleStatus.FAILS and hole.outcome == "excepcion"
    assert "ZeroDivisionError" in hole.error and NOT_RUN_AFTER_TIMEOUT not in hole.reason


def test_hanging_only_at_a_hidden_variant_earns_no_share() -> None:
    """A student who passes the defaults and hangs elsewhere (hoping proportional credit pays
    for the variants that ran) gets no variant credited: the hole has failed."""
    solution = solution_regions(C323.lab.read_text("utf-8"))[0]
    own = [t.removeprefix(solution.indent) for t in solution.body]
    source = with_hole(1, "if d == 16:\n    while True:\n        pass\n" + "\n".join(own))
    attempt, results = graded(source)
    first, second, third = keys(source, 1)
    assert results.reports[first].outcome == "coincide"
    assert results.reports[second].outcome == "tiempo_agotado"
    assert third in results.skipped and third not in results.reports
    hole = attempt.holes[0]
    assert hole.status == HoleStatus.FAILS and hole.variants_passed == 0
    assert "dimension = 16" in hole.reason and NOT_RUN_AFTER_TIMEOUT in hole.reason


def test_practice_runs_every_variant_even_after_a_time_limit() -> None:
    """Outside grading (no hide) nothing is chained: the practice screens keep every variant."""
    results = Results()
    source = with_hole(1, "raise ValueError('x')")
    judge_many([(C323, source)], timeout=10, jobs=2, into=results)
    assert not results.skipped and all(k in results.reports for k in keys(source, 1))


def test_students_sharing_a_hanging_hole_each_get_their_own_time_limit() -> None:
    """Two students hand in the same looping hole with numbers of their own: the program is
    shared, their first variants are not; neither is told «no se ejecutó» because the other's
    run hung, and each is told it ran out of time at their own parameters."""
    source = with_hole(1, HANG)
    own = [{"dimension": 10, "posiciones": 7}, {"dimension": 14, "posiciones": 8}]
    results = Results()
    attempts = judge_many(
        [(C323, source), (C323, source)], timeout=1.5, jobs=2, hide=[], into=results, own=own
    )
    for attempt, params in zip(attempts, own):
        hole = attempt.holes[0]
        assert hole.outcome == "tiempo_agotado", hole.reason
        assert f"dimension = {params['dimension']}" in hole.reason
        assert "no se ejecutó" not in hole.reason and NOT_RUN_AFTER_TIMEOUT in hole.reason
    assert results.skipped  # the variants after the shared ones were still spared
