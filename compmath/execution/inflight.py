"""One lab in flight on the worker: start it under its supervisor, end it, say how it ended.

Each lab gets a folder of its own (its TMPDIR, the only place it may write) and five files with
no name (memfd; elsewhere opened in that folder and unlinked at once): its stdout, stderr,
result, faulthandler's output and its supervisor's report. No other lab can reach them by name.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import replace

from compmath import cleanup
from compmath.execution import sandbox, supervisor
from compmath.execution.facilities import Facilities
from compmath.execution.protocol import ChildResult, LabReply, LabRequest, ReplyState
from compmath.execution.supervisor import LabFiles, peak_bytes

OUTPUT_PREVIEW = 64 * 1024
# A result file beyond this is not read: its outputs would be past any size the judge admits
# (8 MiB of canonical JSON, at most six bytes a character once the file escapes them).
RESULT_LIMIT = 64 * 1024**2
FAULT_PREVIEW = 16 * 1024
STACK_PATIENCE = 0.3  # how long a timed-out lab has to write where it was
REAP_AT_ONCE = 100_000  # dead children reaped in one round of reap_orphans, at most


def _preview(fd: int, limit: int = OUTPUT_PREVIEW) -> tuple[str, int]:
    data = os.pread(fd, limit, 0)
    return data.decode("utf-8", errors="replace"), os.fstat(fd).st_size


def _kill_group(pid: int, signum: int = signal.SIGKILL) -> None:
    try:
        os.killpg(pid, signum)
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
    """Kill and reap every process the lab left behind, down to its last descendant.

    The fallback where no PID namespace holds the lab: bounded, so a lab that forks faster
    than it is killed can outrun it (README, «Integridad»).
    """
    for _ in range(100):
        try:
            for _ in range(REAP_AT_ONCE):  # every one that has already died (a killed storm)
                if not os.waitpid(-1, os.WNOHANG)[0]:
                    break
        except ChildProcessError:
            return  # no children at all: the usual case, one system call
        if not os.path.isdir("/proc"):
            return  # no subreaper without /proc either: nothing more to find
        for pid in _children():
            _kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


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
        self.deadline = time.monotonic() + request.timeout

    def lab(self) -> int:
        """The lab's own pid while it runs (0 once it has ended or before it starts)."""
        pid, ended = supervisor.report(self.files.status)
        return pid if ended is None else 0

    def signal(self, signum: int) -> None:
        """Send `signum` to the supervisor's group and to the lab, wherever it went."""
        _kill_group(self.pid, signum)
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


def setup(found: Facilities, workdir: str, lifeline: int) -> None:
    """What every lab of this worker shares: the facilities, the folder, the lifeline."""
    global _found, _workdir, _lifeline
    _found, _workdir, _lifeline = found, workdir, lifeline


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


def start(request: LabRequest) -> Running:
    """Fork the supervisor of one lab, with a folder of its own, and return at once."""
    global _counter
    _counter += 1
    folder = os.path.join(_workdir, str(_counter))
    os.mkdir(folder, 0o700)
    files = _lab_files(folder)
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        supervisor.supervise(request, folder, files, _lifeline, _found)
    pidfd = -1
    if _found.pidfd:
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = -1
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
    """End what is left of a lab (its group, its strays) and describe how it ended."""
    timed_out = ended is None
    if timed_out:
        _dump_stack(run)
    run.signal(signal.SIGKILL)  # the lab's own children die with it
    if ended is None:
        _, status, usage = os.wait4(run.pid, 0)
        ended = (status, peak_bytes(usage.ru_maxrss))
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
    return f"{text[:OUTPUT_PREVIEW]}… ({len(text) - OUTPUT_PREVIEW} caracteres más)"


def ended(run: Running) -> tuple[int, int] | None:
    """(wait status, peak RSS in bytes) if the lab's supervisor has ended, else None."""
    done, status, usage = os.wait4(run.pid, os.WNOHANG)
    return (status, peak_bytes(usage.ru_maxrss)) if done else None
