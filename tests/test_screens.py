"""What the screens say where it matters: a schema failure, a timeout, an interruption, a slow
lab, a long page on a terminal, and the layout rules they rest on."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from compmath.cli import labs
from compmath.judging.report import LabReport, Outcome
from compmath.present import output
from compmath.present.layout import Cell, Column, Table, lay_out, line, para, plain_text
from compmath.present.run_screen import Header, run_screen
from compmath.present.screens import check_screen
from tests.conftest import FAKE_PART, REPO, SIMPLE_SCHEMA

INFO = Header(905, "Cuelga", 90, "inicial", 5, 9, "1 hora")
STACK = '''Traceback (most recent call last):
  File "/curso/classes/part-90/905-cuelga/lab.py", line 12, in run
    return espera()
  File "/curso/classes/part-90/905-cuelga/lab.py", line 8, in espera
    time.sleep(0.05)
'''


def text(blocks: list, width: int | None = 80) -> str:
    return plain_text(lay_out(blocks, width))


def test_a_timeout_says_where_the_lab_was() -> None:
    report = LabReport("905-cuelga", 905, "Cuelga", Outcome.TIMEOUT, traceback=STACK,
                       message="el laboratorio superó el límite de 1 s y se detuvo (súbelo con --timeout)")
    out = " ".join(text(run_screen(report, INFO, 80)).split())
    assert "Dónde estaba el laboratorio al detenerse:" in out
    assert "se detuvo (súbelo con --timeout) · estaba en lab.py, línea 8, en espera" in out
    assert "estaba en lab.py, línea 8, en espera" in " ".join(text(check_screen([report], 1.0)).split())
    bare = LabReport("905-cuelga", 905, "Cuelga", Outcome.TIMEOUT, message="se detuvo")
    assert "estaba en" not in text(run_screen(bare, INFO, 80))


def test_an_undeclared_output_names_the_files_to_edit(cli, make_lab) -> None:
    root: Path = make_lab(951, """
        def run() -> dict:
            return {"n": 2, "mitad": 1.5, "vector": [1.0], "media": 0.5}
    """, expected={"n": 2, "mitad": 1.0, "vector": [1.0]})
    result = cli("run", "951", "--root", str(root))
    assert result.code == 1
    out = " ".join(result.out.split())
    assert "mitad 1.5 1.0 ✗" in out and "media 0.5 — ✗" in out and "n 2 2 ✓" in out
    assert "Esquema (schemas/951-ad-hoc.schema.json):" in out
    assert "✗ salida: clave no permitida «media»" in out
    assert "qué hacer: si «media» es una salida nueva, declárala en el orden de run() en" in out
    assert f"• classes/{FAKE_PART}/951-ad-hoc/class.toml: un [[salidas]]" in out
    assert "• schemas/951-ad-hoc.schema.json: en properties, con su tipo, y en required" in out
    assert "compmath update 951" in out
    assert "no cumple su esquema: salida: clave no permitida «media» · 2 diferencias con la instantánea" in out


def test_a_removed_output_says_where_to_remove_it(cli, make_lab) -> None:
    root: Path = make_lab(952, """
        def run() -> dict:
            return {"n": 2, "mitad": 1.0}
    """, expected={"n": 2, "mitad": 1.0, "vector": [1.0]}, schema=SIMPLE_SCHEMA)
    out = " ".join(cli("run", "952", "--root", str(root)).out.split())
    assert "qué hacer: si «vector» ya no es una salida, quítala de" in out
    assert "salida.vector: esperado [1.0] · falta en la salida" in out


@pytest.mark.parametrize(("args", "patched", "phrase"), [
    (["run", "901"], "judge_cases", "interrumpido: el laboratorio 901, «Un laboratorio que pasa» (a los "),
    (["check"], "judge_cases", "interrumpido: la comprobación de 8 clases (a los "),
    (["update", "901"], "judge_cases", "interrumpido: la ejecución de 1 laboratorio (a los "),
])
def test_ctrl_c_says_what_it_stopped(cli, fake_course: Path, monkeypatch, args, patched, phrase) -> None:
    def interrupt(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(labs, patched, interrupt)
    result = cli(*args, "--root", str(fake_course))
    assert result.code == 130
    assert phrase in result.err, result.err
    assert f"vuelve a lanzarla: compmath {' '.join(args)} --root {fake_course}" in result.err
    assert "Traceback" not in result.err
    again = cli("list", "--root", str(fake_course))
    assert again.code == 0  # nothing of the interrupted command is left behind


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_slow_lab_shows_a_live_line_with_its_time(monkeypatch) -> None:
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    with output.waiting("el laboratorio 999", delay=0.0):
        deadline = time.monotonic() + 10
        while "el laboratorio 999 · " not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
    shown = stream.getvalue()
    assert "el laboratorio 999 · 0," in shown and " s" in shown
    quiet = Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    with output.waiting("rápido", delay=5.0):
        pass  # ends before the delay: nothing is drawn, nothing is imported for it
    assert quiet.getvalue() == ""


def test_show_pages_a_long_page_on_a_terminal(cli, tmp_path: Path, monkeypatch) -> None:
    paged = tmp_path / "paginado.txt"
    monkeypatch.setattr(output, "is_terminal", lambda stream: True)
    monkeypatch.setenv("PAGER", f"cat > {paged}")
    monkeypatch.setenv("LINES", "20")
    result = cli("show", "323", "--root", str(REPO))
    assert result.code == 0 and result.out == ""
    assert "323 — Positional encoding" in paged.read_text(encoding="utf-8")
    paged.unlink()
    direct = cli("show", "323", "--root", str(REPO), "--no-pager")
    assert "323 — Positional encoding" in direct.out and not paged.exists()
    monkeypatch.setenv("PAGER", "cat")
    assert "323 — Positional encoding" in cli("show", "323", "--root", str(REPO)).out


def test_show_prints_a_short_page_directly(cli, fake_course: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(output, "is_terminal", lambda stream: True)
    monkeypatch.setenv("PAGER", f"cat > {tmp_path / 'nunca.txt'}")
    monkeypatch.setenv("LINES", "500")
    assert "901 — Un laboratorio que pasa" in cli("show", "901", "--root", str(fake_course)).out
    assert not (tmp_path / "nunca.txt").exists()


def test_long_lines_wrap_keeping_their_indent_and_commands_stay_whole() -> None:
    wrapped = text([line("    " + "palabra " * 12)], 40).splitlines()
    assert wrapped[0].startswith("    palabra") and wrapped[1].startswith("      palabra")
    assert all(len(ln) <= 40 for ln in wrapped)
    hint = text([para("x" * 30 + " escríbela: compmath update 341 y después sigue")], 40)
    assert "compmath update 341" in hint.replace("\n", "¶")
    assert text([line("corta")], 40) == "corta\n"


def test_a_table_without_headings() -> None:
    table = Table((Column("a"), Column("b")), ((Cell("uno"), Cell("dos")),), head=False)
    assert text([table]) == "uno  dos\n"


def test_a_path_longer_than_the_line_breaks_after_a_slash_and_loses_nothing() -> None:
    path = "classes/part-16-matematica-de-transformers-modelos-generativos/323-positional-encoding/expected.json"
    for width in (30, 60, 80):
        lines = text([para(f"· sin cambios: {path}", hang=4)], width).splitlines()
        assert all(len(ln) <= width for ln in lines)
        assert "".join(ln.strip() for ln in lines).endswith(path)
        assert all(ln.rstrip()[-1] in "/-:" for ln in lines[:-1])
