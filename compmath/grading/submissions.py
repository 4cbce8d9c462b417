"""The students' submissions in ENTREGAS/: one folder or one .zip per student, read safely.

A submission is a practice workspace, or just its lab.py files in the course layout
(`…/NNN-slug/lab.py`, under any top folder). Nothing from a submission is ever extracted or
executed here: a zip's members are read in memory (absolute and `../` paths refused, sizes
capped, links ignored, and a zip's end record read first: one that declares more members or a
larger directory than the limits is refused before its directory is parsed), a folder is walked
iteratively, within budgets of folders, depth and entries, without following links, and each
class yields its lab.py text or the reason there is none. Whatever goes wrong reading one
submission (a folder that cannot be listed, a damaged zip) costs that student only.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import struct
import tokenize
import zipfile
import zlib
from collections import deque
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from compmath.course.tree import ClassInfo
from compmath.errors import os_reason
from compmath.wording import count, short

MAX_SOURCE = 512 * 1024  # a lab.py is a few KiB; anything past this is not one
MAX_NOTEBOOK = 4 * 1024**2  # a practice notebook handed in for it, outputs and all
NOTEBOOK = re.compile(r"^(\d{3})(-[^/]*)?\.ipynb$")
MAX_ENTRIES = 20_000  # files and folders walked, or zip members, per submission
MAX_FOLDERS = 2_000  # folders listed per submission
MAX_DEPTH = 24  # folders below the submission's own (the course layout needs 4)
MAX_ZIP = 256 * 1024**2
MAX_DIRECTORY = 4 * 1024**2  # a zip's central directory: 20,000 members with long names fit
MAX_NOTES = 20
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$")


@dataclass(frozen=True)
class Found:
    """One class in one submission: its lab.py text, or why there is none (Spanish)."""

    source: str | None
    problem: str = ""


@dataclass(frozen=True)
class Submission:
    """A student's submission, read: each class's file, and what was ignored and why."""

    student: str
    files: dict[str, Found]
    notes: tuple[str, ...] = ()


def file_name(student: str) -> str:
    """A file name for the student's outputs: the id itself when safe, else a tidy one + hash."""
    if SAFE_NAME.match(student):
        return student
    tidy = re.sub(r"[^A-Za-z0-9._@+-]", "_", student).lstrip("._")[:60] or "alumno"
    return f"{tidy}-{hashlib.sha256(student.encode('utf-8', 'replace')).hexdigest()[:8]}"


def discover(folder: Path) -> tuple[dict[str, Path], list[str]]:
    """Each student's folder or zip, by student id; and what was ignored there, said once."""
    found: dict[str, Path] = {}
    ignored: list[str] = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            ignored.append(f"{entry.name}: es un enlace simbólico")
        elif entry.is_dir():
            found[entry.name] = entry
        elif entry.is_file() and entry.suffix.lower() == ".zip":
            if entry.stem in found or (folder / entry.stem).is_dir():
                ignored.append(f"{entry.name}: ya hay una carpeta {entry.stem}")
            else:
                found[entry.stem] = entry
        else:
            ignored.append(f"{entry.name}: no es una carpeta ni un .zip")
    return dict(sorted(found.items())), ignored


def _class_of(parts: tuple[str, ...], numbers: dict[int, ClassInfo]) -> ClassInfo | None:
    """The class whose lab.py a path is (`…/323-slug/lab.py` or `…/323/lab.py`), or whose
    practice notebook (`…/323-slug.ipynb`, as compmath makes it)."""
    if parts and (notebook := NOTEBOOK.match(parts[-1])):
        return numbers.get(int(notebook.group(1)))
    if len(parts) < 2 or parts[-1] != "lab.py":
        return None
    match = re.match(r"^(\d{3})(-|$)", parts[-2])
    return numbers.get(int(match.group(1))) if match else None


