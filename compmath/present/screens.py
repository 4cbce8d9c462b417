"""The screens of `run`, `check`, `list` and `update`, as blocks for the screen layer (no Rich)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from compmath.course.index import ClassState, PartIndex
from compmath.errors import Problem
from compmath.judging.compare import Difference, DifferenceKind
from compmath.judging.encode import compact
from compmath.judging.report import LabReport, Outcome, order_text
from compmath.present.charts import output_charts
from compmath.present.layout import (
    BLANK,
    Block,
    Cell,
    Column,
    Para,
    Table,
    line,
    para,
)
from compmath.wording import count, percent, seconds

OK, BAD, NEUTRAL = "✓", "✗", "·"
SHOWN_DIFFERENCES = 12
STREAM_LINES = 15


@dataclass(frozen=True)
class Header:
    """What the header of a class says: number, title, part, level, k of N, duration."""

    number: int
    title: str
    part: int
    level: str
    k: int
    n: int
    duration: str


def header(info: Header) -> list[Block]:
    """Number and title, then part · level · clase k de N · duration."""
    pieces = [f"Parte {info.part}", info.level, f"clase {info.k} de {info.n}", info.duration]
    return [
        line((f"{info.number} — {info.title}", "bold")),
        line((" · ".join(p for p in pieces if p), "dim")),
        BLANK,
    ]


# --- run -----------------------------------------------------------------------------------


def _under(path: str, paths: list[str]) -> bool:
    return any(p == path or p.startswith((path + ".", path + "[")) for p in paths)


def _status(report: LabReport, path: str) -> Cell:
    if report.outcome in (Outcome.EXPLORATION, Outcome.NO_SNAPSHOT) or report.expected is None:
        return Cell(NEUTRAL, "dim")
    failing = [d.path for d in report.differences] + [i.path for i in report.schema_issues]
    return Cell(BAD, "bold red") if _under(path, failing) else Cell(OK, "green")


def _rows(report: LabReport) -> Iterator[tuple[str, str, Any, Any, bool, bool]]:
    """(label, path, obtained, expected, obtained missing, expected missing) in the lab's order."""
    obtained = report.outputs or {}
    expected = report.expected or {}
    for key in list(obtained) + [k for k in expected if k not in obtained]:
        path = f"salida.{key}"
        o, e = obtained.get(key), expected.get(key)
        yield key, path, o, e, key not in obtained, key not in expected
        if isinstance(o, dict) or isinstance(e, dict):
            o_dict = o if isinstance(o, dict) else {}
            e_dict = e if isinstance(e, dict) else {}
            for sub in list(o_dict) + [s for s in e_dict if s not in o_dict]:
                yield (
                    f"  {sub}",
                    f"{path}.{sub}",
                    o_dict.get(sub),
                    e_dict.get(sub),
                    sub not in o_dict,
                    sub not in e_dict,
                )


def _value(value: Any, missing: bool, budget: int) -> Cell:
    if missing:
        return Cell("—", "dim")
    if isinstance(value, dict):
        return Cell("")
    if isinstance(value, bool):
        return Cell(OK, "green") if value else Cell(BAD, "red")
    return Cell(compact(value, budget))


