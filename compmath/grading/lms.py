"""Submissions as an LMS hands them out: Moodle's «Descargar todas las entregas», Canvas's
«Download Submissions», as the zip or unpacked into a folder.

Moodle names each student's folder (or, without «descargar en carpetas», each file)
`Nombre Apellidos_123456_assignsubmission_file_…`, 123456 the participant id; Canvas names each
file `apellidonombre_123_456_archivo` (user id, submission id; `apellidonombre_LATE_123_456_…`
when late). The student id used everywhere after this is the LMS's id.

A student whose work is one folder of the download is read from it as it is. Otherwise their
files (from the zip, or loose in the folder) are packed, still unread, into one zip of their own
in a scratch folder, with the LMS's prefix taken off each name; a student who handed in one zip
is given that zip. Nothing is extracted to disk and every limit of submissions.py holds: names
outside the submission, links, sizes and member counts are refused before anything is read.
"""

from __future__ import annotations

import re
import stat
import zipfile
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from compmath.errors import CompmathError
from compmath.grading.roster import HANDED_IN, LATE, Identity
from compmath.grading.submissions import MAX_ENTRIES, MAX_ZIP, _refused, _unsafe

MOODLE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_(?P<plugin>assignsubmission_[a-z]+)_(?P<rest>.*)$")
CANVAS = re.compile(r"^(?P<name>[^_/]+)_(?P<late>LATE_)?(?P<id>\d+)_(?P<sub>\d+)_(?P<rest>.+)$")
RESUBMITTED = re.compile(r"^(?P<stem>lab|\d{3}-[^/]*)-\d+(?P<ext>\.py|\.ipynb)$")
MAX_MEMBER = 64 * 1024**2  # one handed-in file (a student's own zip at most)


@dataclass
class Download:
    """What an LMS download holds: each student's folder or packed zip by LMS id, who they are,
    and what was ignored (said once)."""

    students: dict[str, Path] = field(default_factory=dict)
    identities: dict[str, Identity] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)


@dataclass
class _Parts:
    """One student's pieces while reading: folders of the download, and files to pack."""

    identity: Identity
    folders: list[Path] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)


def parse_name(name: str) -> tuple[Identity, str, bool] | None:
    """(who, the rest of the name, a Moodle folder's whole name) for a name the LMS made."""
    moodle = MOODLE.match(name)
    if moodle:
        who = Identity(moodle["id"], name=moodle["name"].strip(), lms="moodle")
        return who, moodle["rest"], moodle["rest"] == ""
    canvas = CANVAS.match(name)
    if canvas:
        status = LATE if canvas["late"] else HANDED_IN
        who = Identity(canvas["id"], name=canvas["name"], lms="canvas", status=status)
        return who, canvas["rest"], False
    return None


def is_download(path: Path) -> bool:
    """Whether `path` is an LMS download: a .zip, or a folder most of whose entries the LMS
    named (the others are ignored and said)."""
    if path.is_file():
        return path.suffix.lower() == ".zip"
    try:
        names = [e.name for e in path.iterdir() if not e.name.startswith(".")]
    except OSError:
        return False
    named = sum(1 for n in names if parse_name(n))
    return named * 2 > len(names)  # most entries: a student's folder may look like one by chance


def _inner(rest: str, sole: str | None) -> str:
    """A handed-in file's name inside the student's submission: Canvas's `-1` of a file sent
    again taken off, and a bare lab.py put in the one class being graded."""
    rest = rest.replace("\\", "/").lstrip("/")
    again = RESUBMITTED.match(PurePosixPath(rest).name)
    if again:
        rest = str(PurePosixPath(rest).with_name(again["stem"] + again["ext"]))
    return f"{sole}/lab.py" if sole and rest == "lab.py" else rest


def _add(parts: dict[str, _Parts], who: Identity) -> _Parts:
    """The student's pieces so far; late if any of their files was."""
    seen = parts.get(who.student)
    if seen is None:
        seen = parts[who.student] = _Parts(who)
    elif who.status == LATE:
        seen.identity = replace(seen.identity, status=LATE)
    return seen


