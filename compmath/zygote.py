"""A worker process with numpy loaded that runs each lab in its own forked, limited child.

Protocol: one JSON request per line on stdin, one JSON reply per line on stdout. The worker
itself never runs lab code: a forked child does, in its own session (process group), with an
address-space limit, stdin from /dev/null and fds 1 and 2 sent to files, so whatever the lab
does it cannot corrupt the reply channel, and the whole group is killed when it ends or hangs.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

OUTPUT_PREVIEW = 64 * 1024
PACKAGE_DIR = str(Path(__file__).resolve().parent)


def _lab_frames(tb: Any) -> list[traceback.FrameSummary]:
    """Keep the frames of the lab's code: drop compmath's and the import machinery's."""
    frames = traceback.extract_tb(tb)
    return [f for f in frames if not f.filename.startswith(PACKAGE_DIR) and "<frozen" not in f.filename]


def _describe(exc: BaseException) -> dict[str, Any]:
    frames = _lab_frames(exc.__traceback__)
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    kind = "memoria" if isinstance(exc, MemoryError) else "excepcion"
    return {"estado": kind, "tipo": type(exc).__name__, "mensaje": str(exc),
            "traza": "Traceback (most recent call last):\n" + "".join(lines)}


def _child(request: dict[str, Any], result_path: str, out_path: str, err_path: str) -> None:
    """Run one lab inside the forked child and write its result file; never returns."""
    os.setsid()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    memory = int(request.get("memory") or 0)
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(os.open(out_path, os.O_WRONLY | os.O_TRUNC), 1)
    os.dup2(os.open(err_path, os.O_WRONLY | os.O_TRUNC), 2)
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)
    result: dict[str, Any]
    try:
        result = _run_lab(request)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        result = {"estado": "salida", "codigo": code}
    except BaseException as exc:  # the lab's failure is data for the report
        result = _describe(exc)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, ensure_ascii=False)
    os._exit(0)


def _run_lab(request: dict[str, Any]) -> dict[str, Any]:
    import importlib.util

    from compmath.encode import EncodeError, canonical_json

    lab = Path(request["lab"])
    sys.argv = [str(lab)]
    sys.path.insert(0, str(lab.parent))
    spec = importlib.util.spec_from_file_location("lab", lab)
    if spec is None or spec.loader is None:
        return {"estado": "excepcion", "tipo": "ImportError", "mensaje": f"no se puede cargar {lab}",
                "traza": ""}
    module = importlib.util.module_from_spec(spec)
    sys.modules["lab"] = module
    spec.loader.exec_module(module)
    run = getattr(module, "run", None)
    if not callable(run):
        return {"estado": "excepcion", "tipo": "AttributeError",
                "mensaje": "lab.py no define la función run()", "traza": ""}
    started = time.perf_counter()
    outputs = run(**request.get("params", {}))
    elapsed = time.perf_counter() - started
    try:
        text = canonical_json(outputs, int(request.get("decimals", 6)))
    except EncodeError as exc:
        return {"estado": "no_representable", "ruta": exc.path, "mensaje": exc.problem,
                "duracion": elapsed}
    return {"estado": "ok", "salida": text, "duracion": elapsed}


def _read_preview(path: str) -> tuple[str, int]:
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        data = handle.read(OUTPUT_PREVIEW)
    return data.decode("utf-8", errors="replace"), size


def _wait(pid: int, timeout: float) -> int | None:
    """Wait for the child up to `timeout` seconds; return its wait status, or None on timeout."""
    deadline = time.monotonic() + timeout
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = -1
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if fd >= 0:
                select.select([fd], [], [], remaining)
            else:
                time.sleep(min(0.005, remaining))
    finally:
        if fd >= 0:
            os.close(fd)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def handle(request: dict[str, Any], workdir: str) -> dict[str, Any]:
    """Run one request in a forked child and describe how it ended."""
    result_path = os.path.join(workdir, "result.json")
    out_path = os.path.join(workdir, "stdout.txt")
    err_path = os.path.join(workdir, "stderr.txt")
    for path in (result_path, out_path, err_path):
        open(path, "w").close()
    os.truncate(result_path, 0)
    started = time.perf_counter()
    sys.stdout.flush()
    global _current_child
    pid = os.fork()
    if pid == 0:
        try:
            _child(request, result_path, out_path, err_path)
        finally:
            os._exit(70)
    _current_child = pid
    status = _wait(pid, float(request.get("timeout", 60)))
    timed_out = status is None
    _kill_group(pid)  # the lab's own children die with it
    if timed_out:
        _, status = os.waitpid(pid, 0)
    _current_child = 0
    reply: dict[str, Any] = {"id": request.get("id"), "tiempo_total": time.perf_counter() - started}
    reply["stdout"], reply["stdout_bytes"] = _read_preview(out_path)
    reply["stderr"], reply["stderr_bytes"] = _read_preview(err_path)
    with open(result_path, encoding="utf-8") as handle_:
        text = handle_.read()
    if timed_out:
        reply["estado"] = "tiempo"
    elif os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        reply.update(estado="senal", senal=number, nombre_senal=signal.Signals(number).name)
    elif text:
        reply.update(json.loads(text))
    else:
        reply.update(estado="sin_resultado", codigo=os.waitstatus_to_exitcode(status))
    return reply


_current_child = 0


def _stop(signum: int, frame: Any) -> None:
    """On SIGTERM from the runner, take the running lab's whole group down with us."""
    if _current_child:
        _kill_group(_current_child)
    os._exit(1)


def serve() -> None:
    """Answer requests from stdin until it closes."""
    signal.signal(signal.SIGTERM, _stop)
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints of this process must not reach the reply channel
    with tempfile.TemporaryDirectory(prefix="compmath-") as workdir:
        for line in sys.stdin:
            if not line.strip():
                continue
            reply = handle(json.loads(line), workdir)
            channel.write(json.dumps(reply, ensure_ascii=False) + "\n")
            channel.flush()


def preload() -> None:
    """Import what every lab needs, once, before any request arrives."""
    import numpy  # noqa: F401
    import numpy.linalg  # noqa: F401
    import numpy.random  # noqa: F401  (lazy in numpy 2: each forked lab would pay it again)

    import compmath.encode  # noqa: F401
    import compmath.labmain  # noqa: F401


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    preload()
    serve()
