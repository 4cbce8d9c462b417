"""When each student handed in: the times compmath trusts, and the extensions CSV.

Trusted, in this order:

1. the instructor's list (`--entregado-en LISTA.csv`: `alumno,entregado_en`, or Moodle's
   grading worksheet with its «Última modificación (entrega)»): it overrides everything;
2. the LMS's own times: each file of Moodle's or Canvas's download carries the time the LMS
   wrote on it (in the zip, or on disk once unzipped), and Canvas names a late file `_LATE_`;
3. git: a submission that is a repository (Classroom 50) counts from the latest commit date in
   its history, so a last commit dated back cannot come before the commits it builds on.

Never trusted: the times on the files a student packed themselves (the members of their own
zip, the files of a plain folder). They are not read at all. When two trusted sources say
different things, the later time counts, and the LMS's `_LATE_` is never outvoted by a time.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import struct
import subprocess
import zipfile
from pathlib import Path

from compmath.errors import CompmathError
from compmath.grading.deadline import Extension, Lateness, Policy, assess, parse_time
from compmath.grading.lms import is_download, parse_name
from compmath.grading.roster import LATE, Identity

LMS, GIT, GIVEN = "la descarga del LMS", "el último commit de git", "la lista del profesor"
CANVAS = "Canvas"
MAX_CSV = 8 * 1024**2
ID_COLUMNS = ("alumno", "id", "identificador", "identifier", "user id", "participante")
TIME_COLUMNS = (
    "entregado_en",
    "entregado en",
    "fecha",
    "fecha de entrega",
    "última modificación (entrega)",
    "last modified (submission)",
)
EXTENDED_TIME = 0x5455  # the zip's «extended timestamp» extra field: mtime in UTC


def _zip_time(info: zipfile.ZipInfo, zone: dt.tzinfo) -> dt.datetime:
    """A zip member's time: the UTC one of the extended timestamp, else its DOS time (the
    LMS server's local time, read in the course's zone)."""
    extra = info.extra
    at = 0
    while at + 4 <= len(extra):
        kind, size = struct.unpack_from("<HH", extra, at)
        body = extra[at + 4 : at + 4 + size]
        if kind == EXTENDED_TIME and len(body) >= 5 and body[0] & 1:
            (stamp,) = struct.unpack_from("<i", body, 1)
            return dt.datetime.fromtimestamp(stamp, dt.UTC)
        at += 4 + size
    return dt.datetime(*info.date_time, tzinfo=zone)


def _later(found: dict[str, dt.datetime], student: str, moment: dt.datetime) -> None:
    if student not in found or moment > found[student]:
        found[student] = moment


def download_times(path: Path, zone: dt.tzinfo) -> dict[str, dt.datetime]:
    """Each student's latest file time in an LMS download, by LMS id: the download's own
    entries only (never inside a zip a student handed in)."""
    found: dict[str, dt.datetime] = {}
    if path.is_file():
        try:
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    parsed = parse_name(info.filename.replace("\\", "/").partition("/")[0])
                    if parsed is not None and not info.is_dir():
                        _later(found, parsed[0].student, _zip_time(info, zone))
        except (zipfile.BadZipFile, OSError, ValueError):
            return {}  # read_download says why
        return found
    for entry in path.iterdir():
        parsed = parse_name(entry.name)
        if parsed is None or entry.is_symlink():
            continue
        for moment in _disk_times(entry):
            _later(found, parsed[0].student, moment)
    return found


def _disk_times(entry: Path) -> list[dt.datetime]:
    """The times of a download's entry unzipped: the file's, or those of the files under a
    Moodle folder (as unzip set them from the LMS's zip); links are never followed."""
    if entry.is_file():
        paths = [entry]
    else:
        paths = []
        for top, folders, files in os.walk(entry):
            folders[:] = [f for f in folders if not os.path.islink(os.path.join(top, f))]
            paths += [Path(top, f) for f in files if not os.path.islink(os.path.join(top, f))]
    return [dt.datetime.fromtimestamp(p.lstat().st_mtime, dt.UTC) for p in paths[:10_000]]


def git_time(folder: Path) -> dt.datetime | None:
    """The latest commit (committer or author) date in a repository's history, or None when
    `folder` is no repository git can read. Nothing of the repository's config runs."""
    dot = folder / ".git"
    if dot.is_symlink() or not dot.is_dir():
        return None
    command = [
        "git",
        "-c", "core.fsmonitor=false",
        "-c", "core.hooksPath=/dev/null",
        "-c", "log.showSignature=false",
        "-c", f"safe.directory={folder.resolve()}",
        "--git-dir", str(dot),
        "--no-replace-objects",
        "log", "--format=%ct %at", "HEAD",
    ]  # fmt: skip
    env = {"PATH": os.environ.get("PATH", ""), "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    stamps = [int(s) for s in done.stdout.split() if s.isdigit()]
    if done.returncode != 0 or not stamps:
        return None
    return dt.datetime.fromtimestamp(max(stamps), dt.UTC)


def _rows(path: Path, what: str, hint: str) -> tuple[list[str], list[list[str]]]:
    """A small CSV's header (lower case) and rows: `,`, `;` or tab, UTF-8 or latin-1."""
    try:
        data = path.read_bytes()[: MAX_CSV + 1]
    except OSError as exc:
        raise CompmathError(f"no se puede leer {what} {path}: {exc.strerror}", hint) from None
    if len(data) > MAX_CSV:
        raise CompmathError(f"{what} {path} ocupa más de 8 MiB", hint)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    head = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=head.count)
    rows = [
        r for r in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in r)
    ]
    if not rows:
        raise CompmathError(f"{what} {path} está vacía", hint)
    return [h.strip().strip('"').lower() for h in rows[0]], rows[1:]


