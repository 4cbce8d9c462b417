"""The site's pages made in a forked process (site/apart.py): its results, and its failures
falling back to the caller."""

from __future__ import annotations

import os
import sys

import pytest

from compmath.site.apart import Apart


def test_the_child_makes_both_parts_from_the_argument_it_is_sent() -> None:
    parent = os.getpid()
    child = Apart(lambda: ["temprano", os.getpid()], lambda found: {"recibido": found})
    both = child.finish({"321": "verificada"})
    assert both is not None
    early, judged = both
    assert early[0] == "temprano"
    assert judged == {"recibido": {"321": "verificada"}}
    if sys.platform == "linux":
        assert early[1] != parent  # made in the fork, not here
    assert child.pid == 0  # reaped


def test_a_failure_in_the_child_returns_none_so_the_caller_makes_everything() -> None:
    def broken() -> list[str]:
        raise ValueError("una página rota")

    assert Apart(broken, lambda found: found).finish({}) is None

    def broken_later(found: object) -> list[str]:
        raise RuntimeError("una página juzgada rota")

    assert Apart(list, broken_later).finish({}) is None


@pytest.mark.skipif(sys.platform != "linux", reason="the fork is Linux's")
def test_closing_without_finishing_ends_and_reaps_the_child() -> None:
    import time

    child = Apart(lambda: time.sleep(60), lambda found: found)  # a build stopped by a stale lab
    pid = child.pid
    started = time.monotonic()
    child.close()
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left