def _from_folder(folder: Path, sole: str | None, download: Download) -> dict[str, _Parts]:
    parts: dict[str, _Parts] = {}
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        parsed = parse_name(entry.name)
        if parsed is None:
            download.ignored.append(f"{entry.name}: no lleva el nombre que da Moodle o Canvas")
            continue
        who, rest, whole = parsed
        if entry.is_symlink():
            download.ignored.append(f"{entry.name}: es un enlace simbólico")
        elif entry.is_dir() and whole:
            _add(parts, who).folders.append(entry)
        elif entry.is_file():
            data = _read_loose(entry, download.ignored)
            if data is not None:
                _add(parts, who).files.append((_inner(rest, sole), data))
        else:
            download.ignored.append(f"{entry.name}: no es un archivo ni una carpeta de entrega")
    return parts


def _read_loose(path: Path, notes: list[str]) -> bytes | None:
    with path.open("rb") as handle:
        data = handle.read(MAX_MEMBER + 1)
    if len(data) > MAX_MEMBER:
        notes.append(f"{path.name}: ocupa más de {MAX_MEMBER // 1024**2} MiB, no se lee")
        return None
    return data


def _from_zip(path: Path, sole: str | None, download: Download) -> dict[str, _Parts]:
    refused = _refused(path)
    if refused:
        raise ValueError(refused)
    parts: dict[str, _Parts] = {}
    total = 0
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()[:MAX_ENTRIES]
        for info in members:
            name = info.filename.replace("\\", "/")
            if info.is_dir() or _unsafe(info.filename):
                if not info.is_dir():
                    download.ignored.append(f"{name!r}: ruta fuera de la entrega, ignorada")
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                download.ignored.append(f"{name}: enlace simbólico, ignorado")
                continue
            top, _, below = name.partition("/")
            parsed = parse_name(top)
            if parsed is None:
                download.ignored.append(f"{top}: no lleva el nombre que da Moodle o Canvas")
                continue
            who, rest, whole = parsed
            inner = below if whole and below else rest + ("/" + below if below else "")
            if info.file_size > MAX_MEMBER or total + info.file_size > MAX_ZIP:
                download.ignored.append(f"{name}: demasiado grande, no se lee")
                continue
            try:
                with archive.open(info) as member:
                    data = member.read(MAX_MEMBER + 1)
            except (RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, OSError):
                download.ignored.append(f"{name}: no se puede leer del .zip (¿cifrado o dañado?)")
                continue
            total += len(data)
            _add(parts, who).files.append((_inner(inner, sole), data))
    return parts


def _pack(student: str, files: list[tuple[str, bytes]], scratch: Path) -> Path:
    """The student's files as one zip in `scratch` (or the one zip they handed in)."""
    target = scratch / f"{student}.zip"
    if len(files) == 1 and files[0][0].lower().endswith(".zip"):
        target.write_bytes(files[0][1])
        return target
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data)
    return target


def read_download(path: Path, scratch: Path, sole: str | None = None) -> Download:
    """Each student of an LMS download (zip or folder) by LMS id; their packed files go to
    `scratch`. `sole` is the class a bare lab.py belongs to when only one is graded."""
    download = Download()
    try:
        parts = (_from_zip if path.is_file() else _from_folder)(path, sole, download)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        reason = str(exc) if isinstance(exc, ValueError) else "está dañado o no es un .zip"
        raise CompmathError(
            f"la descarga {path}: {reason}",
            "descomprímela y dale la carpeta (o vuelve a descargarla del LMS)",
        ) from None
    if not parts:
        raise CompmathError(
            f"{path} no es una descarga de Moodle ni de Canvas: ningún nombre es de una entrega",
            "dale la descarga tal como la da el LMS, o una carpeta con una carpeta o un .zip "
            "por alumno",
        )
    for student in sorted(parts):
        piece = parts[student]
        download.identities[student] = piece.identity
        bare = sole is not None and any((f / "lab.py").is_file() for f in piece.folders)
        if len(piece.folders) == 1 and not piece.files and not bare:
            download.students[student] = piece.folders[0]  # read as it is, zips inside too
            continue
        files = list(piece.files)
        for extra in piece.folders:  # a bare lab.py, or Moodle's other plugins' folders
            files += [(_inner(n, sole), d) for n, d in _folder_files(extra, download.ignored)]
        download.students[student] = _pack(student, files, scratch)
    return download


def _folder_files(folder: Path, notes: list[str]) -> list[tuple[str, bytes]]:
    """The regular files right under one of a student's extra folders (never links)."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name)[:MAX_ENTRIES]:
        if entry.is_file() and not entry.is_symlink():
            data = _read_loose(entry, notes)
            if data is not None:
                found.append((entry.name, data))
    return found
