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
from tests.conftest import REPO, rejoined
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


HELP = [
    ["--help"],
    *([c, "--help"] for c in ("list", "run", "check", "update", "show", "new", "lint", "diff")),
]
REAL = [
    ["run", "323"],
    ["run", "327"],
    ["run", "335"],
    ["show", "323"],
    ["show", "338"],
    ["show", "326"],
    ["list"],
    ["run", "323", "--set", "dimension=16"],
]


@pytest.fixture
def measured(cli, monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str], int], list[str]]:
    """Run a command at a width; return its over-wide lines (stdout and stderr)."""

    def at(args: list[str], width: int) -> list[str]:
        monkeypatch.setenv("COLUMNS", str(width))
        result = cli(*args)
        assert "Traceback" not in result.err, result.err
        return too_wide(result.out, width) + too_wide(result.err, width)

    return at


@pytest.mark.lento  # every command, run for real, at each width
@pytest.mark.parametrize("width", WIDTHS)
def test_every_command_on_the_fake_course_fits(measured, fake_course: Path, width: int) -> None:
    for name, args in course_commands(fake_course).items():
        assert measured(args, width) == [], name


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_help_of_every_command_fits(measured, width: int) -> None:
    for args in HELP:
        assert measured(args, width) == [], args


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_real_classes_fit(measured, width: int) -> None:
    for args in REAL:
        assert measured([*args, "--root", str(REPO)], width) == [], args


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_diff_fits(measured, repo: Path, width: int) -> None:  # noqa: F811
    edit(repo, "901-pasa", lambda d: d.update(vector=[*d["vector"], 9.0], mitad=2.5))
    edit(repo, "904-deriva", set_key("mitad", 1.5000005))
    for extra in ([], ["--all"], ["--base", "HEAD", "901"]):
        assert measured(["diff", "--root", str(repo), *extra], width) == [], extra


