"""The screen of `run` as blocks: header, outputs table, charts, differences, schema issues
with what to edit, the lab's traceback and streams, and the closing line."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from compmath.judging.report import LabReport, Outcome, describe_difference, order_text
from compmath.mathtext import plain_prose
from compmath.present.charts import output_charts
from compmath.present.layout import (
    BLANK,
    Block,
    Cell,
    Chart,
    Column,
    Command,
    Para,
    StyledLine,
    Table,
    cut_end,
    line,
    para,
    wrap_words,
)
from compmath.present.trace import trace_blocks
from compmath.visible import visible
from compmath.wording import SHOWN_NUMBERS, count, seconds, value_text

OK, BAD, NEUTRAL = "✓", "✗", "·"
SHOWN_DIFFERENCES = 12
STREAM_LINES = 15
STREAM_WIDTH = 200  # a printed line longer than this shows its start and `…`
GUTTER = "  │ "


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


def _under(path: str, paths: list[str]) -> bool:
    return any(p == path or p.startswith((path + ".", path + "[")) for p in paths)


def _status(report: LabReport, path: str, *, one_side_only: bool) -> Cell:
    if report.outcome in (Outcome.EXPLORATION, Outcome.NO_SNAPSHOT) or report.expected is None:
        return Cell(NEUTRAL, "dim")
    failing = [d.path for d in report.differences] + [i.path for i in report.schema_issues]
    bad = one_side_only or _under(path, failing)
    return Cell(BAD, "bold red") if bad else Cell(OK, "green")


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


def _value(value: Any, *, missing: bool, limit: int | None) -> Cell:
    if missing:
        return Cell("—", "dim")
    if isinstance(value, dict):
        return Cell("")
    if isinstance(value, bool):
        return Cell(OK, "green") if value else Cell(BAD, "red")
    return Cell(value_text(value, limit))


def outputs_table(report: LabReport, *, verbose: bool = False) -> Table:
    """Output, obtained, expected, status: one row per output, nested dicts indented; values
    whole up to SHOWN_NUMBERS numbers (all of them with `verbose`), wrapped, never cut."""
    exploring = report.outcome == Outcome.EXPLORATION  # nothing expected: no such column
    budget = None if verbose else SHOWN_NUMBERS
    rows = []
    for label, path, o, e, o_missing, e_missing in _rows(report):
        want = _value(e, missing=e_missing or report.expected is None, limit=budget)
        rows.append(
            (
                Cell(label, "cyan"),
                _value(o, missing=o_missing, limit=budget),
                *(() if exploring else (want,)),
                _status(report, path, one_side_only=o_missing or e_missing),
            )
        )
    longest = max([len("salida")] + [len(row[0].text) for row in rows])
    return Table(
        (
            Column("salida", min(longest, 22), "name"),
            Column("obtenido", 12),
            *(() if exploring else (Column("esperado", 12),)),
            Column("estado", 6, "fixed", "center"),
        ),
        tuple(rows),
    )


def _named(report: LabReport, rule: str) -> list[str]:
    """The keys the schema issues breaking `rule` name (missing or disallowed keys)."""
    return [issue.key for issue in report.schema_issues if issue.rule == rule and issue.key]


def schema_fix(report: LabReport, schema_file: str, meta_file: str) -> list[Block]:
    """What an instructor edits after a schema failure: which files, what in each, what next."""
    extra, missing = _named(report, "additionalProperties"), _named(report, "required")
    if not extra and not missing:
        return [
            para(
                ("qué hacer: ", "bold"),
                f"corrige el laboratorio o la regla de {schema_file}",
                indent=2,
                hang=2,
            )
        ]
    keys = ", ".join(f"«{k}»" for k in extra or missing)
    them = "las" if len(extra or missing) > 1 else "la"
    if extra:
        what = f"{'son salidas nuevas' if them == 'las' else 'es una salida nueva'}, "
        what += f"declára{them} en el orden de run() en"
        edits = (
            (meta_file, "un [[salidas]] con su nombre y su descripción"),
            (schema_file, "en properties, con su tipo, y en required"),
        )
    else:
        what = f"{'ya no son salidas' if them == 'las' else 'ya no es una salida'}, quíta{them} de"
        edits = ((meta_file, "su [[salidas]]"), (schema_file, "properties y required"))
    return [
        para(("qué hacer: ", "bold"), f"si {keys} {what}", indent=2, hang=2),
        *(para("• ", (file, "cyan"), f": {where}", indent=4, hang=2) for file, where in edits),
        para("y escribe la instantánea:", indent=2),
        Command(f"compmath update {report.number}", indent=4),
    ]


def details(
    report: LabReport, files: tuple[str, str] = ("", ""), *, verbose: bool = False, root: str = ""
) -> list[Block]:
    """Differences, key order, schema issues, the lab's frames (paths relative to the course
    `root`) and its captured streams."""
    blocks: list[Block] = []
    if report.differences:
        shown = report.differences if verbose else report.differences[:SHOWN_DIFFERENCES]
        blocks.append(line(("Diferencias:", "bold red")))
        blocks += [
            para((f"{BAD} {describe_difference(d)}", "red"), indent=2, hang=2) for d in shown
        ]
        if len(shown) < len(report.differences):
            more = len(report.differences) - len(shown)
            blocks.append(
                para(f"… y {more} más: compmath run {report.number} -v las muestra todas", indent=2)
            )
    if report.order_differs:
        blocks.append(para((f"{BAD} {order_text(report)}", "red"), indent=2, hang=2))
    if report.schema_issues:
        schema_file, meta_file = files
        blocks.append(line((f"Esquema{f' ({schema_file})' if schema_file else ''}:", "bold red")))
        blocks += [
            para((f"{BAD} {i.path}: {i.message}", "red"), indent=2, hang=2)
            for i in report.schema_issues[: None if verbose else SHOWN_DIFFERENCES]
        ]
        if schema_file:
            blocks += schema_fix(report, schema_file, meta_file)
    if report.traceback or report.error_at is not None:
        stopped = report.outcome == Outcome.TIMEOUT
        blocks += trace_blocks(report.traceback, root, stopped=stopped, located=report.error_at)
    for name, text, size in (
        ("stdout", report.stdout, report.stdout_bytes),
        ("stderr", report.stderr, report.stderr_bytes),
    ):
        if not text:
            continue
        blocks.append(line((f"{name} del laboratorio ({count(size, 'byte', 'bytes')}):", "dim")))
        lines = text.splitlines()
        blocks.append(stream_chart(lines[:STREAM_LINES]))
        if size > len(text.encode("utf-8")) or len(lines) > STREAM_LINES:
            blocks.append(line((f"{GUTTER}… (recortado)", "dim")))
    return blocks


def stream_chart(lines: list[str]) -> Chart:
    """What a lab printed, each line under the gutter: one too wide for the screen wraps and its
    continuations keep the gutter; one longer than STREAM_WIDTH ends in `…`."""

    def draw(width: int | None, _colour: bool) -> list[StyledLine]:
        drawn: list[StyledLine] = []
        for text in lines:
            # shown as the screen will show it (controls made visible, tabs as spaces), then cut
            shown = visible(text.expandtabs())
            shown = cut_end(shown, STREAM_WIDTH)
            pieces = [shown] if width is None else wrap_words(shown, max(width - len(GUTTER), 8))
            drawn += [[(GUTTER + piece, "dim")] for piece in pieces]
        return drawn

    return Chart(draw)


def stopped_at(report: LabReport) -> str:
    """Where a timed-out lab was stopped: `lab.py, línea 8, en run` ("" when unknown)."""
    return str(report.stopped_at) if report.stopped_at else ""


def failure_text(report: LabReport) -> str:
    """Why a lab failed, in one sentence: its message, and where a timed-out lab was."""
    where = stopped_at(report)
    return f"{report.full_message} · estaba en {where}" if where else report.full_message


def failure_first(report: LabReport) -> list[Block]:
    """A failure with a traceback says why first, above where (the summary then only names it)."""
    if not report.traceback or not report.message:
        return []
    return [para((f"{report.outcome.label}: {failure_text(report)}", "bold red"), hang=2)]


def _matching(matched: int, total: int) -> str:
    """`3/4 salidas coinciden con la instantánea`; the noun agrees with the total, the verb with
    the outputs that match (`1/1 salida coincide`, `1/3 salidas coincide`)."""
    noun = "salida" if total == 1 else "salidas"
    verb = "coincide" if matched == 1 or total == 1 else "coinciden"
    return f"{matched}/{total} {noun} {verb} con la instantánea"


def summary(report: LabReport, told: bool = False) -> Para:
    """The closing line: how many outputs match, the schema verdict, the lab's time (`told`:
    the failure's message is already on the screen)."""
    total = len({**(report.expected or {}), **(report.outputs or {})})
    if report.outcome == Outcome.MATCHES:
        body = f"{_matching(total, total)} · esquema válido"
        style = "bold green"
    elif report.outcome == Outcome.EXPLORATION:
        sets = ", ".join(f"{k}={v}" for k, v in report.params.items())
        body = f"exploración ({sets}) · esquema válido · no se compara con la instantánea"
        style = "bold yellow"
    elif report.outcome == Outcome.DIFFERS:
        moved = {d.output for d in report.differences}
        pieces = [
            _matching(total - len(moved), total),
            count(len(report.differences), "diferencia", "diferencias"),
        ]
        if report.order_differs:
            pieces.append("otro orden de salidas")
        body = " · ".join([*pieces, "esquema válido"])
        style = "bold red"
    else:
        label = report.outcome.label
        body = f"{label}: {failure_text(report)}" if report.message and not told else label
        if report.outcome == Outcome.INVALID and report.differences:
            body += f" · {count(len(report.differences), 'diferencia', 'diferencias')}"
            body += " con la instantánea"
        style = "bold red"
    return Para(((f"{body} · {seconds(report.duration)}", style),), hang=2)


