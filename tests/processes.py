"""Find what a test's labs left running, wherever it went (another session, a PID namespace).

A lab's process and its forks carry the worker's command line, which ends with the runner's
pid; the programs a lab starts carry MARK in their environment. Labs may not write outside their
own folder, so this is how a test sees their processes without their help.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

import pytest

from compmath.execution import pool

MARK = "COMPMATH_PRUEBA"


def fresh_marker(monkeypatch: pytest.MonkeyPatch) -> str:
    """Mark this test's processes, and end the pooled workers so the next one carries the mark."""
    marker = uuid.uuid4().hex
    monkeypatch.setenv(MARK, marker)
    pool.shutdown()
    return marker


def _stat(pid: str) -> list[bytes]:
    return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()


def _ours(pid: str, runner: int, marker: str) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    if b"compmath.execution.worker" in argv and str(runner).encode() in argv:
        return True
    try:
        return f"{MARK}={marker}".encode() in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # a process that cannot be dumped (labs themselves): its command line said
        return False


def leftovers(
    marker: str, runners: Iterable[int] = (), patience: float = 5.0
) -> list[int]:
    """The processes of this test still present after `patience` seconds, pooled workers aside.

    `runners`: the pids of the compmath processes whose workers count (by default this one).
    A zombie counts (nobody reaped it). Normally the worker has ended everything before it
    replies; only a lab whose worker is killed leaves its end to the kernel, hence patience.
    """
    runners = list(runners) or [os.getpid()]
    workers = {w.proc.pid for w in pool._pool}
    deadline = time.monotonic() + patience
    while True:
        left = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in workers or int(entry) == os.getpid():
                continue
            try:
                zombie_of_ours = _stat(entry)[0] == b"Z" and int(_stat(entry)[1]) in workers
            except (OSError, IndexError):
                continue
            if zombie_of_ours or any(_ours(entry, runner, marker) for runner in runners):
                left.append(int(entry))
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def marked(marker: str) -> list[int]:
    """The programs this test's labs started that are running now (MARK, and not compmath)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes() if entry.isdigit() else b""
            if not argv or b"compmath" in argv:  # empty: a process in the middle of exec
                continue
            if f"{MARK}={marker}".encode() in Path(f"/proc/{entry}/environ").read_bytes():
                found.append(int(entry))
        except OSError:
            continue
    return found
