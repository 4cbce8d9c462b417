"""`compmath diff` as a screen (a table per class, or two lines per output when narrow) and as
a Markdown table for a CI job summary or a pull request comment."""

from __future__ import annotations

from dataclasses import dataclass

from compmath.authoring.snapchanges import ClassStatus, OutputChange, SnapshotDiff
from compmath.present.layout import BLANK, Block, Cell, Column, Table, cell_width, line, para
from compmath.wording import DETAIL_NUMBERS, count, number, percent, value_text

OK, BAD = "✓", "✗"
COLUMNS = ("salida", "cambio", "elemento", "antes", "después", "Δ abs", "Δ rel", "veredicto")
STATUS_TEXT = {ClassStatus.NEW: "instantánea nueva", ClassStatus.DELETED: "instantánea eliminada"}


@dataclass(frozen=True)
class Row:
    """One changed output (or a whole-class change when `output` is empty), as display text."""

    label: str
    output: str
    change: str
    path: str = ""
    before: str = ""
    after: str = ""
    delta: str = ""
    relative: str = ""
    verdict: str = ""
    real: bool = True
    element: bool = False  # one element of the output above (`--all`)


def _number(x: float) -> str:
    return number(x, 3)


def _shown(value: object) -> str:
    """A value before or after, as a difference quotes it (wording.value_text)."""
    return value_text(value, DETAIL_NUMBERS)


def _verdict(*, real: bool, tolerance: float | None) -> str:
    word = "real" if real else "ruido"
    if tolerance is None:
        return word
    return f"{word} ({'>' if real else '≤'} tol {_number(tolerance)})"


def _element_rows(label: str, change: OutputChange) -> list[Row]:
    """One row per element of a change but the worst (the change's own row), in the order the
    comparison found them."""
    rows = []
    for d in change.elements:
        if d.path == change.path:
            continue
        relative_change = d.relative
        rows.append(
            Row(
                label,
                change.name,
                "",
                d.path,
                _shown(d.expected),
                _shown(d.obtained),
                "" if d.abs_error is None else _number(d.abs_error),
                "" if relative_change is None else percent(relative_change),
                _verdict(real=not d.within, tolerance=d.tolerance),
                not d.within,
                element=True,
            )
        )
    return rows


def diff_rows(diff: SnapshotDiff, *, elements: bool = False) -> list[Row]:
    """One row per changed output or new/deleted/reordered class; with `elements`, one more per
    element that moved."""
    rows: list[Row] = []
    for c in diff.classes:
        label = f"{c.number} {c.title}"
        if c.status in STATUS_TEXT:
            what = f"{STATUS_TEXT[c.status]} ({count(c.count, 'salida', 'salidas')})"
            rows.append(Row(label, "", what, verdict="real"))
        if c.order_changed:
            rows.append(Row(label, "", "cambia el orden de las salidas", verdict="real"))
        for o in c.outputs:
            rows.append(
                Row(
                    label,
                    o.name,
                    o.kind.label + (f": {o.detail}" if o.detail else ""),
                    o.path,
                    "" if o.kind == "nueva" else _shown(o.before),
                    "" if o.kind == "eliminada" else _shown(o.after),
                    "" if o.abs_change is None else _number(o.abs_change),
                    "" if o.rel_change is None else percent(o.rel_change),
                    _verdict(real=o.real, tolerance=o.tolerance),
                    o.real,
                )
            )
            if elements:
                rows += _element_rows(label, o)
    return rows


def footer(diff: SnapshotDiff) -> list[str]:
    """The closing lines: what changed, the unchanged classes in one line, the verdict."""
    changed = diff.with_status(ClassStatus.CHANGED)
    noise = sum(not c.real for c in changed)
    moved = (
        f"{count(len(changed), 'clase cambia', 'clases cambian')} "
        f"({len(changed) - noise} con cambios reales, {noise} solo ruido)"
    )
    added, deleted = diff.with_status(ClassStatus.NEW), diff.with_status(ClassStatus.DELETED)
    # the heading names the base; with nothing changed, added or deleted, the verdict says it
    lines = (
        [
            " · ".join(
                [
                    moved,
                    count(len(added), "nueva", "nuevas"),
                    count(len(deleted), "eliminada", "eliminadas"),
                ]
            )
        ]
        if changed or added or deleted
        else []
    )
    same = diff.with_status(ClassStatus.UNCHANGED)
    if same:
        numbers = ", ".join(str(c.number) for c in same)
        lines.append(f"sin cambios: {count(len(same), 'clase', 'clases')} ({numbers})")
    if diff.real:
        lines.append("hay cambios reales: revísalos antes de aceptar las instantáneas")
    elif changed:
        lines.append("ningún cambio supera la tolerancia: solo ruido")
    else:
        lines.append("ninguna instantánea cambió")
    return lines


