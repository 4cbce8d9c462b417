"""The `run` screen as styled lines of text: laid out here, printed plain or through Rich.

No Rich here. A pipe, a file or NO_COLOR gets these lines as plain text straight away; only a
colour terminal pays for Rich (render.py), which adds the styles and the heatmaps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TextIO

from compmath.encode import compact
from compmath.report import OUTCOMES, LabReport, count_phrase, describe_difference

OK, BAD, NEUTRAL = "✓", "✗", "·"
Segment = tuple[str, str]  # (text, Rich style name or "")
Line = list[Segment]


def seconds(value: float) -> str:
    """Prose number, Spanish style: 0,04 s."""
    return f"{value:.2f}".replace(".", ",") + " s"


def _cell(value: Any, missing: bool, limit: int) -> Segment:
    if missing:
        return "—", "dim"
    if isinstance(value, dict):
        return "", ""
    if isinstance(value, bool):
        return (OK, "green") if value else (BAD, "red")
    return compact(value, limit), ""


def _under(path: str, paths: Iterator[str]) -> bool:
    return any(p == path or p.startswith((path + ".", path + "[")) for p in paths)


def _status(report: LabReport, path: str) -> Segment:
    if report.outcome in ("exploracion", "sin_instantanea") or report.expected is None:
        return NEUTRAL, "dim"
    bad = (d.path for d in report.differences)
    invalid = (i.path for i in report.schema_issues)
    if _under(path, bad) or _under(path, invalid):
        return BAD, "bold red"
    return OK, "green"


def rows(report: LabReport) -> Iterator[tuple[str, str, Any, Any, bool, bool]]:
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


def header(info: dict[str, Any]) -> list[Line]:
    """Number, title, part, level, "clase k de N", duration."""
    pieces = [
        f"Parte {info['parte']}",
        info.get("nivel"),
        f"clase {info['k']} de {info['n']}",
        info.get("duracion"),
    ]
    return [
        [(f"{info['numero']} — {info['titulo']}", "bold")],
        [(" · ".join(str(p) for p in pieces if p), "dim")],
        [],
    ]


def outputs_table(report: LabReport, width: int) -> list[Line]:
    """Output, obtained, expected, status: one row per output, nested dicts indented."""
    table = list(rows(report))
    exploring = report.outcome == "exploracion"
    heads = (
        "salida",
        "obtenido",
        "esperado (no se compara)" if exploring else "esperado",
        "estado",
    )
    label_w = min(40, max(len(heads[0]), *(len(r[0]) for r in table)))
    value_w = max(12, (width - label_w - len(heads[3]) - 6) // 2)
    lines: list[Line] = [
        [
            (heads[0].ljust(label_w) + "  ", "bold"),
            (heads[1].ljust(value_w) + "  ", "bold"),
            (heads[2][:value_w].ljust(value_w) + "  ", "bold"),
            (heads[3], "bold"),
        ]
    ]
    for label, path, o, e, o_missing, e_missing in table:
        got, got_style = _cell(o, o_missing, value_w)
        want, want_style = _cell(e, e_missing or report.expected is None, value_w)
        mark, mark_style = _status(report, path)
        lines.append(
            [
                (label[:label_w].ljust(label_w) + "  ", "cyan"),
                (got.ljust(value_w) + "  ", got_style),
                (want.ljust(value_w) + "  ", "dim" if exploring else want_style),
                (mark.center(len(heads[3])).rstrip(), mark_style),
            ]
        )
    return lines


def details(report: LabReport, limit: int = 12) -> list[Line]:
    """Differences, schema issues, the lab's traceback and its captured streams."""
    lines: list[Line] = []
    if report.differences:
        lines.append([("Diferencias:", "bold red")])
        lines += [
            [(f"  {BAD} {describe_difference(d)}", "red")] for d in report.differences[:limit]
        ]
        if len(report.differences) > limit:
            more = len(report.differences) - limit
            lines.append([(f"  … y {more} más (compmath run --json las lista todas)", "")])
    lines += [
        [(f"  {BAD} esquema: {i.path}: {i.message}", "red")] for i in report.schema_issues[:limit]
    ]
    if report.traceback:
        lines.append([("Traza del laboratorio:", "bold red")])
        lines += [[(text, "red")] for text in report.traceback.rstrip().splitlines()]
    for name, text, size in (
        ("stdout", report.stdout, report.stdout_bytes),
        ("stderr", report.stderr, report.stderr_bytes),
    ):
        if not text:
            continue
        lines.append([(f"{name} del laboratorio ({size} bytes):", "dim")])
        shown = text.splitlines()
        lines += [[("  │ " + line[:200], "dim")] for line in shown[:15]]
        if size > len(text.encode("utf-8")) or len(shown) > 15:
            lines.append([("  │ … (recortado)", "dim")])
    return lines


