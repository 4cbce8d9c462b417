"""One lab in flight on the worker: start it under its supervisor, end it, say how it ended.

Each lab gets a folder of its own (its TMPDIR, the only place it may write) and five files with
no name (memfd; elsewhere opened in that folder and unlinked at once): its stdout, stderr,
result, faulthandler's output and its supervisor's report. No other lab can reach them by name.
Its supervisor is forked by the zygote (compmath.execution.zygote), which gets those files and
a sixth holding the lab's request; where there is no zygote (no prctl), by the worker itself.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from dataclasses import replace

from compmath import cleanup
from compmath.execution import orphans, sandbox, supervisor, zygote
from compmath.execution.facilities import Facilities
from compmath.execution.protocol import ChildResult, LabReply, LabRequest, ReplyState
from compmath.execution.supervisor import LabFiles, peak_bytes
from compmath.execution.zygote import Zygote
from compmath.wording import count

OUTPUT_PREVIEW = 64 * 1024
# A result file beyond this is not read: its outputs would be past any size the judge admits
# (8 MiB of canonical JSON, at most six bytes a character once the file escapes them).
RESULT_LIMIT = 64 * 1024**2
FAULT_PREVIEW = 16 * 1024
STACK_PATIENCE = 0.3  # how long a timed-out lab has to write where it was


def _preview(fd: int, limit: int = OUTPUT_PREVIEW) -> tuple[str, int]:
    data = os.pread(fd, limit, 0)
    return data.decode("utf-8", errors="replace"), os.fstat(fd).st_size


def reap_orphans() -> None:
    """Kill and reap every process left behind that is not the zygote: what a lab's
    supervisor could not end (it was killed first), or where there is no supervisor's sweep."""
    orphans.reap({_zygote.pid} if _zygote is not None else ())


def _fault_trace(fd: int) -> str:
    """faulthandler's dump (a fatal signal, or the stack at a timeout) without compmath's frames."""
    text, _ = _preview(fd, FAULT_PREVIEW)
    keep = [
        line
        for line in text.splitlines()
        if line.strip()
        and sandbox.PACKAGE_DIR not in line
        and "<frozen" not in line
        and not line.startswith(("Extension modules", "Current thread", "Thread 0x"))
    ]
    return "\n".join(keep) + "\n" if any("File" in line for line in keep) else ""


class Running:
    """One lab in flight: its request, supervisor's pid, files, clock and deadline."""

    __slots__ = (
        "deadline",
        "files",
        "folder",
        "paused",
        "pid",
        "pidfd",
        "reaped",
        "request",
        "started",
        "started_at",
    )

    def __init__(
        self, request: LabRequest, pid: int, folder: str, files: LabFiles, pidfd: int
    ) -> None:
        self.request, self.pid, self.folder, self.files, self.pidfd = (
            request,
            pid,
            folder,
            files,
            pidfd,
        )
        self.started, self.started_at = time.perf_counter(), time.time()
        self.paused = 0.0  # seconds stopped by Ctrl-Z: they count neither as time nor timeout
        self.reaped = False  # the zygote reaped the supervisor: its pid may be someone else's
        self.deadline = time.monotonic() + request.timeout

    def lab(self) -> int:
        """The lab's own pid while it runs (0 once it has ended or before it starts)."""
        pid, ended = supervisor.report(self.files.status)
        return pid if ended is None else 0

    def signal(self, signum: int) -> None:
        """Send `signum` to the supervisor's group and to the lab, wherever it went."""
        if not self.reaped:
            orphans.kill_group(self.pid, signum)
        lab = self.lab()
        if lab:
            try:
                os.kill(lab, signum)
            except OSError:
                pass


running: dict[int, Running] = {}  # supervisor pid -> lab in flight
_found = Facilities()
_lifeline = -1  # the read end of a pipe the worker never writes: it closes when the worker dies
_workdir = ""
_counter = 0
_zygote: Zygote | None = None


def setup(found: Facilities, workdir: str, lifeline: int) -> None:
    """What every lab of this worker shares: the facilities, the folder, the lifeline; and the
    zygote that forks their supervisors, started here, before any request is read."""
    global _found, _workdir, _lifeline, _zygote
    _found, _workdir, _lifeline = found, workdir, lifeline
    if found.prctl and found.pidfd:  # a zygote's children end where only a pidfd sees them
        _zygote = zygote.start(lifeline, found)


