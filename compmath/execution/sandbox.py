"""Inside the lab's process: confine it, run the lab, write how it ended to its result file.

Whatever the lab does (raise, exit, exhaust memory, fork, close streams), the one process that
started the lab writes exactly one result and ends with os._exit; nothing returns to the
supervisor's code. The lab's code is loaded before the sandbox closes (its bytecode cache is
written then, by this trusted code); then the sandbox closes in layers (docs/integridad.md):
a cap on the lab's processes, a read-only tree with a tmpfs folder and its own /proc, Landlock
(writes only in that folder), no capabilities for root outside a user namespace, a file-size
limit, and last the seccomp filter.
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
from types import CodeType
from typing import NoReturn

from compmath.execution import bytecode, isolation, landlock, reading, seccomp, syscalls
from compmath.execution.facilities import Facilities
from compmath.execution.protocol import ChildResult, LabRequest, ReplyState

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
STACK_SIGNAL = signal.SIGUSR2  # the worker asks for the lab's stack with it before a timeout kill
# The descriptors as the supervisor arranges them: 0-2 the lab's stdin (/dev/null), stdout and
# stderr, then its result and faulthandler's output, then the supervisor's own report and the
# worker's lifeline (closed here: they are not the lab's).
RESULT_FD, FAULT_FD, STATUS_FD, LIFELINE_FD = 3, 4, 5, 6
BALLAST_BYTES = 4 * 1024 * 1024  # address space given back when memory runs out, so the report fits
OUT_OF_MEMORY = ChildResult(ReplyState.MEMORY, error_type="MemoryError").to_json().encode("ascii")
MAX_FD = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 1 << 20)
_ballast: mmap.mmap | None = None


def _confine(folder: str, found: Facilities) -> None:
    """Dies with its supervisor, default signals, fault reports, Python streams on fds 1 and 2."""
    if found.prctl:
        syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)
    for fd in (STATUS_FD, LIFELINE_FD):
        os.close(fd)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGTSTP):
        signal.signal(signum, signal.SIG_DFL)
    for fd in (RESULT_FD, FAULT_FD):
        os.set_inheritable(fd, False)  # programs the lab starts do not get them
    faulthandler.enable(file=FAULT_FD, all_threads=False)  # where a segfault struck
    faulthandler.register(STACK_SIGNAL, file=FAULT_FD, all_threads=False)  # where a timeout did
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    os.environ["TMPDIR"] = folder  # tempfile works, inside the one folder the lab may write
    if found.env:
        os.environ["HOME"] = folder
    sys.dont_write_bytecode = True  # nothing the lab imports leaves bytecode in the course


def _close_the_sandbox(folder: str, found: Facilities, request: LabRequest) -> None:
    """From here on the lab sees a read-only tree with its folder a tmpfs (mount namespace), may
    write only in its folder (Landlock), has no capabilities left as root outside a user
    namespace, runs under limits for all its processes, and makes no socket, mount or trace
    (seccomp, last: it forbids the mounts above). A private lab (`request.hidden`) also finds
    the hidden folders empty, reads only what `reading` allows, and starts in its folder.
    OSError if any of them is refused."""
    hidden = request.hidden
    readable = reading.readable_roots(request.lab, hidden) if hidden else None
    if found.pidns:
        isolation.cap_processes()  # before the tree turns read-only: pid_max is in /proc/sys
    if found.mountns:
        isolation.read_only_view(folder, hidden)
    if found.landlock_abi:
        landlock.restrict_self(found.landlock_abi, folder, readable)
    if hidden:
        os.chdir(folder)  # not the runner's folder: /proc/self/cwd leads nowhere else
    if not found.pidns:
        syscalls.drop_capabilities()
    if found.rlimit:
        isolation.cap_file_size()
    if found.seccomp:
        seccomp.apply()


def _sandbox_failed(exc: BaseException) -> NoReturn:
    """Fail closed: the lab never runs outside the sandbox it was promised."""
    message = f"no se pudo preparar el aislamiento del laboratorio: {_text(exc)}"
    _write_result(ChildResult(ReplyState.EXCEPTION, error_type="SandboxError", message=message))
    os._exit(0)


def run_child(request: LabRequest, folder: str, found: Facilities) -> NoReturn:
    """Run one lab in this process, write its result and exit."""
    global _ballast
    me = os.getpid()
    result: ChildResult | None
    try:
        _confine(folder, found)
    except BaseException as exc:
        _sandbox_failed(exc)
    code: CodeType | Exception
    try:
        cache = os.environ.get("COMPMATH_PYCACHE") if found.landlock_abi else None
        code = bytecode.load(request.lab, cache)
    except Exception as exc:  # a syntax error is the lab's own, reported as it runs
        code = exc
    try:
        _close_the_sandbox(folder, found, request)
    except BaseException as exc:
        _sandbox_failed(exc)
    # what the worker maps already, read before the cap: reading it allocates a buffer, which
    # under a cap below the worker's own size fails or not as the heap happens to have room
    try:
        used = _mapped() if request.memory > 0 and found.rlimit else 0
    except OSError:
        used = 0
    if request.memory > 0 and found.rlimit:
        isolation.cap_memory(request.memory)
    try:
        _ballast = mmap.mmap(-1, BALLAST_BYTES)  # reserved, never touched: costs no page faults
    except OSError:
        _ballast = None
    try:
        if used and request.memory <= used:  # the limit leaves the lab no room at all
            result = ChildResult(ReplyState.LIMIT_TOO_LOW, message=f"{used / 1024**2:.0f} MiB")
        else:
            result = lab_result(request, code)
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
    _write_result(result)
    os._exit(0)


def lab_result(request: LabRequest, code: CodeType | Exception) -> ChildResult | None:
    """Run the lab whose code is `code` (or the exception compiling it raised) in this process,
    and describe how it ended (None: not even the memory to say so). Also what
    execution.batch runs in each fork of a batch's process."""
    try:
        if isinstance(code, Exception):
            raise code
        return _run_lab(request, code)
    except SystemExit as exc:
        return _exit_result(exc)
    except BaseException as exc:
        return _describe_safely(exc)