def outputs_table(report: LabReport, width: int | None) -> Table:
    """Output, obtained, expected, status: one row per output, nested dicts indented."""
    exploring = report.outcome == Outcome.EXPLORATION
    budget = 80 if width is None else max(24, (width - 30) // 2 * 3)
    rows = []
    for label, path, o, e, o_missing, e_missing in _rows(report):
        want = _value(e, e_missing or report.expected is None, budget)
        rows.append(
            (
                Cell(label, "cyan"),
                _value(o, o_missing, budget),
                Cell(want.text, "dim") if exploring else want,
                _status(report, path),
            )
        )
    longest = max([len("salida")] + [len(row[0].text) for row in rows])
    return Table(
        (
            Column("salida", min(longest, 22), "keep_end"),
            Column("obtenido", 12),
            Column("esperado (no se compara)" if exploring else "esperado", 12),
            Column("estado", 6, "fixed", "center"),
        ),
        tuple(rows),
    )


def difference_text(d: Difference) -> str:
    """One difference as `diff` words it: path, expected, obtained, Δ, %, tolerance."""
    expected, obtained = compact(d.expected, 30, count=False), compact(d.obtained, 30, count=False)
    if d.kind == DifferenceKind.VALUE and d.abs_error is not None and d.tolerance is not None:
        detail = f"Δ {d.abs_error:.3g}"
        numeric = isinstance(d.expected, (int, float)) and not isinstance(d.expected, bool)
        if numeric and d.expected:
            detail += f" ({percent(d.abs_error / abs(d.expected))})"
        detail += f" > tolerancia {d.tolerance:.3g}"
    else:
        detail = {
            DifferenceKind.TYPE: "cambia el tipo",
            DifferenceKind.MISSING: "falta en la salida",
            DifferenceKind.EXTRA: "no está en la instantánea",
            DifferenceKind.LENGTH: "cambia la longitud",
            DifferenceKind.VALUE: "valor distinto",
        }[d.kind]
    return f"{d.path}: esperado {expected}, obtenido {obtained} · {detail}"


def _schema_hint(report: LabReport, schema_file: str, meta_file: str) -> str:
    """What an instructor edits after a schema failure."""
    extra = [i for i in report.schema_issues if "clave no permitida" in i.message]
    missing = [i for i in report.schema_issues if "falta la clave requerida" in i.message]
    if extra:
        return (
            f"si es una salida nueva, declárala en {meta_file} ([[salidas]]) y en {schema_file} "
            f"(properties y required), en el orden de run(); luego compmath update {report.number}"
        )
    if missing:
        return (
            f"si la salida ya no existe, quítala de {meta_file} y de {schema_file}; "
            f"luego compmath update {report.number}"
        )
    return f"corrige el laboratorio o la regla de {schema_file}"


def details(
    report: LabReport, files: tuple[str, str] = ("", ""), verbose: bool = False
) -> list[Block]:
    """Differences, key order, schema issues, the lab's traceback and its captured streams."""
    blocks: list[Block] = []
    if report.differences:
        shown = report.differences if verbose else report.differences[:SHOWN_DIFFERENCES]
        blocks.append(line(("Diferencias:", "bold red")))
        blocks += [para((f"{BAD} {difference_text(d)}", "red"), indent=2, hang=2) for d in shown]
        if len(shown) < len(report.differences):
            more = len(report.differences) - len(shown)
            blocks.append(
                para(f"… y {more} más: compmath run {report.number} -v las muestra todas", indent=2)
            )
    if report.order_differs:
        blocks.append(para((f"{BAD} {order_text(report)}", "red"), indent=2, hang=2))
    if report.schema_issues:
        blocks += [
            para((f"{BAD} esquema: {i.path}: {i.message}", "red"), indent=2, hang=2)
            for i in report.schema_issues[: None if verbose else SHOWN_DIFFERENCES]
        ]
        schema_file, _meta_file = files
        if schema_file:
            blocks.append(
                para(("qué hacer: ", "bold"), _schema_hint(report, *files), indent=2, hang=2)
            )
    if report.traceback:
        stopped = report.outcome == Outcome.TIMEOUT
        title = "Dónde estaba el laboratorio al detenerse:" if stopped else "Traza del laboratorio:"
        blocks.append(line((title, "bold red")))
        blocks += [line((text, "red")) for text in report.traceback.rstrip().splitlines()]
    for name, text, size in (
        ("stdout", report.stdout, report.stdout_bytes),
        ("stderr", report.stderr, report.stderr_bytes),
    ):
        if not text:
            continue
        blocks.append(line((f"{name} del laboratorio ({count(size, 'byte', 'bytes')}):", "dim")))
        lines = text.splitlines()
        blocks += [line(("  │ " + shown[:200], "dim")) for shown in lines[:STREAM_LINES]]
        if size > len(text.encode("utf-8")) or len(lines) > STREAM_LINES:
            blocks.append(line(("  │ … (recortado)", "dim")))
    return blocks


def stopped_at(report: LabReport) -> str:
    """Where a timed-out lab was stopped, from the stack in its reply: `lab.py, línea 8, en run`
    (the innermost frame); "" when the reply carries none."""
    if report.outcome != Outcome.TIMEOUT:
        return ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', report.traceback)
    if not frames:
        return ""
    path, number, function = frames[-1]
    return f"{PurePath(path).name}, línea {number}, en {function}"


def failure_text(report: LabReport) -> str:
    """Why a lab failed, in one sentence: its message, and where a timed-out lab was."""
    where = stopped_at(report)
    return f"{report.full_message} · estaba en {where}" if where else report.full_message


def summary(report: LabReport) -> Para:
    """The closing line: how many outputs match, the schema verdict, the lab's time."""
    total = len(report.outputs or {})
    if report.outcome == Outcome.MATCHES:
        body = f"{total}/{total} salidas coinciden con la instantánea · esquema válido"
        style = "bold green"
    elif report.outcome == Outcome.EXPLORATION:
        sets = ", ".join(f"{k}={v}" for k, v in report.params.items())
        body = f"exploración ({sets}) · esquema válido · no se compara con la instantánea"
        style = "bold yellow"
    elif report.outcome == Outcome.DIFFERS:
        moved = {d.path.split(".")[1].split("[")[0] for d in report.differences}
        pieces = [
            f"{total - len(moved)}/{total} salidas coinciden con la instantánea",
            count(len(report.differences), "diferencia", "diferencias"),
        ]
        if report.order_differs:
            pieces.append("otro orden de salidas")
        body = " · ".join([*pieces, "esquema válido"])
        style = "bold red"
    else:
        label = report.outcome.label
        body = f"{label}: {failure_text(report)}" if report.message else label
        style = "bold red"
    return Para(((f"{body} · {seconds(report.duration)}", style),), hang=2)


def run_screen(
    report: LabReport,
    info: Header,
    width: int | None,
    *,
    files: tuple[str, str] = ("", ""),
    charts: bool = True,
    verbose: bool = False,
) -> list[Block]:
    """The whole `run` screen: header, outputs table, charts, details and the summary."""
    blocks = header(info)
    if report.outputs is not None:
        blocks.append(outputs_table(report, width))
        if charts and width is not None:
            failing = [d.path for d in report.differences]
            blocks += output_charts(report.outputs, failing)
    return [*blocks, *details(report, files, verbose), summary(report)]


# --- check ---------------------------------------------------------------------------------


def check_screen(reports: list[LabReport], elapsed: float) -> list[Block]:
    """The `check` summary: class, outcome and time per lab, why each failure failed (with its
    first differences, numbers included), a count line and what to run next."""
    rows = []
    for r in reports:
        mark = OK if r.passed else BAD
        rows.append(
            (
                Cell(f"{r.number} {r.title}"),
                Cell(f"{mark} {r.outcome.label}", "green" if r.passed else "bold red"),
                Cell(seconds(r.duration)),
            )
        )
    widest = max(len(row[1].text) for row in rows)  # the verdict stays on one line if it can
    table = Table(
        (
            Column("clase", 14, "cut"),
            Column("resultado", min(widest, 34)),
            Column("tiempo", 6, "fixed", "right"),
        ),
        tuple(rows),
    )
    blocks: list[Block] = [table]
    for r in reports:
        if r.passed:
            continue
        blocks.append(para((f"{r.number}: {failure_text(r)}", "red"), indent=2, hang=4))
        blocks += [para(f"{BAD} {difference_text(d)}", indent=4, hang=2) for d in r.differences[:3]]
        if len(r.differences) > 3:
            blocks.append(para(f"… y {len(r.differences) - 3} más", indent=4))
    failed = [r for r in reports if not r.passed]
    total = count(len(reports), "laboratorio", "laboratorios")
    if not failed:
        return [
            *blocks,
            para(
                (f"{total}: todos coinciden con su instantánea · {seconds(elapsed)}", "bold green")
            ),
        ]
    ok = len(reports) - len(failed)
    tally = (
        f"{total}: {ok} {'correcto' if ok == 1 else 'correctos'}, "
        f"{len(failed)} {'falla' if len(failed) == 1 else 'fallan'} · {seconds(elapsed)}"
    )
    return [
        *blocks,
        para((tally, "bold red")),
        line("siguiente: ", (f"compmath run {failed[0].number}", "bold")),
    ]


# --- list ----------------------------------------------------------------------------------


def written_phrase(written: int, total: int) -> str:
    """`8 de 9 clases escritas`; a part of one class says it in words."""
    if total == 1:
        return "la única clase está escrita" if written else "la única clase está pendiente"
    return f"{written} de {total} clases escritas"


def list_screen(parts: list[PartIndex]) -> list[Block]:
    """Per part a heading, its classes in plan order (pending ones dimmed), how many are written."""
    blocks: list[Block] = []
    for part in parts:
        rows = tuple(
            tuple(
                Cell(text, "dim" if row.state == ClassState.PENDING else "")
                for text in (str(row.number), row.title, row.level, row.duration, str(row.state))
            )
            for row in part.rows
        )
        written = sum(row.state != ClassState.PENDING for row in part.rows)
        blocks += [
            line((part.heading, "bold")),
            Table(
                (
                    Column("nº", 3, "fixed"),
                    Column("título", 12),
                    Column("nivel", 6),
                    Column("duración", 7),
                    Column("estado", 8),
                ),
                rows,
            ),
            line((written_phrase(written, len(part.rows)), "dim")),
            BLANK,
        ]
    return blocks


# --- update --------------------------------------------------------------------------------


def update_line(shown: str, written: bool | None, problem: str = "") -> Para:
    """One line of `update`: written, unchanged, or why the snapshot was not written."""
    if written is None:
        return Para(((f"{BAD} {shown}: no se escribe la instantánea: {problem}", "red"),), hang=4)
    if written:
        return Para(((f"{OK} escrita: {shown}", "green"),), hang=4)
    return Para(((f"{NEUTRAL} sin cambios: {shown}", "dim"),), hang=4)


# --- lint ----------------------------------------------------------------------------------


def lint_screen(problems: list[Problem], classes: int) -> list[Block]:
    """One paragraph per problem (file: what — hint), then a count."""
    checked = count(classes, "clase revisada", "clases revisadas")
    blocks: list[Block] = [
        Para(((f"{p.file}: ", "bold"), (p.what, "red"), (f" — {p.hint}", "")), hang=4)
        for p in problems
    ]
    if problems:
        blocks.append(
            para((f"{count(len(problems), 'problema', 'problemas')} · {checked}", "bold red"))
        )
    else:
        blocks.append(para((f"{OK} el curso está en orden · {checked}", "bold green")))
    return blocks