def idle() -> None:
    """Nothing waits: load numpy's extras where labs fork (the zygote, or this process)."""
    if _zygote is not None:
        _zygote.idle()
    else:
        zygote.preload_extras()


def _lab_files(folder: str) -> LabFiles:
    """The lab's files, held by this worker and that lab only: anonymous memory files (memfd,
    never named) where the system has them, else files opened in its folder and unlinked at
    once. Creating, unlinking and freeing five files on a disk's filesystem cost more per lab
    than the rest of the worker's part (benchmarks/README.md)."""
    fds = []
    for name in LabFiles._fields:
        try:
            fds.append(os.memfd_create(f"compmath-{name}", os.MFD_CLOEXEC))
            continue
        except (AttributeError, OSError):
            pass
        path = os.path.join(folder, name)
        fds.append(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        os.unlink(path)
    return LabFiles(*fds)


def _request_file(folder: str, request: LabRequest) -> int:
    """A nameless file holding what the supervisor needs to start this lab: its folder and
    its request (the zygote passes it on unread)."""
    data = f"{folder}\n{request.to_line()}".encode()
    try:
        fd = os.memfd_create("compmath-request", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        path = os.path.join(folder, "request")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        os.unlink(path)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, data[offset:], offset)
    return fd


def _fork(request: LabRequest, folder: str, files: LabFiles, batch: bool) -> int:
    """The supervisor's pid: forked by the zygote, else (no zygote) by this process."""
    if _zygote is not None:
        carrier = _request_file(folder, request)
        try:
            pid = _zygote.spawn([*files, carrier], batch)
        finally:
            os.close(carrier)
        if not pid:
            raise OSError("el proceso cigoto no responde")
        return pid
    if batch:
        zygote.preload_extras()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        supervisor.supervise(request, folder, files, _lifeline, _found)
    return pid


def start(request: LabRequest, batch: bool = False) -> Running:
    """Start the supervisor of one lab, with a folder of its own, and return at once."""
    global _counter
    _counter += 1
    folder = os.path.join(_workdir, str(_counter))
    os.mkdir(folder, 0o700)
    files = _lab_files(folder)
    try:
        pid = _fork(request, folder, files, batch)
    except OSError:
        for fd in files:
            os.close(fd)
        raise
    pidfd = -1
    if _found.pidfd:
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = -1
    if _zygote is not None and pidfd < 0:  # its end could not be seen: end it now
        orphans.kill_group(pid)
        _zygote.wait(pid)
        for fd in files:
            os.close(fd)
        raise OSError("no se pudo abrir el pidfd del supervisor")
    run = Running(request, pid, folder, files, pidfd)
    running[pid] = run
    return run


def _dump_stack(run: Running) -> None:
    """Ask a lab past its deadline where it is (faulthandler writes its stack), briefly."""
    lab = run.lab()
    if not lab:
        return
    try:
        os.kill(lab, sandbox.STACK_SIGNAL)
    except OSError:
        return
    deadline, size = time.monotonic() + STACK_PATIENCE, 0
    while time.monotonic() < deadline:
        time.sleep(0.01)
        now = os.fstat(run.files.fault).st_size
        if now and now == size:
            return
        size = now


def finish(run: Running, ended: tuple[int, int] | None) -> LabReply:
    """End what is left of a lab (its group, its strays) and describe how it ended.

    A lab that ended in time is not timed out because its supervisor is still killing what it
    left behind (a fork storm without a PID namespace): that supervisor is ended here, and the
    strays, already killed, are reaped by this process."""
    timed_out = ended is None and supervisor.report(run.files.status)[1] is None
    if timed_out:
        _dump_stack(run)
    run.signal(signal.SIGKILL)  # the lab's own children die with it
    if ended is None:
        ended = _wait(run)
    if _zygote is not None and not run.reaped:
        _zygote.reap(run.pid)  # after the last signal: from here on the pid may be reused
        run.reaped = True
    del running[run.pid]
    if run.pidfd >= 0:
        os.close(run.pidfd)
    if not running:  # strays that left the lab's session are adopted by us: end them now
        reap_orphans()
    _, lab_end = supervisor.report(run.files.status)
    status, peak = lab_end or ended  # the lab's own end, as its supervisor saw it
    stdout, stdout_bytes = _preview(run.files.stdout)
    stderr, stderr_bytes = _preview(run.files.stderr)
    result = _result(run.files.result)
    signal_name = ""
    if timed_out:
        result = ChildResult(ReplyState.TIMEOUT, traceback=_fault_trace(run.files.fault))
    elif os.WIFSIGNALED(status):
        signal_name = signal.Signals(os.WTERMSIG(status)).name
        result = ChildResult(ReplyState.SIGNAL, traceback=_fault_trace(run.files.fault))
    elif result is None:
        result = ChildResult(ReplyState.NO_RESULT, exit_code=os.waitstatus_to_exitcode(status))
    elif not _found.rlimit and 0 < run.request.memory < peak:
        result = ChildResult(
            ReplyState.MEMORY,
            error_type="memoria residente",
            message=f"{peak / 1024**2:.0f} MiB al terminar; sin límite impuesto en este sistema",
        )
    if run.paused:
        result = replace(result, run_seconds=max(0.0, result.run_seconds - run.paused))
    result = _trimmed(result)
    for fd in run.files:
        os.close(fd)
    cleanup.discard(run.folder)
    return LabReply.from_child(
        run.request.key,
        result,
        total_seconds=time.perf_counter() - run.started - run.paused,
        peak_memory=peak,
        signal_name=signal_name,
        stdout=stdout,
        stdout_bytes=stdout_bytes,
        stderr=stderr,
        stderr_bytes=stderr_bytes,
        started_at=run.started_at,
        ended_at=time.time(),
        confined=_found.landlock_abi > 0,
    )


def _result(fd: int) -> ChildResult | None:
    """The result the lab's process wrote, refused unread when its file is past RESULT_LIMIT."""
    size = os.fstat(fd).st_size
    if size > RESULT_LIMIT:
        why = f"el resultado ocupa {size // 1024**2} MiB, más de los {RESULT_LIMIT // 1024**2} MiB"
        return ChildResult(ReplyState.UNREPRESENTABLE, message=f"{why} que se leen: no se analiza")
    return ChildResult.from_json(os.pread(fd, RESULT_LIMIT, 0))


def _trimmed(result: ChildResult) -> ChildResult:
    """A result whose texts fit a screen: a lab (or a result file it wrote itself) may put
    megabytes in an exception's message; the start of it says all a person will read."""
    return replace(result, message=_short(result.message), traceback=_short(result.traceback))


def _short(text: str) -> str:
    if len(text) <= OUTPUT_PREVIEW:
        return text
    more = count(len(text) - OUTPUT_PREVIEW, "carácter", "caracteres")
    return f"{text[:OUTPUT_PREVIEW]}… ({more} más)"


def ended(run: Running) -> tuple[int, int] | None:
    """(wait status, peak RSS in bytes) if the lab's supervisor has ended, else None.

    A supervisor the zygote forked is not this process's child: its pidfd says it ended, its
    report how the lab ended; only one killed before it could report is waited for (the
    zygote reaps it and tells its status)."""
    if _zygote is None:
        done, status, usage = os.wait4(run.pid, os.WNOHANG)
        return (status, peak_bytes(usage.ru_maxrss)) if done else None
    if not select.select([run.pidfd], [], [], 0)[0]:
        return None
    lab_end = supervisor.report(run.files.status)[1]
    return lab_end if lab_end is not None else _wait(run)


def _wait(run: Running) -> tuple[int, int]:
    """Wait for the lab's supervisor to end; its wait status and peak RSS in bytes."""
    if _zygote is None:
        _, status, usage = os.wait4(run.pid, 0)
        return status, peak_bytes(usage.ru_maxrss)
    orphans.kill_group(run.pid)  # what is left of its group, before its pid is let go
    status, maxrss = _zygote.wait(run.pid)
    run.reaped = True
    return status, peak_bytes(maxrss)
