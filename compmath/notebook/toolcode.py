"""rules.py and checker.py as notebook code: the tools cell, or one of their classes by name."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from compmath.course.syntax import parse

HERE = Path(__file__).parent
SOURCES = (HERE / "rules.py", HERE / "checker.py")
TITLE = '#@title Herramientas de comprobación (no hace falta leerlas) { display-mode: "form" }'
FUTURE = "from __future__ import annotations"


@cache
def tools_source() -> str:
    """rules.py and checker.py as one cell: their imports first, then their classes (module
    docstrings and compmath imports left out: in the notebook, the classes are all there is)."""
    imports: dict[str, None] = {}
    bodies: list[str] = []
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in parse(source).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                text = "\n".join(lines[node.lineno - 1 : node.end_lineno])
                if text != FUTURE and not text.startswith("from compmath"):
                    imports[text] = None
            elif isinstance(node, ast.ClassDef):
                bodies.append("\n".join(lines[node.lineno - 1 : node.end_lineno]))
    return "\n\n\n".join([f"{TITLE}\n{FUTURE}\n\n" + "\n".join(sorted(imports)), *bodies])


@cache
def class_source(name: str) -> str:
    """One class of the tools (rules.py or checker.py) as text, e.g. the recorder's codec (read
    once per process, as tools_source: every notebook and every recording's cache key asks)."""
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        for node in parse(source).body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return "\n".join(source.splitlines()[node.lineno - 1 : node.end_lineno])
    raise KeyError(name)
