"""The one judging pipeline: cases outside the course, explicit parameters and oracles, reports
handed to a consumer as they land, and the same integrity check for a spliced lab as for `run`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.errors import CompmathError
from compmath.judging.case import Broken, Case, Explore, Ready, Reference, prepare, variant
from compmath.judging.pipeline import Interrupted, judge_cases
from compmath.judging.report import Outcome
from tests.conftest import FAKE_PART
from tests.processes import fresh_marker, marked, processes
from tests.waiting import wait_until

HONEST = """
import numpy as np

def run(n: int = 4, escala: float = 0.5, activo: bool = True, nombre: str = "x") -> dict:
    mitad = n * escala
    return {"n": n, "mitad": mitad, "vector": np.arange(n) / 3}
"""


def _ready(root: Path, number: int = 901) -> Ready:
    course = load_course(root)
    case = prepare(course, course.resolve(str(number)))
    assert isinstance(case, Ready)
    return case


def _lab(folder: Path, name: str, source: str) -> Path:
    path = folder / name / "lab.py"
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    return path


def test_a_lab_outside_the_course_is_judged_against_a_reference_of_the_same_run(
    fake_course: Path, tmp_path: Path
) -> None:
    base = _ready(fake_course)
    params = {"n": 6}
    wrong = HONEST.replace("mitad = n * escala", "mitad = n * escala * 1.01")
    cases: list[Case] = [
        variant(base, key="referencia", params=params, expected=Explore()),
        variant(
            base,
            key="honesto",
            lab=_lab(tmp_path, "a", HONEST),
            params=params,
            expected=Reference("referencia"),
        ),
        variant(
            base,
            key="erroneo",
            lab=_lab(tmp_path, "b", wrong),
            params=params,
            expected=Reference("referencia"),
        ),
    ]
    judging = judge_cases(cases, jobs=2)
    seen = [(case.key, report.outcome) for case, report in judging]
    reports = judging.result().by_key()
    assert reports["referencia"].outcome == Outcome.EXPLORATION
    assert reports["referencia"].outputs == {
        "n": 6,
        "mitad": 3.0,
        "vector": pytest.approx([0.0, 1 / 3, 2 / 3, 1.0, 4 / 3, 5 / 3], abs=1e-6),
    }
    assert reports["honesto"].outcome == Outcome.MATCHES
    assert reports["erroneo"].outcome == Outcome.DIFFERS
    assert [d.output for d in reports["erroneo"].differences] == ["mitad"]
    assert sorted(seen) == sorted((k, r.outcome) for k, r in reports.items())  # once each


def test_a_reference_that_gives_nothing_fails_what_depends_on_it(
    fake_course: Path, tmp_path: Path
) -> None:
    base = _ready(fake_course)
    raises = HONEST.replace("mitad = n * escala", "raise ValueError('sin referencia')")
    cases: list[Case] = [
        variant(base, key="referencia", lab=_lab(tmp_path, "r", raises), expected=Explore()),
        variant(
            base, key="alumno", lab=_lab(tmp_path, "a", HONEST), expected=Reference("referencia")
        ),
    ]
    reports = judge_cases(cases, jobs=2).result().by_key()
    assert reports["referencia"].outcome == Outcome.EXCEPTION
    assert reports["alumno"].outcome == Outcome.SETUP
    assert "la referencia referencia no dio salidas: ValueError" in reports["alumno"].message


def test_a_reference_to_nothing_is_refused(fake_course: Path) -> None:
    base = _ready(fake_course)
    with pytest.raises(ValueError, match="refers to no oracle case"):
        judge_cases([variant(base, key="x", expected=Reference("no-existe"))])


def test_a_broken_reference_fails_what_depends_on_it(fake_course: Path, tmp_path: Path) -> None:
    base = _ready(fake_course)
    problem = CompmathError("la clase está rota", "arréglala")
    cases: list[Case] = [
        Broken(base.cls, replace(base.request, key="ref"), problem),
        variant(base, key="alumno", lab=_lab(tmp_path, "a", HONEST), expected=Reference("ref")),
    ]
    reports = judge_cases(cases).result().by_key()
    assert reports["ref"].outcome == Outcome.SETUP
    assert reports["alumno"].outcome == Outcome.SETUP
    assert reports["alumno"].message == "la referencia ref no dio salidas: la clase está rota"


@pytest.fixture
def unconfined(monkeypatch: pytest.MonkeyPatch) -> None:
    """Labs that can write the course for this test only (no Landlock, no read-only view); its
    workers end with it (conftest), so no later test gets a worker that runs labs unconfined."""
    monkeypatch.setenv("COMPMATH_SIN", "landlock,mountns")
    fresh_marker(monkeypatch)


@pytest.mark.usefixtures("unconfined")
def test_a_spliced_lab_that_rewrites_the_course_is_blamed_like_any_other(
    fake_course: Path, tmp_path: Path
) -> None:
    """Without Landlock a lab outside the course can write into it: the check after the run
    fails that lab, and only that one, even though its file is not the course's lab.py."""
    target = fake_course / "classes" / FAKE_PART / "901-pasa" / "expected.json"
    hostile = HONEST.replace(
        "    mitad = n * escala\n",
        f"    open({str(target)!r}, 'a').write(' ')\n    mitad = n * escala\n",
    )
    base = _ready(fake_course)
    cases: list[Case] = [
        variant(base, key="honesto", lab=_lab(tmp_path, "a", HONEST)),
        variant(base, key="hostil", lab=_lab(tmp_path, "b", hostile)),
    ]
    reports = judge_cases(cases, jobs=1).result().by_key()
    assert reports["hostil"].outcome == Outcome.TAMPERED
    assert "901-pasa/expected.json" in reports["hostil"].message
    assert reports["honesto"].outcome in (Outcome.MATCHES, Outcome.TAMPERED)
    if reports["honesto"].outcome == Outcome.TAMPERED:  # ran at the same time: named as such
        assert "hostil" in reports["hostil"].message or "honesto" in reports["hostil"].message


