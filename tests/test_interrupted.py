"""Interrupted and concurrent runs: SIGKILL at any moment, two `check`s on one course at once.

These start `compmath` as a separate process (as a user does), kill it with SIGKILL and look at
what is left on disk and in the process table (tests/processes.py).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART, REPO, snapshots
from tests.processes import fresh_marker, leftovers, marked, processes, state_of
from tests.waiting import wait_until

pytestmark = pytest.mark.lento  # real signals to real process trees

LABS = 8
OLD = {"vector": [0.0], "n": 0}
LAB = """\
def run() -> dict:
    return {{"vector": [k / {number} for k in range(4000)], "n": {number}}}
"""
HANGS = """\
import subprocess, time
def run() -> dict:
    subprocess.Popen(["sleep", "300"], start_new_session=True)
    time.sleep(300)
    return {}
"""


def compmath(*args: str, **kwargs) -> subprocess.Popen:
    """`compmath ARGS` as its own process, in its own session (so its workers can be found)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [sys.executable, "-m", "compmath.entry", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kwargs,
    )


@pytest.fixture
def marker(monkeypatch: pytest.MonkeyPatch) -> str:
    return fresh_marker(monkeypatch)


@pytest.fixture
def course(fake_course: Path, make_lab) -> Path:
    """The fake course with only 901 plus LABS labs whose snapshots are stale (OLD)."""
    part = fake_course / "classes" / FAKE_PART
    for folder in part.iterdir():
        if folder.is_dir() and folder.name != "901-pasa":
            shutil.rmtree(folder)
    for i in range(LABS):
        make_lab(
            960 + i,
            LAB.format(number=960 + i),
            expected=OLD,
            schema={"type": "object"},
            slug=f"escribe-{i}",
        )
    return fake_course