def _mapped() -> int:
    """Bytes of address space this process maps already (the worker, numpy loaded)."""
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


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
    if isinstance(exc, SyntaxError):
        return _describe_syntax(exc)
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


def _describe_syntax(exc: SyntaxError) -> ChildResult:
    """A syntax error in Spanish, from its fields (errors_es): the cause, the file and the
    position as the message; where it is as fields (the screen draws them at its own width),
    and the offending line with a caret as the traceback, for who reads the JSON report."""
    from compmath.errors_es import excerpt, syntax_problem

    located = syntax_problem(exc)
    name = os.path.basename(exc.filename or "")
    where = ", ".join(p for p in (name, located.where()) if p)
    return ChildResult(
        ReplyState.EXCEPTION,
        error_type=type(exc).__name__,
        message=_text(f"{located.what} ({where})" if where else located.what),
        traceback=_text("\n".join(excerpt(located))),
        error_file=_text(name),
        error_line=located.line,
        error_column=located.column,
        error_text=_text(located.text),
    )


def _write_result(result: ChildResult | None) -> None:
    """Replace whatever the result file holds (the lab may have written to it) with `result`."""
    try:
        data = OUT_OF_MEMORY if result is None else result.to_json().encode("ascii")
    except MemoryError:
        data = OUT_OF_MEMORY
    os.ftruncate(RESULT_FD, 0)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(RESULT_FD, data[offset:], offset)


def _run_lab(request: LabRequest, code: CodeType) -> ChildResult:
    import importlib.util

    from compmath.base.encode import EncodeError, canonical_json

    lab = request.lab
    sys.argv = [lab]
    sys.path.insert(0, os.path.dirname(lab))
    spec = importlib.util.spec_from_file_location("lab", lab)
    if spec is None:
        return ChildResult(
            ReplyState.EXCEPTION, error_type="ImportError", message=f"no se puede cargar {lab}"
        )
    module = importlib.util.module_from_spec(spec)
    sys.modules["lab"] = module
    exec(code, module.__dict__)
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
