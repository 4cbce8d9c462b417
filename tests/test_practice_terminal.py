"""Terminal details a newcomer hit in practice (issue #40), at 60 and 120 columns: the summary
names the first wrong hole before an open one; a wrong hole's details fold when the screen would
not fit the terminal's height (its title never scrolls off); a syntax error anywhere in the file
is said with its line, whatever the holes' state. Hostile files (a syntax error above an open
hole's `raise`, inside a written hole, outside every hole) beside honest ones (the exercise, the
course's own code)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from compmath.course.tree import ClassInfo, load_course
from compmath.holes.graft import course_lab
from compmath.holes.regions import splice, student_regions
from compmath.holes.verdict import Attempt, HoleStatus, HoleVerdict, attempt_json, judge_many
from compmath.practice import workspace
from compmath.practice.practice_screen import attempt_blocks, hint_blocks
from compmath.practice.report import attempts_document, check_blocks
from compmath.practice.session import Session
from compmath.practice.workspace import ClassProgress, Progress
from compmath.present.layout import Block, cell_width, lay_out, plain_text
from tests.conftest import REPO

COURSE = load_course(REPO)
C321, C323 = COURSE.resolve("321"), COURSE.resolve("323")
WIDTHS = (60, 120)
ROWS = 40


def exercise(cls: ClassInfo) -> str:
    return course_lab(cls).exercise


def solved(cls: ClassInfo) -> str:
    return splice(exercise(cls), cls.lab.read_text("utf-8"), set())


def with_body(source: str, number: int, body: list[str]) -> str:
    """`source` with hole `number`'s body replaced by `body` (lines, indented as written)."""
    region = student_regions(source)[number - 1]
    lines = source.splitlines()
    lines[region.begin + 1 : region.end] = body
    return "\n".join(lines) + "\n"


def line_of(source: str, text: str) -> int:
    return next(i for i, t in enumerate(source.splitlines(), 1) if t.strip() == text.strip())


def progress_of(attempt: Attempt) -> Progress:
    return Progress({attempt.cls.id: ClassProgress()}, attempt.cls.id, str(REPO))


def screen(blocks: list[Block], width: int | None) -> list[str]:
    lines = plain_text(lay_out(blocks, width)).splitlines()
    assert width is None or all(cell_width(t) <= width for t in lines), lines
    return lines


def constructed(*statuses: tuple[HoleStatus, str]) -> Attempt:
    """An attempt at 321 whose holes stand as given (nothing run)."""
    holes = tuple(
        HoleVerdict(k, hole, status, reason)
        for k, (hole, (status, reason)) in enumerate(zip(C321.meta.holes, statuses), 1)
    )
    return Attempt(C321, holes, ())


# --- 1. the summary names the first wrong hole before an open one -------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_summary_names_the_wrong_hole_before_an_open_one(width: int, tmp_path: Path) -> None:
    wrong = constructed(
        (HoleStatus.WRONG, "con los parámetros por defecto: salida.fusiones[0][0]: esperado «e»"),
        (HoleStatus.OPEN, ""),
        (HoleStatus.OPEN, ""),
    )
    lines = screen(attempt_blocks(wrong, progress_of(wrong), tmp_path / "lab.py"), width)
    assert "corrige el hueco 1 (mal) · [p] pista" in lines, lines
    assert not any(t.startswith("falta el hueco") for t in lines), lines  # it said «2» here
    (why,) = [t for t in screen(check_blocks([wrong], progress_of(wrong)), None) if "321" in t]
    assert why.endswith(
        "— hueco 1: con los parámetros por defecto: salida.fusiones[0][0]: esperado «e»"
    )
    # the honest one: nothing written yet, the first open hole is what is left
    untouched = constructed(*[(HoleStatus.OPEN, "")] * 3)
    lines = screen(attempt_blocks(untouched, progress_of(untouched), tmp_path / "lab.py"), width)
    assert any(t.startswith("falta el hueco 1: Rellena el diccionario") for t in lines), lines


