"""Why a hole failed, as its feedback says it: what the student's hole did, never what it printed.

A grafted program holds the course's solution of every other hole, so any text it makes (an
exception's message, the keys of its outputs, the message of its `sys.exit`, a traceback it
forges) could carry that solution back to the student. A reason is therefore built here from
what the judge knows on its own terms: the variant (the course's parameters), the outcome, the
output and the value the course expected there, the kind of difference, the exception's type when
it is one of Python's or numpy's (a class a hole defines could be named after anything), and the
student's own line, taken from the program compmath wrote, never from the text the lab sent back.
No path, no time and no text of the lab: the same submissions give the same reasons, byte for byte.
"""

from __future__ import annotations

import builtins

from compmath.holes.graft import Program
from compmath.holes.variants import Variant
from compmath.judging.compare import Difference, DifferenceKind
from compmath.judging.judge import OVERSIZED
from compmath.judging.report import LabReport, Outcome
from compmath.judging.stack import frames
from compmath.wording import DETAIL_NUMBERS, limit_seconds, number, value_text

KNOWN_ERRORS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
) | {"LinAlgError", "AxisError", "ComplexWarning", "RankWarning", "TooHardError"}
FIXED = {  # what each way of ending says, in compmath's words only
    Outcome.MEMORY: "superó el límite de memoria",
    Outcome.SIGNAL: "el proceso murió por una señal",
    Outcome.EARLY_EXIT: "el programa terminó sin devolver sus salidas (¿sys.exit u os._exit?)",
    Outcome.UNREPRESENTABLE: "una salida no es representable en JSON (NaN, infinito o texto "
    "dañado)",
    Outcome.TAMPERED: "el programa modificó archivos del curso",
    Outcome.SETUP: "error en los archivos de la clase",
}
KIND_WORDS = {
    DifferenceKind.VALUE: "valor distinto",
    DifferenceKind.TYPE: "cambia el tipo",
    DifferenceKind.MISSING: "falta en tu salida",
    DifferenceKind.LENGTH: "cambia la longitud",
}


def _difference(d: Difference, known: set[str]) -> str:
    """A wrong output: where (a path the course's output has), what the course expected there,
    and how it differs; the student's value stays out (the practice check shows it)."""
    if d.kind == DifferenceKind.EXTRA:
        where = f" en salida.{d.output}" if d.output in known else ""
        return f"tu salida tiene algo que la del curso no tiene{where}"
    text = f"{d.path}: esperado {value_text(d.expected, DETAIL_NUMBERS)} · {KIND_WORDS[d.kind]}"
    if d.kind == DifferenceKind.VALUE and d.tolerance is not None:
        text += f", fuera de la tolerancia {number(d.tolerance, 3)}"
    return text


def _student_line(report: LabReport, program: Program) -> str:
    """The innermost frame of the traceback inside the student's hole, as their line in lab.py
    and its code (from the program compmath wrote); "" when none is."""
    lines = program.source.splitlines()
    for frame in reversed(frames(report.traceback)):
        if not frame.path.endswith(f"{program.digest}/lab.py"):
            continue
        mine = program.line_map.get(frame.line)
        if mine is not None and 0 < frame.line <= len(lines):
            return f" en la línea {mine} de tu lab.py: {lines[frame.line - 1].strip()}"
    return ""


def _raised(report: LabReport, program: Program) -> str:
    kind = report.error_type
    what = kind if kind in KNOWN_ERRORS else "una excepción"
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        what = "un error de sintaxis (en código que el hueco ejecuta)"
    return f"lanzó {what}{_student_line(report, program)}"


def hole_reason(
    report: LabReport | None,
    program: Program,
    variant: Variant,
    difference: Difference | None,
    timeout: float,
) -> str:
    """Why the hole's program failed at `variant` (Spanish, from the judge's data only)."""
    label = variant.label
    if report is None:
        return f"{label}: no se ejecutó"
    if report.worker_lost:
        return f"{label}: el programa mató o detuvo al proceso que lo ejecutaba"
    if variant.private and report.outcome in (Outcome.DIFFERS, Outcome.INVALID):
        # neither its numbers nor the course's values there: they would tell the variant
        first = difference or (report.differences[0] if report.differences else None)
        known = report.expected or {}
        what = f"la salida {first.output}" if first and first.output in known else "una salida"
        return f"{label}: {what} no da lo mismo que el laboratorio del curso"
    if report.outcome in (Outcome.DIFFERS, Outcome.INVALID) and difference is not None:
        return f"{label}: {_difference(difference, set(report.expected or {}))}"
    if report.outcome == Outcome.INVALID:
        return f"{label}: tu salida no cumple el esquema de la clase"
    if report.outcome == Outcome.DIFFERS:
        return f"{label}: tus salidas no son las del curso (¿en otro orden?)"
    if report.outcome == Outcome.EXCEPTION:
        return f"{label}: {_raised(report, program)}"
    if report.outcome == Outcome.UNREPRESENTABLE and report.message.startswith(OVERSIZED):
        return f"{label}: {report.message}"  # sizes and limits: nothing of the program's text
    if report.outcome == Outcome.TIMEOUT:
        return f"{label}: superó el límite de {limit_seconds(timeout)} y se detuvo"
    return f"{label}: {FIXED.get(report.outcome, report.outcome.label)}"