def _table(rows: list[Row]) -> Table:
    return Table(
        (
            Column(COLUMNS[0], 8, "keep_end"),
            Column(COLUMNS[1], 16),
            Column(COLUMNS[2], 8, "fixed"),  # a path to look up: whole, or the stacked form
            Column(COLUMNS[3], 12),
            Column(COLUMNS[4], 12),
            Column(COLUMNS[5], 5, "fixed", "right"),
            Column(COLUMNS[6], 5, "fixed", "right"),
            Column(COLUMNS[7], 14),
        ),
        tuple(
            (
                Cell("" if r.element else r.output),
                Cell(r.change),
                Cell(r.path),
                Cell(r.before),
                Cell(r.after),
                Cell(r.delta),
                Cell(r.relative),
                Cell(f"{BAD if r.real else OK} {r.verdict}", "bold red" if r.real else "green"),
            )
            for r in rows
        ),
        indent=2,
    )


def _fits(rows: list[Row], width: int | None) -> bool:
    """Whether the table fits with no column squeezed below its minimum (paths whole)."""
    if width is None:
        return True
    table = _table(rows)
    natural = [
        max([cell_width(c.head)] + [cell_width(row[i].text) for row in table.rows])
        for i, c in enumerate(table.columns)
    ]
    least = sum(
        n if c.shrink == "fixed" else min(n, max(cell_width(c.head), c.min_width))
        for n, c in zip(natural, table.columns)
    )
    return least + 2 * (len(table.columns) - 1) + table.indent <= width


def _stacked(row: Row) -> list[Block]:
    mark, style = (BAD, "bold red") if row.real else (OK, "green")
    change = " · ".join(x for x in (row.delta, row.relative) if x)
    head = (
        []
        if row.element
        else [para((f"{mark} {row.output}: {row.change}", style), indent=2, hang=4)]
    )
    return [
        *head,
        para(
            f"{row.path}: {row.before or '—'} → {row.after or '—'}"
            + (f" · Δ {change}" if change else "")
            + f" · {row.verdict}",
            indent=6,
            hang=2,
        ),
    ]


def diff_screen(diff: SnapshotDiff, width: int | None, *, elements: bool = False) -> list[Block]:
    """Per class a heading and its moved outputs (and every element, with `elements`), then
    the footer."""
    blocks: list[Block] = [
        line((f"Cambios de instantáneas frente a {diff.base} ({diff.commit[:7]})", "bold"))
    ]
    groups: dict[str, list[Row]] = {}
    for row in diff_rows(diff, elements=elements):
        groups.setdefault(row.label, []).append(row)
    for label, rows in groups.items():
        blocks += [BLANK, line((label, "bold"))]
        whole = [r for r in rows if not r.output]
        outputs = [r for r in rows if r.output]
        blocks += [para((f"{BAD} {r.change}", "bold red"), indent=2, hang=4) for r in whole]
        if outputs and _fits(outputs, width):
            blocks.append(_table(outputs))
        else:
            for row in outputs:
                blocks += _stacked(row)
    notes = footer(diff)
    blocks.append(BLANK)
    blocks += [para((note, "dim"), hang=2) for note in notes[:-1]]
    blocks.append(para((notes[-1], "bold red" if diff.real else "bold green"), hang=2))
    return blocks


def _md(text: str, *, code: bool = False) -> str:
    """A Markdown table cell: pipes escaped, one line, code spans that survive backticks."""
    text = text.replace("\n", " ").replace("|", "\\|")
    if not code or not text:
        return text
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def markdown(diff: SnapshotDiff, *, elements: bool = False) -> str:
    """One Markdown table for a CI job summary or a PR comment, with a heading and the footer."""
    lines = [f"### Cambios de instantáneas frente a `{_md(diff.base)}` ({diff.commit[:7]})", ""]
    rows = diff_rows(diff, elements=elements)
    if rows:
        lines.append("| clase | " + " | ".join(COLUMNS) + " |")
        lines.append("| --- | --- | --- | --- | --- | --- | ---: | ---: | --- |")
        previous = None
        for r in rows:
            label = "" if r.label == previous else _md(r.label)
            previous = r.label
            name = "" if r.element else _md(r.output, code=True) if r.output else "—"
            body = [label, name, _md(r.change)]
            body += [_md(cell, code=True) for cell in (r.path, r.before, r.after)]
            body += [_md(r.delta), _md(r.relative), f"**{r.verdict}**" if r.real else r.verdict]
            lines.append("| " + " | ".join(body) + " |")
        lines.append("")
    lines += [_md(note) + "  " for note in footer(diff)]
    return "\n".join(lines).rstrip() + "\n"