def _column(header: list[str], options: tuple[str, ...]) -> int | None:
    return next((header.index(o) for o in options if o in header), None)


def _student(cell: str) -> str:
    text = cell.strip()
    for prefix in ("Participante ", "Participant "):
        text = text.removeprefix(prefix)
    return text.strip()


def read_given(path: Path, zone: dt.tzinfo) -> dict[str, dt.datetime]:
    """`--entregado-en`: each student's time, by id (a cell «-» or empty: no submission)."""
    what = "la lista de fechas de entrega"
    hint = "una fila por alumno: alumno,entregado_en (p. ej. 101,2026-12-16 10:30)"
    header, rows = _rows(path, what, hint)
    ident, when = _column(header, ID_COLUMNS), _column(header, TIME_COLUMNS)
    if ident is None or when is None:
        raise CompmathError(f"{what} {path} no tiene las columnas alumno y entregado_en", hint)
    found: dict[str, dt.datetime] = {}
    for number, row in enumerate(rows, 2):
        student = _student(row[ident]) if ident < len(row) else ""
        cell = row[when].strip() if when < len(row) else ""
        if not student or cell in ("", "-"):
            continue
        place = f"{path.name}, línea {number}"
        found[student] = parse_time(cell, zone, end_of_day=False, what=place)
    return found


def read_extensions(path: Path, policy: Policy) -> dict[str, Extension]:
    """The extensions CSV: `alumno` and `fecha` (the new due date) or `dias` (days more), and
    `motivo` if wanted."""
    what = "la lista de prórrogas"
    hint = "una fila por alumno: alumno,fecha,motivo o alumno,dias,motivo"
    header, rows = _rows(path, what, hint)
    ident = _column(header, ID_COLUMNS)
    due, days = (
        _column(header, ("fecha", "plazo", "nueva fecha")),
        _column(header, ("dias", "días")),
    )
    reason = _column(header, ("motivo", "razon", "razón"))
    if ident is None or (due is None and days is None):
        raise CompmathError(f"{what} {path} no tiene las columnas alumno y fecha (o dias)", hint)
    found: dict[str, Extension] = {}
    for number, row in enumerate(rows, 2):
        cells = {k: row[i].strip() if i is not None and i < len(row) else "" for k, i in
                 (("id", ident), ("due", due), ("days", days), ("why", reason))}  # fmt: skip
        student = _student(cells["id"])
        place = f"{path.name}, línea {number}"
        if not student:
            continue
        if student in found:
            raise CompmathError(f"{place}: {student} ya tiene una prórroga", "deja una fila")
        if cells["due"]:
            moment = parse_time(cells["due"], policy.zone, end_of_day=True, what=place)
            found[student] = Extension(moment, 0.0, cells["why"])
            continue
        try:
            extra = float(cells["days"].replace(",", "."))
        except ValueError:
            raise CompmathError(
                f"{place}: «{cells['days']}» no es un número de días", hint
            ) from None
        if not 0 < extra <= 366:
            raise CompmathError(f"{place}: {cells['days']} días de prórroga no tiene sentido", hint)
        found[student] = Extension(None, extra, cells["why"])
    return found


def lateness_of(
    policy: Policy,
    students: dict[str, Path | None],
    folder: Path,
    identities: dict[str, Identity],
    given: dict[str, dt.datetime],
    extensions: dict[str, Extension],
) -> dict[str, Lateness]:
    """Each handed-in student's lateness (a student with nothing handed in has none)."""
    lms = download_times(folder, policy.zone) if is_download(folder) else {}
    found: dict[str, Lateness] = {}
    for student, path in students.items():
        if path is None:
            continue
        marked = identities.get(student, Identity(student)).status == LATE
        moment: dt.datetime | None
        if student in given:
            moment, source, marked = given[student], GIVEN, False  # the instructor's word
        else:
            times = [(lms[student], LMS)] if student in lms else []
            if path.is_dir() and (stamp := git_time(path)) is not None:
                times.append((stamp, GIT))
            moment, source = max(times) if times else (None, CANVAS if marked else "")
        found[student] = assess(policy, moment, source, extensions.get(student), marked_late=marked)
    return found
