"""Students' names: one file per student by construction, NFC, and names that only look alike.

A student's id is the name of their folder or zip, normalised to NFC (a folder named in NFD by
macOS and one named in NFC are the same student, and refused as two submissions of one). Their
feedback and record files get one name each, distinct from every other student's on any file
system (also where case does not count): a plain ASCII name is kept as it is, anything else, or a
name that could be taken for another's, becomes a tidy ASCII form plus a digest of the whole name.
Names that differ only by look-alike letters (a Cyrillic «а» for a Latin «a», a zero-width space,
full-width letters) are reported, never merged: they are different folders, maybe one person.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from compmath.errors import CompmathError

SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$")
HASHED = re.compile(r"-[0-9a-f]{8}$", re.IGNORECASE)  # the shape a digest gives a name
# Letters of other scripts drawn like Latin ones (Unicode's confusables, the common ones).
CONFUSABLE = str.maketrans(
    {
        **dict(zip("аеорсухіјѕԁһԛԝӏ", "aeopcyxijsdhqwl")),
        **dict(zip("АВЕКМНОРСТХУІЈЅ", "abekmhopctxyijs")),
        **dict(zip("οαινρκτυχ", "oaivpktux")),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "abezhikmnoptyx")),
        "ı": "i",
        "ℓ": "l",
    }
)


def normalised(student: str) -> str:
    """The student's id in NFC."""
    return unicodedata.normalize("NFC", student)


def shown(name: str) -> str:
    """A name as an error or a report line shows it: its code points spelt out when it is not
    plain ASCII, so that two names that look alike read differently."""
    return name if name.isascii() and name.isprintable() else f"{name} ({name!a})"


def by_student(found: dict[str, Path | None]) -> dict[str, Path | None]:
    """The submissions by NFC id (None: a student of the roster who handed in nothing); two
    of them with one id are refused, naming both."""
    kept: dict[str, Path | None] = {}
    for name, path in found.items():
        student = normalised(name)
        if student in kept:
            first = kept[student]
            one, other = (first.name if first else name), (path.name if path else name)
            raise CompmathError(
                f"dos entregas son del mismo alumno una vez normalizado su nombre (NFC): "
                f"{shown(one)} y {shown(other)}",
                "deja una sola carpeta o .zip por alumno y vuelve a lanzar la orden",
            )
        kept[student] = path
    return dict(sorted(kept.items()))


def _digest(student: str) -> str:
    return hashlib.sha256(student.encode("utf-8", "replace")).hexdigest()[:8]


def _hashed(student: str) -> str:
    tidy = re.sub(r"[^A-Za-z0-9._@+-]", "_", student).lstrip("._-")[:60] or "alumno"
    return f"{tidy}-{_digest(student)}"


def file_names(students: Iterable[str]) -> dict[str, str]:
    """Each student's file name (without extension), distinct for every two students even where
    case does not count; a name kept as it is never has the shape of a hashed one. Two students
    whose names would still coincide (a digest collision) are refused, naming both."""
    ids = sorted(set(students))
    folded: dict[str, list[str]] = {}
    for student in ids:
        if SAFE_NAME.match(student):
            folded.setdefault(student.casefold(), []).append(student)
    names: dict[str, str] = {}
    for student in ids:
        plain = SAFE_NAME.match(student) and not HASHED.search(student)
        unique = plain and len(folded[student.casefold()]) == 1
        names[student] = student if unique else _hashed(student)
    owners: dict[str, str] = {}
    for student, name in names.items():
        other = owners.setdefault(name.casefold(), student)
        if other != student:
            raise CompmathError(
                f"{shown(other)} y {shown(student)} tendrían el mismo archivo de notas ({name})",
                "cambia el nombre de una de las dos carpetas y vuelve a lanzar la orden",
            )
    return names


def skeleton(student: str) -> str:
    """What a name looks like: compatibility forms folded, look-alike letters mapped to Latin,
    invisible characters dropped, case and spacing ignored."""
    text = unicodedata.normalize("NFKC", student).translate(CONFUSABLE)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc", "Mn"))
    return " ".join(re.split(r"[\s_]+", text.casefold())).strip()


def look_alikes(students: Iterable[str]) -> list[tuple[str, ...]]:
    """Groups of two or more students whose names look the same (see `skeleton`)."""
    groups: dict[str, list[str]] = {}
    for student in sorted(set(students)):
        groups.setdefault(skeleton(student), []).append(student)
    return [tuple(group) for group in groups.values() if len(group) > 1]
