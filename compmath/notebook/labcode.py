"""A lab's source as notebook code cells: one for its preamble, one per top-level definition.

The preamble (docstring, imports, constants) is one cell; each function or class is its own,
with the comments written just above it; `run` comes last as in the lab. The
`if __name__ == "__main__":` block, which hands `run` to compmath, is left out: nothing in a
notebook imports compmath.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from compmath.course.syntax import parsed, statements
from compmath.holes.regions import HOLE_BEGIN

PREAMBLE = "preambulo"
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class LabCodeError(ValueError):
    """A lab that cannot become a notebook (it is not Python, or it imports compmath)."""


@dataclass(frozen=True)
class CodeCell:
    """One code cell of the lab: what it defines, its text, the holes it holds (exercise)."""

    name: str  # the function or class it defines, or PREAMBLE
    source: str
    holes: tuple[int, ...] = ()


def _is_main_block(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    names = [node.test.left, *node.test.comparators]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names)


def _imports_compmath(node: ast.stmt) -> bool:
    for inner in (node, *statements(node)):
        if isinstance(inner, ast.Import):
            modules = [alias.name for alias in inner.names]
        elif isinstance(inner, ast.ImportFrom):
            modules = [inner.module or ""]
        else:
            continue
        if any(m == "compmath" or m.startswith("compmath.") for m in modules):
            return True
    return False


def _first_line(node: ast.stmt) -> int:
    """The node's first line (1-based), decorators included."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _cell(name: str, lines: list[str]) -> CodeCell:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    holes = tuple(int(m.group("k")) for m in map(HOLE_BEGIN.match, lines) if m)
    return CodeCell(name, "\n".join(lines), holes)


def lab_cells(source: str, tree: ast.Module | None = None) -> list[CodeCell]:
    """Split a lab (or its exercise) into code cells; raise LabCodeError if it cannot be.

    `tree`: the syntax tree of a text whose statements sit on the same lines as `source`'s
    (the lab whose comment lines only were rewritten), when the caller has it."""
    try:
        tree = tree or parsed(source)
    except SyntaxError as exc:
        from compmath.errors_es import syntax_problem

        what = syntax_problem(exc).what
        raise LabCodeError(f"línea {exc.lineno}: no es Python válido ({what})") from None
    lines = source.splitlines()
    cells: list[CodeCell] = []
    pending: list[str] = []  # the preamble's statements not yet closed by a definition
    start = 0  # the first line (0-based) not yet given to a cell
    for node in tree.body:
        if _is_main_block(node):
            break
        if _imports_compmath(node):
            raise LabCodeError(
                f"línea {node.lineno}: importa compmath, y el cuaderno no puede hacerlo"
            )
        end = node.end_lineno or node.lineno
        if not isinstance(node, DEFINITIONS):
            pending += lines[start:end]
            start = end
            continue
        first = _first_line(node) - 1
        while first > start and lines[first - 1].lstrip().startswith("#"):
            first -= 1  # the comments just above a definition travel with it
        if pending or (not cells and lines[start:first]):
            cells.append(_cell(PREAMBLE, pending + lines[start:first]))
            pending = []
        cells.append(_cell(node.name, lines[first:end]))
        start = end
    if pending:
        cells.append(_cell(PREAMBLE, pending))
    return [cell for cell in cells if cell.source]


def defined_names(source: str) -> set[str]:
    """The names a lab defines at its top level (imports aside): constants, functions, classes."""
    names: set[str] = set()
    for node in parsed(source).body:
        if isinstance(node, DEFINITIONS):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def cell_id(name: str) -> str:
    """A notebook cell id from a name: letters, digits, - and _ only (nbformat 4.5)."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", name)[:60] or "celda"
