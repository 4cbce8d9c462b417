"""Claim outputs that lab.py's run() returns as literals, read from the source without running it.

The lab contract: a claim (a boolean output) is computed from the lab's own numbers. A value
that is a literal True/False, `bool(1)`, a comparison of constants or a name bound only to such
a value would pass any snapshot while proving nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

from compmath.course.syntax import parse

_BOOL_CASTS = {"bool", "int", "float", "abs", "round"}
_NUMPY_BOOLS = {"True_", "False_", "bool_"}


def _assignments(module: ast.Module, run: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    """Every value bound to each name at module level and inside run() (a name bound by
    unpacking or through a subscript gets the target itself: never constant)."""
    assigned: dict[str, list[ast.expr]] = {}
    for node in [*module.body, *ast.walk(run)]:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
                    continue
                for inner in ast.walk(target):
                    if isinstance(inner, ast.Name):
                        assigned.setdefault(inner.id, []).append(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            bound = node.value if isinstance(node, ast.AnnAssign) else None
            assigned.setdefault(node.target.id, []).append(bound or node.target)
    return assigned


class _Constants:
    """Which names hold a constant: module assignments and run()'s own, if only ever constant."""

    def __init__(self, module: ast.Module, run: ast.FunctionDef) -> None:
        self.names: set[str] = set()
        assigned = _assignments(module, run)
        params = {a.arg for a in run.args.args + run.args.kwonlyargs}
        changed = True
        while changed:  # a name is constant when every value bound to it is
            changed = False
            for name, values in assigned.items():
                if name in self.names or name in params:
                    continue
                if all(self.constant(v) for v in values):
                    self.names.add(name)
                    changed = True
        self.bools = {name for name in self.names if any(_booleanish(v) for v in assigned[name])}

    def constant(self, node: ast.expr) -> bool:
        """True when the expression's value cannot depend on anything the lab computes.

        Complexity D, on purpose: one case per kind of expression, read as a table."""
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.names
        if isinstance(node, ast.Attribute):
            return node.attr in _NUMPY_BOOLS and isinstance(node.value, ast.Name)
        if isinstance(node, ast.UnaryOp):
            return self.constant(node.operand)
        if isinstance(node, ast.BinOp):
            return self.constant(node.left) and self.constant(node.right)
        if isinstance(node, ast.BoolOp):
            return all(self.constant(v) for v in node.values)
        if isinstance(node, ast.Compare):
            return self.constant(node.left) and all(self.constant(c) for c in node.comparators)
        if isinstance(node, ast.IfExp):  # the test does not matter if both branches are fixed
            return self.constant(node.body) and self.constant(node.orelse)
        if isinstance(node, ast.Call) and not node.keywords:
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else (func.attr if isinstance(func, ast.Attribute) else "")
            )
            return (name in _BOOL_CASTS or name in _NUMPY_BOOLS) and all(
                self.constant(a) for a in node.args
            )
        return False


def _booleanish(node: ast.expr) -> bool:
    """A constant expression that reads as a claim (a bool), not a parameter of the example."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, (ast.Compare, ast.BoolOp)):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not) or _booleanish(node.operand)
    if isinstance(node, ast.IfExp):
        return _booleanish(node.body) or _booleanish(node.orelse)
    if isinstance(node, ast.Attribute):
        return node.attr in _NUMPY_BOOLS
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in {"bool"} | _NUMPY_BOOLS or any(_booleanish(a) for a in node.args)
    return False


def _claims(node: ast.expr, path: str, consts: _Constants) -> list[tuple[str, ast.expr]]:
    """(output path, value) of every literal claim in a returned dict, nested ones included."""
    found: list[tuple[str, ast.expr]] = []
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            name = str(key.value) if isinstance(key, ast.Constant) else "**"
            found += _claims(value, f"{path}.{name}" if path else name, consts)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for i, item in enumerate(node.elts):
            found += _claims(item, f"{path}[{i}]", consts)
    elif consts.constant(node) and (
        node.id in consts.bools if isinstance(node, ast.Name) else _booleanish(node)
    ):
        found.append((path, node))
    return found


def literal_claims(lab: Path) -> list[tuple[str, int, str]]:
    """(output path, line, source) of each claim run() returns as a literal; [] if unreadable."""
    try:
        source = lab.read_text(encoding="utf-8")
        tree = parse(source)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return []
    run = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run"), None)
    if run is None:
        return []
    consts = _Constants(tree, run)
    found: list[tuple[str, int, str]] = []
    for ret in ast.walk(run):
        if isinstance(ret, ast.Return) and ret.value is not None:
            for path, value in _claims(ret.value, "", consts):
                found.append((path, value.lineno, ast.get_source_segment(source, value) or ""))
    return found