def test_a_broken_case_is_reported_first_without_running(fake_course: Path) -> None:
    schema = fake_course / "schemas" / "901-pasa.schema.json"
    schema.write_text("{", encoding="utf-8")
    course = load_course(fake_course)
    case = prepare(course, course.resolve("901"))
    assert isinstance(case, Broken)
    judging = judge_cases([case])
    seen = [report.outcome for _, report in judging]
    judged = judging.result()
    assert seen == [Outcome.SETUP] and judged.reports[0].outcome == Outcome.SETUP
    assert judged.missing == ()  # no lab ran, no worker was asked


def test_the_duration_history_forgets_labs_that_are_gone(tmp_path: Path) -> None:
    """Practice and grading run labs from temporary folders: the history keeps only labs that
    still exist, so it does not grow with every attempt."""
    from compmath.cache import read_json
    from compmath.execution.protocol import LabReply, LabRequest, ReplyState
    from compmath.execution.scheduler import HISTORY, remember_durations

    kept, gone = tmp_path / "lab.py", tmp_path / "borrado" / "lab.py"
    kept.write_text("", encoding="utf-8")
    requests = [LabRequest("a", str(kept)), LabRequest("b", str(gone))]
    replies = {r.key: LabReply(r.key, ReplyState.OK, total_seconds=0.5) for r in requests}
    remember_durations({}, replies, requests)
    assert read_json(HISTORY) == {str(kept): 0.5}


SLEEPS = """
import subprocess, time

def run(n: int = 4, escala: float = 0.5, activo: bool = True, nombre: str = "x") -> dict:
    subprocess.Popen(["sleep", "301"])
    time.sleep(300)
    return {}
"""


def test_ctrl_c_keeps_a_lab_that_ended_before_it_though_its_reply_was_not_read(
    fake_course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one lab at a time the worker starts the next lab the moment one ends, before the
    runner reads that one's reply: Ctrl-C then must not lose a lab that had ended."""
    marker = fresh_marker(monkeypatch)
    base = _ready(fake_course)
    cases: list[Case] = [
        variant(base, key="rapido", lab=_lab(tmp_path, "a", HONEST)),
        variant(base, key="lento", lab=_lab(tmp_path, "b", SLEEPS)),
    ]

    def sleeping() -> bool:
        ours = set(marked(marker))
        return any(p.pid in ours and p.argv[-1:] == [b"301"] for p in processes())

    with pytest.raises(Interrupted) as stop, judge_cases(cases, jobs=1) as judging:
        judging.start()  # handed over; nothing here reads a reply
        wait_until(sleeping, "el primero terminó y el segundo está en marcha")
        raise KeyboardInterrupt  # what Ctrl-C does in the caller's loop
    assert stop.value.total == 2
    assert [r.outcome for r in stop.value.reports] == [Outcome.MATCHES]
    wait_until(lambda: not marked(marker), "Ctrl-C terminó también el laboratorio lento")


def test_ctrl_c_while_a_reply_is_judged_keeps_that_lab(
    fake_course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C lands while the runner judges a reply it has read: that lab is judged anyway."""
    from compmath.judging import pipeline

    calls: list[str] = []
    real = pipeline.judge

    def judge_once_interrupted(case: Case, *args, **kwargs):
        calls.append(case.key)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(case, *args, **kwargs)

    monkeypatch.setattr(pipeline, "judge", judge_once_interrupted)
    base = _ready(fake_course)
    cases: list[Case] = [
        variant(base, key="primero", lab=_lab(tmp_path, "a", HONEST)),
        variant(base, key="segundo", lab=_lab(tmp_path, "b", SLEEPS)),
    ]
    with pytest.raises(Interrupted) as stop:
        judge_cases(cases, jobs=1).result()
    assert calls == ["primero", "primero"]
    assert [r.outcome for r in stop.value.reports] == [Outcome.MATCHES]
