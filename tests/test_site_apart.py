"""The site's pages made in a forked process (site/apart.py): its results, and its failures
falling back to the caller."""

from __future__ import annotations

import os
import sys
from functools import partial

import pytest

from compmath.site.apart import Apart


def _made_by(i: int) -> list[int]:
    return [i, os.getpid()]


def _echo(made: list[int], found: str) -> tuple[list[int], str]:
    return made, found


def test_the_child_does_its_second_part_with_the_argument_it_is_sent() -> None:
    parent = os.getpid()
    child = Apart(lambda: ["temprano"], lambda made, found: [*made, found, os.getpid()])
    answer = child.finish({"321": "verificada"})
    assert answer is not None
    assert answer[:2] == ["temprano", {"321": "verificada"}]
    if sys.platform == "linux":
        assert answer[2] != parent  # made in the fork, not here
    assert child.pid == 0  # reaped


def test_a_failure_in_the_child_returns_none_so_the_caller_makes_everything() -> None:
    def broken() -> list[str]:
        raise ValueError("una página rota")

    assert Apart(broken, lambda made, found: found).finish({}) is None

    def broken_later(made: object, found: object) -> list[str]:
        raise RuntimeError("una página juzgada rota")

    assert Apart(list, broken_later).finish({}) is None


@pytest.mark.skipif(sys.platform != "linux", reason="the fork is Linux's")
def test_closing_without_finishing_ends_and_reaps_the_child() -> None:
    import time

    # a build stopped by a stale lab closes its children while they still work
    child = Apart(lambda: time.sleep(60), lambda made, found: found)
    pid = child.pid
    started = time.monotonic()
    child.close()
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left


@pytest.mark.skipif(sys.platform != "linux", reason="the fork is Linux's")
def test_two_children_at_once_each_get_their_own_answer() -> None:
    """The second fork holds no end of the first one's pipes (it would never see their end)."""
    import signal

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("a child waits for an end that never comes")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        children = [Apart(partial(_made_by, i), _echo) for i in range(2)]
        for child in children:
            child.send("verificada")
        answers = [child.finish("verificada") for child in children]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [(a[0][0], a[1]) for a in answers if a] == [(0, "verificada"), (1, "verificada")]
    assert len({a[0][1] for a in answers if a}) == 2  # two processes
