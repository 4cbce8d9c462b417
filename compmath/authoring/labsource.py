"""The outputs lab.py's run() returns, read from its source without importing or running it.

Lint compares them with class.toml, the schema and the snapshot, so an output added to the lab
but declared nowhere is named before anyone runs `compmath update`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from compmath.course.syntax import parse


def _keys(node: ast.expr | None) -> list[str] | None:
    """The keys of a dict literal whose keys are all strings (no `**`), else None."""
    if not isinstance(node, ast.Dict):
        return None
    keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
    if any(not isinstance(k, str) for k in keys):
        return None
    return [str(k) for k in keys]


def returned_outputs(lab: Path) -> list[str] | None:
    """The output names run() returns, in order, when every `return` in it is the same dict
    literal of string keys; None when the source cannot tell (or cannot be read)."""
    try:
        tree = parse(lab.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    run = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run"),
        None,
    )
    if run is None:
        return None
    nested = {
        id(inner)
        for node in ast.walk(run)
        if node is not run and isinstance(node, (ast.FunctionDef, ast.Lambda))
        for inner in ast.walk(node)
    }
    found = [
        _keys(n.value) for n in ast.walk(run) if isinstance(n, ast.Return) and id(n) not in nested
    ]
    if not found or any(k is None for k in found) or any(k != found[0] for k in found):
        return None
    return found[0]
