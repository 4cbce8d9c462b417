"""docs/referencia.md against the real command line: every command, option and exit code.

The command tree is walked as Click holds it (the Typer app compmath runs), so a new option, a
renamed one or a new command fails here until the reference says so; and the reference may name
no option or command the program does not have. `grade`'s orders (merge, resumen, comparar,
similitud, exportar, gradescope) are words of its first argument, taken from the constants the
command dispatches on; the options they use are `grade`'s own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import REPO

REFERENCE = REPO / "docs" / "referencia.md"
HEADING = re.compile(r"^### `compmath(?P<words>(?: [a-z0-9-]+)*)`\s*$")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
LONG_OPTION = re.compile(r"(?<![\w/-])(--[a-z][a-z0-9-]*)")
CODE = re.compile(r"`([^`\n]+)`")


@dataclass
class Tree:
    """What the program offers: each command's options, the orders and who owns them."""

    options: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    orders: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    help: set[str] = field(default_factory=set)

    def every_option(self) -> set[str]:
        return set().union(*self.options.values()) | self.help


def real_tree() -> Tree:
    """The command tree of `compmath`, as Click parses it."""
    import typer

    from compmath.cli import app, grade_lms, grade_reports
    from compmath.cli.clicklib import Context
    from compmath.cli.grade import MERGE

    tree = Tree()

    def visit(command: Any, path: tuple[str, ...], parent: Any) -> None:
        context = Context(
            command,
            parent=parent,
            info_name=path[-1] if path else "compmath",
            **command.context_settings,
        )
        helps = set(command.get_help_option_names(context))
        tree.help |= helps
        tree.options[path] = {
            name
            for param in command.params
            if param.param_type_name == "option"
            for name in (*param.opts, *param.secondary_opts)
        }
        for name, sub in getattr(command, "commands", {}).items():
            visit(sub, (*path, name), context)

    visit(typer.main.get_command(app), (), None)
    words = (
        MERGE,
        grade_reports.SUMMARY,
        grade_reports.COMPARE,
        grade_reports.SIMILARITY,
        grade_lms.EXPORT,
        grade_lms.GRADESCOPE,
    )
    for word in words:
        tree.orders[("grade", word)] = ("grade",)
    return tree


def sections(text: str) -> Iterator[tuple[tuple[str, ...], str]]:
    """(command words, section text) for each `### \\`compmath …\\`` heading."""
    lines = text.splitlines()
    starts = [(i, m["words"].split()) for i, row in enumerate(lines) if (m := HEADING.match(row))]
    for n, (start, words) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        body = lines[start + 1 : end]
        cut = next((k for k, row in enumerate(body) if row.startswith("## ")), len(body))
        yield tuple(words), "\n".join(body[:cut])


def table_options(section: str) -> set[str]:
    """The options a section's table rows name, in their first cell."""
    found: set[str] = set()
    for row in section.splitlines():
        if row.startswith("| `-"):
            first = row.split(" | ")[0]
            for code in CODE.findall(first):
                found.update(OPTION.findall(code.split()[0]))
    return found


def top_options(text: str) -> set[str]:
    """The options in the table of «Opciones de `compmath`»."""
    start = text.index("## Opciones de `compmath`")
    end = text.index("\n## ", start + 1)
    return table_options(text[start:end])


def exit_codes(text: str) -> set[int]:
    """The codes of the table under «## Códigos de salida»."""
    start = text.index("## Códigos de salida")
    end = text.index("\n## ", start + 1)
    return {int(m[1]) for m in re.finditer(r"^\| (\d+) \|", text[start:end], re.MULTILINE)}


def problems(text: str, tree: Tree) -> list[str]:
    """Every way the reference and the command line disagree, one line each."""
    found: list[str] = []
    documented: dict[tuple[str, ...], set[str]] = {}
    for words, body in sections(text):
        if words not in tree.options and words not in tree.orders:
            found.append(f"la referencia documenta `compmath {' '.join(words)}`, que no existe")
            continue
        if not words:
            found.append("una sección «compmath» sin orden: las opciones de compmath van arriba")
            continue
        owner = tree.orders.get(words, words)
        named = table_options(body)
        for option in sorted(named - tree.options[owner]):
            found.append(f"`compmath {' '.join(words)}` no tiene {option}")
        documented.setdefault(owner, set()).update(named)
    for path, options in tree.options.items():
        if not path:
            continue
        if path not in documented:
            found.append(f"falta la sección de `compmath {' '.join(path)}`")
            continue
        for option in sorted(options - documented[path]):
            found.append(f"`compmath {' '.join(path)}`: falta {option}")
    top = top_options(text)
    for option in sorted((tree.options[()] | tree.help) - top):
        found.append(f"opciones de compmath: falta {option}")
    for option in sorted(top - tree.options[()] - tree.help):
        found.append(f"opciones de compmath: {option} no existe")
    for option in sorted(set(LONG_OPTION.findall(text)) - tree.every_option()):
        found.append(f"la referencia nombra {option}, que ninguna orden tiene")
    commands = {path[0] for path in tree.options if path}
    for code in CODE.findall(text):
        words = code.split()
        if len(words) < 2 or words[0] != "compmath" or not re.fullmatch(r"[a-z]+", words[1]):
            continue
        if words[1] not in commands:
            found.append(f"`{code}`: compmath no tiene la orden {words[1]}")
        elif (
            words[1] == "practice"
            and len(words) > 2
            and re.fullmatch(r"[a-z]+", words[2])
            and ("practice", words[2]) not in tree.options
        ):
            found.append(f"`{code}`: practice no tiene la orden {words[2]}")
    return found


