"""The judge: read what a verdict depends on before a lab runs, then judge the lab's reply.

`prepare` reads the class's metadata, its outputs schema and its snapshot into a Case, and
builds the request for the worker; `judge` turns the worker's reply into a LabReport by
validating against the schema and comparing with the snapshot it already holds. Nothing the lab
does to the course's files while it runs can change what it is judged against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.course.params import parse_assignments, specs_from_source
from compmath.course.records import ClassMeta, Tolerance
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.execution.protocol import (
    DEFAULT_MEMORY,
    DEFAULT_TIMEOUT,
    LabReply,
    LabRequest,
    NotANumber,
    ReplyState,
    printable,
    strict_loads,
)
from compmath.judging.compare import compare, key_order_differs
from compmath.judging.encode import EncodeError, canonical_json
from compmath.judging.report import LabReport, Outcome, crash_message
from compmath.judging.snapshot import read_snapshot
from compmath.judging.validate import load_schema, validate


@dataclass(frozen=True)
class Case:
    """One class ready to run: its request and every input of its verdict, read up front."""

    cls: ClassInfo
    request: LabRequest
    problem: CompmathError | None = None  # a broken class file: the verdict is `configuracion`
    meta: ClassMeta | None = None
    schema: tuple[str, Any] | None = None  # the outputs schema: its text and its body
    snapshot: dict[str, Any] | None = None  # None when the class has none yet
    tolerances: tuple[Tolerance, dict[str, Tolerance]] = field(
        default_factory=lambda: (Tolerance(), {})
    )

    @property
    def runnable(self) -> bool:
        return self.problem is None


def parse_params(course: Course, cls: ClassInfo, assignments: list[str]) -> dict[str, Any]:
    """The typed `--set` values for the class's run(), read from its source (no import)."""
    if not assignments:
        return {}
    specs = specs_from_source(cls.lab)
    if specs is None:
        raise CompmathError(
            f"no se pueden leer los parámetros de run() en {course.rel(cls.lab)}",
            "run() debe declarar parámetros con tipo y valor por defecto",
        )
    return parse_assignments(specs, assignments)


def prepare(
    course: Course,
    cls: ClassInfo,
    params: dict[str, Any] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    memory: int = DEFAULT_MEMORY,
    with_snapshot: bool = True,
) -> Case:
    """Read everything the verdict on `cls` depends on; a broken file becomes the case's problem.

    `with_snapshot=False` (update, which replaces it) leaves the snapshot unread."""
    request = LabRequest(cls.id, str(cls.lab), params or {}, timeout, memory)
    try:
        if not cls.lab.exists():
            raise CompmathError(
                f"la clase {cls.id} no tiene lab.py", f"créalo en {course.rel(cls.path)}/"
            )
        meta = cls.meta
        cls.part.meta  # noqa: B018  (a broken part.toml makes every class of the part unusable)
        schema = load_schema(cls.schema_path, course.rel(cls.schema_path))
        found = (
            read_snapshot(cls.snapshot, course.rel(cls.snapshot), cls.number)
            if with_snapshot
            else None
        )
    except CompmathError as exc:
        return Case(cls, request, problem=exc)
    return Case(
        cls,
        LabRequest(cls.id, str(cls.lab), params or {}, timeout, memory, meta.decimals),
        meta=meta,
        schema=schema,
        snapshot=found[1] if found else None,
        tolerances=meta.tolerances(),
    )


def setup_report(case: Case, reply: LabReply | None = None) -> LabReport:
    """The report of a class whose files are broken (its lab is not judged)."""
    assert case.problem is not None
    return LabReport(
        outcome=Outcome.SETUP,
        message=case.problem.message,
        hint=case.problem.hint,
        **_common(case, reply),
    )


def _common(case: Case, reply: LabReply | None) -> dict[str, Any]:
    common: dict[str, Any] = {
        "class_id": case.cls.id,
        "number": case.cls.number,
        "title": case.cls.title,
        "params": case.request.params,
    }
    if reply is not None:
        common |= {
            "stdout": reply.stdout,
            "stderr": reply.stderr,
            "stdout_bytes": reply.stdout_bytes,
            "stderr_bytes": reply.stderr_bytes,
            "duration": reply.run_seconds or reply.total_seconds,
        }
    return common


