"""The worker protocol: typed requests and replies, one JSON object per line, English keys.

The runner sends a LabRequest; the worker forks a child that runs the lab and leaves a
ChildResult in a file; the worker adds what it measured itself (time, memory, the captured
streams, how the process ended) and answers with a LabReply. Besides replies the worker sends
notes: a hello with the protections it could not use, and a heartbeat while labs run, so the
runner can tell a busy worker from a stopped one. The runner trusts nothing it cannot parse
into these records. Kept light: the worker imports it before numpy.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = 2 * 1024**3


class ReplyState(StrEnum):
    """How a lab's process ended, as the worker saw it."""

    OK = "ok"  # run() returned outputs that encode as canonical JSON
    EXCEPTION = "exception"  # the lab raised
    MEMORY = "memory"  # MemoryError (or no memory left to describe the error)
    EXIT = "exit"  # the lab called sys.exit
    NO_RESULT = "no_result"  # the process ended without writing its result (os._exit)
    SIGNAL = "signal"  # killed by a signal (a segfault, an abort)
    TIMEOUT = "timeout"  # still running at its deadline
    UNREPRESENTABLE = "unrepresentable"  # outputs that canonical JSON cannot hold
    WORKER_LOST = "worker_lost"  # the worker died or stopped answering with the lab in flight
    LIMIT_TOO_LOW = "limit_too_low"  # the memory limit is below what the worker itself maps


class ProtocolError(ValueError):
    """A line from the worker that is not one of the protocol's records."""


class NotANumber(ValueError):
    """NaN, Infinity or a number beyond a float's range, in text that claims to be JSON."""


def _refuse_constant(name: str) -> Any:
    raise NotANumber(f"{name} no es un número que JSON admita")


def strict_loads(text: str | bytes) -> Any:
    """json.loads refusing NaN, Infinity and numbers too large for a float (1e400)."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotANumber(f"{text[:20]} no cabe en un número real")
    return value


def printable(text: str) -> str:
    """`text` with lone surrogates shown as \\udXXX: always encodable as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


@dataclass(frozen=True)
class LabRequest:
    """What to run: a lab file, its typed parameters, its limits and its rounding."""

    key: str
    lab: str
    params: dict[str, Any] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    decimals: int = 6
    parallel: int = 1  # how many labs the worker may run at once (set by the scheduler)
    # Folders a private lab (a student's hole in `compmath grade`) must not see; when there are
    # any it also reads only what Python and its own lab need (execution.reading).
    hidden: list[str] = field(default_factory=list)

    def to_line(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False) + "\n"

    @classmethod
    def from_line(cls, line: str | bytes) -> LabRequest:
        return cls(**json.loads(line))

    def with_parallel(self, parallel: int) -> LabRequest:
        return replace(self, parallel=parallel)


@dataclass(frozen=True)
class ChildResult:
    """What the lab's own process reports about itself (written to a file before it exits)."""

    state: ReplyState
    output: str = ""  # the canonical JSON text, when state is OK
    run_seconds: float = 0.0  # time spent inside run()
    error_type: str = ""
    message: str = ""
    traceback: str = ""
    path: str = ""  # where an unrepresentable value sits (salida.a[1])
    exit_code: int | None = None
    error_file: str = ""  # a syntax error's file (its name), line, column and that line's text
    error_line: int | None = None
    error_column: int | None = None
    error_text: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> ChildResult | None:
        """The result a child wrote, or None when the file holds nothing sensible.

        The lab runs in the process that writes this file, so every field is checked: what
        the lab could have written is at most a reply for itself, never one that crashes
        the runner.
        """
        try:
            data = strict_loads(text or "null")
            result: ChildResult = _typed(cls, {**data, "state": ReplyState(data["state"])})
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        return result


CHILD_FIELDS = tuple(f.name for f in fields(ChildResult))


_KINDS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "float": (int, float),
    "int": (int,),
    "int | None": (int, type(None)),
    "bool": (bool,),
    "ReplyState": (ReplyState,),
}


def _typed(cls: Any, data: dict[str, Any]) -> Any:
    """cls(**data), refusing an unknown field or a value not of its declared type (TypeError)."""
    declared = {f.name: str(f.type) for f in fields(cls)}
    for name, value in data.items():
        kinds = _KINDS.get(declared.get(name, ""))
        if kinds is None:
            raise TypeError(f"campo inesperado {name}")
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise TypeError(f"campo {name} de tipo {type(value).__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise TypeError(f"campo {name} no finito")
        if isinstance(value, str) and not isinstance(value, ReplyState):
            data[name] = printable(value)  # a lone surrogate would break every report after
    return cls(**data)


@dataclass(frozen=True)
class LabReply:
    """The worker's answer for one request: the child's result plus what the worker measured."""

    key: str
    state: ReplyState
    output: str = ""
    run_seconds: float = 0.0
    error_type: str = ""
    message: str = ""
    traceback: str = ""
    path: str = ""
    exit_code: int | None = None
    error_file: str = ""
    error_line: int | None = None
    error_column: int | None = None
    error_text: str = ""
    total_seconds: float = 0.0  # fork to end, as the worker measured it
    peak_memory: int = 0  # bytes of resident memory at the peak
    signal_name: str = ""
    stdout: str = ""
    stdout_bytes: int = 0
    stderr: str = ""
    stderr_bytes: int = 0
    started_at: float = 0.0  # wall clock (epoch seconds) when the lab was forked
    ended_at: float = 0.0  # and when it was reaped: what the course's files are checked against
    confined: bool = False  # Landlock held the lab: nothing outside its folder was writable
    lost: int = 0  # how many workers died or stopped answering with this lab in flight

    @classmethod
    def from_child(cls, key: str, result: ChildResult, **measured: Any) -> LabReply:
        return cls(key=key, **{name: getattr(result, name) for name in CHILD_FIELDS}, **measured)

    def to_line(self) -> str:
        return json.dumps(asdict(self)) + "\n"  # ASCII: a lone surrogate travels escaped

    @classmethod
    def worker_lost(cls, key: str, times: int = 1) -> LabReply:
        """The reply of a lab whose worker died (or stopped answering) under it `times` times."""
        return cls(key=key, state=ReplyState.WORKER_LOST, lost=times)


@dataclass(frozen=True)
class WorkerNote:
    """A line that is not a reply: `hello` (with the missing protections) or `alive`."""

    note: str
    missing: tuple[str, ...] = ()

    def to_line(self) -> str:
        return json.dumps({"note": self.note, "missing": list(self.missing)}) + "\n"


def parse_line(line: str | bytes) -> LabReply | WorkerNote:
    """One line from the worker as a reply or a note; ProtocolError for anything else."""
    try:
        data = strict_loads(line)
        if isinstance(data, dict) and "note" in data:
            missing = data.get("missing", [])
            if data["note"] not in ("hello", "alive") or not isinstance(missing, list):
                raise TypeError("nota desconocida")
            return WorkerNote(data["note"], tuple(str(m) for m in missing))
        reply: LabReply = _typed(LabReply, {**data, "state": ReplyState(data["state"])})
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise ProtocolError(str(exc)[:200]) from None
    return reply
