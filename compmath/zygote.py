"""A worker process with numpy loaded that runs each lab in its own forked, limited child.

Protocol: one JSON request per line on stdin, one JSON reply per line on stdout. The worker
itself never runs lab code: a forked child does (compmath.sandbox), in its own session, with an
address-space limit and fds 0-2 redirected, so whatever the lab does it cannot corrupt the reply
channel. The worker is a child subreaper: every process the lab starts, even one that leaves the
lab's session, ends up as the worker's child and is killed when the lab ends or hangs. When the
runner goes away (its end of stdin closes), the worker takes the running lab down and exits.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

from compmath import sandbox

OUTPUT_PREVIEW = 64 * 1024
FAULT_PREVIEW = 16 * 1024


class RunnerGone(Exception):
    """The runner closed our stdin while a lab was running."""


def _read_preview(path: str, limit: int = OUTPUT_PREVIEW) -> tuple[str, int]:
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        data = handle.read(limit)
    return data.decode("utf-8", errors="replace"), size


def _wait(pid: int, timeout: float) -> tuple[int, int] | None:
    """Wait up to `timeout` s for the child: (wait status, peak RSS in bytes); None on timeout."""
    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(0, 0)  # no events asked for: only a hang-up of the runner's end is reported
    try:
        fd = os.pidfd_open(pid)
        poller.register(fd, select.POLLIN)
    except (AttributeError, OSError):
        fd = -1
    try:
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                return status, usage.ru_maxrss * 1024
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            step = remaining if fd >= 0 else min(0.005, remaining)
            for ready, _ in poller.poll(step * 1000):
                if ready == 0:
                    raise RunnerGone
    finally:
        if fd >= 0:
            os.close(fd)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _children() -> list[int]:
    """The pids whose parent is this process (the subreaper adopts the lab's orphans)."""
    me, found = os.getpid(), []
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


def reap_orphans() -> None:
    """Kill and reap every process the lab left behind, down to its last descendant."""
    for _ in range(100):
        try:
            if os.waitpid(-1, os.WNOHANG)[0]:
                continue  # reaped a dead one; look again
        except ChildProcessError:
            return  # no children at all: the usual case, one system call
        for pid in _children():
            _kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def _fault_trace(path: str) -> str:
    """faulthandler's dump after a fatal signal, without compmath's own frames."""
    text, _ = _read_preview(path, FAULT_PREVIEW)
    keep = [
        line
        for line in text.splitlines()
        if line.strip()
        and sandbox.PACKAGE_DIR not in line
        and "<frozen" not in line
        and not line.startswith(("Extension modules", "Current thread", "Thread 0x"))
    ]
    return "\n".join(keep) + "\n" if any("File" in line for line in keep) else ""


def handle(request: dict[str, Any], workdir: str) -> dict[str, Any]:
    """Run one request in a forked child and describe how it ended."""
    paths = [
        os.path.join(workdir, name)
        for name in ("result.json", "stdout.txt", "stderr.txt", "fault.txt")
    ]
    for path in paths:
        open(path, "w").close()
    result_path, out_path, err_path, fault_path = paths
    started = time.perf_counter()
    sys.stdout.flush()
    global _current_child
    pid = os.fork()
    if pid == 0:
        try:
            sandbox.run_child(request, result_path, out_path, err_path, fault_path)
        finally:
            os._exit(70)
    _current_child = pid
    try:
        ended = _wait(pid, float(request.get("timeout", 60)))
    except RunnerGone:
        _stop(signal.SIGTERM, None)
        raise
    _kill_group(pid)  # the lab's own children die with it
    timed_out = ended is None
    if ended is None:
        _, status, usage = os.wait4(pid, 0)
        ended = (status, usage.ru_maxrss * 1024)
    reap_orphans()
    _current_child = 0
    status, peak = ended
    reply: dict[str, Any] = {
        "id": request.get("id"),
        "tiempo_total": time.perf_counter() - started,
        "memoria_pico": peak,
    }
    reply["stdout"], reply["stdout_bytes"] = _read_preview(out_path)
    reply["stderr"], reply["stderr_bytes"] = _read_preview(err_path)
    try:
        with open(result_path, encoding="utf-8") as handle_:
            result = json.loads(handle_.read() or "null")
    except ValueError:
        result = None
    if not isinstance(result, dict):
        result = None
    if timed_out:
        reply["estado"] = "tiempo"
    elif os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        reply.update(
            estado="senal",
            senal=number,
            nombre_senal=signal.Signals(number).name,
            traza=_fault_trace(fault_path),
        )
    elif result is not None:
        reply.update(result)
    else:
        reply.update(estado="sin_resultado", codigo=os.waitstatus_to_exitcode(status))
    return reply


_current_child = 0
_workdir = ""


def _stop(signum: int, frame: Any) -> None:
    """On SIGTERM from the runner (or its disappearance), take every lab process down with us."""
    if _current_child:
        _kill_group(_current_child)
    reap_orphans()
    if _workdir:
        shutil.rmtree(_workdir, ignore_errors=True)
    os._exit(1)


def serve() -> None:
    """Answer requests from stdin until it closes."""
    global _workdir
    signal.signal(signal.SIGTERM, _stop)
    sandbox.prctl(sandbox.PR_SET_CHILD_SUBREAPER, 1)
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints of this process must not reach the reply channel
    # A private folder for the labs' result and captured streams (os.mkdir, not tempfile: that
    # module's import is start-up time every `compmath run` would pay).
    workdir = os.path.join(
        os.environ.get("TMPDIR") or "/tmp", f"compmath-{os.getpid()}-{os.urandom(4).hex()}"
    )
    os.mkdir(workdir, 0o700)
    _workdir = workdir
    try:
        for line in _requests():
            if not line.strip():
                continue
            reply = handle(json.loads(line), workdir)
            try:
                channel.write(json.dumps(reply, ensure_ascii=False) + "\n")
                channel.flush()
            except OSError:
                break  # the runner is gone
    finally:
        _workdir = ""
        shutil.rmtree(workdir, ignore_errors=True)


def _requests() -> Iterator[str]:
    """Lines from stdin; while none is waiting, preload the extras once."""
    extras_loaded = False
    while True:
        if not extras_loaded and not select.select([sys.stdin], [], [], 0)[0]:
            preload_extras()
            extras_loaded = True
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def preload() -> None:
    """Import what every lab needs, once, before any request arrives."""
    import numpy  # noqa: F401

    import compmath.encode  # noqa: F401  (labs run in-process never reach their __main__ block)

    sandbox.load_libc()


def preload_extras() -> None:
    """numpy modules some labs use (lazy in numpy 2, so each forked lab would pay them again).

    Loaded only while idle: a lone `compmath run` whose request is already waiting skips them.
    """
    import numpy.linalg
    import numpy.random  # noqa: F401


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    preload()
    serve()