def _rel(case: Case, path: Path) -> str:
    try:
        return str(path.relative_to(case.cls.root))
    except ValueError:
        return str(path)


def reencode(written: str, decimals: int) -> tuple[Any, str, str]:
    """(outputs, canonical text, '') from the text the lab's process wrote, or (None, '', why not).

    That text may be anything (the lab can write its own result, or patch the encoder in its
    process): it is parsed refusing NaN and Infinity, and encoded again here, so every verdict,
    report and snapshot rests on the runner's own canonical JSON."""
    try:
        outputs = strict_loads(written)
    except NotANumber as exc:
        return None, "", f"el resultado del laboratorio contiene {exc}"
    except (ValueError, RecursionError):
        return None, "", "el resultado del laboratorio no es JSON válido (¿escribió en su archivo?)"
    if not isinstance(outputs, dict):
        return None, "", "el resultado del laboratorio no es un objeto JSON"
    try:
        text = canonical_json(outputs, decimals)
        text.encode("utf-8")
    except EncodeError as exc:
        return None, "", f"la salida {printable(exc.path)} {exc.problem}"
    except RecursionError:
        return None, "", "la salida anida listas o dicts sin fin"
    except UnicodeEncodeError:
        return None, "", "la salida contiene texto que no es Unicode válido (sustituto suelto)"
    return outputs, text, ""


def judge(case: Case, reply: LabReply, against_snapshot: bool = True) -> LabReport:
    """Validate and compare one lab's reply; `against_snapshot=False` only validates (update)."""
    if case.problem is not None:
        return setup_report(case, reply)
    common = _common(case, reply)
    if reply.state != ReplyState.OK:
        outcome, message = crash_message(reply, case.request.timeout, case.request.memory)
        return LabReport(outcome=outcome, message=message, traceback=reply.traceback, **common)
    outputs, text, refused = reencode(reply.output, case.request.decimals)
    if refused:
        return LabReport(outcome=Outcome.UNREPRESENTABLE, message=refused, **common)
    common |= {"outputs": outputs, "output_text": text}
    assert case.schema is not None
    schema_text, schema = case.schema
    schema_path = case.cls.schema_path
    try:
        issues = validate(
            schema_text, schema, outputs, text, _rel(case, schema_path), use_cache=reply.confined
        )
    except CompmathError as exc:
        return LabReport(outcome=Outcome.SETUP, message=exc.message, hint=exc.hint, **common)
    except Exception as exc:  # a schema jsonschema accepts but cannot apply (a dangling $ref)
        return LabReport(
            outcome=Outcome.SETUP,
            message=f"{_rel(case, schema_path)} no se puede aplicar: {exc}",
            hint="revisa sus $ref; compmath lint lista los problemas",
            **common,
        )
    expected = case.snapshot if against_snapshot else None
    if issues:
        moved = []  # what moved against the snapshot, shown beside the schema's verdict
        if expected is not None and not case.request.params:
            moved = compare(expected, outputs, *case.tolerances)
        return LabReport(
            outcome=Outcome.INVALID,
            expected=expected,
            schema_issues=issues,
            differences=moved,
            message=f"{issues[0].path}: {issues[0].message}",
            **common,
        )
    if not against_snapshot:
        return LabReport(outcome=Outcome.VALID, **common)
    if case.request.params:
        return LabReport(outcome=Outcome.EXPLORATION, expected=expected, **common)
    if expected is None:
        return LabReport(
            outcome=Outcome.NO_SNAPSHOT,
            message=f"falta {_rel(case, case.cls.snapshot)}",
            hint=f"créala con compmath update {case.cls.number}",
            **common,
        )
    default, per_output = case.tolerances
    differences = compare(expected, outputs, default, per_output)
    order = key_order_differs(expected, outputs)
    if differences or order:
        message = (
            f"{len(differences)} diferencia{'s' if len(differences) != 1 else ''}; "
            f"la primera en {differences[0].path}"
            if differences
            else "las salidas llegan en otro orden que en la instantánea"
        )
        return LabReport(
            outcome=Outcome.DIFFERS,
            expected=expected,
            differences=differences,
            order_differs=order,
            message=message,
            **common,
        )
    return LabReport(outcome=Outcome.MATCHES, expected=expected, **common)