def test_the_summary_and_the_hint_name_the_same_hole() -> None:
    """Wrong before failing before open, whatever their order: [p] helps with what it names."""
    attempt = constructed(
        (HoleStatus.OPEN, ""),
        (HoleStatus.FAILS, "lanzó ZeroDivisionError"),
        (HoleStatus.WRONG, "x"),
    )
    lines = screen(attempt_blocks(attempt, progress_of(attempt), Path("lab.py")), 60)
    assert "corrige el hueco 3 (mal) · [p] pista" in lines
    hint = screen(hint_blocks(attempt, progress_of(attempt)), 60)
    assert hint[0].startswith("pista 1 de") and hint[0].endswith("del hueco 3"), hint


# --- 2. a wrong hole's details fold to fit the terminal's height ---------------------------


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> workspace.Workspace:
    return workspace.create(COURSE, tmp_path_factory.mktemp("ws") / "practica")


@pytest.fixture(scope="module")
def wrong_323() -> Attempt:
    """323 with its frequencies a factor 2 off: every value of its table differs (long)."""
    source = with_body(exercise(C323), 1, ["    omega = 1 / 10000 ** (i / d)"])
    attempt = judge_many([(C323, source)], timeout=10.0, jobs=2)[0]
    assert attempt.holes[0].status == HoleStatus.WRONG and attempt.holes[0].obtained is not None
    return attempt


def session_at(
    space: workspace.Workspace, width: int | None, rows: int | None, screens: list[list[str]]
) -> Session:
    def show(blocks: list[Block], fresh: bool) -> None:
        if fresh:
            screens.append(screen(blocks, width))

    session = Session(space, show, size=lambda: (width, rows))
    session.current = C323
    return session


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wrong_holes_details_fold_when_the_screen_would_not_fit(
    space: workspace.Workspace, wrong_323: Attempt, width: int
) -> None:
    screens: list[list[str]] = []
    session = session_at(space, width, ROWS, screens)
    session.shown(wrong_323)
    unfolded = screen(attempt_blocks(wrong_323, session.progress, C323.lab), width)
    shown = screens[-1]
    assert len(shown) < ROWS, shown  # a row for the cursor: the title stays on the screen
    assert shown[0] == "Práctica · 323 — Positional encoding"
    # the reason (which output, where, both values there) always shows, whole
    said = " ".join(" ".join(shown).split())
    assert "salida.codificaciones.pos_1[2]: esperado 0,099833, obtenido 0,310984" in said
    if len(unfolded) < ROWS:  # 120 columns: it fits as it is, nothing is folded
        assert width == 120 and shown == unfolded
        return
    assert width == 60 and len(unfolded) >= ROWS  # what the newcomer saw: the title scrolled off
    assert "      ▸ obtenido y esperado enteros · [o] los despliega" in shown
    assert not any(t.lstrip().startswith(("obtenido  {", "esperado  {")) for t in shown)
    session.key("o")  # unfolds everything, whatever the height
    assert screens[-1] == screen(
        attempt_blocks(wrong_323, session.progress, C323.lab, prints=True), width
    )
    assert any(t.lstrip().startswith("obtenido  {") for t in screens[-1])
    session.key("o")
    assert screens[-1] == shown


def test_a_pipe_folds_nothing(space: workspace.Workspace, wrong_323: Attempt) -> None:
    screens: list[list[str]] = []
    session_at(space, None, None, screens).shown(wrong_323)
    assert sum(t.lstrip().startswith(("obtenido  {", "esperado  {")) for t in screens[-1]) == 2


@pytest.mark.parametrize("width", WIDTHS)
def test_a_failing_holes_traceback_folds_to_its_innermost_frame(width: int) -> None:
    trace = "\n".join(
        f"lab.py, línea {n} (función f{n})\n  x{n} = f{n + 1}()" for n in range(40, 43)
    )
    failing = HoleVerdict(
        1, C321.meta.holes[0], HoleStatus.FAILS, "lanzó RecursionError", traceback=trace
    )
    attempt = Attempt(C321, (failing, *constructed(*[(HoleStatus.OPEN, "")] * 3).holes[1:]), ())
    folded = screen(
        attempt_blocks(attempt, progress_of(attempt), Path("l.py"), details=False), width
    )
    whole = screen(attempt_blocks(attempt, progress_of(attempt), Path("l.py")), width)
    assert "      ▸ 4 líneas más de la traza · [o] las despliega" in folded
    assert [t for t in folded if t.startswith("      en ")] == [
        "      en lab.py, línea 42 (función f42)",
        "      en   x42 = f43()",
    ]
    assert sum(t.startswith("      en ") for t in whole) == 6 and len(whole) > len(folded)


