"""Deadlines: curso.toml's [entrega] read as a policy, and each student's lateness under it.

The policy is a due date, a deduction per late day or in steps, an optional grace period and a
cut-off past which the work scores 0. Days late count started days (one minute late is one day),
as nbgrader's and Canvas's late policies do. An extension moves the student's whole timeline
(due date and cut-off) by the same amount. The deduction is a percentage of the points earned,
kept apart from them: records and notas.csv hold both, never the deducted figure alone.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from compmath.errors import CompmathError

DAY = dt.timedelta(days=1)
ON_TIME, LATE, CLOSED, UNKNOWN = "a tiempo", "tarde", "fuera de plazo", "sin fecha"
HINT = "escribe la fecha como 2026-12-15T23:59:00+01:00 (o 2026-12-15 23:59 con zona = …)"
MONTHS = {
    **{m: k for k, m in enumerate(("enero", "febrero", "marzo", "abril", "mayo", "junio"), 1)},
    **{m: k for k, m in enumerate(("julio", "agosto", "septiembre", "octubre"), 7)},
    "setiembre": 9,
    "noviembre": 11,
    "diciembre": 12,
    **{m: k for k, m in enumerate(("january", "february", "march", "april", "may", "june"), 1)},
    **{m: k for k, m in enumerate(("july", "august", "september", "october"), 7)},
    "november": 11,
    "december": 12,
}
ISO = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?$"  # fractions of a second (GitHub's, Canvas's) are dropped
)
DMY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})(?:[ ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
# Moodle's dates as its worksheet writes them: «miércoles, 17 de diciembre de 2026, 10:05»,
# «Wednesday, 17 December 2026, 10:05 AM»
LONG = re.compile(
    r"^(?:[^\d,]+,\s*)?(\d{1,2})\s+(?:de\s+)?([a-zé]+)\s+(?:de\s+)?(\d{4}),?\s+"
    r"(\d{1,2}):(\d{2})\s*([ap]\.?\s?m\.?)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Step:
    """Up to `days` days late, `percent` of the points is deducted."""

    days: int
    percent: float


@dataclass(frozen=True)
class Policy:
    """[entrega]: the due date, how lateness is charged, the cut-off, the extensions file."""

    due: dt.datetime  # aware
    zone: dt.tzinfo
    per_day: float = 0.0  # percent per started day (when there are no steps)
    steps: tuple[Step, ...] = ()
    cutoff: dt.datetime | None = None  # aware; None: the end of the last step, or never
    grace: dt.timedelta = dt.timedelta(0)
    extensions: str = ""  # a CSV, relative to the course root

    @property
    def last_cutoff(self) -> dt.datetime | None:
        """The cut-off: given, or the end of the last step."""
        if self.cutoff is not None:
            return self.cutoff
        return self.due + self.steps[-1].days * DAY if self.steps else None

    def percent(self, days: int) -> float | None:
        """The deduction for `days` started days late; None past the last step."""
        if days <= 0:
            return 0.0
        if self.steps:
            return next((s.percent for s in self.steps if days <= s.days), None)
        return min(100.0, self.per_day * days)


@dataclass(frozen=True)
class Lateness:
    """When one student's work arrived and what it costs (Spanish words in `state`)."""

    state: str  # ON_TIME, LATE, CLOSED or UNKNOWN
    due: str  # ISO, in the course's zone, after any extension
    delivered: str = ""  # ISO, in the course's zone ("" when unknown)
    source: str = ""  # where the time came from, in Spanish
    days: int = 0
    percent: float = 0.0
    extension: str = ""  # why the due date moved, if it did
    marked: bool = False  # late by the LMS's mark (Canvas's `_LATE_`), not by its time

    def final(self, earned: float) -> float:
        """The points after the deduction."""
        if self.state == CLOSED:
            return 0.0
        return round(earned * (1 - self.percent / 100), 4)

    def to_dict(self) -> dict[str, Any]:
        return {
            "estado": self.state,
            "plazo": self.due,
            "entregado_en": self.delivered,
            "fuente": self.source,
            "dias_tarde": self.days,
            "penalizacion": self.percent,
            "prorroga": self.extension,
            "marcada_tarde": self.marked,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Lateness:
        return cls(
            str(data["estado"]),
            str(data["plazo"]),
            str(data.get("entregado_en", "")),
            str(data.get("fuente", "")),
            int(data.get("dias_tarde", 0)),
            float(data.get("penalizacion", 0.0)),
            str(data.get("prorroga", "")),
            bool(data.get("marcada_tarde", False)),
        )


def zone_of(name: str) -> dt.tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise CompmathError(
            f"[entrega] zona = «{name}»: no es una zona horaria", 'p. ej. zona = "Europe/Madrid"'
        ) from None


def parse_time(value: Any, zone: dt.tzinfo | None, *, end_of_day: bool, what: str) -> dt.datetime:
    """A TOML date or datetime, or a text (ISO, dd/mm/aaaa, Moodle's long form), as an aware
    datetime; a time without an offset is read in `zone`; a date alone is the day's start, or
    its last second with `end_of_day` (a due date). Anything else: one Spanish error."""
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime.combine(value, dt.time(23, 59, 59) if end_of_day else dt.time())
    elif isinstance(value, str):
        moment = _from_text(value.strip(), end_of_day, what)
    else:
        raise CompmathError(f"{what}: «{value}» no es una fecha", HINT)
    if moment.tzinfo is None:
        if zone is None:
            raise CompmathError(
                f"{what}: «{value}» no dice su zona horaria",
                'añade el desfase (2026-12-15T23:59+01:00) o zona = "Europe/Madrid" en [entrega]',
            )
        moment = moment.replace(tzinfo=zone)
    return moment


def _from_text(text: str, end_of_day: bool, what: str) -> dt.datetime:
    bad = CompmathError(f"{what}: «{text}» no es una fecha", HINT)
    parts: tuple[int, ...]
    offset = None
    if match := ISO.match(text):
        year, month, day = (int(match[k]) for k in (1, 2, 3))
        parts = (year, month, day)
        clock = match[4]
        hms = (int(match[4]), int(match[5]), int(match[6] or 0)) if clock else None
        offset = match[7]
    elif match := DMY.match(text):
        parts = (int(match[3]), int(match[2]), int(match[1]))
        hms = (int(match[4]), int(match[5]), int(match[6] or 0)) if match[4] else None
    elif match := LONG.match(text):
        month_number = MONTHS.get(match[2].lower())
        if month_number is None:
            raise bad
        hour = int(match[4]) % 12 if match[6] else int(match[4])
        if match[6] and match[6].lower().startswith("p"):
            hour += 12
        parts, hms = (int(match[3]), month_number, int(match[1])), (hour, int(match[5]), 0)
    else:
        raise bad
    if hms is None:
        hms = (23, 59, 59) if end_of_day else (0, 0, 0)
    try:
        moment = dt.datetime(*parts, *hms)
    except ValueError:
        raise bad from None
    if offset:
        if offset == "Z":
            return moment.replace(tzinfo=dt.UTC)
        sign = -1 if offset[0] == "-" else 1
        digits = offset[1:].replace(":", "")
        delta = dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        return moment.replace(tzinfo=dt.timezone(sign * delta))
    return moment


def policy_of(table: dict[str, Any] | None) -> Policy | None:
    """curso.toml's [entrega] (checked against its schema already) as a Policy; None without."""
    if not table:
        return None
    zone = zone_of(table["zona"]) if "zona" in table else None
    due = parse_time(table["fecha"], zone, end_of_day=True, what="[entrega] fecha")
    zone = zone or due.tzinfo or dt.UTC
    cutoff = None
    if "cierre" in table:
        cutoff = parse_time(table["cierre"], zone, end_of_day=True, what="[entrega] cierre")
        if cutoff < due:
            raise CompmathError(
                "[entrega] cierre es anterior a la fecha de entrega",
                "el cierre es el último momento en que se acepta una entrega tardía",
            )
    steps = tuple(Step(int(s["dias"]), float(s["descuento"])) for s in table.get("tramos", ()))
    if [s.days for s in steps] != sorted({s.days for s in steps}):
        raise CompmathError(
            "[entrega] tramos: los días deben crecer de un tramo al siguiente",
            "p. ej. tramos = [{dias = 1, descuento = 10}, {dias = 3, descuento = 30}]",
        )
    if steps and "descuento_por_dia" in table:
        raise CompmathError(
            "[entrega] tiene descuento_por_dia y tramos a la vez", "deja solo uno de los dos"
        )
    return Policy(
        due,
        zone,
        float(table.get("descuento_por_dia", 0.0)),
        steps,
        cutoff,
        dt.timedelta(minutes=int(table.get("margen_minutos", 0))),
        str(table.get("prorrogas", "")),
    )


@dataclass(frozen=True)
class Extension:
    """A student's extension: the new due date, or days more; and why."""

    due: dt.datetime | None = None
    days: float = 0.0
    reason: str = ""


def _shown(moment: dt.datetime, zone: dt.tzinfo) -> str:
    return moment.astimezone(zone).isoformat(timespec="minutes")


def assess(
    policy: Policy,
    delivered: dt.datetime | None,
    source: str,
    extension: Extension | None = None,
    *,
    marked_late: bool = False,
) -> Lateness:
    """One student's lateness. `delivered` None: no trusted time (UNKNOWN), unless the LMS
    `marked_late` it: then it is late by at least one day (the LMS's word is never outvoted
    by a time that says otherwise)."""
    shift = dt.timedelta(0)
    said = ""
    if extension is not None:
        if extension.due is not None:
            shift = extension.due - policy.due
        else:
            shift = dt.timedelta(days=extension.days)
        said = extension.reason or "prórroga"
    due = policy.due + shift
    cutoff = policy.last_cutoff
    cutoff = cutoff + shift if cutoff is not None else None
    shown_due = _shown(due, policy.zone)
    if delivered is None and not marked_late:
        return Lateness(UNKNOWN, shown_due, extension=said)
    when = _shown(delivered, policy.zone) if delivered is not None else ""
    late_by = (delivered - due) if delivered is not None else dt.timedelta(0)
    if delivered is not None and late_by <= policy.grace and not marked_late:
        return Lateness(ON_TIME, shown_due, when, source, extension=said)
    days = max(1, math.ceil(late_by / DAY))
    marked = marked_late and late_by <= policy.grace  # the mark, not the time, makes it late
    percent = policy.percent(days)
    past = delivered is not None and cutoff is not None and delivered > cutoff
    if percent is None or past or percent >= 100:
        return Lateness(CLOSED, shown_due, when, source, days, 100.0, said, marked)
    return Lateness(LATE, shown_due, when, source, days, percent, said, marked)


def percent_text(value: float) -> str:
    return f"{round(value, 2):g}".replace(".", ",")


def feedback_line(lateness: Lateness, earned: float, points: float) -> str:
    """The feedback's line on lateness (Spanish, prose numbers with the decimal comma), or ""
    when it was on time and nothing moved."""

    def number(value: float) -> str:
        return f"{round(value, 4):g}".replace(".", ",")

    moved = f" (con prórroga: {lateness.extension})" if lateness.extension else ""
    arrived = (
        f"entregada el {lateness.delivered} según {lateness.source}"
        if lateness.delivered
        else f"{lateness.source} la marca como tardía"
    )
    when = f"{arrived}; plazo: {lateness.due}{moved}"
    if lateness.marked and lateness.delivered:  # its time alone says on time: the mark decides
        when = (
            f"marcada _LATE_ en {lateness.source}, y esa marca la hace tardía: su hora, "
            f"{lateness.delivered}, es anterior al plazo, {lateness.due}{moved}"
        )
    plural = "día" if lateness.days == 1 else "días"
    if lateness.state == LATE:
        return (
            f"Entrega tardía: {lateness.days} {plural}, −{percent_text(lateness.percent)} % "
            f"({when}). Sin el descuento: {number(earned)}; "
            f"con él: {number(lateness.final(earned))} de {number(points)}."
        )
    if lateness.state == CLOSED:
        return (
            f"Entrega fuera de plazo: {lateness.days} {plural} tarde, después del cierre "
            f"({when}): la nota es 0 (sin el cierre habría sido {number(earned)})."
        )
    if lateness.state == UNKNOWN:
        return (
            f"No consta cuándo se entregó (plazo: {lateness.due}{moved}): no se aplicó "
            "ningún descuento por retraso."
        )
    if not lateness.extension:
        return ""
    return (
        f"Entregada a tiempo con prórroga ({lateness.extension}): {arrived}; plazo: {lateness.due}."
    )
