"""Shared fixtures: an isolated environment, a copy of the fake course, a lab factory, the CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from compmath import entry

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fake_course"
REPO = HERE.parent
FAKE_PART = "part-90-curso-de-prueba"
SIMPLE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["n", "mitad", "vector"],
    "properties": {
        "n": {"type": "integer", "minimum": 0},
        "mitad": {"type": "number"},
        "vector": {"type": "array", "items": {"type": "number"}, "maxItems": 10},
    },
}

# Where PYTHONDONTWRITEBYTECODE is set (as on some shared machines), pytest would rewrite the
# asserts of every test module again in every process of every run (some 5 s of CPU for each
# xdist worker). While the tests are collected their rewritten modules are cached, as any run
# without that variable caches them (__pycache__, which git ignores); the tests then run under
# the setting they were started with.
_DONT_WRITE_BYTECODE = sys.dont_write_bytecode
sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    sys.dont_write_bytecode = _DONT_WRITE_BYTECODE


def pytest_unconfigure(config: pytest.Config) -> None:
    """In an xdist worker, once its tests are done, what is alive stays out of the garbage
    collector's sight: pytest then collects five times over to catch the exceptions of dying
    objects (1–2 s in each worker with this suite's heap), and in a worker what it would find
    can no longer reach the report. The controller, and a run without xdist, keep the check."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import gc

        gc.freeze()


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject.toml): for the whole suite twice the cores, at most four more than
    them: most of the time of the tests marked `lento` is spent waiting (a lab process, a
    browser, a time limit, a signal), not computing (on 2 cores, with 2 workers, the suite used
    under 40 % of the CPU). The quick loop (`-m "not lento"`) computes: one worker per core, since
    each worker more collects the suite and fills its caches again (on 2 cores, 2 workers 34 s
    against 39 s with 4). PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set (pytest-xdist's
    own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity (macOS)
        cores = os.cpu_count() or 1
    if re.fullmatch(r"\s*not\s+lento\s*", config.getoption("markexpr") or ""):
        return cores
    return min(2 * cores, cores + 4)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadfile` as tests/scheduling.py orders it; any other --dist as pytest-xdist's."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.scheduling import Scheduling

    return Scheduling(config, log)


def snapshots(root: Path) -> dict[str, bytes]:
    """Every expected.json under `root`, byte for byte: what no faulty run may change."""
    return {str(p): p.read_bytes() for p in sorted(root.rglob("expected.json"))}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never depend on the caller's CI, colours, width or verdict cache."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("COMPMATH_ROOT", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("COLUMNS", raising=False)  # a pipe: nothing is wrapped unless a test says so
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(autouse=True)
def no_unconfined_worker_outlives_its_test(clean_env: None) -> Iterator[None]:
    """Workers started with protections switched off (COMPMATH_SIN) end with the test that
    switched them off: a later test must never run its labs on one of them."""
    yield
    if os.environ.get("COMPMATH_SIN"):  # still set: this teardown runs before monkeypatch's
        from compmath.execution import pool

        pool.shutdown()


@pytest.fixture(scope="session", autouse=True)
def the_command_tree_built_once() -> Iterator[None]:
    """Typer builds compmath's whole Click command tree (every command's signature, annotations
    and options) on each call, some 15 ms: the console script makes one call a process, the `cli`
    fixture hundreds. It is built once here; every call still parses its arguments and runs as
    the console script's does."""
    import typer.main

    from compmath.cli import app

    build = typer.main.get_command
    built = build(app)
    patch = pytest.MonkeyPatch()
    patch.setattr(typer.main, "get_command", lambda typer: built if typer is app else build(typer))
    yield
    patch.undo()


@pytest.fixture
def fake_course(tmp_path: Path) -> Path:
    """A writable copy of tests/fake_course."""
    root = tmp_path / "curso"
    shutil.copytree(FAKE, root)
    return root


LONE_README = (
    "# 901 — Un laboratorio que pasa\n\n## Desarrollo\n\nTexto.\n\n## Ejemplo trabajado\n\nTexto.\n"
)


@pytest.fixture
def course_901(fake_course: Path) -> Path:
    """The fake course cut down to 901-pasa with a README: a course that lint passes."""
    part = fake_course / "classes" / FAKE_PART
    for folder in part.iterdir():
        if folder.is_dir() and folder.name != "901-pasa":
            shutil.rmtree(folder)
            (fake_course / "schemas" / f"{folder.name}.schema.json").unlink()
    (part / "901-pasa" / "README.md").write_text(LONE_README, encoding="utf-8")
    return fake_course


@dataclass
class Result:
    code: int
    out: str
    err: str


def no_traceback(result: Result) -> str:
    """What a command printed, on one line, after checking it holds no traceback nor a raw
    Python error (`[Errno 30] Read-only file system`)."""
    text = result.out + result.err
    assert "Traceback" not in text and "[Errno" not in text, text
    return " ".join(text.split())


def rejoined(lines: list[str]) -> list[str]:
    """Screen lines with each path (or command) that goes on after a backslash joined back,
    as a shell reads them pasted (layout.path_lines)."""
    out: list[str] = []
    for text in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + text
        else:
            out.append(text)
    return out


def error_lines(result: Result) -> list[str]:
    """The `error: ...` lines a command printed on stderr."""
    return [line for line in result.err.splitlines() if line.startswith("error:")]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run `compmath ARGS` in-process (as the console script does) and capture what it prints."""

    def invoke(*args: str) -> Result:
        capsys.readouterr()
        code = entry.main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


@pytest.fixture
def make_lab(fake_course: Path) -> Callable[..., Path]:
    """Write a one-off lab `NNN-slug` into the fake course; return the course root."""

    def write(
        number: int,
        source: str,
        expected: dict | None = None,
        schema: dict | None = SIMPLE_SCHEMA,
        slug: str = "ad-hoc",
    ) -> Path:
        folder = fake_course / "classes" / FAKE_PART / f"{number}-{slug}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "lab.py").write_text(textwrap.dedent(source), encoding="utf-8")
        if expected is not None:
            text = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
            (folder / "expected.json").write_text(text, encoding="utf-8")
        if schema is not None:
            path = fake_course / "schemas" / f"{number}-{slug}.schema.json"
            path.write_text(json.dumps(schema), encoding="utf-8")
        return fake_course

    return write
