"""Help, parser errors, version, colour and shell completion: all Spanish, all through the CLI."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import typer.main

from compmath.cli import app, completion
from tests.conftest import REPO

ENGLISH = (
    "Usage",
    "Options",
    "Arguments",
    "Commands",
    "Show this message",
    "[required]",
    "default:",
    "[default",
    "x>=",
    "<=x",
    "x<=",
    "range>",
    "Missing",
    "Got unexpected",
    "Try '",
    "Error:",
    "No such",
    "Did you mean",
    "does not",
    "requires",
    "is not",
    "Invalid value",
    "unexpected",
    "Aborted",
)
CUT = re.compile(r"\w\.\.\.")  # a description cut short: `salidas,...` (not `[CLASE]...`)


def no_english(text: str) -> None:
    for word in ENGLISH:
        assert word not in text, f"{word!r} en:\n{text}"
    assert not CUT.search(text), text


def every_command(command: object = None, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command and group the app registers, walked from Click's own tree."""
    command = typer.main.get_command(app) if command is None else command
    found = [path] if path else []
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not sub.hidden:
            found += every_command(sub, (*path, name))
    return found


COMMANDS = every_command()


def test_the_walk_finds_every_command_and_subcommand() -> None:
    names = {" ".join(path) for path in COMMANDS}
    assert {
        "run",
        "check",
        "site",
        "notebook",
        "practice",
        "practice start",
        "practice check",
        "practice list",
        "practice reset",
    } <= names
    assert {info.name for info in app.registered_commands} <= names


def test_app_help_lists_every_command_with_its_whole_sentence(cli) -> None:
    result = cli("--help")
    assert result.code == 0
    assert result.out.startswith("uso: compmath [OPCIONES] ORDEN [ARGUMENTOS]...")
    for info in app.registered_commands:
        first = inspect.cleandoc(info.callback.__doc__ or "").split("\n\n")[0]
        assert first.replace("\n", " ") in result.out.replace("\n", " "), info.name
    for phrase in (
        "Órdenes:",
        "Opciones:",
        "--version",
        "--color / --no-color",
        "--install-completion",
        "Muestra esta ayuda y sale.",
        "Ayuda de cada orden: compmath ORDEN --help",
    ):
        assert phrase in result.out
    no_english(result.out)
    assert cli().out == result.out  # no arguments: the same help, exit 0


@pytest.mark.parametrize("width", [60, 120])
@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
@pytest.mark.lento  # seconds: out of the quick loop
def test_each_command_help_is_spanish(cli, monkeypatch, path: tuple[str, ...], width: int) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli(*path, "--help")
    assert result.code == 0 and result.err == ""
    assert result.out.startswith(f"uso: compmath {' '.join(path)} [OPCIONES]")
    assert "Opciones:" in result.out and "-h, --help" in result.out
    assert "Muestra esta ayuda y sale." in result.out
    assert "Todas las órdenes: compmath --help" in result.out or "ORDEN --help" in result.out
    assert max(len(line) for line in result.out.splitlines()) <= width, result.out
    no_english(result.out)


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
@pytest.mark.lento  # seconds: out of the quick loop
def test_each_command_refuses_an_unknown_option_in_spanish(cli, path: tuple[str, ...]) -> None:
    result = cli(*path, "--no-existe")
    assert result.code == 2
    assert result.err.startswith("error: opción desconocida --no-existe\n"), result.err
    assert f"prueba: compmath {' '.join(path)} --help" in result.err
    no_english(result.err)


def test_a_command_registered_without_the_spanish_class_is_spanish_anyway() -> None:
    """The group gives its class to whatever is registered under it (Click's command_class)."""
    from compmath.cli.spanish import SpanishGroup

    sub = typer.Typer(cls=SpanishGroup, add_completion=False)

    @sub.command("nueva")
    def nueva(veces: int = 1) -> None:
        """Una orden registrada sin la clase española."""

    @sub.command("otra")
    def otra() -> None:
        """Otra más, para que el grupo sea un grupo."""

    group = typer.main.get_command(sub)
    command = group.commands["nueva"]  # type: ignore[attr-defined]
    text = command.get_help(command.make_context("nueva", [], resilient_parsing=True))
    assert text.startswith("uso: ") and "Muestra esta ayuda y sale." in text
    no_english(text)


def test_option_details_are_spanish(cli) -> None:
    out = " ".join(cli("run", "--help").out.split())
    assert "CLASE Número, id, slug o ruta (obligatorio)." in out
    assert (
        "--timeout SEGUNDOS Segundos máximos por laboratorio, de 0,1 a 86400 s (por defecto: 60)."
        in out
    )
    assert "--set NOMBRE=VALOR Cambia un parámetro del laboratorio (se puede repetir)." in out
    check = " ".join(cli("check", "--help").out.split())
    assert (
        "-j, --jobs N Laboratorios en paralelo (por defecto: uno por núcleo; al menos 1)." in check
    )


