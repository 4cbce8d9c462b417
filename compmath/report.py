"""The result of running one lab, as data: outcome, outputs, differences, captured streams."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compmath.compare import Difference
from compmath.encode import compact
from compmath.validate import SchemaIssue

PASSING = {"coincide", "exploracion", "valida"}
# outcome -> what a reader is told (the lab-specific detail goes in `message`)
OUTCOMES = {
    "coincide": "coincide con la instantánea",
    "exploracion": "exploración válida (no se compara con la instantánea)",
    "valida": "salida válida según su esquema",
    "difiere": "difiere de la instantánea",
    "sin_instantanea": "no tiene instantánea",
    "esquema_invalido": "no cumple su esquema",
    "excepcion": "el laboratorio lanzó una excepción",
    "salida_prematura": "el laboratorio terminó sin devolver resultado",
    "senal": "el laboratorio murió por una señal",
    "tiempo_agotado": "se agotó el tiempo",
    "memoria_agotada": "se agotó la memoria",
    "no_representable": "la salida no es representable en JSON",
    "configuracion": "error en los archivos de la clase",
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
    outcome: str
    message: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] | None = None
    output_text: str = ""
    expected: dict[str, Any] | None = None
    differences: list[Difference] = field(default_factory=list)
    schema_issues: list[SchemaIssue] = field(default_factory=list)
    traceback: str = ""
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    duration: float = 0.0
    order_differs: bool = False

    @property
    def passed(self) -> bool:
        return self.outcome in PASSING

    def to_dict(self) -> dict[str, Any]:
        """The report's JSON form (Spanish keys; see schemas/report.schema.json)."""
        return {
            "clase": self.class_id,
            "numero": self.number,
            "titulo": self.title,
            "resultado": self.outcome,
            "correcto": self.passed,
            "mensaje": self.message or OUTCOMES[self.outcome],
            "parametros": self.params,
            "duracion_s": round(self.duration, 4),
            "salidas": self.outputs,
            "diferencias": [
                {
                    "ruta": d.path,
                    "tipo": d.kind,
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
            "traza": self.traceback,
            "stdout": self.stdout,
            "stderr": self.stderr,
        }


def crash_message(reply: dict[str, Any], timeout: float, memory: int) -> tuple[str, str]:
    """Map a worker reply that carries no result to (outcome, Spanish message)."""
    state = reply.get("estado")
    gib = f"{memory / 1024**3:g} GiB"
    if state == "tiempo":
        return "tiempo_agotado", (
            f"el laboratorio superó el límite de {timeout:g} s y se detuvo (súbelo con --timeout)"
        )
    if state == "memoria":
        detail = f": {reply['mensaje']}" if reply.get("mensaje") else ""
        return "memoria_agotada", (
            f"el laboratorio superó el límite de memoria de {gib} "
            f"({reply.get('tipo', 'MemoryError')}{detail}; "
            "súbelo con --memory)"
        )
    if state == "senal":
        name = str(reply.get("nombre_senal", "?"))
        what = SIGNAL_NAMES.get(name, "señal")
        peak = int(reply.get("memoria_pico") or 0)
        if memory and name != "SIGKILL" and peak >= memory // 2:
            # a fault while at the address-space limit: a failed stack or buffer allocation
            return "memoria_agotada", (
                f"el laboratorio murió por la señal {name} ({what}) con la "
                f"memoria al límite ({peak / 1024**2:.0f} MiB de {gib}; "
                "súbelo con --memory)"
            )
        if name == "SIGKILL":
            what = "matado desde fuera: ¿el sistema se quedó sin memoria?"
        return "senal", f"el laboratorio murió por la señal {name} ({what})"
    if state == "salida":
        shown = repr(reply["mensaje"]) if "mensaje" in reply else reply.get("codigo")
        return "salida_prematura", (
            f"el laboratorio llamó a sys.exit({shown}) en vez de devolver sus salidas"
        )
    if state == "sin_resultado":
        return "salida_prematura", (
            f"el proceso del laboratorio terminó (código {reply.get('codigo')}) "
            "sin devolver sus salidas; ¿llamó a os._exit?"
        )
    if state == "no_representable":
        if reply.get("ruta") == "salida":
            return "no_representable", str(reply.get("mensaje"))
        return "no_representable", f"la salida {reply.get('ruta')} {reply.get('mensaje')}"
    if state == "excepcion":
        kind = reply.get("tipo", "Exception")
        if kind == "RecursionError":
            return "excepcion", f"RecursionError: recursión sin fin ({reply.get('mensaje')})"
        return "excepcion", f"{kind}: {reply.get('mensaje')}"
    return "excepcion", "el proceso trabajador terminó de forma inesperada"


def describe_difference(d: Difference) -> str:
    """One line for one difference: path, both values and why they differ."""
    if d.kind == "valor" and d.abs_error is not None and d.tolerance is not None:
        detail = f"error {d.abs_error:.3g} > tolerancia {d.tolerance:.3g}"
    else:
        detail = {
            "tipo": "cambia el tipo",
            "falta": "falta en la salida",
            "sobra": "no está en la instantánea",
            "longitud": "cambia la longitud",
            "valor": "valor distinto",
        }[d.kind]
    expected, obtained = compact(d.expected, 30, count=False), compact(d.obtained, 30, count=False)
    return f"{d.path}: esperado {expected}, obtenido {obtained} ({detail})"


def failure_text(report: LabReport) -> str:
    """Plain text of why a lab did not pass: message, differences, schema issues, traceback."""
    lines = [f"{report.class_id}: {OUTCOMES[report.outcome]}"]
    if report.message:
        lines.append(report.message)
    lines += [describe_difference(d) for d in report.differences]
    lines += [f"esquema: {i.path}: {i.message}" for i in report.schema_issues]
    if report.traceback:
        lines.append(report.traceback.rstrip())
    return "\n".join(lines)


def count_phrase(count: int, singular: str, plural: str) -> str:
    """`1 clase` / `3 clases`, Spanish style."""
    return f"{count} {singular if count == 1 else plural}"
