"""Interrupted and concurrent runs: SIGKILL at any moment, two `check`s on one course at once.

These start `compmath` as a separate process (as a user does), kill it with SIGKILL and look at
what is left on disk and in the process table.
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

LABS = 8
OLD = {"vector": [0.0], "n": 0}
LAB = """\
import os, pathlib
pathlib.Path(__file__).with_name("pids").open("a").write(f"{{os.getpid()}}\\n")
def run() -> dict:
    return {{"vector": [k / {number} for k in range(4000)], "n": {number}}}
"""
HANGS = """\
import os, pathlib, subprocess, time
def run() -> dict:
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)
    pathlib.Path(__file__).with_name("pids").write_text(f"{os.getpid()}\\n{child.pid}\\n")
    time.sleep(300)
    return {}
"""


def compmath(*args: str, **kwargs) -> subprocess.Popen:
    """`compmath ARGS` as its own process, in its own session (so its workers can be found)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "compmath.entry", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def in_session(sid: int) -> list[int]:
    """Processes of session `sid` (the runner's workers stay in it; labs get their own)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid:
            found.append(int(entry))
    return found


def gone_soon(pids: list[int], limit: float = 15.0) -> list[int]:
    """The pids still alive once they have had `limit` seconds to end (generous: not a timing test)."""
    deadline = time.monotonic() + limit
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


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


def test_update_killed_at_any_moment_leaves_old_or_new_snapshots(course: Path) -> None:
    snaps = sorted(course.rglob("expected.json"))
    old = {p: p.read_bytes() for p in snaps}
    started = time.monotonic()
    full = compmath("update", "--all", "--root", str(course))
    assert full.wait() == 0, full.stderr.read() if full.stderr else ""
    duration = time.monotonic() - started
    new = {p: p.read_bytes() for p in snaps}
    assert sum(new[p] != old[p] for p in snaps) == LABS
    rng = random.Random(20261129)
    workers: list[int] = []
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
        workers += in_session(proc.pid)  # the killed runner's workers must end on their own
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()  # type: ignore[union-attr]
    recorded = [int(x) for p in course.rglob("pids") for x in p.read_text().split()]
    assert gone_soon(recorded + workers) == []
    stale = snaps[1].parent / ".expected.json.abc.compmath-tmp"
    stale.write_text("{")
    final = compmath("update", "--all", "--root", str(course))
    assert final.wait() == 0
    assert {p: p.read_bytes() for p in snaps} == new
    assert list(course.rglob("*.compmath-tmp")) == []


def test_runner_killed_while_a_lab_hangs_takes_the_lab_down(fake_course: Path, make_lab) -> None:
    root = make_lab(970, HANGS, expected=OLD, schema={"type": "object"}, slug="cuelga-con-hijo")
    pid_file = root / "classes" / FAKE_PART / "970-cuelga-con-hijo" / "pids"
    proc = compmath("run", "970", "--root", str(root), "--timeout", "300")
    deadline = time.monotonic() + 30
    while len(pid_file.read_text().split() if pid_file.exists() else []) < 2:
        assert time.monotonic() < deadline and proc.poll() is None, "el laboratorio no arrancó"
        time.sleep(0.05)
    pids = [int(x) for x in pid_file.read_text().split()]
    assert all(alive(p) for p in pids)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert gone_soon(pids + in_session(proc.pid)) == []  # long before the 300 s timeout
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
