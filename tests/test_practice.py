"""The practice mode: exercises generated from the labs, a workspace, a session driven as a
student drives it (wrong answer, hint, right answer, next), reset, the solution after done, and
labs that break (syntax error, endless loop) in the student's hands."""

from __future__ import annotations

import io
import json
import os
import queue
import re
import textwrap
import threading
import time
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.holes.regions import (
    HoleError,
    exercise_source,
    solution_regions,
    splice,
    student_regions,
    without_markers,
)
from compmath.holes.verdict import HoleStatus, judge_many
from compmath.practice import watch, workspace
from compmath.practice.session import Session
from compmath.present.layout import lay_out, plain_text
from tests.conftest import REPO
from tests.processes import LINUX, processes
from tests.waiting import PATIENCE, wait_until

COURSE = load_course(REPO)


def text_of(blocks: list) -> str:
    return plain_text(lay_out(blocks, None))


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> workspace.Workspace:
    """A workspace made from the real course (one per module: sessions below reset it)."""
    return workspace.create(COURSE, tmp_path_factory.mktemp("ws") / "practica")


class Screens:
    """A session's `show`: what a student would have seen, screen by screen."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    def __call__(self, blocks: list, fresh: bool) -> None:
        self.seen.append((text_of(blocks), fresh))

    @property
    def last(self) -> str:
        return self.seen[-1][0]


def answer(space: workspace.Workspace, number: int, hole: int, code: str | None) -> Path:
    """Write `code` (None: the course's own answer) into one hole of the student's lab.py."""
    cls = space.course.resolve(str(number))
    student = cls.lab.read_text(encoding="utf-8")
    if code is None:
        course_lab = COURSE.resolve(str(number)).lab.read_text(encoding="utf-8")
        code = "\n".join(solution_regions(course_lab)[hole - 1].body)
    region = student_regions(student)[hole - 1]
    lines = student.splitlines()
    lines[region.begin + 1 : region.end] = textwrap.indent(
        textwrap.dedent(code), region.indent
    ).splitlines()
    cls.lab.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cls.lab


@pytest.mark.parametrize("cls", COURSE.classes, ids=[c.id for c in COURSE.classes])
def test_every_lab_makes_an_exercise_with_one_to_three_holes(cls) -> None:
    source = cls.lab.read_text(encoding="utf-8")
    holes = cls.meta.holes
    assert 1 <= len(holes) <= 3
    exercise = exercise_source(source, [h.task for h in holes])
    compile(exercise, str(cls.lab), "exec")
    assert len(student_regions(exercise)) == len(holes)
    assert exercise.count("NotImplementedError") == len(holes)
    assert "BEGIN SOLUTION" not in exercise and "END SOLUTION" not in exercise
    # every hole's answer put back gives the instructor's lab without its markers
    filled = splice(exercise, source, set())
    for region, solved in zip(student_regions(filled), solution_regions(source)):
        assert region.body == solved.body
    assert without_markers(source).count("\n") == source.count("\n") - 2 * len(holes)
    for hole in holes:
        assert set(hole.outputs) <= {o.name for o in cls.meta.outputs} and hole.hints


@pytest.mark.parametrize(
    ("source", "phrase"),
    [
        ("def f():\n    ### BEGIN SOLUTION\n    x = 1\n", "se abre y no se cierra"),
        ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n", "dentro del cuerpo de una función"),
        (
            "def f():\n    ### BEGIN SOLUTION\n    # nada\n    ### END SOLUTION\n    return 1\n",
            "no contiene código",
        ),
        ("def f():\n    ### BEGIN SOLUTION\n    x = 1\n  ### END SOLUTION\n", "sangría"),
        ("def f():\n    ### END SOLUTION\n", "sin su marca de apertura"),
    ],
)
def test_broken_markers_are_refused_with_the_line(source: str, phrase: str) -> None:
    with pytest.raises(HoleError, match=phrase):
        exercise_source(source, ["t"])


def test_start_writes_a_workspace_outside_the_course(space: workspace.Workspace) -> None:
    assert (space.root / "practica.json").exists() and (space.root / "curso.toml").exists()
    assert len(space.classes()) == 20
    lab = space.course.resolve("323").lab
    assert "### HUECO 1 ###" in lab.read_text() and "BEGIN SOLUTION" not in lab.read_text()
    assert (space.root / "schemas" / "323-positional-encoding.schema.json").exists()
    progress = json.loads((space.root / "practica.json").read_text())
    assert progress["actual"] == "321-tokenizacion-bpe" and not any(
        c["hecha"] for c in progress["clases"].values()
    )


def test_start_refuses_the_course_itself_and_a_used_folder(cli, tmp_path: Path) -> None:
    inside = cli("practice", "start", str(REPO / "practica"), "--root", str(REPO))
    assert (
        inside.code == 2 and "dentro del curso" in inside.err and not (REPO / "practica").exists()
    )
    (tmp_path / "usada").mkdir()
    (tmp_path / "usada" / "algo.txt").write_text("x")
    used = cli("practice", "start", str(tmp_path / "usada"), "--root", str(REPO))
    assert used.code == 2 and "no está vacía" in used.err


@pytest.mark.lento  # seconds: out of the quick loop
def test_a_session_as_a_student_lives_it(space: workspace.Workspace) -> None:
    screens = Screens()
    session = Session(space, screens)
    session.current = space.course.resolve("323")
    first = session.check()
    assert not first.done and first.open_hole in (1, 2)
    assert "falta el hueco" in screens.last and "· hueco 1 (sin completar)" in screens.last

    # hole 1 right, hole 2 still open: hole 1 turns green on its own
    lab = answer(space, 323, 1, None)
    assert session.saved(str(lab))
    assert "✓ hueco 1 (bien)" in screens.last and "· hueco 2 (sin completar)" in screens.last

    # hole 2 written wrong (cosine and sine swapped): the first wrong output, with both values
    wrong = (
        "    angulos = np.outer(posiciones, frecuencias(d))\n"
        "    pe[:, 0::2] = np.cos(angulos)\n    pe[:, 1::2] = np.sin(angulos)"
    )
    session.saved(str(answer(space, 323, 2, wrong)))
    assert session.attempt is not None and not session.attempt.done
    assert "✗ hueco 2 (mal)" in screens.last and "✓ hueco 1 (bien)" in screens.last
    assert "con los parámetros por defecto: salida.codificaciones" in screens.last
    assert "obtenido" in screens.last and "esperado" in screens.last and "Δ" in screens.last

    # a hint for the hole behind the first wrong output, then the next one
    session.key("p")
    assert (
        "pista 1 de" in screens.last and "del hueco 2" in screens.last and not screens.seen[-1][1]
    )
    session.key("p")
    assert "pista 2 de" in screens.last
    session.key("p")
    assert "pista 3 de 3" in screens.last
    session.key("p")  # no fourth hint: it says so instead of repeating «pista 3 de 3»
    assert (
        "pista 3 de 3" not in screens.last and "ya viste las 3 pistas del hueco 2" in screens.last
    )
    # the solution is not shown before the class is done
    session.key("v")
    assert "cuando la clase está hecha" in screens.last

    session.saved(str(answer(space, 323, 2, None)))
    assert session.attempt.done and "¡Clase hecha!" in screens.last
    assert "1 de 20 clases hechas" in screens.last
    saved = json.loads((space.root / "practica.json").read_text())
    assert saved["clases"]["323-positional-encoding"]["hecha"] is True
    assert saved["clases"]["323-positional-encoding"]["pistas_vistas"] == {"2": 3}
    assert not space.solution(session.current).exists()  # only [v] after done copies it in
    session.key("v")
    assert (
        "La solución del curso, hueco a hueco" in screens.last and "np.sin(angulos)" in screens.last
    )
    assert space.solution(session.current).read_text() == COURSE.resolve("323").lab.read_text()

    session.key("s")
    assert session.current.number != 323 and f"Práctica · {session.current.number}" in screens.last
    session.key("l")
    assert "✓ 323 Positional encoding" in screens.last
    assert session.key("q") is False


def test_reset_asks_then_puts_the_exercise_back_and_the_progress(
    space: workspace.Workspace,
) -> None:
    screens = Screens()
    session = Session(space, screens)
    session.current = space.course.resolve("324")
    for hole in (1, 2):
        lab = answer(space, 324, hole, None)
    assert session.check().done and session.progress.classes["324-query-key-value"].done
    session.key("p")
    session.key("r")
    assert (
        "pulsa r otra vez" in screens.last
        and lab.read_text() != space.exercise(session.current).read_text()
    )
    session.key("r")
    assert lab.read_text() == space.exercise(session.current).read_text()
    assert "reiniciada" in screens.last
    saved = json.loads((space.root / "practica.json").read_text())["clases"]["324-query-key-value"]
    assert saved == {"hecha": False, "pistas_vistas": {}, "hecha_en": ""}
    assert not session.progress.classes["324-query-key-value"].done


def test_practice_reset_command_resets_the_progress_too(cli, space: workspace.Workspace) -> None:
    cls = space.course.resolve("330")
    for hole in range(1, len(cls.meta.holes) + 1):
        answer(space, 330, hole, None)
    assert cli("practice", "check", "330", "--dir", str(space.root)).code == 0
    done = json.loads((space.root / "practica.json").read_text())["clases"][cls.id]["hecha"]
    result = cli("practice", "reset", "330", "--dir", str(space.root))
    assert done is True and result.code == 0 and "sin hacer" in result.out
    assert (
        json.loads((space.root / "practica.json").read_text())["clases"][cls.id]["hecha"] is False
    )


@pytest.mark.parametrize(
    ("code", "phrase"),
    [
        ("    q = (", "«(» se abrió y no se cerró nunca"),
        ("    while True:\n        pass", "superó el límite"),
    ],
)
@pytest.mark.lento  # seconds: out of the quick loop
def test_a_broken_answer_is_a_verdict_not_a_crash(
    space: workspace.Workspace, code: str, phrase: str
) -> None:
    cls = space.course.resolve("325")
    space.reset(cls)
    answer(space, 325, 1, code)
    source = cls.lab.read_text(encoding="utf-8")
    attempt = judge_many([(COURSE.resolve("325"), source)], timeout=1.0, jobs=2)[0]
    assert not attempt.done
    statuses = {h.number: h.status for h in attempt.holes}
    assert statuses[1] == HoleStatus.FAILS and phrase in attempt.holes[0].reason
    assert "Stack" not in attempt.holes[0].reason and "Traceback" not in attempt.holes[0].traceback
    space.reset(cls)


def test_practice_check_exit_codes_and_json(cli, space: workspace.Workspace) -> None:
    cls = space.course.resolve("326")
    space.reset(cls)
    open_ = cli("practice", "check", "326", "--dir", str(space.root))
    assert open_.code == 1 and "326 Máscaras" in open_.out and "falta el hueco" in open_.out
    for hole in range(1, len(cls.meta.holes) + 1):
        answer(space, 326, hole, None)
    done = cli("practice", "check", "326", "--dir", str(space.root), "--json")
    assert done.code == 0
    report = json.loads(done.out)
    assert report["clases"][0]["hecha"] is True and report["hechas"] >= 1
    assert {h["estado"] for h in report["clases"][0]["huecos"]} == {"bien"}


@pytest.mark.lento  # seconds: out of the quick loop
def test_the_watch_loop_rechecks_on_save_and_answers_keys(space: workspace.Workspace) -> None:
    """The real loop: watchfiles sees the save, keys arrive on a pipe, q ends it."""
    cls = space.course.resolve("327")
    space.reset(cls)
    screens = Screens()
    session = Session(space, screens)
    session.current = cls
    read, write = os.pipe()
    keys = os.fdopen(read, "r")
    loop = threading.Thread(target=watch.run, args=(session,), kwargs={"keys": keys})
    loop.start()
    try:
        deadline = time.monotonic() + 20
        while (
            not any("Práctica · 327" in s for s, _ in screens.seen) and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        time.sleep(0.3)  # the watcher is up
        before = len(screens.seen)
        for hole in range(1, len(cls.meta.holes) + 1):
            answer(space, 327, hole, None)
        while (
            not any("¡Clase hecha!" in s for s, _ in screens.seen[before:])
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert any("¡Clase hecha!" in s for s, _ in screens.seen[before:])
        os.write(write, b"l\nq\n")
        loop.join(10)
        assert not loop.is_alive()
        assert "✓ 327" in screens.seen[-2][0] and "hasta luego" in screens.last
    finally:
        os.close(write)
        loop.join(1)


def test_the_student_can_run_the_exercise_like_any_lab(cli, space: workspace.Workspace) -> None:
    cls = space.course.resolve("328")
    space.reset(cls)
    result = cli("run", "328", "--root", str(space.root))
    assert result.code == 1 and re.search(
        r"NotImplementedError: hueco \d sin completar", result.out
    )


@pytest.mark.parametrize("cls", COURSE.classes, ids=[c.id for c in COURSE.classes])
def test_todo_comments_never_wrap_inside_an_expression(cls) -> None:
    """#29: a task's formula stays on one line of the exercise's TODO comment."""
    holes = cls.meta.holes
    exercise = exercise_source(cls.lab.read_text(encoding="utf-8"), [h.task for h in holes])
    todo = [
        line.strip().removeprefix("# TODO:").removeprefix("#").strip()
        for line in exercise.splitlines()
        if line.strip().startswith(("# TODO:", "#       "))
    ]
    assert todo
    operators = tuple("=+-−/·×*^<>≤≥")
    for text in todo:
        assert not text.endswith(operators) and not text.startswith(operators), text
        if text.count("(") > text.count(")"):  # an open bracket: prose, not a cut formula
            assert " " in text[text.rindex("(") :], text


def labs_running() -> set[int]:
    """The labs' processes now: each a child of a supervisor, itself a child of one of this
    process's workers (every one of them with the worker's command line)."""
    table = {p.pid: p for p in processes()}
    found = set()
    for p in table.values():
        supervisor = table.get(p.ppid)
        worker = table.get(supervisor.ppid) if supervisor else None
        if p.state != "Z" and worker is not None and worker.ppid == os.getpid():
            found.add(p.pid)
    return found


def next_check(events: queue.Queue, loop: watch.Loop) -> watch.Checked:
    """Handle events until a check's verdict arrives; that verdict."""
    while True:
        event = events.get(timeout=PATIENCE)
        loop.handle(event)
        if isinstance(event, watch.Checked):
            return event


@pytest.mark.skipif(not LINUX, reason="mira la tabla de procesos en /proc")
@pytest.mark.lento  # seconds: out of the quick loop
def test_a_new_save_ends_the_labs_of_the_check_it_replaces(space: workspace.Workspace) -> None:
    """A hole that never ends, saved, then fixed: the new check ends the old one's labs at
    once (not at their timeout, ten minutes away), shows only its own verdict, and the next
    checks run as usual."""
    cls = space.course.resolve("323")
    space.reset(cls)
    screens = Screens()
    session = Session(space, screens, timeout=600)
    session.current = cls
    events: queue.Queue = queue.Queue()
    loop = watch.Loop(session, events, io.StringIO())
    for hole in (1, 2):
        answer(space, 323, hole, None)
    loop.start_check()  # everything right: the course's labs are remembered from here on
    assert next_check(events, loop).attempt.done
    answer(space, 323, 1, "import time\ntime.sleep(10 ** 6)")
    loop.start_check()  # only the hanging hole's programs run now: one lab per variant
    hanging = wait_until(labs_running, "los laboratorios del hueco que no termina, en marcha")
    answer(space, 323, 1, None)
    loop.start_check()
    wait_until(
        lambda: not hanging & labs_running(), "los laboratorios del chequeo viejo, terminados"
    )
    verdict = next_check(events, loop)
    assert verdict.generation == loop.generation == 3 and verdict.attempt.done  # none from 2
    assert "323" in screens.last
    loop.start_check()  # the pool still serves: a fourth check lands like any other
    assert next_check(events, loop).attempt.done