def summary(report: LabReport) -> Line:
    """The closing line: how many outputs match, schema verdict, the lab's time."""
    total = len(report.outputs or {})
    if report.outcome == "coincide":
        body, style = (
            f"{total}/{total} salidas coinciden con la instantánea · esquema válido",
            "bold green",
        )
    elif report.outcome == "exploracion":
        sets = ", ".join(f"{k}={v}" for k, v in report.params.items())
        body = f"exploración ({sets}) · esquema válido · no se compara con la instantánea"
        style = "bold yellow"
    elif report.outcome == "difiere":
        moved = {d.path.split(".")[1].split("[")[0] for d in report.differences}
        body = (
            f"{total - len(moved)}/{total} salidas coinciden con la instantánea · "
            f"{count_phrase(len(report.differences), 'diferencia', 'diferencias')} · esquema válido"
        )
        style = "bold red"
    else:
        name = OUTCOMES[report.outcome]
        body, style = (f"{name}: {report.message}" if report.message else name), "bold red"
    return [(f"{body} · {seconds(report.duration)}", style)]


def run_screen(
    report: LabReport, info: dict[str, Any], width: int
) -> tuple[list[Line], list[Line]]:
    """The screen in two parts: header and table, then the details and summary that follow."""
    top = header(info) + (outputs_table(report, width) if report.outputs is not None else [])
    return top, [*details(report), summary(report)]


def write_plain(lines: list[Line], stream: TextIO) -> None:
    """Print styled lines as plain text (trailing spaces trimmed)."""
    stream.write("".join("".join(text for text, _ in line).rstrip() + "\n" for line in lines))


def fit(text: str, width: int) -> str:
    """Cut text to a column's width with an ellipsis."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def table(
    heads: tuple[str, ...],
    body: list[tuple[list[str], list[str]]],
    width: int,
    flex: int,
    right: frozenset[int] = frozenset(),
) -> list[Line]:
    """Aligned columns (cells, styles per row); column `flex` shrinks so a row fits `width`."""
    widths = [max([len(h)] + [len(cells[i]) for cells, _ in body]) for i, h in enumerate(heads)]
    room = width - sum(widths) + widths[flex] - 2 * (len(heads) - 1)
    widths[flex] = max(12, min(widths[flex], room))

    def row(cells: list[str], styles: list[str]) -> Line:
        out: Line = []
        for i, (text, style, w) in enumerate(zip(cells, styles, widths)):
            text = fit(text, w)
            text = text.rjust(w) if i in right else text.ljust(w)
            out.append((text + ("  " if i < len(heads) - 1 else ""), style))
        return out

    return [row(list(heads), ["bold"] * len(heads))] + [row(c, s) for c, s in body]


def list_screen(parts: list[tuple[str, list[dict[str, Any]]]], width: int) -> list[Line]:
    """The `list` screen: per part a heading, its classes in plan order, pending ones dimmed."""
    columns = ("numero", "titulo", "nivel", "duracion", "estado")
    heads = ("nº", "título", "nivel", "duración", "estado")
    lines: list[Line] = []
    for heading, rows in parts:
        body = [
            ([str(r[c]) for c in columns], ["dim" if r["estado"] == "pendiente" else ""] * 5)
            for r in rows
        ]
        written = sum(r["estado"] != "pendiente" for r in rows)
        lines.append([(heading, "bold")])
        lines += table(heads, body, width, flex=1)
        lines += [
            [(f"{written} de {count_phrase(len(rows), 'clase', 'clases')} escritas", "dim")],
            [],
        ]
    return lines


def check_screen(reports: list[LabReport], elapsed: float, width: int) -> list[Line]:
    """The `check` summary: class, outcome, time per lab, then a count line and what to run next."""
    body = []
    for r in reports:
        mark = OK if r.passed else BAD
        body.append(
            (
                [
                    fit(f"{r.number} {r.title}", 48),
                    f"{mark} {OUTCOMES[r.outcome]}",
                    seconds(r.duration),
                ],
                ["", "green" if r.passed else "bold red", ""],
            )
        )
    rows = table(("clase", "resultado", "tiempo"), body, width, flex=1, right=frozenset({2}))
    lines = rows[:1]
    for r, row in zip(reports, rows[1:]):
        lines.append(row)
        if not r.passed and r.message:  # the whole reason, never cut: it is what CI logs keep
            lines.append([(f"    {r.message}", "red")])
    failed = [r for r in reports if not r.passed]
    total = count_phrase(len(reports), "laboratorio", "laboratorios")
    if not failed:
        return [
            *lines,
            [(f"{total}: todos coinciden con su instantánea · {seconds(elapsed)}", "bold green")],
        ]
    ok = len(reports) - len(failed)
    count = (
        f"{total}: {ok} {'correcto' if ok == 1 else 'correctos'}, "
        f"{len(failed)} {'falla' if len(failed) == 1 else 'fallan'} · {seconds(elapsed)}"
    )
    return [*lines, [(count, "bold red")], [(f"siguiente: compmath run {failed[0].number}", "")]]
