"""`compmath practice` judges a hole as privately as `grade` does: a hole that loads the course's
lab.py by its absolute path (importlib, or exec of its text), or the solution copied into the
workspace once a class is done, finds nothing and fails, in `practice check` and in the watch
loop's verdict, while the honest hole beside it passes. Judged in plain sight (as nothing but
lint's own mutants are), the same thief would pass: the attack is real."""

from __future__ import annotations

import io
import json
import queue
import shutil
from pathlib import Path

import pytest

from compmath.holes.verdict import HoleStatus, judge_many
from compmath.practice import watch, workspace
from compmath.practice.session import Session
from tests.test_practice_verdict import COURSE, JOBS, solved, text_of, with_hole

C323 = COURSE.resolve("323")

# Hole 1 of 323 (inside frecuencias(d), which must set omega): the course's own frecuencias,
# loaded from wherever a file holding it can be read; each attempt is printed.
THIEF = """\
    import importlib.util as _u
    def _por_importlib(ruta):
        spec = _u.spec_from_file_location("curso", ruta)
        modulo = _u.module_from_spec(spec)
        spec.loader.exec_module(modulo)
        return modulo.frecuencias
    def _por_exec(ruta):
        espacio = {"__name__": "curso"}
        exec(open(ruta, encoding="utf-8").read(), espacio)
        return espacio["frecuencias"]
    _copiada = None
    for _nombre, _ruta in RUTAS:
        for _como in (_por_importlib, _por_exec):
            try:
                _copiada = _como(_ruta)
            except Exception as _exc:
                print(f"{_nombre} {_como.__name__}: nada ({type(_exc).__name__})")
                continue
            print(f"{_nombre} {_como.__name__}: LEIDO")
            break
        if _copiada is not None:
            break
    omega = _copiada(d)
"""


def thief(space: workspace.Workspace) -> str:
    """323's solved exercise with hole 1 stealing the course's answer."""
    routes = [
        ("curso", str(C323.lab)),
        ("solucion del espacio", str(space.solution(space.course.resolve("323")))),
    ]
    hole = f"    RUTAS = {routes!r}\n" + THIEF
    return with_hole(solved(323), 1, hole)


@pytest.fixture
def space(tmp_path: Path) -> workspace.Workspace:
    """A workspace whose 323 was done and whose solution the student asked for (`v`)."""
    made = workspace.create(COURSE, tmp_path / "practica")
    copied = made.solution(made.course.resolve("323"))
    copied.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(C323.lab, copied)
    return made


def test_in_plain_sight_the_thief_would_pass(space: workspace.Workspace) -> None:
    """The control: without hiding anything the stolen frecuencias gives hole 1 its tick."""
    attempt = judge_many([(C323, thief(space))], timeout=20.0, jobs=JOBS)[0]
    assert attempt.holes[0].status == HoleStatus.RIGHT, attempt.holes[0].reason
    assert "curso _por_importlib: LEIDO" in attempt.stdout


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_practice_check_hides_the_course_from_a_hole(cli, space: workspace.Workspace) -> None:
    lab = space.course.resolve("323").lab
    lab.write_text(thief(space), encoding="utf-8")
    result = cli("practice", "check", "323", "--dir", str(space.root), "--json", "--timeout", "20")
    report = json.loads(result.out)["clases"][0]
    assert result.code == 1 and report["hecha"] is False
    assert [h["estado"] for h in report["huecos"]] == ["falla", "bien"], report
    assert "Traceback" not in result.out
    shown = cli("practice", "check", "323", "--dir", str(space.root), "--timeout", "20")
    assert "323 Positional encoding [✗ ✓] — hueco 1: " in shown.out, shown.out
    assert "curso _por_importlib: nada" in shown.out and "LEIDO" not in shown.out, shown.out
    lab.write_text(solved(323), encoding="utf-8")  # the honest student, same workspace
    honest = cli("practice", "check", "323", "--dir", str(space.root), "--json")
    assert honest.code == 0 and json.loads(honest.out)["clases"][0]["hecha"] is True


def test_the_watch_loops_verdict_hides_the_course_from_a_hole(space: workspace.Workspace) -> None:
    """The loop's own check (its thread, its event): the thief fails, every attempt read
    nothing; then the honest hole, saved in its place, makes the class done."""
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)), 20.0)
    session.current = space.course.resolve("323")
    events: queue.Queue[watch.WatchEvent] = queue.Queue()
    loop = watch.Loop(session, events, io.StringIO())
    try:
        session.current.lab.write_text(thief(space), encoding="utf-8")
        loop.start_check()
        event = events.get(timeout=60)
        assert isinstance(event, watch.Checked) and event.attempt is not None, event
        assert loop.handle(event)
        attempt = event.attempt
        assert [h.status for h in attempt.holes] == [HoleStatus.FAILS, HoleStatus.RIGHT]
        assert "LEIDO" not in attempt.stdout, attempt.stdout
        for tried in ("curso _por_importlib", "curso _por_exec", "solucion del espacio _por_exec"):
            assert f"{tried}: nada" in attempt.stdout, attempt.stdout
        assert "hueco 1" in screens[-1] and "¡Clase hecha!" not in screens[-1]
        session.current.lab.write_text(solved(323), encoding="utf-8")
        loop.start_check()
        event = events.get(timeout=60)
        assert isinstance(event, watch.Checked) and event.attempt is not None, event
        assert loop.handle(event) and event.attempt.done
        assert "¡Clase hecha!" in screens[-1]
    finally:
        loop.cancel.cancel()