@pytest.mark.lento  # seconds: out of the quick loop
def test_coloured_screens_fit_too(measured, fake_course: Path, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    for args in (
        ["--color", "run", "904"],
        ["--color", "check", "--timeout", "1"],
        ["--color", "list"],
    ):
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


# --- nothing hidden: what wraps never shows `…` ------------------------------------------------


@pytest.fixture
def screen(cli, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """A command's stdout at a width (plain), after checking it fits."""

    def at(width: int, *args: str) -> str:
        monkeypatch.setenv("COLUMNS", str(width))
        result = cli(*args, "--plain")
        assert too_wide(result.out, width) == [], result.out
        return result.out

    return at


def column(out: str, head: str, after: str | None) -> list[str]:
    """The cells of a table's column `head` (up to column `after`), one per screen line."""
    rows = out.splitlines()
    top = next(i for i, ln in enumerate(rows) if re.match(rf"(\S+ +)*{re.escape(head)}\b", ln))
    start = rows[top].index(head)
    end = rows[top].index(after) if after else None
    cells = []
    for ln in rows[top + 1 :]:
        if not ln.strip() or re.match(r"\d+/\d+ salidas|\d+ laboratorios", ln):  # its end
            break
        cells.append(ln[start:end].rstrip())
    return cells


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_check_wraps_titles_and_times_in_ms(screen, width: int) -> None:
    out = screen(width, "check", "321", "325", "335", "--root", str(REPO))
    assert "…" not in out
    titles = " ".join(" ".join(column(out, "clase", "resultado")).split())
    assert "321 Tokenización por pares de bytes (BPE)" in titles
    assert "325 Atención por producto escalar escalado" in titles
    assert "0,00 s" not in out
    times = [t.strip() for t in column(out, "resultado", None) if t.strip()]
    assert all(re.search(r"(\d+ ms|<1 ms|\d+,\d\d s)$", t) for t in times), times


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_run_shows_every_value_of_every_vector(cli, screen, width: int) -> None:
    outputs = json.loads(cli("run", "323", "--json", "--root", str(REPO)).out)["clases"][0][
        "salidas"
    ]
    out = screen(width, "run", "323", "--root", str(REPO))
    assert "…" not in out and "(8)" not in out
    for head, after in (("obtenido", "esperado"), ("esperado", "estado")):
        cells = " ".join(" ".join(column(out, head, after)).split())
        for name, vector in outputs["codificaciones"].items():
            shown = "[" + "; ".join(repr(float(x)).replace(".", ",") for x in vector) + "]"
            assert shown in cells, (head, name)


@pytest.mark.parametrize("width", WIDTHS)
def test_run_keeps_long_names_whole_and_nested(screen, width: int) -> None:
    out = screen(width, "run", "335", "-v", "--root", str(REPO))
    assert "…" not in out
    names: list[str] = []  # the name column read back: a wrapped piece has no status of its own
    for cell, status in zip(column(out, "salida", "obtenido"), column(out, "estado", None)):
        if not cell.strip():  # a value's continuation
            continue
        if not status.strip():
            assert cell.startswith(" " * (len(names[-1]) - len(names[-1].lstrip()) + 4)), cell
            names[-1] += cell.strip()
        else:
            names.append(cell.rstrip())
    assert "conteo" in names and "convencion_diagonal_uno" in names
    for parent in ("conteo", "convencion_diagonal_uno"):  # each keeps its nested output
        children = names[names.index(parent) + 1 :]
        assert (
            "  multiplicidad_del_cero" in children[: children.index("  multiplicidad_del_cero") + 1]
        )
    assert names.count("  multiplicidad_del_cero") == 2
    assert "ingenuo_entradas_no_finitas" in names


@pytest.mark.parametrize("width", WIDTHS)
def test_one_rule_for_numbers_shown_to_people(screen, fake_course: Path, width: int) -> None:
    out = screen(width, "run", "904", "--root", str(fake_course))
    detail = " ".join(out.split("Diferencias:")[1].split())
    assert (
        "salida.mitad: esperado 1,5, obtenido 1,6 · Δ 0,1 (6,67 %) > tolerancia 2,5·10⁻⁶" in detail
    )
    assert not re.search(r"\d\.\d|\de[-+]\d", out)  # no decimal point, no e-notation, anywhere


@pytest.mark.parametrize("width", WIDTHS)
def test_a_labs_exception_says_its_message_first_then_its_frames(
    cli, monkeypatch, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    out = cli("run", "323", "--set", "dimension=7", "--root", str(REPO), "--plain").out
    # every line fits: the frame's path goes on after a `/` or `-` with a backslash, at column
    # 0 (never at a frame's indent, where its second half read as another frame)
    joined = rejoined(out.splitlines())
    (path,) = [ln.strip() for ln in joined if ln.strip().startswith("classes/")]
    assert path.startswith("classes/part-16-") and path.endswith("/323-positional-encoding/lab.py")
    assert too_wide(out, width) == []
    out = "\n".join(joined)
    first, _, rest = " ".join(out.split()).partition("Dónde falló:")
    assert "el laboratorio lanzó una excepción: ValueError: la dimensión debe ser par" in first
    where = " ".join(out.split("Dónde falló:")[1].split())
    assert f" {path} " in f" {where} " and str(REPO) not in out
    lines = (REPO / "classes").glob("*/323-*/lab.py").__next__().read_text("utf-8").splitlines()
    call = next(i for i, t in enumerate(lines, 1) if "pe = codificacion(" in t)
    raised = next(i for i, t in enumerate(lines, 1) if "raise ValueError" in t)
    assert f"línea {call}, en run" in where and f"línea {raised}, en codificacion" in where
    assert "Traceback" not in out and "compmath/" not in where
    assert "ValueError: la dimensión" not in rest  # said once, first


@pytest.mark.parametrize("width", range(40, 121))  # the path, 37 columns, fits whole
def test_a_value_stays_on_the_line_of_its_label(width: int) -> None:
    from compmath.present.layout import wrap_words

    detail = (
        "✗ salida.autovalores_normalizado[2]: esperado 0,7713, obtenido 0,771286 · "
        "Δ 1,4·10⁻⁵ (0,00182 %) > tolerancia 1,77·10⁻⁶ · ruido (≤ tol 1,84·10⁻⁶)"
    )
    lines = wrap_words(detail, width)
    assert " ".join(lines) == detail  # nothing lost, only spaces turned into breaks
    for label in ("esperado", "obtenido", "Δ", "tolerancia", "tol"):
        assert not any(ln.endswith(f" {label}") or ln == label for ln in lines), (label, lines)


def test_stderr_is_laid_out_for_its_own_terminal_while_stdout_is_piped(monkeypatch) -> None:
    import fcntl
    import os
    import shutil
    import struct
    import termios

    from compmath.present import output

    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 60, 0, 0))
    monkeypatch.delenv("COLUMNS", raising=False)
    # pytest's own reporter asks too (with `fallback=`) while the patch holds, under -vv
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *_a, **_k: os.terminal_size((100, 24)))
    with os.fdopen(follower, "w") as stream:  # stdout to a pipe: its size says nothing of this one
        assert output.width_for(stream) == 60
    os.close(leader)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_line_cuts_a_long_title_never_the_time(width: int) -> None:
    from compmath.present.output import SPINNER_COLUMNS, live_text

    label = "el laboratorio 340, «Gradiente de política (REINFORCE) y regularización KL»"
    shown = live_text(label, 2.16, width)
    assert shown.endswith(" · 2,16 s") and cell_width(shown) + SPINNER_COLUMNS <= width
    assert shown.startswith("el laboratorio 340, «Gradiente")


