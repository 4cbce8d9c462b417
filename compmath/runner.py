"""Turn a class into a lab request, and a worker's reply into a LabReport (validate, compare)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compmath.compare import DEFAULT_ATOL, DEFAULT_RTOL, Tolerance, compare, key_order_differs
from compmath.course import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.execute import DEFAULT_MEMORY, DEFAULT_TIMEOUT, LabRequest
from compmath.labmain import lab_decimals
from compmath.params import parse_assignments, specs_from_source
from compmath.report import LabReport, crash_message
from compmath.snapshot import read_snapshot
from compmath.validate import load_schema, validate


def _check_metadata(
    course: Course, path: Path, meta: dict[str, Any], kind: str, number: int, folder: str
) -> None:
    """Raise if a class.toml/part.toml breaks schemas/<kind>.schema.json or names another number."""
    schema_file = course.root / "schemas" / f"{kind}.schema.json"
    if meta and schema_file.exists():
        schema_text, schema = load_schema(schema_file)
        text = json.dumps(meta, sort_keys=True, ensure_ascii=False, default=str)
        issues = validate(schema_text, schema, meta, text, schema_file, base=path.name)
        if issues:
            raise CompmathError(
                f"{course.rel(path)} no cumple su esquema: {issues[0].path}: {issues[0].message}",
                "corrígelo; compmath lint lista todos los problemas",
            )
    if "numero" in meta and meta["numero"] != number:
        raise CompmathError(
            f"{course.rel(path)} dice numero = {meta['numero']!r}, pero su carpeta es {folder}",
            "corrige el número o renombra la carpeta; luego: compmath lint",
        )


def class_meta_checked(course: Course, cls: ClassInfo) -> dict[str, Any]:
    """Return class.toml validated against schemas/class.schema.json ({} if the class has none)."""
    meta = cls.meta
    _check_metadata(course, cls.meta_path, meta, "class", cls.number, cls.id)
    return meta


_PARTS_OK: set[tuple[str, int, int]] = set()  # part.toml files already found sound, by stamp


def part_meta_checked(course: Course, cls: ClassInfo) -> None:
    """Raise if the part.toml is unreadable, breaks its schema or mismatches its folder."""
    part = cls.part
    try:
        stat = part.meta_path.stat()
    except FileNotFoundError:
        return
    stamp = (str(part.meta_path), stat.st_mtime_ns, stat.st_size)
    if stamp not in _PARTS_OK:
        _check_metadata(course, part.meta_path, part.meta, "part", part.number, part.path.name)
        _PARTS_OK.add(stamp)


def tolerances(
    course: Course, cls: ClassInfo, meta: dict[str, Any] | None = None
) -> tuple[Tolerance, dict[str, Tolerance]]:
    """The class's default tolerance and its per-output overrides, as declared in class.toml."""
    meta = class_meta_checked(course, cls) if meta is None else meta
    base = meta.get("tolerancia", {})
    default = Tolerance(base.get("atol", DEFAULT_ATOL), base.get("rtol", DEFAULT_RTOL))
    per_output = {}
    for entry in meta.get("salidas", []):
        if "tolerancia" in entry:
            tol = entry["tolerancia"]
            per_output[entry["nombre"]] = Tolerance(
                tol.get("atol", default.atol), tol.get("rtol", default.rtol), declared=True
            )
    return default, per_output


def build_request(
    course: Course,
    cls: ClassInfo,
    assignments: list[str],
    timeout: float = DEFAULT_TIMEOUT,
    memory: int = DEFAULT_MEMORY,
) -> LabRequest:
    """Check the class can run and parse its `--set` values against run()'s signature."""
    if not cls.lab.exists():
        raise CompmathError(
            f"la clase {cls.id} no tiene lab.py", f"créalo en {course.rel(cls.path)}/"
        )
    params: dict[str, Any] = {}
    if assignments:
        specs = specs_from_source(cls.lab)
        if specs is None:
            raise CompmathError(
                f"no se pueden leer los parámetros de run() en {course.rel(cls.lab)}",
                "run() debe declarar parámetros con tipo y valor por defecto",
            )
        params = parse_assignments(specs, assignments)
    return LabRequest(cls.id, cls.lab, params, timeout, memory, lab_decimals(cls.path))