# --- 4. a syntax error anywhere in the file is said, with its line -------------------------

ABOVE_RAISE = "    for k in range(3)"  # a colon missing, above the hole's `raise`: hole 1 open
INSIDE = "    omega = 1 / 10000 ** (2 * i / d"  # hole 1 written, its bracket never closed
OUTSIDE = "def resumen(:"  # below the holes, outside every one


def sources() -> dict[str, str]:
    ex, ok = exercise(C323), solved(C323)
    region = student_regions(ex)[0]
    return {
        "above_raise": with_body(ex, 1, [*region.body[:-1], ABOVE_RAISE, region.body[-1]]),
        "inside": with_body(ex, 1, [INSIDE]),
        "outside": ex + f"\n\n{OUTSIDE}\n    pass\n",
        "outside_solved": ok + f"\n\n{OUTSIDE}\n    pass\n",
        "exercise": ex,
        "solved": ok,
    }


Judged = dict[str, tuple[str, Attempt]]  # by name: the file and its attempt


@pytest.fixture(scope="module")
def judged() -> Judged:
    files = sources()
    attempts = judge_many([(C323, s) for s in files.values()], timeout=10.0, jobs=2)
    return {name: (files[name], a) for name, a in zip(files, attempts)}


def test_a_syntax_error_above_an_open_holes_raise_fails_that_hole(judged: Judged) -> None:
    source, attempt = judged["above_raise"]
    line = line_of(source, ABOVE_RAISE)
    hole = attempt.holes[0]
    assert hole.status == HoleStatus.FAILS  # it was «sin completar», hiding the error
    assert hole.reason.startswith(f"error de sintaxis en la línea {line} de tu lab.py: ")
    assert attempt.syntax is not None and (attempt.syntax.line, attempt.syntax.hole) == (line, 1)
    assert attempt.open_hole == 2 and not attempt.done


def test_a_syntax_error_inside_a_written_hole_fails_it(judged: Judged) -> None:
    source, attempt = judged["inside"]
    line = line_of(source, INSIDE)
    assert attempt.holes[0].status == HoleStatus.FAILS
    assert f"en la línea {line} de tu lab.py" in attempt.holes[0].reason
    assert attempt.syntax is not None and (attempt.syntax.line, attempt.syntax.hole) == (line, 1)


def test_a_syntax_error_outside_every_hole_is_said_and_changes_no_verdict(judged: Judged) -> None:
    source, attempt = judged["outside"]
    line = line_of(source, OUTSIDE)
    assert [h.status for h in attempt.holes] == [HoleStatus.OPEN, HoleStatus.OPEN]
    assert attempt.syntax is not None and (attempt.syntax.line, attempt.syntax.hole) == (line, None)
    done_source, done = judged["outside_solved"]
    assert done.done  # code outside the holes cannot change the verdict ...
    assert done.syntax is not None and done.syntax.line == line_of(done_source, OUTSIDE)  # ... said


def test_honest_files_have_no_syntax_error(judged: Judged) -> None:
    _, untouched = judged["exercise"]
    _, right = judged["solved"]
    assert untouched.syntax is None and untouched.open_hole == 1
    assert all(h.status == HoleStatus.OPEN for h in untouched.holes)
    assert right.syntax is None and right.done
    assert attempt_json(right)["error_de_sintaxis"] is None


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["above_raise", "inside", "outside", "outside_solved"])
def test_the_screens_say_the_syntax_error_first_with_its_line(
    judged: Judged, name: str, width: int
) -> None:
    _, attempt = judged[name]
    assert attempt.syntax is not None
    line = attempt.syntax.line
    progress = progress_of(attempt)
    text = " ".join(" ".join(screen(attempt_blocks(attempt, progress, C323.lab), width)).split())
    where = "(hueco 1)" if attempt.syntax.hole else ", fuera de los huecos"
    said = f"error de sintaxis en la línea {line} de tu lab.py {where}".replace(" ,", ",")
    assert said in text, text
    if attempt.syntax.hole is not None:
        assert "falta el hueco 1" not in text  # what hid it
    assert text.index(said) < text.index("teclas:")
    if name == "outside_solved":
        assert "¡Clase hecha!" in text and text.index(said) < text.index("¡Clase hecha!")
    check = " ".join(" ".join(screen(check_blocks([attempt], progress), width)).split())
    assert f"error de sintaxis en la línea {line} de tu lab.py" in check
    document = json.loads(json.dumps(attempts_document([attempt], progress), ensure_ascii=False))
    assert document["clases"][0]["error_de_sintaxis"]["linea"] == line
    assert document["clases"][0]["error_de_sintaxis"]["hueco"] == attempt.syntax.hole


