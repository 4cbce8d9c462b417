"""The judge: turn the worker's reply for one case into a LabReport.

The reply is validated against the schema the case holds and compared with its oracle (a
snapshot read before the lab ran, or a reference's outputs from the same run): nothing the lab
does to the course's files while it runs can change what it is judged against.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError
from compmath.execution.protocol import LabReply, ReplyState
from compmath.judging.case import Broken, Case, Explore, Ready, Record, Reference, Snapshot
from compmath.judging.compare import compare, key_order_differs
from compmath.judging.encode import canonical_json
from compmath.judging.report import LabReport, Outcome, crash_message
from compmath.judging.validate import validate


def setup_report(case: Broken) -> LabReport:
    """The report of a class whose files are broken (its lab is not judged)."""
    return LabReport(
        outcome=Outcome.SETUP,
        message=case.problem.message,
        hint=case.problem.hint,
        **_common(case, None),
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
            "worker_lost": reply.state == ReplyState.WORKER_LOST,
        }
    return common


def _rel(case: Case, path: Path) -> str:
    try:
        return str(path.relative_to(case.cls.root))
    except ValueError:
        return str(path)


def _oracle(case: Ready, reference: LabReport | None) -> dict[str, Any] | None:
    """The outputs to compare with: the snapshot's (None: none yet) or the reference's."""
    if isinstance(case.expected, Snapshot):
        return case.expected.outputs
    if isinstance(case.expected, Reference) and reference is not None:
        return reference.outputs
    return None


def judge(case: Case, reply: LabReply, *, reference: LabReport | None = None) -> LabReport:
    """Validate one lab's reply and compare it with the case's oracle; `reference` is the
    report of the case an oracle `Reference` names (judged first, in the same call)."""
    if isinstance(case, Broken):
        return setup_report(case)
    common = _common(case, reply)
    if reply.state != ReplyState.OK:
        outcome, message = crash_message(reply, case.request.timeout, case.request.memory)
        return LabReport(
            outcome=outcome,
            message=message,
            traceback=reply.traceback,
            **common,
        )
    text = reply.output
    try:  # written by the lab's own process: it may be anything
        outputs = json.loads(text)
    except (ValueError, RecursionError):
        outputs = None
    if not isinstance(outputs, dict):
        return LabReport(
            outcome=Outcome.UNREPRESENTABLE,
            message="el resultado del laboratorio no es un objeto JSON (¿escribió en su archivo?)",
            **common,
        )
    if isinstance(case.expected, Record):  # what update writes is canonical, whatever was written
        text = canonical_json(outputs, case.request.decimals)
    common |= {"outputs": outputs, "output_text": text}
    return _judge_outputs(case, outputs, text, reference, common, confined=reply.confined)


def _judge_outputs(
    case: Ready,
    outputs: dict[str, Any],
    text: str,
    reference: LabReport | None,
    common: dict[str, Any],
    *,
    confined: bool,
) -> LabReport:
    """Validate outputs that parsed as a JSON object, then compare them with the oracle."""
    schema_text, schema = case.schema
    shown_schema = _rel(case, case.cls.schema_path)
    try:
        issues = validate(schema_text, schema, outputs, text, shown_schema, use_cache=confined)
    except CompmathError as exc:
        return LabReport(outcome=Outcome.SETUP, message=exc.message, hint=exc.hint, **common)
    except Exception as exc:  # a schema jsonschema accepts but cannot apply (a dangling $ref)
        return LabReport(
            outcome=Outcome.SETUP,
            message=f"{shown_schema} no se puede aplicar: {exc}",
            hint="revisa sus $ref; compmath lint lista los problemas",
            **common,
        )
    oracle = _oracle(case, reference)
    if isinstance(case.expected, Reference) and oracle is None:
        why = (reference.message or reference.outcome.label) if reference else "no se ejecutó"
        return LabReport(
            outcome=Outcome.SETUP,
            message=f"la referencia {case.expected.key} no dio salidas: {why}",
            **common,
        )
    if issues:
        moved = compare(oracle, outputs, *case.tolerances) if oracle is not None else []
        return LabReport(
            outcome=Outcome.INVALID,
            expected=oracle,
            schema_issues=issues,
            differences=moved,  # what moved against the oracle, shown beside the schema's verdict
            message=f"{issues[0].path}: {issues[0].message}",
            **common,
        )
    if isinstance(case.expected, Record):
        return LabReport(outcome=Outcome.VALID, **common)
    if isinstance(case.expected, Explore):
        return LabReport(outcome=Outcome.EXPLORATION, **common)
    if oracle is None:
        return LabReport(
            outcome=Outcome.NO_SNAPSHOT,
            message=f"falta {_rel(case, case.cls.snapshot)}",
            hint=f"créala con compmath update {case.cls.number}",
            **common,
        )
    return _compared(case, oracle, outputs, common)


def _compared(
    case: Ready, expected: dict[str, Any], outputs: dict[str, Any], common: dict[str, Any]
) -> LabReport:
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