@pytest.fixture(scope="module")
def tree() -> Tree:
    return real_tree()


@pytest.fixture(scope="module")
def text() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def test_the_reference_names_every_command_and_option_and_nothing_else(tree, text) -> None:
    assert problems(text, tree) == []


def test_the_walk_sees_the_whole_command_line(tree) -> None:
    """The tree is the real one: nested commands, secondary names, hidden options, help."""
    assert {"--color", "--no-color", "--version"} <= tree.options[()]
    assert ("practice", "entregar") in tree.options and ("grade", "merge") in tree.orders
    assert {"--titulo", "--title", "--parte", "--part"} <= tree.options[("init",)]
    assert "--classroom" in tree.options[("grade",)]  # hidden: retired, still parsed
    assert {"-j", "--jobs"} <= tree.options[("check",)]
    assert tree.help == {"-h", "--help"}


def test_a_fabricated_option_in_the_reference_is_caught(tree, text) -> None:
    row = "| `--plain` | texto plano |"
    start = text.index("### `compmath run`")
    at = text.index(row, start) + len(row)
    forged = text[:at] + "\n| `--rapido` | más deprisa |" + text[at:]
    assert "`compmath run` no tiene --rapido" in problems(forged, tree)
    in_prose = text + "\nUsa `compmath run 323 --turbo` para ir más deprisa.\n"
    assert "la referencia nombra --turbo, que ninguna orden tiene" in problems(in_prose, tree)


def test_an_option_the_program_gains_is_caught(tree, text) -> None:
    grown = Tree({k: set(v) for k, v in tree.options.items()}, dict(tree.orders), set(tree.help))
    grown.options[("show",)].add("--sin-fin")
    assert "`compmath show`: falta --sin-fin" in problems(text, grown)
    grown.options[("volar",)] = set()
    assert "falta la sección de `compmath volar`" in problems(text, grown)


def test_an_undocumented_option_and_a_command_that_does_not_exist_are_caught(tree, text) -> None:
    start = text.index("### `compmath show`")
    row = "| `--no-pager` | sin paginador |\n"
    at = text.index(row, start)
    assert "`compmath show`: falta --no-pager" in problems(text[:at] + text[at + len(row) :], tree)
    forged = text + "\n### `compmath volar`\n\n| opción | qué hace |\n| --- | --- |\n"
    assert "la referencia documenta `compmath volar`, que no existe" in problems(forged, tree)
    assert "`compmath despegar 323`: compmath no tiene la orden despegar" in problems(
        text + "\n`compmath despegar 323`\n", tree
    )


def test_the_exit_codes_are_the_programs(text) -> None:
    """The table is the ExitCode enum every command exits through (compmath/errors.py)."""
    from compmath.errors import ExitCode

    assert exit_codes(text) == {int(code) for code in ExitCode}
    forged = text.replace("| 130 |", "| 3 | otro código |\n| 130 |", 1)
    assert exit_codes(forged) != {int(code) for code in ExitCode}


def test_the_choices_of_each_option_are_named(text) -> None:
    from compmath.cli.diff import FORMATS as DIFF_FORMATS
    from compmath.grading.export import FORMATS, LANGUAGES, SCALES
    from compmath.grading.gradescope import VISIBILITIES

    named = set(CODE.findall(text))
    for choice in (*DIFF_FORMATS, *FORMATS, *LANGUAGES, *SCALES, *VISIBILITIES):
        assert choice in named, choice


def test_every_environment_variable_named_is_read_somewhere(text) -> None:
    sources = "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for folder in ("compmath", "tests", ".ci")
        for path in (REPO / folder).rglob("*")
        if path.is_file()
        and path.suffix in (".py", "")
        and "__pycache__" not in path.parts
        and path != REPO / "tests" / "test_docs_reference.py"
    )
    named = set(re.findall(r"\bCOMPMATH_[A-Z_]+\b", text))
    assert named and {name for name in named if name not in sources} == set()
