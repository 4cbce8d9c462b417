"""Inside one lab's process: run several labs one after another, each in a fork of it.

Lint judges hundreds of quick labs (judging.batched: the mutants, the exercise's variants);
each alone would pay a process and its sandbox. A batch is one lab whose `run()` calls
`run_each`: the process pays the sandbox once, then forks once per lab, and the fork runs that
lab exactly as a lab's own process does (execution.sandbox.lab_result: a fresh `lab` module,
its own sys.path entry, its parameters), with its own process group, its own temporary folder
and its own stdout and stderr there. So nothing a lab does (a seed, a module global, numpy
patched, a file written, output printed) reaches the next one: each starts from this process
as it was before the first. This process never runs a lab's code; it compiles each one
just before its fork (compiling runs nothing, and costs less here than in a fresh fork,
which copies every page it writes). A lab that outlives its
limit is killed (its process group too) and the next one starts; one that crashes, writes no
result or a result past `RESULT_BYTES` is reported as such. What comes back, per lab, is how it
ended as its own process would have written it, to be judged by the runner, which runs again
alone every lab that did not end cleanly.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import time
from typing import Any, NoReturn

RESULT_BYTES = 9 * 1024**2  # judge.RESULT_CAP, plus room for the result's own fields
OK, TIMEOUT, ENDED = "ok", "timeout", "sin_resultado"  # how a program's fork ended


def run_each(
    labs: list[tuple[str, float, dict[str, Any]]], decimals: int
) -> dict[str, dict[str, Any]]:
    """Run each (lab file, time limit in seconds, parameters), in order, each in its own fork;
    by its position ("0", "1", …): `estado` (OK: it wrote a result, TIMEOUT, or ENDED without
    one), `resultado` (the ChildResult's JSON) and `segundos` (fork to end)."""
    return {
        str(i): _one(lab, limit, params, decimals) for i, (lab, limit, params) in enumerate(labs)
    }


def _one(lab: str, limit: float, params: dict[str, Any], decimals: int) -> dict[str, Any]:
    import gc
    import tempfile

    for stream in (sys.stdout, sys.stderr):  # nothing buffered here is printed twice
        try:
            stream.flush()
        except BaseException:
            pass
    folder = tempfile.mkdtemp(prefix="programa-")
    code = _compiled(lab)
    read_end, write_end = os.pipe()
    # what this process holds is out of the fork's collections: a collection there would
    # otherwise write to (and so copy) every page of this process's objects
    gc.freeze()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(lab, params, decimals, folder, write_end, code)
    os.close(write_end)
    try:
        data, state = _collect(read_end, started + limit)
        _reap(pid, started + limit if state != TIMEOUT else 0.0)
    finally:
        os.close(read_end)
        shutil.rmtree(folder, ignore_errors=True)  # the next program finds the folder's room
    seconds = time.monotonic() - started
    if state == OK and not data:
        state = ENDED
    text = data.decode("ascii", errors="replace") if state == OK else ""
    return {"estado": state, "resultado": text, "segundos": seconds}


def _compiled(lab: str) -> Any:
    """The code of `lab`, or the exception compiling it raised (the program's own, as in a lab's
    process). Compiled here, before the fork: a fresh fork pays a copy of every page it writes,
    and compiling there cost 2.5 ms a lab against 1 ms here. Its warnings are not this process's
    output (a lab alone would print them to its own stderr, which no verdict reads)."""
    import warnings

    from compmath.execution import bytecode

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bytecode.load(lab, None)
    except Exception as exc:  # a syntax error, a file that cannot be read
        return exc


def _child(
    lab: str, params: dict[str, Any], decimals: int, folder: str, out: int, code: Any
) -> NoReturn:
    """The fork: run `lab` (its `code`, compiled by _compiled) as a lab's process does, write its
    ChildResult to `out`, exit."""
    try:
        me = os.getpid()
        os.setpgid(0, 0)  # its own group: whatever it starts is killed with it
        streams = os.open(os.path.join(folder, "salida"), os.O_WRONLY | os.O_CREAT, 0o600)
        os.dup2(streams, 1)
        os.dup2(streams, 2)
        os.close(streams)
        os.environ["TMPDIR"] = folder
        import tempfile

        tempfile.tempdir = None
        from compmath.execution import sandbox
        from compmath.execution.protocol import LabRequest

        request = LabRequest(key="", lab=lab, params=dict(params), decimals=decimals)
        result = sandbox.lab_result(request, code)
        if os.getpid() != me:  # a fork of the program came back here: only the program reports
            os._exit(0)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        data = sandbox.OUT_OF_MEMORY if result is None else result.to_json().encode("ascii")
        view = memoryview(data)
        while view:
            view = view[os.write(out, view) :]
    except BaseException:
        pass  # no result: the runner runs this program again alone
    os._exit(0)


def _collect(read_end: int, deadline: float) -> tuple[bytes, str]:
    """What the fork wrote until it closed its end (OK), or TIMEOUT; ENDED past RESULT_BYTES."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"", TIMEOUT
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            return b"".join(chunks), OK
        size += len(chunk)
        if size > RESULT_BYTES:
            return b"", ENDED
        chunks.append(chunk)


def _reap(pid: int, deadline: float) -> None:
    """Wait for the fork until `deadline` (it has written its result: it is exiting), kill it
    and what it left running in its group, then reap it. Killed before it is reaped: until
    then no other process can take its pid or its group's id."""
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            break
        time.sleep(0.001)
    _kill(pid)
    os.waitpid(pid, 0)


def _kill(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass
