"""End what a lab left behind where no PID namespace holds it: the subreaper's sweep.

A process that sets PR_SET_CHILD_SUBREAPER adopts the orphans of its descendants (a `setsid`
child, a double fork). Without a PID namespace, each lab's supervisor is such a subreaper: when
the lab ends it kills and reaps every process it adopted, so nothing a lab started outlives it,
while the labs beside it go on. The worker, a subreaper too, sweeps whatever a supervisor that
died first could not.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Container

REAP_AT_ONCE = 100_000  # dead children reaped in one round of reap, at most
ROUNDS = 100  # each round kills the children adopted since the last one


def kill_group(pid: int, signum: int = signal.SIGKILL) -> None:
    """Send `signum` to the process group `pid`, if it is still there and ours to signal."""
    try:
        os.killpg(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def children() -> list[int]:
    """The pids whose parent is this process (a subreaper's adopted orphans among them): from
    each thread's `children` file, else (a kernel without it) from the whole process table."""
    found: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", "rb") as handle:
                found += [int(pid) for pid in handle.read().split()]
        return found
    except (OSError, ValueError):
        found = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


def reap(spare: Container[int] = ()) -> None:
    """Kill and reap every child of this process but `spare`, down to its last descendant.

    Bounded, so a lab that forks faster than it is killed can outrun it (docs/integridad.md).
    A spared child is never waited for: only dead children that are not spared are reaped.
    """
    for _ in range(ROUNDS):
        try:
            for _ in range(REAP_AT_ONCE):  # every one that has already died (a killed storm)
                if not _reap_one(spare):
                    break
        except ChildProcessError:
            return  # no children at all: the usual case, one system call
        if not os.path.isdir("/proc"):
            return  # no subreaper without /proc either: nothing more to find
        strays = [pid for pid in children() if pid not in spare]
        if not strays:
            return
        for pid in strays:  # all of them first: they die side by side, not one after another
            kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _reap_one(spare: Container[int]) -> bool:
    """Reap one dead child that is not spared; False when there is none (ChildProcessError
    when there are no children at all)."""
    if not spare:
        return os.waitpid(-1, os.WNOHANG)[0] != 0
    info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    if info is None or info.si_pid in spare:
        return False
    os.waitpid(info.si_pid, 0)
    return True
