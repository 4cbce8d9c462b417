"""What the screens say where it matters: a schema failure, a timeout, an interruption, a slow
lab, a long page on a terminal, and the layout rules they rest on."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from compmath.cli import labs
from compmath.course.tree import load_course
from compmath.execution.protocol import LabReply, ReplyState
from compmath.judging.case import prepare
from compmath.judging.judge import judge
from compmath.judging.report import LabReport, Outcome
from compmath.judging.stack import Frame, innermost
from compmath.present import output
from compmath.present.layout import Cell, Column, Table, lay_out, line, para, plain_text
from compmath.present.run_screen import Header, run_screen
from compmath.present.screens import check_screen
from tests.conftest import FAKE, FAKE_PART, REPO, SIMPLE_SCHEMA

INFO = Header(905, "Cuelga", 90, "inicial", 5, 9, "1 hora")
STACK = """Traceback (most recent call last):
  File "/curso/classes/part-90/905-cuelga/lab.py", line 12, in run
    return espera()
  File "/curso/classes/part-90/905-cuelga/lab.py", line 8, in espera
    time.sleep(0.05)
"""


def text(blocks: list, width: int | None = 80) -> str:
    return plain_text(lay_out(blocks, width))


def test_a_timeout_says_where_the_lab_was() -> None:
    course = load_course(FAKE)
    case = prepare(course, course.resolve("905"), timeout=1.0)
    report = judge(case, LabReply("905-cuelga", ReplyState.TIMEOUT, traceback=STACK))
    lab = "/curso/classes/part-90/905-cuelga/lab.py"
    assert report.stopped_at == Frame(lab, 8, "espera", "time.sleep(0.05)")  # read once, judged
    assert str(report.stopped_at) == "lab.py, línea 8, en espera"
    dumped = "Stack (most recent call first):\n" + "\n".join(
        ln for ln in reversed(STACK.splitlines()[1:]) if ln.startswith("  File")
    )
    assert innermost(dumped) == Frame(lab, 8, "espera")  # faulthandler: innermost first, no code
    out = " ".join(text(run_screen(report, INFO, 80)).split())
    assert "Dónde estaba el laboratorio al detenerse:" in out
    assert "se detuvo · súbelo con --timeout · estaba en lab.py, línea 8, en espera" in out
    assert "estaba en lab.py, línea 8, en espera" in " ".join(
        text(check_screen([report], 1.0)).split()
    )
    bare = LabReport("905-cuelga", 905, "Cuelga", Outcome.TIMEOUT, message="se detuvo")
    assert "estaba en" not in text(run_screen(bare, INFO, 80))


def test_an_undeclared_output_names_the_files_to_edit(cli, make_lab) -> None:
    root: Path = make_lab(
        951,
        """
        def run() -> dict:
            return {"n": 2, "mitad": 1.5, "vector": [1.0], "media": 0.5}
    """,
        expected={"n": 2, "mitad": 1.0, "vector": [1.0]},
    )
    result = cli("run", "951", "--root", str(root))
    assert result.code == 1
    out = " ".join(result.out.split())
    assert "mitad 1,5 1,0 ✗" in out and "media 0,5 — ✗" in out and "n 2 2 ✓" in out
    assert "Esquema (schemas/951-ad-hoc.schema.json):" in out
    assert "✗ salida: clave no permitida «media»" in out
    assert "qué hacer: si «media» es una salida nueva, declárala en el orden de run() en" in out
    assert f"• classes/{FAKE_PART}/951-ad-hoc/class.toml: un [[salidas]]" in out
    assert "• schemas/951-ad-hoc.schema.json: en properties, con su tipo, y en required" in out
    assert "compmath update 951" in out
    assert (
        "no cumple su esquema: salida: clave no permitida «media» · 2 diferencias con la instantánea"
        in out
    )


def test_a_removed_output_says_where_to_remove_it(cli, make_lab) -> None:
    root: Path = make_lab(
        952,
        """
        def run() -> dict:
            return {"n": 2, "mitad": 1.0}
    """,
        expected={"n": 2, "mitad": 1.0, "vector": [1.0]},
        schema=SIMPLE_SCHEMA,
    )
    out = " ".join(cli("run", "952", "--root", str(root)).out.split())
    assert "qué hacer: si «vector» ya no es una salida, quítala de" in out
    assert "salida.vector: esperado [1,0] · falta en la salida" in out


@pytest.mark.parametrize(
    ("args", "patched", "phrase"),
    [
        (
            ["run", "901"],
            "judge_cases",
            "interrumpido: el laboratorio 901, «Un laboratorio que pasa» (a los ",
        ),
        (["check"], "judge_cases", "interrumpido: la comprobación de 8 clases (a los "),
        (["update", "901"], "judge_cases", "interrumpido: la ejecución de 1 laboratorio (a los "),
    ],
)
def test_ctrl_c_says_what_it_stopped(
    cli, fake_course: Path, monkeypatch, args, patched, phrase
) -> None:
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


def test_ctrl_c_before_any_lab_ended_does_not_point_to_a_summary(
    cli, fake_course, monkeypatch
) -> None:
    from compmath.judging.pipeline import Interrupted

    def interrupt(*_args: object, **_kwargs: object) -> None:
        raise Interrupted([], 8)

    monkeypatch.setattr(labs, "judge_cases", interrupt)
    result = cli("check", "--root", str(fake_course))
    assert result.code == 130 and result.out == ""
    assert "interrumpido: la comprobación de 8 clases" in result.err
    assert "arriba" not in result.err and "no se escribió nada" in result.err, result.err


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
    assert re.search(r"el laboratorio 999 · (\d+ ms|<1 ms|\d+,\d\d s)", shown)
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


def test_show_prints_a_short_page_directly(
    cli, fake_course: Path, tmp_path: Path, monkeypatch
) -> None:
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


# --- the numbers, names and parse errors people read ----------------------------------------


def test_one_rule_for_numbers_decimal_comma_and_powers_of_ten() -> None:
    from compmath.wording import number, seconds

    assert [number(x) for x in (2, 2.0, 0.841471, -0.5, 3.2e-05, 1.5e16)] == [
        "2",
        "2,0",
        "0,841471",
        "-0,5",
        "3,2·10⁻⁵",
        "1,5·10¹⁶",
    ]
    assert [number(x, 3) for x in (3.23456e-05, 0.5, 1234.5)] == ["3,23·10⁻⁵", "0,5", "1,23·10³"]
    assert [seconds(x) for x in (0.0, 0.0004, 0.004, 0.0094, 0.012, 1.666)] == [
        "<1 ms",
        "<1 ms",
        "4 ms",
        "9 ms",
        "0,01 s",
        "1,67 s",
    ]


def test_a_long_list_is_shown_by_whole_items_and_never_hides_just_one() -> None:
    from compmath.wording import value_text

    assert value_text([0.5, 1.0, 2]) == "[0,5; 1,0; 2]"
    assert value_text(list(range(41)), 40) == "[" + "; ".join(map(str, range(41))) + "]"  # one more
    assert value_text(list(range(50)), 40) == "[" + "; ".join(map(str, range(40))) + "; … (50)]"
    rows = [[float(i)] * 8 for i in range(10)]  # rows are never cut inside
    shown = value_text(rows, 40)
    assert shown.endswith("; … (10)]") and shown.count("[") == 6
    assert value_text(rows, None).count("[") == 11
    assert value_text({"a": True, "b": "x", "c": None}) == '{"a": verdadero; "b": "x"; "c": nulo}'


@pytest.mark.parametrize("width", [12, 16, 22])
def test_a_long_name_wraps_after_its_underscores_keeping_its_nesting(width: int) -> None:
    from compmath.present.layout import wrap_name

    for name in (
        "  multiplicidad_del_cero",
        "ingenuo_produce_inf_o_nan",
        "  abcdefghijklmnopqrstuvwxyz",
    ):
        pieces = wrap_name(name, width)
        assert "".join(p.strip() for p in pieces) == name.strip()
        assert pieces[0].startswith(name[: len(name) - len(name.lstrip())])
        indent = len(name) - len(name.lstrip())
        assert all(p.startswith(" " * (indent + 4)) for p in pieces[1:])
        assert all(len(p) <= width for p in pieces) and "…" not in "".join(pieces)


def test_parse_errors_are_translated_from_their_fields() -> None:
    import json
    import tomllib

    from compmath.errors_es import excerpt, json_problem, syntax_problem, toml_problem

    text = 'numero = 901\ntitulo = "sin cerrar\n'
    with pytest.raises(tomllib.TOMLDecodeError) as toml_error:
        tomllib.loads(text)
    located = toml_problem(toml_error.value, text)
    assert located.sentence() == (
        "salto de línea dentro de un texto: falta la comilla de cierre (línea 2, columna 21)"
    )
    assert excerpt(located) == ['    2 │ titulo = "sin cerrar', "      │ " + " " * 20 + "^"]
    with pytest.raises(json.JSONDecodeError) as json_error:
        json.loads('{"a": 1 "b": 2}')
    assert json_problem(json_error.value).sentence() == (
        "falta una coma «,» entre dos elementos (línea 1, columna 9)"
    )
    with pytest.raises(SyntaxError) as syntax:
        compile("x = (1,\n", "lab.py", "exec")
    assert syntax_problem(syntax.value).what == "«(» se abrió y no se cerró nunca"
    with pytest.raises(SyntaxError) as unknown:  # no translation known: Python's words kept
        compile("a, b += 1\n", "lab.py", "exec")
    assert (
        "error de sintaxis (Python dice: «'tuple' is an illegal"
        in syntax_problem(unknown.value).what
    )


def test_a_wide_offending_line_wraps_with_its_caret_under_the_column() -> None:
    from compmath.errors_es import Located, excerpt

    text = "x = " + "a" * 40 + "(" + "b" * 60
    lines = excerpt(Located("", 7, 45, text), 60)
    assert all(len(ln) <= 60 for ln in lines) and "…" not in "".join(lines)
    caret = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith("^"))
    above = lines[caret - 1]
    assert above[lines[caret].index("^")] == "("
    assert "".join(ln.split("│ ", 1)[1] for ln in lines if not ln.rstrip().endswith("^")) == text


def test_list_screen_separates_parts_and_ends_without_a_blank_line() -> None:
    from compmath.course.index import ClassState, IndexRow, PartIndex
    from compmath.present.screens import list_screen

    def part(number: int, *states: ClassState) -> PartIndex:
        rows = [
            IndexRow(
                number * 10 + k,
                "Título",
                "experto",
                "4 horas",
                state,
                "class.toml no es TOML válido" if state == ClassState.BROKEN else "",
            )
            for k, state in enumerate(states)
        ]
        return PartIndex(number, f"La parte {number}", rows)

    broken = ClassState.BROKEN
    text = plain_text(lay_out(list_screen([part(16, broken, broken), part(17, broken)]), 60))
    lines = text.splitlines()
    assert lines[-1].strip() and "" in lines  # a blank line between the parts, none at the end
    assert lines[lines.index("") + 1] == "Parte 17 — La parte 17"
    assert "por qué están rotas: compmath list -v" in lines
    assert "por qué está rota: compmath list -v" in lines


def test_a_failure_without_lab_frames_shows_no_python_traceback_header() -> None:
    from compmath.present.trace import trace_blocks

    bare = "Traceback (most recent call last):\nMemoryError: el límite no alcanza ni para el trabajador\n"
    assert trace_blocks(bare, str(REPO), stopped=False) == []  # the message above already says it
    chained = bare + "\nDuring handling of the above exception, another exception occurred:\n"
    text = plain_text(lay_out(trace_blocks(chained, str(REPO), stopped=False), 60))
    assert "Traceback" not in text and "MemoryError" not in text
    assert text.startswith("Dónde falló:\nDuring handling")


def test_each_update_line_starts_with_what_happened_like_the_others() -> None:
    from compmath.present.screens import update_line

    shown = "classes/part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl/323-x/expected.json"
    firsts = [
        plain_text(lay_out([block], 60)).splitlines()[0]
        for block in (
            update_line(shown, True),
            update_line(shown, False),
            update_line(shown, None, "error de sintaxis"),
        )
    ]
    heads = [
        "✓ escrita: classes/",
        "· sin cambios: classes/",
        "✗ no se escribe la instantánea: classes/",
    ]
    assert [first.startswith(head) for first, head in zip(firsts, heads)] == [True] * 3, firsts
    assert all(len(first) <= 60 for first in firsts)


def test_a_path_longer_than_any_line_starts_beside_its_label() -> None:
    path = "classes/part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl/323-x/class.toml"
    lines = text(
        [para(("error: ", "bold red"), f"{path} no es TOML válido", hang=2)], 60
    ).splitlines()
    assert lines[0] == "error: classes/part-16-matematica-de-transformers-modelos-"
    assert "".join(ln.strip() for ln in lines).startswith("error: " + path)  # nothing lost
    assert all(len(ln) <= 60 for ln in lines)


def test_a_timeout_shows_the_code_of_each_line_it_names(tmp_path: Path) -> None:
    from compmath.present.trace import trace_blocks

    lab = tmp_path / "classes" / "part-90" / "905-cuelga" / "lab.py"
    lab.parent.mkdir(parents=True)
    lab.write_text("import time\n\n\ndef espera():\n    while True:\n        time.sleep(0.05)\n")
    stack = f'Stack (most recent call first):\n  File "{lab}", line 6 in espera\n'
    shown = text(trace_blocks(stack, str(tmp_path), stopped=True)).splitlines()
    assert shown[0] == "Dónde estaba el laboratorio al detenerse:"
    assert [ln.strip() for ln in shown[2:]] == ["línea 6, en espera", "time.sleep(0.05)"]


@pytest.mark.parametrize("width", [60, 120])
def test_a_frames_path_is_never_cut_in_a_word_nor_read_as_another_frame(width: int) -> None:
    """A frame's path longer than the screen goes on after a `/` or a `-` with a backslash, at
    column 0 (folded by the terminal it was cut inside a word: «…modelos-generat» / «ivos-…»;
    split at a hyphen at the indent of «línea N, en f», its second half read as a frame)."""
    from compmath.present.layout import cell_width
    from compmath.present.trace import trace_blocks
    from tests.conftest import rejoined

    root = "/curso"
    lab = f"{root}/classes/part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl/323-positional-encoding/lab.py"
    stack = f'Traceback (most recent call last):\n  File "{lab}", line 57, in run\n    pe = f(3)\n'
    shown = plain_text(lay_out(trace_blocks(stack, root, stopped=False), width)).splitlines()
    assert all(cell_width(t) <= width for t in shown), shown
    joined = rejoined(shown)
    assert joined[1] == "  " + lab.removeprefix(root + "/")
    assert [ln.strip() for ln in joined[2:]] == ["línea 57, en run", "pe = f(3)"]
    pieces = shown[1 : len(shown) - 2]
    assert len(pieces) == (1 if width == 120 else 2)
    assert all(t[-2] in "/-_" for t in pieces[:-1])  # between words, marked
    assert all(not t.startswith(" ") for t in pieces[1:])  # never at a frame's indent