@pytest.mark.lento  # grades three students: seconds
def test_grading_feedback_says_a_syntax_error_outside_the_holes(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the file stops being Python, in the student's feedback and in the report (checked
    against grade.schema.json, compmath's published contract for informe.json); the points are
    the holes' alone."""
    from tests.test_grade import grade, hand_in, record

    files = sources()
    entregas = tmp_path / "entregas"
    hand_in(entregas, "fuera", {C323: files["outside_solved"]})
    hand_in(entregas, "arriba", {C323: files["above_raise"]})
    hand_in(entregas, "honesta", {C323: files["solved"]})
    monkeypatch.chdir(tmp_path)
    result = grade(cli, entregas, Path("notas"), "--timeout", "5", "--jobs", "2")
    assert result.code == 0, result.out + result.err
    notes = tmp_path / "notas"
    feedback = {p.stem: p.read_text("utf-8") for p in (notes / "comentarios").iterdir()}
    line = line_of(files["outside_solved"], OUTSIDE)
    assert (
        f"Fuera de los huecos, error de sintaxis en la línea {line} de tu lab.py"
        in feedback["fuera"]
    )
    above = line_of(files["above_raise"], ABOVE_RAISE)
    assert f"error de sintaxis en la línea {above} de tu lab.py" in feedback["arriba"]
    assert "error de sintaxis" not in feedback["honesta"]
    schema = json.loads((REPO / "compmath" / "contracts" / "grade.schema.json").read_text("utf-8"))
    jsonschema.validate(json.loads((notes / "informe.json").read_text("utf-8")), schema)
    fuera, honesta = record(notes, "fuera"), record(notes, "honesta")
    assert fuera["obtenidos"] == honesta["obtenidos"] > 0  # outside the holes: no point lost
    assert str(line) in fuera["clases"][0]["error_de_sintaxis_fuera"]
    assert honesta["clases"][0]["error_de_sintaxis_fuera"] == ""
    assert record(notes, "arriba")["clases"][0]["huecos"][0]["estado"] == "falla"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_receipt_says_a_syntax_error_outside_the_holes(judged: Judged, width: int) -> None:
    """`practice entregar`: what grade will count, and that the file is not Python."""
    from compmath.grading.receipt import ClassReceipt, Receipt
    from compmath.grading.receipt_text import receipt_blocks

    lines: dict[str, str] = {}
    for name in ("outside_solved", "solved", "above_raise"):
        _, attempt = judged[name]
        item = ClassReceipt(C323, "", (1, 2), (), (), name != "solved", attempt)
        blocks = receipt_blocks(Receipt("ana", "0" * 64, (item,), (), ()), Path("a.zip"))
        shown = plain_text(lay_out(blocks, width)).splitlines()
        # every line fits but the SHA-256's, whole (72 columns, and nowhere to break a hash)
        assert [t for t in shown if cell_width(t) > width] in ([], [f"  SHA-256 {'0' * 64}"])
        lines[name] = " ".join(" ".join(shown).split())
    slip = judged["outside_solved"][1].syntax
    assert slip is not None
    assert (
        f"✗ fuera de los huecos, {slip.message}: no cuenta, pero Python no puede"
        in lines["outside_solved"]
    )
    assert "error de sintaxis" not in lines["solved"]
    assert "fuera de los huecos, error" not in lines["above_raise"]  # its hole says it
