"""A lab's source parsed once per process (its syntax tree by text), and its statements.

Building a class's two notebooks and its page reads the same lab up to eleven times (its
parameters, its cells, its names, its solution regions, its exercise, the reference the
notebook carries): four distinct texts. The trees are shared: read them, never change them.

Every syntax tree compmath builds is built by `parse`, one thread at a time: CPython 3.11 keeps
one recursion counter for the AST constructor of the whole interpreter, so two threads building
trees at once (lint's phases run beside each other) may be told «AST constructor recursion
depth mismatch» when a collection runs a finaliser in between (CPython gh-106905).
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Iterator
from functools import lru_cache

_BUILDING = threading.Lock()


def parse(source: str) -> ast.Module:
    """ast.parse(source), never in two threads at once."""
    with _BUILDING:
        return ast.parse(source)


@lru_cache(maxsize=64)
def parsed(source: str) -> ast.Module:
    """The syntax tree of `source`, as `parse` gives it (and its SyntaxError, never cached)."""
    return parse(source)


def statements(node: ast.AST) -> Iterator[ast.stmt]:
    """Every statement under `node` (not itself), nested ones included: the bodies of functions,
    classes, loops, `if`, `with`, `try` and `match`. Expressions hold no statement, so they
    are not walked: a tenth of ast.walk's nodes, where imports and definitions can be."""
    for _, value in ast.iter_fields(node):
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, ast.stmt):
                yield item
                yield from statements(item)
            elif isinstance(item, (ast.excepthandler, ast.match_case)):
                yield from statements(item)