def _preference(parts: tuple[str, ...]) -> tuple[int, int, int, tuple[str, ...]]:
    """Of several candidates for one class, a lab.py before a notebook, the course layout
    first, then the shallowest."""
    return (0 if parts[-1] == "lab.py" else 1, 0 if "classes" in parts else 1, len(parts), parts)


def _limit(parts: tuple[str, ...]) -> int:
    """The largest file a candidate may be: a notebook carries its outputs too."""
    return MAX_SOURCE if parts[-1] == "lab.py" else MAX_NOTEBOOK


def _cell_text(source: Any) -> str:
    """A notebook cell's source: nbformat writes a string or a list of lines."""
    if isinstance(source, list):
        return "".join(line for line in source if isinstance(line, str))
    return source if isinstance(source, str) else ""


def _from_notebook(found: Found, cls: ClassInfo) -> Found:
    """A practice notebook's lab.py: its code cells (those compmath named `codigo-…`, or all),
    in order, and the exercise's closing `if __name__ == "__main__":` block (a notebook has
    none), so that only its holes differ from the exercise."""
    if found.source is None:
        return found
    try:
        book = json.loads(found.source)
    except (ValueError, RecursionError):
        return Found(None, "el cuaderno no es JSON válido: ¿está dañado el .ipynb?")
    cells = book.get("cells") if isinstance(book, dict) else None
    code = [c for c in cells or [] if isinstance(c, dict) and c.get("cell_type") == "code"]
    ours = [c for c in code if str(c.get("id", "")).startswith("codigo-")] or code
    texts = [_cell_text(c.get("source")).strip("\n") for c in ours]
    text = "\n\n\n".join(t for t in texts if t.strip())
    if not text:
        return Found(None, "el cuaderno no tiene celdas de código")
    return Found(text + "\n" + _closing(cls))


def _closing(cls: ClassInfo) -> str:
    """The exercise's lines from its `if __name__ == "__main__":` on ("" if it has none)."""
    from compmath.holes.graft import course_lab

    try:
        lines = course_lab(cls).exercise.splitlines()
    except (OSError, ValueError, SyntaxError):
        return ""
    start = next((i for i, t in enumerate(lines) if t.startswith("if __name__")), len(lines))
    return "".join(f"\n{line}" for line in lines[start:]) + "\n" if start < len(lines) else ""


def _text(data: bytes, size: int, limit: int = MAX_SOURCE) -> Found:
    if size > limit or len(data) > limit:
        what = "un lab.py" if limit == MAX_SOURCE else "un cuaderno de práctica"
        return Found(None, f"el archivo ocupa {max(size, len(data)) // 1024} KiB: no es {what}")
    if b"\x00" in data:
        return Found(None, "no es un archivo de texto (contiene bytes nulos)")
    try:  # the encoding the file declares (PEP 263: `# -*- coding: latin-1 -*-`), as Python does
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return Found(None, "declara una codificación que Python no conoce (# -*- coding: … -*-)")
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        said = _encoding_name(encoding)
        return Found(None, f"no es texto {said}: ¿se entregó otro tipo de archivo?")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return Found(None, "el archivo está vacío")
    return Found(text)


def _encoding_name(encoding: str) -> str:
    """How a person names an encoding: UTF-8, latin-1."""
    return "UTF-8" if encoding in ("utf-8", "utf-8-sig") else encoding


def _read_file(path: Path, limit: int = MAX_SOURCE) -> Found:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        return Found(None, f"no se puede leer: {exc.strerror}")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return Found(None, "no es un archivo normal")
        return _text(os.read(fd, limit + 1), info.st_size, limit)
    finally:
        os.close(fd)


