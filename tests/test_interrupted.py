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
from tests.processes import fresh_marker, leftovers, marked

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
    return subprocess.Popen([sys.executable, "-m", "compmath.entry", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)


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
        make_lab(960 + i, LAB.format(number=960 + i), expected=OLD, schema={"type": "object"},
                 slug=f"escribe-{i}")
    return fake_course


def test_update_killed_at_any_moment_leaves_old_or_new_snapshots(course: Path, marker: str) -> None:
    snaps = sorted(course.rglob("expected.json"))
    old = {p: p.read_bytes() for p in snaps}
    started = time.monotonic()
    full = compmath("update", "--all", "--root", str(course))
    assert full.wait() == 0, full.stderr.read() if full.stderr else ""
    duration = time.monotonic() - started
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
    assert leftovers(marker, runners, patience=15) == []
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
        deadline = time.monotonic() + 30
        while not marked(marker):  # the lab's `sleep 300` is running
            assert time.monotonic() < deadline and proc.poll() is None, "el laboratorio no arrancó"
            time.sleep(0.05)
        running = leftovers(marker, [proc.pid], patience=0)
        assert len(running) >= 5, running  # runner, worker, supervisor, lab, sleep
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert leftovers(marker, [proc.pid], patience=15) == []  # long before the 300 s timeout
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
