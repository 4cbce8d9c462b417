"""A grading killed mid-run loses only the classes in flight: each judged class is saved as it
lands (sealed), a rerun judges only what is not saved, and a forged or stale checkpoint is
judged again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compmath.grading import checkpoint
from compmath.grading import run as grading_run
from compmath.grading.seal import OPEN_KEY, SEAL_FIELD
from compmath.grading.verdict import ClassVerdict, GradedHole
from compmath.holes.graft import HoleStatus
from tests.conftest import REPO, no_traceback
from tests.test_grade import C323, C324, grade, grade_args, hand_in, outputs, with_hole

KEY = b"k" * 32


def verdict(passed: bool, syntax: str = "") -> ClassVerdict:
    status = HoleStatus.RIGHT if passed else HoleStatus.WRONG
    hole = GradedHole(1, passed, status, "" if passed else "esperado 1")
    return ClassVerdict((hole,), "hola", syntax=syntax)


def test_a_checkpoint_holds_for_its_file_and_its_key_only(tmp_path: Path) -> None:
    """Hostile: a checkpoint edited to say «bien» (its seal no longer matches), one sealed with
    another key (a run without isolation) or made for another file is judged again."""
    records = tmp_path / "alumnos"
    mine = checkpoint.class_print("curso", "ana", "323-x", "x = 1\n")
    saved = checkpoint.save(records, "ana", "323-x", mine, verdict(False), KEY)
    assert saved is not None
    assert checkpoint.load(records, "ana", "323-x", mine, KEY) == verdict(False)
    other = checkpoint.class_print("curso", "ana", "323-x", "x = 2\n")
    assert checkpoint.load(records, "ana", "323-x", other, KEY) is None  # another file
    assert checkpoint.load(records, "ana", "323-x", mine, OPEN_KEY) is None  # another key
    data = json.loads(saved.read_text("utf-8"))
    data["huecos"][0] |= {"bien": True, "estado": "bien"}
    saved.write_text(json.dumps(data), encoding="utf-8")
    assert checkpoint.load(records, "ana", "323-x", mine, KEY) is None  # forged
    data[SEAL_FIELD] = "0" * 64
    saved.write_text(json.dumps(data)[:40], encoding="utf-8")  # cut short
    assert checkpoint.load(records, "ana", "323-x", mine, KEY) is None
    checkpoint.forget(records, "ana")
    assert not (records / checkpoint.FOLDER / "ana").exists()


def slow_everywhere(entregas: Path, count: int) -> None:
    """Honest students whose first hole of 323 and of 324 take a while (each program distinct),
    so that a student's classes land one at a time."""
    for k in range(count):
        labs = {}
        for cls in (C323, C324):
            from compmath.holes.regions import solution_regions

            body = solution_regions(cls.lab.read_text("utf-8"))[0].body
            first = "\n".join(line.strip() for line in body)
            labs[cls] = with_hole(cls, 1, f"import time\ntime.sleep(0.25)  # {k}\n{first}")
        hand_in(entregas, f"alumno-{k:02d}", labs)


def saved_classes(out: Path) -> tuple[int, int]:
    """(students recorded, classes saved in all: two per record, and each checkpoint of a
    student without a record)."""
    records = {p.stem for p in (out / "alumnos").glob("*.json")}
    pending = 0
    folder = out / "alumnos" / checkpoint.FOLDER
    try:
        students = list(folder.iterdir())
    except FileNotFoundError:
        students = []
    for student in students:
        if student.name in records:
            continue
        try:  # a student's folder goes once its record is written: it may vanish as we look
            pending += sum(1 for p in student.iterdir() if p.suffix == ".json")
        except FileNotFoundError:
            continue
    return len(records), 2 * len(records) + pending


@pytest.mark.lento  # grades a class, is killed with classes saved, grades the rest
def test_a_killed_run_loses_only_the_classes_in_flight(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    students = 4
    entregas, out = tmp_path / "entregas", tmp_path / "notas"
    slow_everywhere(entregas, students)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "compmath.entry", *grade_args(entregas, out), "--jobs", "1"]
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and saved_classes(out)[1] < 3:  # the event: 3 classes
        time.sleep(0.02)  # saved, one of them of a student whose other class is still running
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(30)
    recorded, saved = saved_classes(out)
    assert 3 <= saved < 2 * students and not (out / "informe.json").exists()

    judged: list[int] = []
    real = grading_run.grade_submissions

    def counting(items, **options):  # type: ignore[no-untyped-def]
        judged.append(len(items))
        return real(items, **options)

    monkeypatch.setattr(grading_run, "grade_submissions", counting)
    result = grade(cli, entregas, out, "--jobs", "1")
    assert result.code == 0, no_traceback(result)
    assert judged == [2 * students - saved]  # every saved class kept, only the rest judged
    assert f"{recorded} ya corregida" in result.out or recorded == 0
    assert not list((out / "alumnos" / checkpoint.FOLDER).glob("*/*.json"))  # all in records

    monkeypatch.setattr(grading_run, "grade_submissions", real)
    fresh = tmp_path / "de-una-vez"
    assert grade(cli, entregas, fresh, "--jobs", "2").code == 0
    assert outputs(out) == outputs(fresh)  # the same bytes as a run never killed


def test_a_checkpoint_keeps_the_syntax_error_outside_the_holes(tmp_path: Path) -> None:
    """What the feedback says of a syntax error outside every hole survives a resume (a resumed
    run writes what an uninterrupted one would)."""
    records = tmp_path / "alumnos"
    mine = checkpoint.class_print("curso", "ana", "323-x", "x = (\n")
    said = verdict(True, "error de sintaxis en la línea 9 de tu lab.py")
    assert checkpoint.save(records, "ana", "323-x", mine, said, KEY) is not None
    assert checkpoint.load(records, "ana", "323-x", mine, KEY) == said


def test_a_checkpoint_with_a_status_no_judge_gives_is_judged_again(tmp_path: Path) -> None:
    records = tmp_path / "alumnos"
    mine = checkpoint.class_print("curso", "ana", "323-x", "x = 1\n")
    target = checkpoint.save(records, "ana", "323-x", mine, verdict(False), KEY)
    assert target is not None
    data = json.loads(target.read_text("utf-8"))
    data["huecos"][0]["estado"] = "aprobado"
    del data[SEAL_FIELD]
    from compmath.grading.seal import seal

    data[SEAL_FIELD] = seal(data, KEY)  # even sealed with the run's own key
    target.write_text(json.dumps(data), "utf-8")
    assert checkpoint.load(records, "ana", "323-x", mine, KEY) is None