def claim_blocks(outputs: dict[str, Any], statements: dict[str, str]) -> list[Block]:
    """What each claim of the lab asserts, beside its ✓ or ✗: its description in class.toml,
    conditions included («con d = 64»), so a ✓ is read as the statement it is, not as more."""
    claims = [(name, value) for name, value in outputs.items() if isinstance(value, bool)]
    said = [(name, value, statements[name]) for name, value in claims if statements.get(name)]
    if not said:
        return []
    blocks: list[Block] = [BLANK, line(("Qué dice cada afirmación:", "bold"))]
    for name, value, statement in said:
        mark = (OK, "green") if value else (BAD, "red")
        blocks.append(para(mark, f" {name}: ", (plain_prose(statement), "dim"), indent=2, hang=4))
    return blocks


def run_screen(
    report: LabReport,
    info: Header,
    width: int | None,
    *,
    files: tuple[str, str] = ("", ""),
    charts: bool = True,
    verbose: bool = False,
    root: str = "",
    statements: dict[str, str] | None = None,
) -> list[Block]:
    """The whole `run` screen: header, outputs table, what each claim asserts (`statements`:
    the outputs' descriptions), charts, details and the summary."""
    blocks = header(info)
    if report.outputs == {} and not report.expected:
        blocks.append(para(("run() devolvió un dict vacío: no hay salidas que mostrar", "yellow")))
    elif report.outputs is not None:
        blocks.append(outputs_table(report, verbose=verbose))
        blocks += claim_blocks(report.outputs, statements or {})
        if charts and width is not None:
            blocks += output_charts(report.outputs, report.differences)
    first = failure_first(report)
    return [
        *blocks,
        *first,
        *details(report, files, verbose=verbose, root=root),
        summary(report, told=bool(first)),
    ]
