"""Find what a test's labs left running, wherever it went (another session, a PID namespace).

A lab's process and its forks carry the worker's command line, which ends with the runner's
pid; the programs a lab starts carry MARK in their environment. Labs may not write outside their
own folder, so this is how a test sees their processes without their help. The process table
comes from /proc on Linux and from `ps` elsewhere (macOS).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from compmath.execution import pool, zygote

MARK = "COMPMATH_PRUEBA"
LINUX = sys.platform.startswith("linux")


class Process(NamedTuple):
    pid: int
    ppid: int
    state: str  # Z: a zombie
    argv: list[bytes]  # empty for a process in the middle of exec (or a zombie)
    environ: bytes  # b"" where it cannot be read (a process that cannot be dumped)
    comm: bytes = b""  # its name (the zygote's is zygote.NAME)


def fresh_marker(monkeypatch: pytest.MonkeyPatch) -> str:
    """Mark this test's processes, and end the pooled workers so the next one carries the mark."""
    marker = uuid.uuid4().hex
    monkeypatch.setenv(MARK, marker)
    pool.shutdown()
    return marker


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def processes() -> Iterator[Process]:
    """Every process this user can see, now."""
    if LINUX:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            stat = _read(f"/proc/{entry}/stat").rsplit(b")", 1)
            if len(stat) < 2:
                continue
            fields = stat[1].split()
            argv = [a for a in _read(f"/proc/{entry}/cmdline").split(b"\0") if a]
            comm = stat[0].split(b"(", 1)[-1]
            yield Process(
                int(entry),
                int(fields[1]),
                fields[0].decode(),
                argv,
                _read(f"/proc/{entry}/environ"),
                comm,
            )
        return
    table = subprocess.run(
        ["ps", "-axwwE", "-o", "pid=,ppid=,stat=,command="], capture_output=True, check=False
    ).stdout
    for row in table.splitlines():
        pid, ppid, state, *rest = row.split(maxsplit=3) + [b""]
        words = rest[0].split()
        yield Process(int(pid), int(ppid), state[:1].decode(), words, rest[0])


def _ours(process: Process, runners: list[int], marker: str) -> bool:
    if b"compmath.execution.worker" in process.argv and any(
        str(runner).encode() in process.argv for runner in runners
    ):
        return True
    return f"{MARK}={marker}".encode() in process.environ


def leftovers(marker: str, runners: Iterable[int] = (), patience: float = 5.0) -> list[int]:
    """The processes of this test still present after `patience` seconds, pooled workers (and
    their zygotes) aside.

    `runners`: the pids of the compmath processes whose workers count (by default this one).
    A zombie counts (nobody reaped it). Normally the worker has ended everything before it
    replies; only a lab whose worker is killed leaves its end to the kernel, hence patience.
    """
    runners = list(runners) or [os.getpid()]
    deadline = time.monotonic() + patience
    while True:
        workers = {w.proc.pid for w in pool._pool}
        table = list(processes())
        zygotes = {p.pid for p in table if p.ppid in workers and p.comm == zygote.NAME}
        left = [
            p.pid
            for p in table
            if p.pid not in workers | zygotes
            and p.pid != os.getpid()
            and ((p.state == "Z" and p.ppid in workers) or _ours(p, runners, marker))
        ]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def marked(marker: str) -> list[int]:
    """The programs this test's labs started that are running now (MARK, and not compmath)."""
    return [
        p.pid
        for p in processes()
        if p.argv  # empty: a process in the middle of exec
        and not any(b"compmath" in word for word in p.argv)
        and f"{MARK}={marker}".encode() in p.environ
    ]


def parent_of(pid: int) -> int:
    """The parent of `pid` (0 when it is gone)."""
    return next((p.ppid for p in processes() if p.pid == pid), 0)


def state_of(pid: int) -> str:
    """The state of `pid` (T: stopped), '' when it is gone."""
    return next((p.state for p in processes() if p.pid == pid), "")


def landlock_abi() -> int:
    """This kernel's Landlock ABI (0 without it): from 6 on, it also scopes signals."""
    if not LINUX:
        return 0
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return max(int(libc.syscall(444, None, ctypes.c_size_t(0), 1)), 0)


def powers(missing: Iterable[str]) -> set[str]:
    """What a lab could do to the runner, given the protections that were missing: write the
    course (`escribir`), signal its worker (`senalar`)."""
    missing = set(missing)
    found = set()
    if {"landlock", "mountns"} <= missing:  # either one keeps the course unwritten
        found.add("escribir")
    if "pidns" in missing and ("landlock" in missing or landlock_abi() < 6):
        found.add("senalar")
    return found