@pytest.mark.parametrize("width", [60, 120])
def test_a_live_line_shortens_its_note_at_a_word(monkeypatch, width: int) -> None:
    """`laboratori… 0,10 s espera a 321-tokenizacion-bpe (y 17 má…` no more: the label, the count
    and the time stay whole, the bar gives way first, and the note drops its least useful part
    first: the whole «(y 17 más)» (never a bracket left open), then the name's last words (at
    a hyphen), never down to a bare «espera a…» at 60 columns."""
    import io
    import re

    from compmath.present.terminal import spinner

    monkeypatch.setenv("COLUMNS", str(width))
    notes = ["espera a 321-tokenizacion-bpe (y 17 más)", "espera a 340 (y 2 más)"]
    drawn = []
    for note in notes:  # one line each: a live line draws its last state when it ends
        stream = io.StringIO()
        with spinner(stream, 20, "laboratorios", colour=False) as advance:
            advance(note)
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
        drawn += [f.rstrip() for f in re.split(r"[\r\n]+", text) if f.strip()]
    assert sum("espera" in f for f in drawn) == 2, drawn
    assert drawn and all(len(f) <= width for f in drawn)
    for frame in drawn:
        assert "laboratorios" in frame and re.search(r"\b\d+/20\b", frame), frame
        shown = frame.split(" s ", 1)[-1] if " s " in frame else frame.split(" ms ", 1)[-1]
        if "espera" not in shown:
            continue
        if shown in notes:
            continue
        assert shown.endswith("…") and shown.count("(") == shown.count(")") == 0, frame
        words = re.split(r"[ -]", shown.removesuffix("…"))
        whole = next(n for n in notes if n.startswith(shown.removesuffix("…")))
        assert words == re.split(r"[ -]", whole)[: len(words)], frame  # whole words only
        assert re.match(r"espera a \d{3}", shown), frame  # it still names the lab it awaits
    if width == 120:
        assert any(notes[0] in f for f in drawn)  # room enough: the note whole
    else:
        assert any("espera a 321-tokenizacion…" in f for f in drawn), drawn


@pytest.mark.parametrize("width", [60, 120])
def test_grading_drops_its_parenthesis_whole(monkeypatch, width: int) -> None:
    """`corrigiendo alumno-0005 (y 11…` no more: with no room for «(y 11 más)» it goes whole,
    and the student graded stays named."""
    import io
    import re

    from compmath.grading.grade_screen import grading_now
    from compmath.present.terminal import spinner

    monkeypatch.setenv("COLUMNS", str(width))
    note = grading_now([f"alumno-{k:04d}" for k in range(5, 17)])
    stream = io.StringIO()
    with spinner(stream, 140, "entregas", colour=False) as advance:
        advance(note)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    drawn = [f.rstrip() for f in re.split(r"[\r\n]+", text) if "corrigiendo" in f]
    assert drawn and all(len(f) <= width for f in drawn), drawn
    assert all(f.count("(") == f.count(")") for f in drawn), drawn
    wanted = note if width == 120 else "corrigiendo alumno-0005…"
    assert all(f.endswith(wanted) for f in drawn), drawn


@pytest.mark.parametrize(
    "width, shown",
    [
        (40, "espera a 321-tokenizacion-bpe (y 17 más)"),
        (30, "espera a 321-tokenizacion-bpe…"),
        (27, "espera a 321-tokenizacion…"),
        (20, "espera a 321…"),
        (12, "espera a…"),
    ],
)
def test_a_note_drops_its_least_useful_part_first(width: int, shown: str) -> None:
    """The parenthesis whole first, then the lab's name at a hyphen, last of all."""
    from compmath.present.terminal import shortened

    assert shortened("espera a 321-tokenizacion-bpe (y 17 más)", width) == shown
