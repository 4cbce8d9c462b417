"""The practice verdict judges each hole grafted into the course's lab, at hidden variants.

Hostile students beside honest ones: each cheat of issue #26 (a run() that returns the
snapshot, the solution imported, the snapshot's numbers typed into a hole) must fail, with the
variant named; the student's prints show; a watcher failure becomes one Spanish line."""

from __future__ import annotations

import io
import json
import os
import queue
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from compmath.authoring.mutant_check import mutant_check
from compmath.course.tree import load_course
from compmath.holes.graft import course_lab
from compmath.holes.regions import solution_regions, splice, student_regions
from compmath.holes.verdict import Attempt, HoleStatus, judge_each, judge_many
from compmath.practice import watch, workspace
from compmath.practice.session import Session
from compmath.present.layout import lay_out, plain_text
from tests.conftest import REPO

COURSE = load_course(REPO)
JOBS = 2


def exercise(number: int) -> str:
    return course_lab(COURSE.resolve(str(number))).exercise


def solved(number: int) -> str:
    """The exercise with every hole holding the course's own code (an honest student)."""
    return splice(exercise(number), COURSE.resolve(str(number)).lab.read_text(), set())


def with_hole(source: str, number: int, code: str) -> str:
    """`source` with hole `number`'s body replaced by `code` (already indented)."""
    region = student_regions(source)[number - 1]
    lines = source.splitlines()
    lines[region.begin + 1 : region.end] = code.splitlines()
    return "\n".join(lines) + "\n"


def judge(number: int, source: str, timeout: float = 10.0) -> Attempt:
    return judge_many([(COURSE.resolve(str(number)), source)], timeout=timeout, jobs=JOBS)[0]


def text_of(blocks: list) -> str:
    return plain_text(lay_out(blocks, None))


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> workspace.Workspace:
    return workspace.create(COURSE, tmp_path_factory.mktemp("ws") / "practica")


def test_honest_student_is_done_and_the_exercise_is_not() -> None:
    attempts = judge_many(
        [(COURSE.resolve("323"), solved(323)), (COURSE.resolve("323"), exercise(323))],
        timeout=10.0,
        jobs=JOBS,
    )
    assert attempts[0].done and all(h.status == HoleStatus.RIGHT for h in attempts[0].holes)
    assert len(attempts[0].variants) >= 3  # the defaults and the declared hidden variants
    assert not attempts[1].done and attempts[1].open_hole == 1
    assert all(h.status == HoleStatus.OPEN for h in attempts[1].holes)


def test_cheat_a_run_that_returns_the_snapshot_fails(space: workspace.Workspace, cli) -> None:
    """Issue #26: both holes empty, a run() appended that returns expected.json."""
    cheat = exercise(324) + (
        "\n\nimport json as _json\nfrom pathlib import Path as _Path\n\n\n"
        "def run(permutacion: str = PERMUTACION) -> dict:  # noqa: F811\n"
        '    return _json.loads((_Path(__file__).parent / "expected.json").read_text())\n'
    )
    attempt = judge(324, cheat)
    assert not attempt.done and attempt.outside_changed
    assert [h.status for h in attempt.holes] == [HoleStatus.OPEN, HoleStatus.OPEN]
    # the same through the command a student types
    lab = space.course.resolve("324").lab
    lab.write_text(cheat, encoding="utf-8")
    result = cli("practice", "check", "324", "--dir", str(space.root), "--json")
    report = json.loads(result.out)["clases"][0]
    assert result.code == 1 and report["hecha"] is False
    assert report["fuera_de_los_huecos_cambiado"] is True
    shown = cli("practice", "check", "324", "--dir", str(space.root))
    assert "no cuenta para el veredicto" in shown.out and "reset 324" in shown.out
    space.reset(space.course.resolve("324"))


def test_cheat_importing_the_solution_fails(space: workspace.Workspace) -> None:
    """The workspace holds no solution; a file that loads the course's lab outside the holes
    (the only place that could) changes nothing: only the holes are judged."""
    assert not list(space.root.rglob("solucion.py"))
    assert "BEGIN SOLUTION" not in "".join(p.read_text() for p in space.root.rglob("*.py"))
    course_file = COURSE.resolve("325").lab
    cheat = exercise(325) + (
        "\n\nfrom importlib.machinery import SourceFileLoader as _Loader\n"
        f"run = _Loader('solucion', {str(course_file)!r}).load_module().run  # noqa: F811\n"
    )
    attempt = judge(325, cheat)
    assert not attempt.done and attempt.outside_changed
    assert {h.status for h in attempt.holes} == {HoleStatus.OPEN}


