"""`r` in the practice screen never erases a written hole unasked: answering it to the «fuera de
los huecos» warning puts back only what lies outside the holes (each hole kept as written); the
first `r` always shows what would go, and the file as it was is kept a copy of. Driven with the
watch loop's events (a check's `Checked`, each key's `Key`), never with sleeps."""

from __future__ import annotations

import io
import queue
from pathlib import Path

import pytest

from compmath.holes.regions import outside_restored, student_regions
from compmath.practice import watch, workspace
from compmath.practice.session import Session
from tests.test_practice_verdict import COURSE, solved, text_of

HELPER = "\n\ndef mi_ayuda(x):  # una ayuda mía, fuera de los huecos\n    return 2 * x\n"


@pytest.fixture
def loop(tmp_path: Path) -> watch.Loop:
    """The loop of a session on 323, in a fresh workspace; its screens in `loop.screens`."""
    space = workspace.create(COURSE, tmp_path / "practica")
    screens: list[str] = []
    session = Session(space, lambda blocks, fresh: screens.append(text_of(blocks)))
    session.current = space.course.resolve("323")
    made = watch.Loop(session, queue.Queue(), io.StringIO())
    made.screens = screens  # type: ignore[attr-defined]
    return made


def checked(loop: watch.Loop) -> None:
    """Start the loop's check of the current file and hand it its `Checked` event."""
    loop.start_check()
    event = loop.events.get(timeout=60)
    assert isinstance(event, watch.Checked) and event.attempt is not None, event
    assert loop.handle(event)


def test_r_after_the_warning_restores_outside_and_keeps_every_hole(loop: watch.Loop) -> None:
    session, lab = loop.session, loop.session.current.lab
    exercise = session.workspace.exercise(session.current).read_text(encoding="utf-8")
    holes = solved(323)  # both holes right, as an honest student wrote them
    changed = holes.replace("POSICIONES = 6 ", "POSICIONES = 7 ") + HELPER
    lab.write_text(changed, encoding="utf-8")
    checked(loop)
    assert "tu archivo cambia fuera de los huecos" in loop.screens[-1]  # type: ignore[attr-defined]
    assert "[r] restaura lo de fuera de los huecos" in loop.screens[-1]  # type: ignore[attr-defined]
    assert loop.handle(watch.Key("r"))
    asked = loop.screens[-1]  # type: ignore[attr-defined]
    assert "¿restaurar lo de fuera de los huecos?" in asked and "tus huecos se quedan" in asked
    assert "− POSICIONES = 7" in asked and "− def mi_ayuda(x):" in asked, asked
    assert lab.read_text(encoding="utf-8") == changed  # the first r only asks
    assert loop.handle(watch.Key("r"))
    restored = lab.read_text(encoding="utf-8")
    assert restored == holes  # outside: the exercise again; inside: the student's code
    assert [r.body for r in student_regions(restored)] == [r.body for r in student_regions(changed)]
    assert restored != exercise
    copy = session.workspace.kept_copy(session.current)
    assert copy.read_text(encoding="utf-8") == changed
    assert "restaurado fuera de los huecos" in loop.screens[-1]  # type: ignore[attr-defined]
    assert session.attempt is not None and session.attempt.done
    assert not session.attempt.outside_changed
    assert session.progress.classes[session.current.id].done  # progress kept, not reset


def test_a_save_between_the_two_rs_cancels_the_question(loop: watch.Loop) -> None:
    session, lab = loop.session, loop.session.current.lab
    changed = solved(323) + HELPER
    lab.write_text(changed, encoding="utf-8")
    assert loop.handle(watch.Key("r")) and session.confirm_reset
    assert loop.handle(watch.Saved(str(lab)))
    assert not session.confirm_reset
    event = loop.events.get(timeout=60)
    assert loop.handle(event)
    assert loop.handle(watch.Key("r"))  # asks again: nothing written yet
    assert lab.read_text(encoding="utf-8") == changed


def test_with_nothing_changed_outside_r_names_the_holes_it_would_erase(loop: watch.Loop) -> None:
    session, lab = loop.session, loop.session.current.lab
    exercise = session.workspace.exercise(session.current).read_text(encoding="utf-8")
    holes = solved(323)
    lab.write_text(holes, encoding="utf-8")
    checked(loop)
    assert loop.handle(watch.Key("r"))
    asked = loop.screens[-1]  # type: ignore[attr-defined]
    assert "¿reiniciar?" in asked and "se borra lo que escribiste en los huecos 1, 2" in asked
    assert lab.read_text(encoding="utf-8") == holes
    assert loop.handle(watch.Key("r"))
    assert lab.read_text(encoding="utf-8") == exercise
    assert session.workspace.kept_copy(session.current).read_text(encoding="utf-8") == holes
    assert "tu archivo anterior:" in loop.screens[-1]  # type: ignore[attr-defined]


def test_with_damaged_markers_r_says_so_and_keeps_a_copy(loop: watch.Loop) -> None:
    session, lab = loop.session, loop.session.current.lab
    exercise = session.workspace.exercise(session.current).read_text(encoding="utf-8")
    damaged = solved(323).replace("    ### FIN DEL HUECO 2 ###\n", "", 1)
    assert outside_restored(exercise, damaged) is None
    lab.write_text(damaged, encoding="utf-8")
    assert loop.handle(watch.Key("r"))
    assert "las marcas de los huecos están dañadas" in loop.screens[-1]  # type: ignore[attr-defined]
    assert lab.read_text(encoding="utf-8") == damaged
    assert loop.handle(watch.Key("r"))
    assert lab.read_text(encoding="utf-8") == exercise
    assert session.workspace.kept_copy(session.current).read_text(encoding="utf-8") == damaged


def test_outside_restored_reindents_a_hole_and_refuses_renumbered_markers() -> None:
    exercise = "def f(x):\n    ### HUECO 1 ###\n    raise NotImplementedError\n    ### FIN DEL HUECO 1 ###\n    return y\n"
    student = "import os\ndef f(x):\n  ### HUECO 1 ###\n  y = x + 1\n  ### FIN DEL HUECO 1 ###\n  return y\n"
    assert outside_restored(exercise, student) == exercise.replace(
        "    raise NotImplementedError\n", "    y = x + 1\n"
    )
    renumbered = student.replace("HUECO 1", "HUECO 2")
    assert outside_restored(exercise, renumbered) is None
