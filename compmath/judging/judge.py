"""The judge: turn the worker's reply for one case into a LabReport.

The reply is validated against the schema the case holds and compared with its oracle (a
snapshot read before the lab ran, or a reference's outputs from the same run): nothing the lab
does to the course's files while it runs can change what it is judged against.
"""

from __future__ import annotations

import time
from pathlib import Path, PurePath
from typing import Any

from compmath.base.encode import EncodeError, canonical_json, unrepresentable
from compmath.base.validate import OverBudget, validate
from compmath.errors import CompmathError
from compmath.errors_es import Located
from compmath.execution.protocol import LabReply, NotANumber, ReplyState, printable, strict_loads
from compmath.judging.case import Broken, Case, Explore, Ready, Record, Reference, Snapshot
from compmath.judging.compare import compare, key_order_differs
from compmath.judging.report import LabReport, Outcome, crash_message
from compmath.judging.stack import innermost
from compmath.wording import count, mib

# A lab's result is judged only up to a size: the oracle's canonical text times RESULT_FACTOR
# (never below RESULT_FLOOR), and RESULT_CAP when there is no oracle (update, --set). The
# course's outputs are a few KiB; a result past its bound cannot be the right answer, and
# parsing, validating and comparing it would cost the class's time and memory.
RESULT_FLOOR = 1024**2
RESULT_FACTOR = 64
RESULT_CAP = 8 * 1024**2
JUDGE_SECONDS = 10.0  # validating one lab's outputs; a right answer takes milliseconds


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
        return None, "", unrepresentable(printable(exc.path), exc.problem)
    except RecursionError:
        return None, "", "la salida anida listas o dicts sin fin"
    except UnicodeEncodeError:
        return None, "", "la salida contiene texto que no es Unicode válido (sustituto suelto)"
    return outputs, text, ""


SHOWN_SOURCE = 400  # characters of the offending line kept: an excerpt, not a file


def syntax_at(reply: LabReply) -> Located | None:
    """Where the lab's syntax error sits, from the reply's fields; None when they name no line.

    The lab's process writes these fields, so a lab could write any: a line below 1 is no
    place, and the line's text is cut to its first line and SHOWN_SOURCE characters."""
    if reply.error_line is None or reply.error_line < 1:
        return None
    column = reply.error_column if reply.error_column and reply.error_column > 0 else None
    text = (reply.error_text.splitlines() or [""])[0][:SHOWN_SOURCE]
    return Located("", reply.error_line, column, text)


def _oracle(case: Ready, reference: LabReport | None) -> dict[str, Any] | None:
    """The outputs to compare with: the snapshot's (None: none yet) or the reference's."""
    if isinstance(case.expected, Snapshot):
        return case.expected.outputs
    if isinstance(case.expected, Reference) and reference is not None:
        return reference.outputs
    return None


def result_limit(case: Ready, reference: LabReport | None) -> tuple[int, str]:
    """The largest result judged for `case`, in bytes of canonical JSON, and what it is."""
    size = None
    if isinstance(case.expected, Snapshot) and case.expected.outputs is not None:
        size = len(canonical_json(case.expected.outputs, case.request.decimals).encode())
    elif isinstance(case.expected, Reference) and reference is not None and reference.outputs:
        size = len(reference.output_text.encode())
    if size is None:
        return RESULT_CAP, f"los {mib(RESULT_CAP)} que admite un resultado"
    limit = min(RESULT_CAP, max(RESULT_FLOOR, RESULT_FACTOR * size))
    return limit, f"los {mib(limit)} que admite esta clase ({RESULT_FACTOR} veces su salida)"


OVERSIZED = "el resultado ocupa "  # how a refused size starts: compmath's words alone


def oversized(written: str, limit: int, bound: str) -> str:
    """Why the text a lab wrote is not judged (Spanish), or "" when it is within `limit` bytes.

    Measured without copying: an ASCII text is its length; any other is at least as long."""
    if len(written) > limit or (not written.isascii() and len(written.encode()) > limit):
        size = len(written) if written.isascii() else len(written.encode())
        return f"{OVERSIZED}{mib(size)}, más de {bound}: no se analiza"
    return ""


def judge(case: Case, reply: LabReply, *, reference: LabReport | None = None) -> LabReport:
    """Validate one lab's reply and compare it with the case's oracle; `reference` is the
    report of the case an oracle `Reference` names (judged first, in the same call)."""
    if isinstance(case, Broken):
        return setup_report(case)
    common = _common(case, reply)
    if reply.state != ReplyState.OK:
        crash = crash_message(reply, case.request.timeout, case.request.memory)
        where = innermost(reply.traceback) if crash.outcome == Outcome.TIMEOUT else None
        return LabReport(
            outcome=crash.outcome,
            message=crash.message,
            remedy=crash.remedy,
            traceback=reply.traceback,
            stopped_at=where,
            error_type=reply.error_type if reply.state == ReplyState.EXCEPTION else "",
            error_at=syntax_at(reply) if reply.state == ReplyState.EXCEPTION else None,
            error_file=PurePath(reply.error_file).name[:SHOWN_SOURCE],
            **common,
        )
    started = time.monotonic()
    refused = oversized(reply.output, *result_limit(case, reference))
    if refused:
        return LabReport(outcome=Outcome.UNREPRESENTABLE, message=refused, **common)
    outputs, text, refused = reencode(reply.output, case.request.decimals)
    if refused or outputs is None:
        return LabReport(outcome=Outcome.UNREPRESENTABLE, message=refused, **common)
    common |= {"outputs": outputs, "output_text": text}
    deadline = started + JUDGE_SECONDS
    return _judge_outputs(case, outputs, text, reference, common, (reply.confined, deadline))


def _judge_outputs(
    case: Ready,
    outputs: dict[str, Any],
    text: str,
    reference: LabReport | None,
    common: dict[str, Any],
    how: tuple[bool, float],
) -> LabReport:
    """Validate outputs that parsed as a JSON object, then compare them with the oracle;
    `how` is (Landlock confined the lab, the judging's deadline)."""
    schema_text, schema = case.schema
    shown_schema = _rel(case, case.cls.schema_path)
    confined, deadline = how
    try:
        issues = validate(
            schema_text, schema, outputs, text, shown_schema, use_cache=confined, deadline=deadline
        )
    except OverBudget:
        why = f"validar el resultado llevó más de {JUDGE_SECONDS:g} s: no se juzga"
        return LabReport(outcome=Outcome.UNREPRESENTABLE, message=why, **common)
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
        moved = (
            compare(oracle, outputs, *case.tolerances, loose=case.loose)
            if oracle is not None
            else []
        )
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
    differences = compare(expected, outputs, default, per_output, loose=case.loose)
    order = key_order_differs(expected, outputs)
    if differences or order:
        message = (
            f"{count(len(differences), 'diferencia', 'diferencias')}; "
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
