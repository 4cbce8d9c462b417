"""`compmath diff`: review snapshot changes against a git revision (table, Markdown or JSON)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from compmath.cli import RootOption, app, guard, open_course
from compmath.errors import CompmathError
from compmath.report import count_phrase

if TYPE_CHECKING:  # the diff machinery (git, comparison) loads only when `diff` runs
    from compmath.snapdiff import OutputChange, SnapshotDiff

FORMATS = ("tabla", "markdown", "json")
COLUMNS = (
    "clase",
    "salida",
    "cambio",
    "elemento",
    "antes",
    "después",
    "Δ abs",
    "Δ rel",
    "veredicto",
)
STATUS_TEXT = {"nueva": "instantánea nueva", "eliminada": "instantánea eliminada"}


def _number(x: float) -> str:
    return f"{x:.3g}"


def _percent(x: float) -> str:
    """Prose number, Spanish style: 12,5 %."""
    return f"{100 * x:.3g}".replace(".", ",") + " %"


def _verdict(change: OutputChange) -> str:
    if change.tolerance is None:
        return "real" if change.real else "ruido"
    sign = ">" if change.real else "≤"
    return f"{'real' if change.real else 'ruido'} ({sign} tol {_number(change.tolerance)})"


def kind_label(kind: str) -> str:
    from compmath.snapdiff import KIND_LABELS

    return KIND_LABELS[kind]


def diff_rows(diff: SnapshotDiff) -> list[tuple[list[Any], bool]]:
    """One row per changed output or new/deleted class: raw cells, and whether it is real."""
    from compmath.encode import compact

    rows: list[tuple[list[Any], bool]] = []
    for c in diff.classes:
        label = f"{c.number} {c.title}"
        if c.status in STATUS_TEXT:
            what = f"{STATUS_TEXT[c.status]} ({count_phrase(c.count, 'salida', 'salidas')})"
            rows.append(([label, "—", what, "", "", "", "", "", "real"], True))
        if c.order_changed:
            rows.append(
                ([label, "—", "cambia el orden de las salidas", "", "", "", "", "", "real"], True)
            )
        for o in c.outputs:
            what = kind_label(o.kind) + (f": {o.detail}" if o.detail else "")
            before = "" if o.kind == "nueva" else compact(o.before, 30)
            after = "" if o.kind == "eliminada" else compact(o.after, 30)
            rows.append(
                (
                    [
                        label,
                        o.name,
                        what,
                        o.path,
                        before,
                        after,
                        "" if o.abs_change is None else _number(o.abs_change),
                        "" if o.rel_change is None else _percent(o.rel_change),
                        _verdict(o),
                    ],
                    o.real,
                )
            )
    return rows


def footer(diff: SnapshotDiff) -> list[str]:
    """The closing lines: what changed, the unchanged classes in one line, the verdict."""
    changed = diff.with_status("cambiada")
    noise = sum(not c.real for c in changed)
    moved = (
        f"{count_phrase(len(changed), 'clase cambia', 'clases cambian')} "
        f"({len(changed) - noise} con cambios reales, {noise} solo ruido)"
    )
    lines = [
        " · ".join(
            [
                f"base: {diff.base} ({diff.commit[:7]})",
                moved,
                count_phrase(len(diff.with_status("nueva")), "nueva", "nuevas"),
                count_phrase(len(diff.with_status("eliminada")), "eliminada", "eliminadas"),
            ]
        )
    ]
    same = diff.with_status("sin_cambios")
    if same:
        numbers = ", ".join(str(c.number) for c in same)
        lines.append(f"sin cambios: {count_phrase(len(same), 'clase', 'clases')} ({numbers})")
    if diff.real:
        lines.append("hay cambios reales: revísalos antes de aceptar las instantáneas")
    elif changed:
        lines.append("ningún cambio supera la tolerancia: solo ruido")
    else:
        lines.append("ninguna instantánea cambió")
    return lines


def _md(text: str, code: bool = False) -> str:
    """A Markdown table cell: pipes escaped, one line, code spans that survive backticks."""
    text = text.replace("\n", " ").replace("|", "\\|")
    if not code or not text:
        return text
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def markdown(diff: SnapshotDiff) -> str:
    """One Markdown table for a CI job summary or a PR comment, with a heading and the footer."""
    lines = [f"### Cambios de instantáneas frente a `{_md(diff.base)}` ({diff.commit[:7]})", ""]
    rows = diff_rows(diff)
    if rows:
        lines.append("| " + " | ".join(COLUMNS) + " |")
        lines.append("| --- | --- | --- | --- | --- | --- | ---: | ---: | --- |")
        previous = None
        for cells, real in rows:
            label = "" if cells[0] == previous else _md(cells[0])
            previous = cells[0]
            body = [label, _md(cells[1], code=cells[1] != "—"), _md(cells[2])]
            body += [_md(cell, code=True) for cell in cells[3:6]]
            body += [_md(cells[6]), _md(cells[7]), f"**{cells[8]}**" if real else cells[8]]
            lines.append("| " + " | ".join(body) + " |")
        lines.append("")
    lines += [_md(line) + "  " for line in footer(diff)]
    return "\n".join(lines).rstrip() + "\n"


@app.command("diff")
def diff(
    names: Annotated[
        list[str] | None, typer.Argument(metavar="[CLASE]...", help="Clases (por defecto, todas).")
    ] = None,
    base: Annotated[
        str, typer.Option("--base", metavar="REV", help="Revisión de git con la que comparar.")
    ] = "HEAD",
    fmt: Annotated[
        str, typer.Option("--format", metavar="FORMATO", help="tabla, markdown o json.")
    ] = "tabla",
    as_json: Annotated[bool, typer.Option("--json", help="Imprime el resultado en JSON.")] = False,
    fail_on_change: Annotated[
        bool,
        typer.Option("--fail-on-change", help="Sale con 1 si algún cambio supera la tolerancia."),
    ] = False,
    root: RootOption = None,
) -> None:
    """Compara las instantáneas con las de una revisión de git: qué salidas cambian y cuánto."""
    with guard():
        if fmt not in FORMATS:
            raise CompmathError(
                f"formato desconocido «{fmt}»", "usa --format tabla, --format markdown o --json"
            )
        if as_json and fmt not in ("tabla", "json"):
            raise CompmathError("--json y --format markdown no se combinan", "elige uno de los dos")
        fmt = "json" if as_json else fmt
        from compmath.snapdiff import diff_snapshots

        result = diff_snapshots(open_course(root), names or [], base)
    if fmt == "json":
        from compmath.encode import dumps

        sys.stdout.write(dumps(result.to_dict()))
    elif fmt == "markdown":
        sys.stdout.write(markdown(result))
    else:
        from compmath.render import make_console, render_diff

        render_diff(
            make_console(),
            f"Cambios de instantáneas frente a {base} ({result.commit[:7]})",
            COLUMNS,
            diff_rows(result),
            footer(result),
            result.real,
        )
    raise typer.Exit(1 if fail_on_change and result.real else 0)