def test_cheat_the_snapshots_numbers_typed_into_a_hole_fail_on_a_named_variant() -> None:
    """Hint 2 of 323 gives «1; 0,1; 0,01; 0,001»: right at the defaults, wrong at dimension 16."""
    literal = "    omega = np.array([1.0, 0.1, 0.01, 0.001])  # copiado de la pista 2"
    cheat = with_hole(solved(323), 1, literal)
    attempt = judge(323, cheat)
    hole = attempt.holes[0]
    assert not attempt.done and hole.status in (HoleStatus.WRONG, HoleStatus.FAILS)
    assert hole.variant is not None and hole.variant.params == {"dimension": 16}
    assert hole.reason.startswith("con dimension = 16: ")
    assert hole.variant.command(323) == "compmath run 323 --set dimension=16"
    assert attempt.holes[1].status == HoleStatus.RIGHT  # the honest hole stays green


def test_a_hard_coded_hole_fails_on_a_named_variant_with_its_difference() -> None:
    """337 hole 1: variation and energy of the default signal written as numbers."""
    cls = COURSE.resolve("337")
    body = "\n".join(solution_regions(cls.lab.read_text())[0].body)
    indent = re.match(r"\s*", body).group(0)  # type: ignore[union-attr]
    honest = judge(337, solved(337))
    assert honest.done
    capture = with_hole(solved(337), 1, f"{indent}variacion = 3.0\n{indent}energia = 6.0")
    attempt = judge(337, capture)
    hole = attempt.holes[0]
    assert hole.status in (HoleStatus.WRONG, HoleStatus.FAILS) and hole.variant is not None
    assert hole.reason.startswith("con ")


def test_prints_come_back_per_hole_and_show_folded(space: workspace.Workspace) -> None:
    source = solved(323)
    region = student_regions(source)[0]
    noisy = with_hole(
        source, 1, "\n".join([*region.body, f"{region.indent}print('omega vale', omega)"])
    )
    attempt = judge(323, noisy)
    assert attempt.done and "omega vale [1.    0.1" in attempt.stdout
    assert attempt.stdout.startswith("— hueco 1 —")
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)))
    session.current = space.course.resolve("323")
    session.shown(attempt)
    assert "tus print" in screens[-1] and "omega vale" in screens[-1]


def test_outside_the_holes_changes_nothing_but_is_said(space: workspace.Workspace) -> None:
    tampered = solved(323).replace("BASE = 10_000.0", "BASE = 7.0")
    assert tampered != solved(323)
    attempt = judge(323, tampered)
    assert attempt.done and attempt.outside_changed  # the course's BASE is used, not theirs


def test_an_emptied_lab_suggests_reset(space: workspace.Workspace) -> None:
    """The way back is a command, right wherever the reason is read (the practice screen,
    `practice check`, a grading feedback file), never one screen's key."""
    attempt = judge(323, "")
    restore = "compmath practice reset 323 restaura el ejercicio"
    assert not attempt.done and all(restore in h.reason for h in attempt.holes)
    damaged = exercise(323).replace("### FIN DEL HUECO 2 ###", "")
    attempt = judge(323, damaged)  # hole 2's mark is damaged: hole 2 alone pays for it
    assert not attempt.markers_ok and restore in attempt.holes[1].reason
    assert "pulsa r" not in attempt.holes[1].reason
    assert [str(h.status) for h in attempt.holes] == ["sin completar", "falla"]


def test_many_students_share_the_references_in_one_batch() -> None:
    """What `compmath grade` calls: one batch, an attempt per item, as each completes."""
    cls = COURSE.resolve("323")
    wrong = with_hole(solved(323), 1, "    omega = np.ones(d // 2)")
    items = [(cls, solved(323)), (cls, exercise(323)), (cls, wrong), (cls, solved(323))]
    order = list(judge_each(items, timeout=10.0, jobs=JOBS))
    seen: dict[int, Attempt] = dict(order)
    attempts = [seen[i] for i in range(len(items))]
    assert [a.done for a in attempts] == [True, False, False, True]
    assert sorted(i for i, _ in order) == [0, 1, 2, 3]  # each once
    assert seen[2].holes[0].status == HoleStatus.WRONG
    assert attempts[2].holes[0].reason.startswith("con los parámetros por defecto")


def test_the_watcher_failing_is_one_spanish_line_and_manual_mode(
    space: workspace.Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import watchfiles

    def broken(*args: object, **kwargs: object) -> object:
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(watchfiles, "watch", broken)
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)))
    session.current = space.course.resolve("326")
    read, write = os.pipe()
    loop = threading.Thread(
        target=watch.run, args=(session,), kwargs={"keys": os.fdopen(read, "r")}
    )
    loop.start()
    try:
        deadline = time.monotonic() + 30
        while not any("Práctica · 326" in s for s in screens) and time.monotonic() < deadline:
            time.sleep(0.05)
        warned = [s for s in screens if "no se pueden vigilar" in s]
        while not warned and time.monotonic() < deadline:
            time.sleep(0.05)
            warned = [s for s in screens if "no se pueden vigilar" in s]
        assert warned and "compmath practice --manual" in warned[0] and "Intro" in warned[0]
        assert "Traceback" not in "".join(screens)
        before = sum("Práctica · 326" in s for s in screens)
        os.write(write, b"\n")  # manual mode: Enter checks
        while sum("Práctica · 326" in s for s in screens) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sum("Práctica · 326" in s for s in screens) > before
        os.write(write, b"q\n")
        loop.join(10)
        assert not loop.is_alive()
    finally:
        os.close(write)
        loop.join(1)


