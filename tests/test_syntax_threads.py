"""Syntax trees built in threads beside each other: lint runs its phases in threads, and CPython
3.11 keeps one recursion counter for the AST constructor of the whole interpreter (gh-106905), so
two trees built at once could end in «SystemError: AST constructor recursion depth mismatch» (a
full suite hit it twice in lint's test of the real course)."""

from __future__ import annotations

import ast
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from compmath.course.syntax import parse
from tests.conftest import REPO

LAB = next(REPO.glob("classes/*/338-*/lab.py")).read_text(encoding="utf-8")


class _Finalised:
    """Cyclic garbage with a finaliser: a collection during a tree's construction runs Python
    code, and with it another thread may take the interpreter."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        for _ in range(50):
            pass


@contextmanager
def _switching_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _errors_in_threads(build: Callable[[str], ast.Module], threads: int = 4) -> list[str]:
    errors: list[str] = []

    def work() -> None:
        for _ in range(150):
            for _ in range(30):
                _Finalised()
            try:
                build(LAB)
            except SystemError as exc:
                errors.append(str(exc))

    with _switching_often():
        running = [threading.Thread(target=work) for _ in range(threads)]
        for thread in running:
            thread.start()
        for thread in running:
            thread.join()
    return errors


@pytest.mark.lento  # 2 s of threads
def test_trees_built_in_threads_at_once_are_all_built() -> None:
    assert _errors_in_threads(parse) == []


def test_every_tree_compmath_builds_goes_through_parse() -> None:
    """One place builds trees, under its lock: no module calls ast.parse itself."""
    package = REPO / "compmath"
    callers = [
        str(path.relative_to(REPO))
        for path in sorted(package.rglob("*.py"))
        if path != package / "course" / "syntax.py"
        and re.search(r"\bast\.parse\(", path.read_text(encoding="utf-8"))
    ]
    assert callers == []


@pytest.mark.lento
@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="la carrera se observó en Python 3.11")
def test_without_the_lock_the_same_threads_fail() -> None:
    """The control: the same threads calling ast.parse themselves are told the error (in one of
    a few attempts: it is a race), so the test above can fail."""
    failed = any(_errors_in_threads(ast.parse) for _ in range(5))
    assert failed, "ast.parse in threads never failed: the lock would prove nothing here"
