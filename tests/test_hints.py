"""Hints that name a command name one that exists: each is extracted and run.

Every string of compmath that contains `--root`, «prueba: compmath …» or «ejecuta … compmath …»
gives the commands it suggests (what follows a colon, up to `;`, `)` or the end); each must
parse, options included (`--help` after it: an unknown option or command is still refused).
The hints of a course that cannot be found are then run for real, on a course made by init.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import REPO

COMMAND = re.compile(r": (compmath(?: [^\s;)]+)*)")
PLACEHOLDERS = {
    "RUTA": "{ruta}",
    "CARPETA": "{carpeta}",
    "NUMERO": "101",
    "SLUG": "hola",
    "TÍTULO": "Hola",
    "T": "Hola",
    "N": "1",
    "ID": "ana",
    "RUTA.toml": "v.toml",
}


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # an f-string: each {…} as a plain value
        return "".join(v.value if isinstance(v, ast.Constant) else "1" for v in node.values)
    return None


@cache
def hint_commands() -> list[tuple[str, str]]:
    """(where, command) for every command a hint of compmath suggests.

    Once a process (collection and the test below share it); a module none of whose source
    holds «--root», «prueba» or «ejecuta» has no such string and is not parsed."""
    found = []
    for path in sorted((REPO / "compmath").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not ("--root" in source or "prueba" in source or "ejecuta" in source):
            continue
        tree = ast.parse(source)
        pieces: set[int] = set()  # an f-string's parts: ast.walk meets the f-string first
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                pieces.update(id(v) for v in node.values)
            text = None if id(node) in pieces else _text(node)
            if not text or not (
                "--root" in text
                or "prueba: compmath" in text
                or re.search(r"ejecuta.*compmath", text)
            ):
                continue
            for line in text.splitlines():
                for command in COMMAND.findall(line.strip()):
                    where = f"{path.relative_to(REPO)}:{node.lineno}"
                    if " " in command:  # `runners: compmath` in a workflow names no command
                        found.append((where, command.rstrip(".,")))
    return sorted(set(found))


def _args(command: str, **values: str) -> list[str]:
    words = [PLACEHOLDERS.get(w, w) for w in command.split()[1:] if w != "..."]
    return [w.format(**values) if "{" in w else w for w in words]


def test_the_hints_are_found() -> None:
    commands = [c for _, c in hint_commands()]
    assert "compmath diff --root RUTA" in commands and "compmath init CARPETA" in commands
    assert len(commands) >= 8


@pytest.mark.parametrize(("where", "command"), hint_commands(), ids=lambda v: v)
def test_every_hint_command_parses(cli, tmp_path: Path, where: str, command: str) -> None:
    args = _args(command, ruta=str(REPO), carpeta=str(tmp_path / "nuevo"))
    result = cli(*args, "--help")
    assert result.code == 0, f"{where}: «{command}» → {result.err}"


def _hints(result) -> list[str]:
    return [line for line in result.err.splitlines() if not line.startswith("error:")]


@pytest.mark.parametrize("how", ["--root", "COMPMATH_ROOT", "cwd"])
def test_the_hints_of_a_missing_course_work_when_followed(
    cli, tmp_path: Path, monkeypatch, how
) -> None:
    empty = tmp_path / "vacia"
    empty.mkdir()
    monkeypatch.chdir(empty)
    if how == "COMPMATH_ROOT":
        monkeypatch.setenv("COMPMATH_ROOT", str(empty))
    order = ["new", "102", "hola", "--title", "Hola"]
    refused = cli(*order, *(["--root", "."] if how == "--root" else []))
    assert refused.code == 2
    commands = [c for line in _hints(refused) for c in COMMAND.findall(line)]
    assert any(c.startswith("compmath init") for c in commands), refused.err
    # the hint names the command that was run, with --root: that command, given the course
    assert ("compmath new --root RUTA" in commands) == (how != "COMPMATH_ROOT"), refused.err
    monkeypatch.delenv("COMPMATH_ROOT", raising=False)
    made = tmp_path / "curso"
    for command in sorted(commands, key=lambda c: not c.startswith("compmath init")):
        args = _args(command, ruta=str(made), carpeta=str(made))
        if args[0] == "new":  # the refused command again, now with the course
            args = [*order, *args[1:]]
        result = cli(*args)
        assert result.code == 0, f"«{command}» → {result.err}"
    monkeypatch.chdir(made)
    following = "102" if how == "COMPMATH_ROOT" else "103"  # after the rerun's 102, if any
    assert cli("new", following, "hola", "--title", "Hola").code == 0