def evaluate(
    course: Course,
    cls: ClassInfo,
    request: LabRequest,
    reply: dict[str, Any],
    against_snapshot: bool = True,
) -> LabReport:
    """Validate and compare one lab's reply; a broken class file gives a `configuracion` report."""
    common: dict[str, Any] = {
        "class_id": cls.id,
        "number": cls.number,
        "title": cls.title,
        "params": request.params,
        "stdout": reply.get("stdout", ""),
        "stderr": reply.get("stderr", ""),
        "stdout_bytes": reply.get("stdout_bytes", 0),
        "stderr_bytes": reply.get("stderr_bytes", 0),
        "duration": reply.get("duracion", reply.get("tiempo_total", 0.0)),
    }
    try:  # broken metadata is reported first: nothing else about the class can be trusted
        meta = class_meta_checked(course, cls)
        part_meta_checked(course, cls)
    except CompmathError as exc:
        return LabReport(outcome="configuracion", message=f"{exc.message} · {exc.hint}", **common)
    if reply.get("estado") != "ok":
        outcome, message = crash_message(reply, request.timeout, request.memory)
        return LabReport(
            outcome=outcome, message=message, traceback=reply.get("traza", ""), **common
        )
    text: str = reply["salida"]
    outputs = json.loads(text)
    try:
        return _judge(course, cls, request, outputs, text, common, against_snapshot, meta)
    except CompmathError as exc:
        return LabReport(
            outcome="configuracion",
            message=f"{exc.message} · {exc.hint}",
            outputs=outputs,
            output_text=text,
            **common,
        )


def _judge(
    course: Course,
    cls: ClassInfo,
    request: LabRequest,
    outputs: dict[str, Any],
    text: str,
    common: dict[str, Any],
    against_snapshot: bool,
    meta: dict[str, Any],
) -> LabReport:
    common = common | {"output_text": text}
    schema_path = cls.schema_path(course.root)
    schema_text, schema = load_schema(schema_path)
    try:
        issues = validate(schema_text, schema, outputs, text, schema_path)
    except CompmathError:
        raise
    except Exception as exc:
        raise CompmathError(
            f"{course.rel(schema_path)} no se puede aplicar: {exc}",
            "revisa sus $ref; compmath lint lista los problemas",
        ) from None
    default, per_output = tolerances(course, cls, meta)
    if not against_snapshot:
        if issues:
            return LabReport(
                outcome="esquema_invalido",
                outputs=outputs,
                schema_issues=issues,
                message=f"{issues[0].path}: {issues[0].message}",
                **common,
            )
        return LabReport(outcome="valida", outputs=outputs, **common)
    snap = read_snapshot(cls.snapshot, str(cls.number))
    expected = snap[1] if snap else None
    unknown = [name for name in per_output if expected is not None and name not in expected]
    if unknown:
        raise CompmathError(
            f"{course.rel(cls.meta_path)} declara tolerancia para «{unknown[0]}», "
            "que no es una salida",
            "corrige el nombre en [[salidas]]",
        )
    if issues:
        return LabReport(
            outcome="esquema_invalido",
            outputs=outputs,
            expected=expected,
            schema_issues=issues,
            message=f"{issues[0].path}: {issues[0].message}",
            **common,
        )
    if request.params:
        return LabReport(outcome="exploracion", outputs=outputs, expected=expected, **common)
    if expected is None:
        return LabReport(
            outcome="sin_instantanea",
            outputs=outputs,
            message=f"falta {course.rel(cls.snapshot)}; créala con compmath update {cls.number}",
            **common,
        )
    differences = compare(expected, outputs, default, per_output)
    order = key_order_differs(expected, outputs)
    if differences or order:
        message = (
            f"{len(differences)} diferencia(s); la primera en {differences[0].path}"
            if differences
            else "las salidas llegan en otro orden que en la instantánea"
        )
        return LabReport(
            outcome="difiere",
            outputs=outputs,
            expected=expected,
            differences=differences,
            order_differs=order,
            message=message,
            **common,
        )
    return LabReport(outcome="coincide", outputs=outputs, expected=expected, **common)