def test_update_killed_at_any_moment_leaves_old_or_new_snapshots(course: Path, marker: str) -> None:
    snaps = sorted(course.rglob("expected.json"))
    old = {p: p.read_bytes() for p in snaps}
    began = time.monotonic()
    full = compmath("update", "--all", "--root", str(course))
    assert full.wait() == 0, full.stderr.read() if full.stderr else ""
    duration = time.monotonic() - began
    new = {p: p.read_bytes() for p in snaps}
    assert sum(new[p] != old[p] for p in snaps) == LABS
    rng = random.Random(20261129)
    runners: list[int] = []
    for _ in range(15):
        for path, data in old.items():
            path.write_bytes(data)
        proc = compmath("update", "--all", "--root", str(course))
        time.sleep(rng.uniform(0.0, duration * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for path in snaps:
            now = path.read_bytes()
            assert now in (old[path], new[path]), f"{path} quedó a medias"
            json.loads(now)
        runners.append(proc.pid)  # the killed runner's workers must end on their own
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()  # type: ignore[union-attr]
    assert leftovers(marker, runners, patience=60) == []
    stale = snaps[1].parent / ".expected.json.abc.compmath-tmp"
    stale.write_text("{")
    final = compmath("update", "--all", "--root", str(course))
    assert final.wait() == 0
    assert {p: p.read_bytes() for p in snaps} == new
    assert list(course.rglob("*.compmath-tmp")) == []


def test_runner_killed_while_a_lab_hangs_takes_the_lab_down(make_lab, marker: str) -> None:
    root = make_lab(970, HANGS, expected=OLD, schema={"type": "object"}, slug="cuelga-con-hijo")
    proc = compmath("run", "970", "--root", str(root), "--timeout", "300")
    try:
        started(marker, proc)  # the lab's `sleep 300` is running
        running = leftovers(marker, [proc.pid], patience=0)
        assert len(running) >= 5, running  # runner, worker, supervisor, lab, sleep
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert leftovers(marker, [proc.pid], patience=60) == []  # long before the 300 s timeout
    proc.stdout.close()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]


def test_two_checks_at_once_do_not_interfere(fake_course: Path) -> None:
    before = snapshots(fake_course)
    args = ("check", "--root", str(fake_course), "--json", "--timeout", "2", "--jobs", "2")
    first, second = compmath(*args), compmath(*args)
    outputs = [p.communicate(timeout=120) for p in (first, second)]
    assert first.returncode == second.returncode == 1
    results = []
    for out, err in outputs:
        assert "Traceback" not in err
        report = json.loads(out)
        results.append({c["clase"]: c["resultado"] for c in report["clases"]})
    assert results[0] == results[1]
    assert results[0]["901-pasa"] == results[0]["906-imprime"] == "coincide"
    assert results[0]["902-lanza"] == "excepcion" and results[0]["905-cuelga"] == "tiempo_agotado"
    assert snapshots(fake_course) == before


SLOW = """\
import subprocess, time
def run() -> dict:
    subprocess.Popen(["sleep", "{hold}"])
    time.sleep({seconds})
    return {{"vector": [0.0], "n": 0}}
"""


def in_own_group(*args: str) -> subprocess.Popen:
    """`compmath ARGS` as a shell job: its own process group, in the session of the test (so
    that Ctrl-Z, which a terminal sends to the group, stops it rather than being ignored)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [sys.executable, "-m", "compmath.entry", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
    )


def started(marker: str, proc: subprocess.Popen) -> list[int]:
    """Wait until a lab of `proc` has started its `sleep`; the pids of those running."""
    wait_until(lambda: marked(marker) or proc.poll() is not None, "el laboratorio arranca")
    assert proc.poll() is None, "el ejecutor terminó antes de que el laboratorio arrancara"
    return marked(marker)


def sleeping(marker: str, hold: str) -> bool:
    """Whether a lab of this test is running its `sleep HOLD` now (each lab sleeps its own)."""
    ours = set(marked(marker))
    return any(p.pid in ours and p.argv[-1:] == [hold.encode()] for p in processes())


def test_ctrl_z_stops_the_labs_and_their_clock(make_lab, marker: str) -> None:
    root = make_lab(
        975,
        SLOW.format(seconds=2, hold=300),
        expected={"vector": [0.0], "n": 0},
        schema={"type": "object"},
        slug="lenta",
    )
    proc = in_own_group("run", "975", "--root", str(root), "--timeout", "4")
    try:
        (sleep,) = started(marker, proc)
        os.killpg(proc.pid, signal.SIGTSTP)  # what Ctrl-Z does
        wait_until(
            lambda: state_of(sleep) == "T" and state_of(proc.pid) == "T",
            "Ctrl-Z detiene al ejecutor y al laboratorio",
        )
        # The one wait that must be a span of time: longer than the lab's 4 s timeout, to show
        # that time spent stopped does not count against it.
        time.sleep(5)
        assert state_of(sleep) == "T"
        os.killpg(proc.pid, signal.SIGCONT)  # what `fg` does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, out + err
    assert "1/1 salida coincide" in out or "2/2 salidas coinciden" in out
    assert leftovers(marker, [proc.pid]) == []


def test_ctrl_c_prints_one_line_and_the_partial_summary(make_lab, marker: str) -> None:
    for number, seconds in ((976, 0.2), (977, 300), (978, 300)):
        root = make_lab(
            number,
            SLOW.format(seconds=seconds, hold=number),
            expected={"vector": [0.0], "n": 0},
            schema={"type": "object"},
            slug=f"lenta-{number}",
        )
    proc = in_own_group("check", "976", "977", "978", "--root", str(root), "--jobs", "1")
    try:
        wait_until(lambda: sleeping(marker, "977"), "976 terminó y 977 está en marcha")
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    assert err.count("interrumpido:") == 1 and "Traceback" not in err
    assert "interrumpido: la comprobación de 3 clases" in err
    assert (
        "con 1 de 3 laboratorios terminados" in err and "arriba, el resumen de lo ya juzgado" in err
    )
    assert "976" in out and "977" not in out  # the summary of what was judged
    assert leftovers(marker, [proc.pid]) == []


def test_a_lab_that_stops_its_worker_cannot_stop_the_runner(make_lab, monkeypatch, marker) -> None:
    """Without Landlock nor namespaces the lab can SIGSTOP its worker: the runner ends anyway."""
    from compmath.execution.pool import GRACE
    from tests.test_hostile import hostile

    monkeypatch.setenv("COMPMATH_SIN", "landlock,pidns")
    marker = fresh_marker(monkeypatch)
    root, class_id = hostile(make_lab, "detiene-al-trabajador")
    started_at = time.monotonic()
    proc = compmath("run", class_id, "--root", str(root), "--timeout", "3")
    out, err = proc.communicate(timeout=120)
    elapsed = time.monotonic() - started_at
    assert proc.returncode == 1 and "Traceback" not in err
    assert "dejó de responder 2 veces" in " ".join(out.split())
    # Without the runner's own deadline it would wait for the stopped worker for ever; the bound
    # is loose (two attempts of timeout + grace would do on an idle machine) so load cannot fail it.
    assert elapsed < 5 * 2 * (3 + GRACE)
    assert leftovers(marker, [proc.pid]) == []
