"""The packages of compmath read top-down: no module imports one from a layer above its own.

Every import counts, also those inside functions (they are there for start-up time, not to hide
a dependency). The layers, from the bottom: what any module may use, then the course's files,
running labs, judging them, showing the verdicts, and the commands that use all of them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import REPO

LAYERS = (
    "errors_es_words",  # what Python's parsers say, and its Spanish
    "errors_es",
    "errors",
    "visible",  # a lab's control characters, shown
    "mathtext",  # inline $…$ in prose, and its plain text
    "wording",
    "atomic",
    "cleanup",  # removing a folder whatever is in it
    "cache",
    "contracts",  # the JSON Schemas the package carries, and where they are installed
    "base",  # canonical JSON and schema validation
    "course",
    "labmain",
    "execution",
    "judging",
    "present",
    "holes",  # the hole-judging core the features stand on
    ("practice", "grading", "notebook"),  # features, side by side: none imports another
    "site",  # publishes the course: its pages and, beside them, the notebooks
    "authoring",  # lint reads the website's checks (TeX in prose, formula widths) too
    "cli",
    "entry",
    "__main__",  # python -m compmath: the console script
)
PACKAGE = REPO / "compmath"


def rank(layer: str) -> int:
    """A layer's height: siblings (a tuple in LAYERS) share theirs."""
    return next(
        i
        for i, entry in enumerate(LAYERS)
        if layer in (entry if isinstance(entry, tuple) else (entry,))
    )


NAMES = [name for entry in LAYERS for name in ((entry,) if isinstance(entry, str) else entry)]


def _node(module: str) -> str:
    """The layer of `compmath.x.y` (x) or of a top-level module `compmath.x`."""
    return module.split(".")[1]


@cache
def tree(path: Path) -> ast.Module:
    """The parsed module, once a process (the tests here read every module, none writes one)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@cache
def imports(path: Path) -> frozenset[str]:
    """The compmath modules `path` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return frozenset(m for m in found if m.startswith("compmath.") and _node(m) in NAMES)


def graph() -> dict[str, set[str]]:
    """Layer → the layers it imports (itself left out)."""
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        here = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if here == "__init__":
            continue
        edges.setdefault(here, set()).update(_node(m) for m in imports(path) if _node(m) != here)
    return edges


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_every_module_is_in_a_layer() -> None:
    assert set(graph()) <= set(NAMES), set(graph()) - set(NAMES)
    assert len(set(NAMES)) == len(NAMES), "a layer named twice"


def test_every_import_points_down() -> None:
    upward = [
        f"{a} → {b}"
        for a, targets in graph().items()
        for b in sorted(targets)
        if rank(b) >= rank(a)
    ]
    assert upward == []


def module_of(path: Path) -> str:
    """`compmath/holes/runs.py` → `compmath.holes.runs` (a package's __init__ is the package)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_graph() -> dict[str, set[str]]:
    """Module → the compmath modules it imports (anywhere in it: functions' imports count)."""
    modules = {module_of(p): p for p in PACKAGE.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {m for m in imports(path) if m in modules} | {
            m.rsplit(".", 1)[0] for m in imports(path) if m not in modules
        }
        edges[name] = {t for t in targets if t in modules and t != name and t != "compmath"}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_two_modules_import_each_other_even_from_a_function() -> None:
    assert cycles(module_graph()) == []


def test_the_cycle_finder_sees_a_cycle_through_three_modules() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_judging_never_imports_the_screens() -> None:
    assert "present" not in graph()["judging"]


def test_the_readme_map_names_every_module() -> None:
    """The module map (docs/arquitectura.md, «Estructura») names each module under its package
    (or at the top), and nothing that is not one."""
    text = (REPO / "docs" / "arquitectura.md").read_text(encoding="utf-8")
    start = text.index("## Estructura")
    block = text[text.index("```", start) + 3 : text.index("```", text.index("```", start) + 3)]
    package, named = "", set()
    for row in block.splitlines():
        words = row.split()
        if not words:
            continue
        indent = len(row) - len(row.lstrip())
        if indent == 2 and words[0].endswith("/"):
            package = words[0]
        elif indent == 2 and words[0].endswith(".py"):
            package = ""
            named.add(words[0])
        elif indent == 4 and words[0].endswith(".py"):
            named.add(package + words[0])
    modules = {
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"
    }
    assert modules - named == set()
    assert named - modules == set()


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_no_function_above_complexity_c_without_saying_why() -> None:
    """radon's rank D and worse only where the function says why (`Complexity D, on purpose`)."""
    radon = pytest.importorskip("radon.complexity")
    unexplained = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for block in radon.cc_visit(source):
            if radon.cc_rank(block.complexity) in "ABC":
                continue
            body = "\n".join(lines[block.lineno - 1 : block.endline])
            if "on purpose" not in body:
                unexplained.append(f"{path.relative_to(REPO)}:{block.lineno} {block.name}")
    assert unexplained == []


def test_no_assert_stands_for_an_invariant() -> None:
    """`python -O` drops asserts: the package states its invariants as types or errors."""
    found = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(tree(path))
        if isinstance(node, ast.Assert)
    ]
    assert found == []


if __name__ == "__main__":  # the graph as the closing note shows it
    for layer in reversed(NAMES):
        targets = graph().get(layer, set())
        print(f"{layer} → {', '.join(sorted(targets, key=rank, reverse=True)) or '—'}")