@pytest.mark.parametrize(
    ("args", "message", "hint"),
    [
        (["new", "341", "x"], "error: falta la opción --title", "prueba: compmath new --help"),
        (["run"], "error: falta el argumento CLASE", "prueba: compmath run --help"),
        (["run", "323", "extra"], "error: argumentos de más: extra", "prueba: compmath run --help"),
        (
            ["run", "323", "--timeout", "0"],
            "error: valor no válido para --timeout: 0 (debe ser un número finito de 0,1 a 86400 s)",
            "prueba: compmath run --help",
        ),
        (
            ["run", "323", "--timeout", "x"],
            "error: valor no válido para --timeout: «x» no es un número real",
            "prueba: compmath run --help",
        ),
        (
            ["check", "--jobs", "0"],
            "error: valor no válido para --jobs: 0 (debe ser al menos 1)",
            "prueba: compmath check --help",
        ),
        (
            ["run", "323", "--set"],
            "error: la opción --set necesita un valor",
            "prueba: compmath run --help",
        ),
        (
            ["diff", "--fail-on-change=1"],
            "error: la opción --fail-on-change no lleva valor",
            "prueba: compmath diff --help",
        ),
        (["run", "323", "--jsn"], "error: opción desconocida --jsn", "prueba: compmath run --help"),
        (["rn", "323"], "error: no existe la orden «rn»", "prueba: compmath --help"),
        (
            ["run", "323", "--no-color"],
            "error: la opción --no-color es de compmath, no de la orden run",
            "ponla antes de la orden: compmath --no-color run …",
        ),
    ],
)
def test_parser_errors_name_the_commands_own_help(
    cli, args: list[str], message: str, hint: str
) -> None:
    result = cli(*args)
    assert result.code == 2
    assert result.err.startswith(message + "\n"), result.err
    assert result.err.rstrip().endswith(hint), result.err
    no_english(result.err)


def test_close_names_are_suggested(cli) -> None:
    assert "¿quisiste decir run?" in cli("rn", "323").err
    assert "¿quisiste decir --json?" in cli("run", "323", "--jsonn").err


def test_version(cli) -> None:
    from compmath import __version__

    result = cli("--version")
    assert result.code == 0 and result.out == f"compmath {__version__}\n"


@pytest.mark.parametrize(
    ("env", "args", "coloured"),
    [
        ({}, ["list"], False),  # a pipe
        ({"FORCE_COLOR": "1"}, ["list"], True),
        ({"FORCE_COLOR": "1"}, ["--no-color", "list"], False),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, ["list"], False),
        ({}, ["--color", "list"], True),
        ({"NO_COLOR": "1"}, ["--color", "list"], True),  # the option wins over the environment
        ({"FORCE_COLOR": "1"}, ["show", "323", "--plain"], False),
        ({"FORCE_COLOR": "1"}, ["--color", "check", "321", "--plain"], False),
    ],
)
@pytest.mark.lento  # seconds: out of the quick loop
def test_colour_follows_options_then_environment(cli, monkeypatch, env, args, coloured) -> None:
    monkeypatch.delenv("NO_COLOR")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = cli(*args, "--root", str(REPO))
    assert result.code == 0, result.err
    assert ("\x1b[" in result.out) is coloured


def test_completion_of_commands_numbers_and_slugs(cli, monkeypatch, capsys) -> None:
    monkeypatch.setenv("COMPMATH_ROOT", str(REPO))

    def complete(line: str) -> list[str]:
        words = line.split(" ")
        monkeypatch.setenv(completion.COMPLETE_VAR, "complete_bash")
        monkeypatch.setenv("COMP_WORDS", line)
        monkeypatch.setenv("COMP_CWORD", str(len(words) - 1))
        result = cli()
        monkeypatch.delenv(completion.COMPLETE_VAR)
        assert result.code == 0
        return result.out.split()

    assert complete("compmath r") == ["run"]
    assert complete("compmath run 32") == [str(n) for n in range(321, 330)]
    assert complete("compmath show posi") == ["positional-encoding"]
    assert complete("compmath check 321 34") == ["340"]
    assert "--timeout" in complete("compmath run 323 --ti")


def test_install_completion_writes_the_script_and_says_where(
    cli, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(completion, "detect_shell", lambda: "bash")
    result = cli("--install-completion")
    assert result.code == 0, result.err
    script = tmp_path / ".bash_completions" / "compmath.sh"
    assert f"✓ autocompletado de bash instalado en {script}" in result.out
    assert "_COMPMATH_COMPLETE=complete_bash" in script.read_text(encoding="utf-8")
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text(encoding="utf-8")
    shown = cli("--show-completion")
    assert shown.code == 0 and "complete -o default -F _compmath_completion compmath" in shown.out


def test_unknown_shell_is_a_spanish_error(cli, monkeypatch) -> None:
    monkeypatch.setattr(completion, "detect_shell", lambda: "tcsh")
    result = cli("--install-completion")
    assert result.code == 2
    assert "error: no sé instalar el autocompletado para la shell «tcsh»" in result.err
    assert "compmath --show-completion" in result.err


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_python_m_compmath_is_the_same_command_line(tmp_path) -> None:
    """`python -m compmath` where the console script is not on PATH: the same help, the same
    Spanish error and exit code outside a course."""
    import subprocess
    import sys

    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(REPO),
        "COLUMNS": "100",
        "HOME": str(tmp_path),
    }
    shown = subprocess.run(
        [sys.executable, "-m", "compmath", "--help"], capture_output=True, text=True, env=env
    )
    assert shown.returncode == 0 and shown.stdout.startswith("uso: compmath ")
    refused = subprocess.run(
        [sys.executable, "-m", "compmath", "check"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "compmath init CARPETA" in refused.stderr