def test_a_new_save_drops_the_check_in_progress(space: workspace.Workspace) -> None:
    """Typed events: a Checked from an older generation is never shown."""
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)))
    session.current = space.course.resolve("323")
    events: queue.Queue[watch.WatchEvent] = queue.Queue()
    loop = watch.Loop(session, events, io.StringIO())
    loop.generation = 2  # two checks started: the first one is stale
    stale = judge(323, exercise(323))
    assert loop.handle(watch.Checked(1, stale)) and screens == []
    assert loop.handle(watch.Checked(2, judge(323, solved(323))))
    assert "¡Clase hecha!" in screens[-1]


def test_manual_mode_says_enter_checks(space: workspace.Workspace) -> None:
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)), manual=True)
    assert "pulsa Intro para comprobarlo" in text_of(session.welcome())
    session.current = space.course.resolve("323")
    session.shown(judge(323, exercise(323)))
    assert "Intro comprueba" in screens[-1]


def test_the_path_to_edit_is_relative_to_here_and_never_cut_in_a_word(
    space: workspace.Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compmath.practice.practice_screen import attempt_blocks

    cls = space.course.resolve("323")
    monkeypatch.chdir(cls.path)
    attempt = judge(323, exercise(323))
    screen = plain_text(lay_out(attempt_blocks(attempt, space.load_progress(), cls.lab), 60))
    assert "\n  lab.py\n" in screen and "\\" not in screen
    monkeypatch.chdir(space.root)
    screen = plain_text(lay_out(attempt_blocks(attempt, space.load_progress(), cls.lab), 60))
    rel = str(cls.lab.relative_to(space.root))  # longer than 60 columns: it goes on after a
    # `/` or a `-` with a backslash, at column 0 (pasted, the shell joins it back)
    assert f"  {rel}\n" in screen.replace("\\\n", "")
    assert all(len(t) <= 60 for t in screen.splitlines()), screen


@pytest.mark.lento
def test_lint_mutation_check_catches_a_class_without_variants(tmp_path: Path) -> None:
    """With its variants the course passes; without them, 323's literal hole 1 is reported."""
    literal = "pasa escribiendo a mano sus valores de los parámetros por defecto"
    cls = COURSE.resolve("323")
    assert not [p for p in mutant_check([cls], JOBS)[cls.id].problems if literal in p.what]
    root = tmp_path / "curso"
    shutil.copytree(REPO / "schemas", root / "schemas")
    part = cls.part.path
    target = root / "classes" / part.name
    target.mkdir(parents=True)
    shutil.copy2(part / "part.toml", target / "part.toml")
    shutil.copytree(cls.path, target / cls.path.name)
    toml = target / cls.path.name / "class.toml"
    toml.write_text(toml.read_text().split("[practica]")[0], encoding="utf-8")
    copy = load_course(root).resolve("323")
    problems = [p for p in mutant_check([copy], JOBS)[copy.id].problems if literal in p.what]
    assert [p.what for p in problems] == [
        f"el hueco {k} pasa escribiendo a mano sus valores de los parámetros por defecto: "
        "ninguna variante lo cambia"
        for k in (1, 2)
    ]
    assert all(p.file.endswith("323-positional-encoding/class.toml") for p in problems)


def test_a_slow_check_shows_a_live_line_on_a_terminal(space: workspace.Workspace) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)))
    session.current = space.course.resolve("323")
    live = Terminal()
    loop = watch.Loop(session, queue.Queue(), live)
    loop.generation, loop.started = 1, time.monotonic() - 2.5  # a check running for 2,5 s
    loop.tick()
    assert re.search(r"comprobando… \d+,\d s \(guarda de nuevo para relanzar\)", live.getvalue())
    loop.handle(watch.Checked(1, judge(323, exercise(323))))
    assert live.getvalue().endswith("\r\x1b[2K") and "Práctica · 323" in screens[-1]


@pytest.mark.parametrize(
    ("variant", "phrase"),
    [
        ("{ nn = 3 }", "la variante 1 de [practica] da «nn», que no es parámetro de run()"),
        ('{ n = "x" }', "la variante 1 de [practica] da a «n» un valor que no es int"),
        ("{ escala = true }", "da a «escala» un valor que no es float"),
    ],
)
def test_a_variant_with_a_typo_is_a_problem_not_silence(
    cli, fake_course: Path, variant: str, phrase: str
) -> None:
    toml = next(fake_course.glob("classes/*/901-pasa/class.toml"))
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("variantes = [{ escala = 2.0 }]", f"variantes = [{variant}]"))
    result = cli("lint", "--no-run", "--root", str(fake_course))
    assert result.code == 1 and phrase in result.out and "Traceback" not in result.out
    assert cli("run", "901", "--root", str(fake_course)).code == 0  # run uses no variant
    if "no es parámetro" in phrase:  # the parameters it could be, quoted as the one it names
        assert "usa uno de: «n», «escala»" in result.out
