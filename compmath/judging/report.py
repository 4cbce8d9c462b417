"""The result of running one lab, as data: outcome, outputs, differences, captured streams."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from compmath.base.encode import unrepresentable
from compmath.base.validate import SchemaIssue
from compmath.errors_es import Located, runtime_message
from compmath.execution.protocol import LabReply, ReplyState
from compmath.judging.compare import Difference, DifferenceKind
from compmath.judging.stack import Frame
from compmath.wording import (
    DELTA_DIGITS,
    DETAIL_NUMBERS,
    gib,
    limit_seconds,
    mib,
    number,
    percent,
    value_text,
)


class Outcome(StrEnum):
    """What happened to one lab (the Spanish word is what the JSON and JUnit reports say)."""

    MATCHES = "coincide"
    EXPLORATION = "exploracion"
    VALID = "valida"
    DIFFERS = "difiere"
    NO_SNAPSHOT = "sin_instantanea"
    INVALID = "esquema_invalido"
    EXCEPTION = "excepcion"
    EARLY_EXIT = "salida_prematura"
    SIGNAL = "senal"
    TIMEOUT = "tiempo_agotado"
    MEMORY = "memoria_agotada"
    UNREPRESENTABLE = "no_representable"
    SETUP = "configuracion"
    TAMPERED = "modifico_el_curso"

    @property
    def passed(self) -> bool:
        return self in (Outcome.MATCHES, Outcome.EXPLORATION, Outcome.VALID)

    @property
    def errored(self) -> bool:
        """The lab produced nothing to judge (JUnit calls these errors, the rest failures)."""
        return self in ERRORED

    @property
    def label(self) -> str:
        """What a reader is told (the lab-specific detail goes in the report's message)."""
        return LABELS[self]


ERRORED = frozenset(
    {
        Outcome.EXCEPTION,
        Outcome.EARLY_EXIT,
        Outcome.SIGNAL,
        Outcome.TIMEOUT,
        Outcome.MEMORY,
        Outcome.UNREPRESENTABLE,
        Outcome.SETUP,
    }
)
LABELS = {
    Outcome.MATCHES: "coincide con la instantánea",
    Outcome.EXPLORATION: "exploración válida (no se compara con la instantánea)",
    Outcome.VALID: "salida válida según su esquema",
    Outcome.DIFFERS: "difiere de la instantánea",
    Outcome.NO_SNAPSHOT: "no tiene instantánea",
    Outcome.INVALID: "no cumple su esquema",
    Outcome.EXCEPTION: "el laboratorio lanzó una excepción",
    Outcome.EARLY_EXIT: "el laboratorio terminó sin devolver resultado",
    Outcome.SIGNAL: "el laboratorio murió por una señal",
    Outcome.TIMEOUT: "se agotó el tiempo",
    Outcome.MEMORY: "se agotó la memoria",
    Outcome.UNREPRESENTABLE: "la salida no es representable en JSON",
    Outcome.SETUP: "error en los archivos de la clase",
    Outcome.TAMPERED: "archivos del curso modificados",
}
SIGNAL_NAMES = {
    "SIGSEGV": "violación de segmento",
    "SIGABRT": "abortado",
    "SIGKILL": "matado",
    "SIGFPE": "error aritmético",
    "SIGBUS": "error de bus",
    "SIGILL": "instrucción ilegal",
    "SIGTERM": "terminado",
}


@dataclass(frozen=True)
class LabReport:
    """Everything `run` and `check` know about one lab run."""

    class_id: str
    number: int
    title: str
    outcome: Outcome
    message: str = ""
    hint: str = ""  # the next thing to do, for a setup problem
    remedy: str = ""  # the option of the command that ran the lab that lifts the limit it hit
    params: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] | None = None
    output_text: str = ""
    expected: dict[str, Any] | None = None
    differences: list[Difference] = field(default_factory=list)
    schema_issues: list[SchemaIssue] = field(default_factory=list)
    order_differs: bool = False  # same keys as the snapshot, in another order
    traceback: str = ""
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    duration: float = 0.0
    worker_lost: bool = False  # the worker died or stopped answering with it in flight, twice
    stopped_at: Frame | None = None  # where a timed-out lab was when it was stopped
    error_type: str = ""  # the exception's class name, when the lab raised (`excepcion`)
    error_at: Located | None = None  # where a syntax error sits: line, column, its text
    error_file: str = ""  # and in which file (its name)

    @property
    def passed(self) -> bool:
        return self.outcome.passed

    @property
    def full_message(self) -> str:
        """The message, the remedy and the hint, as one line for the screens of the command
        that ran the lab and for the JSON and JUnit reports."""
        message = self.message or self.outcome.label
        message = f"{message} · {self.remedy}" if self.remedy else message
        return f"{message} · {self.hint}" if self.hint else message

    def place(self) -> dict[str, Any] | None:
        """Where the lab failed, for the JSON report: a syntax error's line and column in
        lab.py, or the frame a timed-out lab was in; None when there is no place to name."""
        if self.error_at is not None and self.error_at.line is not None:
            line, column = self.error_at.line, self.error_at.column
            return {"archivo": self.error_file, "linea": line, "columna": column, "funcion": None}
        if self.stopped_at is not None:
            at = self.stopped_at
            return {"archivo": at.file, "linea": at.line, "columna": None, "funcion": at.function}
        return None

    def to_dict(self) -> dict[str, Any]:
        """The report's JSON form (Spanish keys; see compmath/contracts/report.schema.json)."""
        return {
            "clase": self.class_id,
            "numero": self.number,
            "titulo": self.title,
            "resultado": str(self.outcome),
            "correcto": self.passed,
            "mensaje": self.full_message,
            "parametros": self.params,
            "duracion_s": round(self.duration, 4),
            "salidas": self.outputs,
            "diferencias": [
                {
                    "ruta": d.path,
                    "salida": d.output,
                    "tipo": str(d.kind),
                    "esperado": d.expected,
                    "obtenido": d.obtained,
                    "error_absoluto": d.abs_error,
                    "tolerancia": d.tolerance,
                }
                for d in self.differences
            ],
            "errores_de_esquema": [
                {"ruta": i.path, "mensaje": i.message} for i in self.schema_issues
            ],
            "lugar": self.place(),
            "traza": self.traceback,
            "stdout": self.stdout,
            "stderr": self.stderr,
        }


