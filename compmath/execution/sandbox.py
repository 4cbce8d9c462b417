"""Inside the forked child: confine the process, run the lab, write how it ended to a file.

Whatever the lab does (raise, exit, exhaust memory, fork, close streams), the one process that
started the lab writes exactly one result file and ends with os._exit; nothing returns to the
worker's own code.
"""

from __future__ import annotations

import faulthandler
import mmap
import os
import resource
import signal
import sys
import time
import traceback
from typing import Any, NoReturn

from compmath.execution.protocol import ChildResult, LabRequest, ReplyState

PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
BALLAST_BYTES = 4 * 1024 * 1024  # address space given back when memory runs out, so the report fits
OUT_OF_MEMORY = ChildResult(ReplyState.MEMORY, error_type="MemoryError").to_json().encode("ascii")
MAX_FD = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 1 << 20)
_libc: Any = None
_ballast: mmap.mmap | None = None


def load_libc() -> None:
    """Load the C library once in the worker, so every child can call prctl cheaply."""
    global _libc
    try:
        import ctypes

        _libc = ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        _libc = None


def prctl(option: int, value: int) -> bool:
    """Call Linux prctl(option, value); False where it is unavailable."""
    return _libc is not None and int(_libc.prctl(option, value, 0, 0, 0)) == 0


def _confine(request: LabRequest, out_path: str, err_path: str, fault_path: str) -> None:
    """Own session, dies with the worker, memory limit, fds 0-2 redirected, nothing else open."""
    os.setsid()
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    memory = request.memory
    if memory > 0:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            memory = min(memory, hard)  # never above what the environment already allows
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        except (ValueError, OverflowError):  # beyond what rlim_t holds: as good as no limit
            pass
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(out_path, os.O_WRONLY | os.O_TRUNC), 1)
    os.dup2(os.open(err_path, os.O_WRONLY | os.O_TRUNC), 2)
    fault = os.open(fault_path, os.O_WRONLY | os.O_TRUNC)
    os.closerange(3, fault)  # the worker's pipes must not leak into the lab or its children
    os.closerange(fault + 1, MAX_FD)
    faulthandler.enable(file=fault, all_threads=False)  # where a segfault struck, for the report
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115


def run_child(
    request: LabRequest, result_path: str, out_path: str, err_path: str, fault_path: str
) -> NoReturn:
    """Run one lab inside the forked child, write its result file and exit."""
    global _ballast
    me = os.getpid()
    _confine(request, out_path, err_path, fault_path)
    result: ChildResult | None
    try:
        _ballast = mmap.mmap(-1, BALLAST_BYTES)  # reserved, never touched: costs no page faults
    except OSError:
        _ballast = None
    try:
        _room_for_the_lab(request.memory)
        result = _run_lab(request)
    except SystemExit as exc:
        result = _exit_result(exc)
    except BaseException as exc:
        result = _describe_safely(exc)
    if os.getpid() != me:  # a fork of the lab came back through here: only the lab reports
        os._exit(0)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    _write_result(result_path, result)
    os._exit(0)


def _room_for_the_lab(memory: int) -> None:
    """Raise MemoryError, saying so, if the limit is below what the worker itself already maps."""
    with open("/proc/self/statm", "rb") as handle:
        used = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    if 0 < memory <= used:
        raise MemoryError(
            f"el límite no alcanza ni para el trabajador con numpy cargado "
            f"({used / 1024**2:.0f} MiB)"
        )


def _exit_result(exc: SystemExit) -> ChildResult:
    if exc.code is None or isinstance(exc.code, int):
        return ChildResult(ReplyState.EXIT, exit_code=exc.code or 0)
    return ChildResult(ReplyState.EXIT, exit_code=1, message=_text(exc.code))


def _text(value: object) -> str:
    """str(value), never failing, always encodable as UTF-8."""
    try:
        text = str(value)
    except BaseException:
        return "<no se puede mostrar>"
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _describe_safely(exc: BaseException) -> ChildResult | None:
    """Describe the lab's exception; on MemoryError free the lab's data first. None: no memory."""
    global _ballast
    if isinstance(exc, MemoryError):
        if _ballast is not None:
            _ballast.close()
            _ballast = None
        traceback.clear_frames(exc.__traceback__)
        module = sys.modules.pop("lab", None)
        if module is not None:
            module.__dict__.clear()
    try:
        return _describe(exc)
    except MemoryError:
        return None


def _describe(exc: BaseException) -> ChildResult:
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if not f.filename.startswith(PACKAGE_DIR) and "<frozen" not in f.filename
    ]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    return ChildResult(
        ReplyState.MEMORY if isinstance(exc, MemoryError) else ReplyState.EXCEPTION,
        error_type=type(exc).__name__,
        message=_text(exc),
        traceback=_text("Traceback (most recent call last):\n" + "".join(lines)),
    )


def _write_result(path: str, result: ChildResult | None) -> None:
    try:
        data = OUT_OF_MEMORY if result is None else result.to_json().encode("ascii")
    except MemoryError:
        data = OUT_OF_MEMORY
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    while data:
        data = data[os.write(fd, data) :]
    os.close(fd)


def _run_lab(request: LabRequest) -> ChildResult:
    import importlib.util

    from compmath.judging.encode import EncodeError, canonical_json

    lab = request.lab
    # The lab's bytecode goes to compmath's cache folder, never beside the course's sources, and
    # is reused by every later run (even where PYTHONDONTWRITEBYTECODE keeps __pycache__ away).
    prefix = os.environ.get("COMPMATH_PYCACHE")
    if prefix:
        sys.pycache_prefix, sys.dont_write_bytecode = prefix, False
    sys.argv = [lab]
    sys.path.insert(0, os.path.dirname(lab))
    spec = importlib.util.spec_from_file_location("lab", lab)
    if spec is None or spec.loader is None:
        return ChildResult(
            ReplyState.EXCEPTION, error_type="ImportError", message=f"no se puede cargar {lab}"
        )
    module = importlib.util.module_from_spec(spec)
    sys.modules["lab"] = module
    spec.loader.exec_module(module)
    run = getattr(module, "run", None)
    if not callable(run):
        return ChildResult(
            ReplyState.EXCEPTION,
            error_type="AttributeError",
            message="lab.py no define la función run()",
        )
    started = time.perf_counter()
    outputs = run(**request.params)
    elapsed = time.perf_counter() - started
    unrepresentable = ReplyState.UNREPRESENTABLE
    try:
        text = canonical_json(outputs, request.decimals)
        text.encode("utf-8")
    except EncodeError as exc:
        return ChildResult(unrepresentable, run_seconds=elapsed, path=exc.path, message=exc.problem)
    except RecursionError:
        return ChildResult(
            unrepresentable,
            run_seconds=elapsed,
            message=(
                "la salida anida listas o dicts sin fin (¿una lista que se contiene a sí misma?)"
            ),
        )
    except UnicodeEncodeError:
        return ChildResult(
            unrepresentable,
            run_seconds=elapsed,
            message="la salida contiene texto que no es Unicode válido (sustituto suelto)",
        )
    return ChildResult(ReplyState.OK, output=text, run_seconds=elapsed)