def _walk(root: Path) -> tuple[list[tuple[str, ...]], list[str]]:
    """The files under `root` (their parts), shallowest first, and what stopped the walk:
    iterative, never into a link or a hidden folder, within MAX_FOLDERS, MAX_DEPTH, MAX_ENTRIES."""
    found: list[tuple[str, ...]] = []
    notes: list[str] = []
    waiting: deque[tuple[str, ...]] = deque([()])
    listed = seen = 0
    while waiting:
        rel = waiting.popleft()
        listed += 1
        if listed > MAX_FOLDERS:
            notes.append(f"más de {MAX_FOLDERS} carpetas: se dejó de buscar")
            break
        try:
            with os.scandir(root.joinpath(*rel)) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            notes.append(f"{'/'.join(rel) or '.'}: no se puede leer ({os_reason(exc)})")
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                notes.append(f"más de {MAX_ENTRIES} archivos: se dejó de buscar")
                return found, notes
            if not entry.is_dir(follow_symlinks=False):
                found.append((*rel, entry.name))
            elif entry.name.startswith("."):
                continue
            elif len(rel) >= MAX_DEPTH:
                notes.append(f"carpetas a más de {MAX_DEPTH} niveles: no se miran")
            else:
                waiting.append((*rel, entry.name))
    return found, notes


def _from_folder(root: Path, numbers: dict[int, ClassInfo]) -> tuple[dict[str, Found], list[str]]:
    candidates: dict[str, list[tuple[str, ...]]] = {}
    files, notes = _walk(root)
    for parts in files:
        cls = _class_of(parts, numbers)
        if cls is None:
            continue
        if os.path.islink(root.joinpath(*parts)):
            notes.append(f"{'/'.join(parts)}: enlace simbólico, ignorado")
            continue
        candidates.setdefault(cls.id, []).append(parts)
    by_id = {c.id: c for c in numbers.values()}
    files_found = {}
    for cid, paths in candidates.items():
        best = min(paths, key=_preference)
        found = _read_file(root.joinpath(*best), _limit(best))
        files_found[cid] = found if best[-1] == "lab.py" else _from_notebook(found, by_id[cid])
    return files_found, notes


END_RECORD = struct.Struct("<4s4H2LH")  # a zip's end of central directory
END64_LOCATOR = struct.Struct("<4sLQL")
END64_RECORD = struct.Struct("<4sQ2H2L4Q")