class Crash(NamedTuple):
    """Why a lab gave no result: the outcome, the Spanish message, and the option of the
    command that ran it which changes the limit it hit (`remedy`; "" when none does)."""

    outcome: Outcome
    message: str
    remedy: str = ""


MORE_TIME = "súbelo con --timeout"
MORE_MEMORY = "súbelo con --memory"


def crash_message(reply: LabReply, timeout: float, memory: int) -> Crash:
    """Map a reply that carries no result to its outcome, message and remedy.

    Complexity D, on purpose: one branch per way a lab's process can end, in one place."""
    state = reply.state
    if state == ReplyState.LIMIT_TOO_LOW:  # the lab never started: a setup error (exit 2)
        return Crash(
            Outcome.SETUP,
            f"el límite de memoria de {gib(memory)} no alcanza ni para el proceso que ejecuta el "
            f"laboratorio ({reply.message[:20]}, con numpy cargado)",
            MORE_MEMORY,
        )
    if state == ReplyState.TIMEOUT:
        message = f"el laboratorio superó el límite de {limit_seconds(timeout)} y se detuvo"
        return Crash(Outcome.TIMEOUT, message, MORE_TIME)
    if state == ReplyState.MEMORY:
        detail = f": {reply.message}" if reply.message else ""
        return Crash(
            Outcome.MEMORY,
            f"el laboratorio superó el límite de memoria de {gib(memory)} "
            f"({reply.error_type or 'MemoryError'}{detail})",
            MORE_MEMORY,
        )
    if state == ReplyState.SIGNAL:
        name = reply.signal_name or "?"
        what = SIGNAL_NAMES.get(name, "señal")
        if memory and name != "SIGKILL" and reply.peak_memory >= memory // 2:
            # a fault while at the address-space limit: a failed stack or buffer allocation
            return Crash(
                Outcome.MEMORY,
                f"el laboratorio murió por la señal {name} ({what}) con la memoria al límite "
                f"({mib(reply.peak_memory)} de {gib(memory)})",
                MORE_MEMORY,
            )
        if name == "SIGKILL":
            what = "matado desde fuera: ¿el sistema se quedó sin memoria?"
        return Crash(Outcome.SIGNAL, f"el laboratorio murió por la señal {name} ({what})")
    if state == ReplyState.EXIT:
        shown = repr(reply.message) if reply.message else reply.exit_code
        return Crash(
            Outcome.EARLY_EXIT,
            f"el laboratorio llamó a sys.exit({shown}) en vez de devolver sus salidas",
        )
    if state == ReplyState.NO_RESULT:
        return Crash(
            Outcome.EARLY_EXIT,
            f"el proceso del laboratorio terminó (código {reply.exit_code}) "
            "sin devolver sus salidas; ¿llamó a os._exit?",
        )
    if state == ReplyState.UNREPRESENTABLE:
        return Crash(Outcome.UNREPRESENTABLE, unrepresentable(reply.path, reply.message))
    if state == ReplyState.EXCEPTION:
        kind = reply.error_type or "Exception"
        if kind in ("SyntaxError", "IndentationError", "TabError"):  # the message is Spanish
            return Crash(Outcome.EXCEPTION, f"error de sintaxis: {reply.message}")
        if kind == "RecursionError":
            return Crash(Outcome.EXCEPTION, f"RecursionError: recursión sin fin ({reply.message})")
        return Crash(Outcome.EXCEPTION, f"{kind}: {runtime_message(reply.message)}")
    if reply.lost > 1:
        return Crash(
            Outcome.EXCEPTION,
            f"el proceso trabajador murió o dejó de responder {reply.lost} veces con este "
            "laboratorio en marcha: el laboratorio lo mató o lo detuvo",
        )
    return Crash(Outcome.EXCEPTION, "el proceso trabajador terminó de forma inesperada")


