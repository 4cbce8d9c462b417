"""Every command's screen at 60, 80 and 120 columns: no line wider than the terminal.

A command continued with a shell backslash counts as fitting only if each of its lines fits,
which is what checking every line says. Colour is off (NO_COLOR) except in the coloured case,
where the escape sequences are stripped before measuring.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from compmath.present.layout import cell_width
from tests.conftest import REPO
from tests.test_diff import edit, git, repo, set_key  # noqa: F401  (repo is a fixture)

WIDTHS = (60, 80, 120)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def too_wide(text: str, width: int) -> list[str]:
    """The lines of `text` wider than `width` columns (escape sequences do not count)."""
    return [ln for ln in ANSI.sub("", text).splitlines() if cell_width(ln) > width]


def course_commands(root: Path) -> dict[str, list[str]]:
    """The commands whose screens are measured on the fake course (`root`)."""
    r = ["--root", str(root)]
    return {
        "list": ["list", *r],
        "run_pasa": ["run", "901", *r],
        "run_lanza": ["run", "902", *r],
        "run_esquema": ["run", "903", *r],
        "run_difiere": ["run", "904", *r, "-v"],
        "run_explora": ["run", "901", "--set", "n=7", *r],
        "check": ["check", *r, "--timeout", "1"],
        "update": ["update", "901", "904", *r],
        "lint": ["lint", *r],
        "new": ["new", "941", "una-clase-con-un-nombre-largo", "--title", "Una clase", *r],
        "error_clase": ["run", "999", *r],
        "error_set": ["run", "901", "--set", "nope=1", *r],
        "error_opcion": ["run", "901", "--jsn", *r],
        "error_orden": ["rn", "901"],
        "error_falta": ["new", "941", "x", *r],
    }


HELP = [["--help"], *([c, "--help"] for c in
                      ("list", "run", "check", "update", "show", "new", "lint", "diff"))]
REAL = [["run", "323"], ["run", "327"], ["run", "335"], ["show", "323"], ["show", "338"],
        ["show", "326"], ["list"], ["run", "323", "--set", "dimension=16"]]


@pytest.fixture
def measured(cli, monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str], int], list[str]]:
    """Run a command at a width; return its over-wide lines (stdout and stderr)."""

    def at(args: list[str], width: int) -> list[str]:
        monkeypatch.setenv("COLUMNS", str(width))
        result = cli(*args)
        assert "Traceback" not in result.err, result.err
        return too_wide(result.out, width) + too_wide(result.err, width)

    return at


@pytest.mark.parametrize("width", WIDTHS)
def test_every_command_on_the_fake_course_fits(measured, fake_course: Path, width: int) -> None:
    for name, args in course_commands(fake_course).items():
        assert measured(args, width) == [], name


@pytest.mark.parametrize("width", WIDTHS)
def test_help_of_every_command_fits(measured, width: int) -> None:
    for args in HELP:
        assert measured(args, width) == [], args


@pytest.mark.parametrize("width", WIDTHS)
def test_real_classes_fit(measured, width: int) -> None:
    for args in REAL:
        assert measured([*args, "--root", str(REPO)], width) == [], args


@pytest.mark.parametrize("width", WIDTHS)
def test_diff_fits(measured, repo: Path, width: int) -> None:  # noqa: F811
    edit(repo, "901-pasa", lambda d: d.update(vector=[*d["vector"], 9.0], mitad=2.5))
    edit(repo, "904-deriva", set_key("mitad", 1.5000005))
    for extra in ([], ["--all"], ["--base", "HEAD", "901"]):
        assert measured(["diff", "--root", str(repo), *extra], width) == [], extra


def test_coloured_screens_fit_too(measured, fake_course: Path, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    for args in (["--color", "run", "904"], ["--color", "check", "--timeout", "1"], ["--color", "list"]):
        assert measured([*args, "--root", str(fake_course)], 60) == [], args


def test_a_pipe_is_never_wrapped(cli, fake_course: Path) -> None:
    """No width on a pipe: a long line stays one line, whatever its length."""
    long_title = "Un título larguísimo " * 8
    (fake_course / "classes" / "part-90-curso-de-prueba" / "901-pasa" / "class.toml").write_text(
        (fake_course / "classes" / "part-90-curso-de-prueba" / "901-pasa" / "class.toml")
        .read_text(encoding="utf-8")
        .replace('lema = "Todo cuadra."', f'lema = "{long_title.strip()}"'),
        encoding="utf-8",
    )
    out = cli("show", "901", "--root", str(fake_course)).out
    assert any(long_title.strip() in ln for ln in out.splitlines())


def test_lines_of_a_long_command_each_fit(cli, monkeypatch) -> None:
    """`show` lists the lab's long path as a command: split with backslashes, each line fits."""
    monkeypatch.setenv("COLUMNS", "60")
    out = cli("show", "323", "--root", str(REPO)).out
    continued = [ln for ln in out.splitlines() if ln.endswith("\\")]
    assert continued and all(cell_width(ln) <= 60 for ln in continued)
    assert json.dumps(too_wide(out, 60)) == "[]"