def _declared(path: Path) -> tuple[int, int] | None:
    """(members, bytes of central directory) that a zip's end record declares, read from its
    last 64 KiB alone (zip64's record too); None when there is no end record to read."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        tail_size = min(size, END_RECORD.size + 0xFFFF + END64_LOCATOR.size)
        handle.seek(size - tail_size)
        tail = handle.read(tail_size)
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < END_RECORD.size:
            return None
        _, _, _, _, members, directory, _, _ = END_RECORD.unpack_from(tail, at)
        locator = at - END64_LOCATOR.size
        if locator >= 0 and tail[locator : locator + 4] == b"PK\x06\x07":
            _, _, offset, _ = END64_LOCATOR.unpack_from(tail, locator)
            handle.seek(offset)
            record = handle.read(END64_RECORD.size)
            if len(record) == END64_RECORD.size and record[:4] == b"PK\x06\x06":
                fields = END64_RECORD.unpack(record)
                members, directory = max(members, fields[6]), max(directory, fields[7])
    return members, directory


def _refused(path: Path) -> str:
    """Why a zip is not opened (Spanish), or "": its size, then what its end record declares."""
    if path.stat().st_size > MAX_ZIP:
        return f"el .zip ocupa más de {MAX_ZIP // 1024**2} MiB: no se abre"
    declared = _declared(path)
    if declared is None:
        return ""  # no end record: zipfile says it is damaged
    members, directory = declared
    if members > MAX_ENTRIES:
        limit = MAX_ENTRIES
        return f"el .zip tiene {members} archivos, más de los {limit} que se miran: no se abre"
    if directory > MAX_DIRECTORY:
        size = f"{short(directory / 1024**2)} MiB"
        return f"el índice del .zip ocupa {size}, más de {MAX_DIRECTORY // 1024**2} MiB: no se abre"
    return ""


def _unsafe(name: str) -> bool:
    path = PurePosixPath(name.replace("\\", "/"))
    return path.is_absolute() or ".." in path.parts or bool(re.match(r"^[A-Za-z]:", name))


def _from_zip(path: Path, numbers: dict[int, ClassInfo]) -> tuple[dict[str, Found], list[str]]:
    refused = _refused(path)
    if refused:
        return {}, [refused]
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError):
        return {}, ["el .zip está dañado o no es un .zip"]
    notes: list[str] = []
    candidates: dict[str, list[tuple[tuple[str, ...], zipfile.ZipInfo]]] = {}
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ENTRIES:
            notes.append(f"más de {MAX_ENTRIES} archivos en el .zip: se miran los primeros")
        for info in members[:MAX_ENTRIES]:
            if _unsafe(info.filename):
                notes.append(
                    f"{info.filename!r}: ruta fuera de la entrega (../ o absoluta), ignorada"
                )
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                notes.append(f"{info.filename}: enlace simbólico, ignorado")
                continue
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if info.is_dir() or any(p.startswith(".") for p in parts[:-1]):
                continue
            cls = _class_of(parts, numbers)
            if cls is not None:
                candidates.setdefault(cls.id, []).append((parts, info))
        files_found: dict[str, Found] = {}
        by_id = {c.id: c for c in numbers.values()}
        for cid, options in candidates.items():
            parts, info = min(options, key=lambda o: _preference(o[0]))
            limit = _limit(parts)
            if info.file_size > limit:
                files_found[cid] = _text(b"", info.file_size, limit)
                continue
            try:
                with archive.open(info) as member:
                    found = _text(member.read(limit + 1), info.file_size, limit)
            except (RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, OSError):
                found = Found(None, "no se puede leer del .zip (¿cifrado o dañado?)")
            files_found[cid] = found if parts[-1] == "lab.py" else _from_notebook(found, by_id[cid])
    return files_found, notes


def read_submission(student: str, path: Path, classes: list[ClassInfo]) -> Submission:
    """Each selected class's lab.py in the submission, or the reason it has none: one that
    cannot be read at all gives every class that reason, and the other students are read."""
    try:
        return _read_submission(student, path, classes)
    except Exception as exc:  # the guard: one submission never stops the class
        why = f"no se pudo leer la entrega: {_what(exc)}"
        return Submission(student, {c.id: Found(None, why) for c in classes}, (why,))


def _what(exc: BaseException) -> str:
    """A reading failure in Spanish, for the student's feedback."""
    if isinstance(exc, OSError):
        return os_reason(exc)
    if isinstance(exc, RecursionError):
        return "anida demasiado"
    if isinstance(exc, MemoryError):
        return "no cabe en memoria"
    if isinstance(exc, (zipfile.BadZipFile, zlib.error, EOFError, struct.error)):
        return "el .zip está dañado"
    return f"error inesperado ({type(exc).__name__})"


def _read_submission(student: str, path: Path, classes: list[ClassInfo]) -> Submission:
    numbers = {c.number: c for c in classes}
    reader = _from_zip if path.is_file() else _from_folder
    files, notes = reader(path, numbers)
    if not files and path.is_dir():  # a campus export: the student's folder holds their .zip
        inner = [p for p in path.iterdir() if p.suffix.lower() == ".zip" and not p.is_symlink()]
        if len(inner) == 1 and inner[0].is_file():
            files, notes = _from_zip(inner[0], numbers)
            notes.insert(0, f"se leyó {inner[0].name}")
    for cls in classes:
        files.setdefault(cls.id, Found(None, f"no se entregó {cls.id}/lab.py"))
    ordered = {c.id: files[c.id] for c in classes}
    unique = list(dict.fromkeys(notes))
    if len(unique) > MAX_NOTES:
        unique = [
            *unique[:MAX_NOTES],
            f"y {count(len(unique) - MAX_NOTES, 'aviso', 'avisos')} más como estos",
        ]
    return Submission(student, ordered, tuple(unique))