def describe_difference(d: Difference) -> str:
    """One difference in `diff`'s words: path, expected, obtained, Δ, % and tolerance."""
    expected = value_text(d.expected, DETAIL_NUMBERS)
    obtained = value_text(d.obtained, DETAIL_NUMBERS)
    if d.kind == DifferenceKind.EXTRA:
        return f"{d.path}: obtenido {obtained} · no está en la instantánea"
    if d.kind == DifferenceKind.MISSING:
        return f"{d.path}: esperado {expected} · falta en la salida"
    if d.lesson:  # the class declared the type part of the lesson (tipo_estricto)
        fix = (
            "devuelve un entero: int(x), o .astype(int) en un array"
            if isinstance(d.expected, int)
            else "devuelve un real: float(x), o .astype(float) en un array"
        )
        said = f"{d.path}: esperado {expected}, obtenido {obtained}"
        return f"{said} · el tipo es parte de la lección: {fix}"
    if d.kind == DifferenceKind.VALUE and d.abs_error is not None and d.tolerance is not None:
        detail = f"Δ {number(d.abs_error, DELTA_DIGITS)}"
        if (fraction := d.relative) is not None:
            detail += f" ({percent(fraction)})"
        detail += f" > tolerancia {number(d.tolerance, 3)}"
    else:
        detail = {
            DifferenceKind.TYPE: "cambia el tipo",
            DifferenceKind.LENGTH: "cambia la longitud",
            DifferenceKind.VALUE: "valor distinto",
        }[d.kind]
    return f"{d.path}: esperado {expected}, obtenido {obtained} · {detail}"


def failure_text(report: LabReport) -> str:
    """Plain text of why a lab did not pass: message, differences, schema issues, traceback."""
    lines = [f"{report.class_id}: {report.outcome.label}"]
    if report.message:
        lines.append(report.full_message)
    if report.order_differs:
        lines.append(order_text(report))
    lines += [describe_difference(d) for d in report.differences]
    lines += [f"esquema: {i.path}: {i.message}" for i in report.schema_issues]
    if report.traceback:
        lines.append(report.traceback.rstrip())
    return "\n".join(lines)


def order_text(report: LabReport) -> str:
    """What a key-order difference is: the snapshot's order and the lab's."""
    expected = ", ".join(report.expected or {})
    obtained = ", ".join(report.outputs or {})
    return (
        "las salidas llegan en otro orden que en la instantánea: "
        f"esperado {expected}; obtenido {obtained}"
    )
