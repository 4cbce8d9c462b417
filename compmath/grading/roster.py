"""Who the students are: the LMS's identities, from a participants list or the download's names.

A roster (`--alumnos LISTA.csv`) is the list the LMS exports: Moodle's offline grading worksheet
(«Identificador» `Participante 123456`, «Nombre completo», «Dirección de correo»; in English
Identifier, Full name, Email address), Canvas's gradebook export (Student, ID, SIS User ID,
SIS Login ID, Section) or a plain CSV with `id`, `nombre`, `correo`. The key is always the LMS's
id, the one the download puts in each submission's name. What grade learnt of each student is
written to NOTAS/identidades.json, where the exports read names and e-mails back.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from compmath.atomic import write_atomic
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError
from compmath.grading.submissions import Found, Submission
from compmath.grading.written import Written

IDENTITIES_NAME = "identidades.json"
MAX_ROSTER = 8 * 1024**2
HANDED_IN, NOT_HANDED_IN, LATE = "entregado", "sin entrega", "fuera de plazo"
PARTICIPANT = re.compile(r"^\s*(?:Participante|Participant)\s*(\d+)\s*$", re.IGNORECASE)

# Header names, lower-cased, by the field they fill (Moodle in Spanish and English, Canvas)
COLUMNS = {
    "student": ("identificador", "identifier", "id", "alumno", "user id"),
    "name": ("nombre completo", "full name", "student", "nombre", "name"),
    "email": ("dirección de correo", "email address", "correo", "email", "e-mail"),
    "id_number": ("número de id", "id number", "idnumber"),
    "section": ("section", "sección", "grupo"),
    "sis_user_id": ("sis user id",),
    "sis_login_id": ("sis login id",),
}


@dataclass(frozen=True)
class Identity:
    """A student as the LMS knows them; `student` is the LMS's id (the submission's key)."""

    student: str
    name: str = ""
    email: str = ""
    id_number: str = ""
    section: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    lms: str = ""  # "moodle", "canvas" or ""
    status: str = HANDED_IN

    def merged(self, other: Identity) -> Identity:
        """This identity with the fields `other` knows and this one does not."""
        mine = asdict(self)
        theirs = asdict(other)
        return replace(self, **{k: mine[k] or theirs[k] for k in mine if k != "status"})


def _dialect(text: str) -> str:
    """The separator of a CSV an LMS or a spreadsheet wrote: `,`, `;` or a tab."""
    head = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=head.count)


def _index(header: list[str]) -> dict[str, int]:
    names = [h.strip().lstrip("\ufeff").strip('"').lower() for h in header]
    found: dict[str, int] = {}
    for field, options in COLUMNS.items():
        for option in options:
            if option in names and field not in found and names.index(option) not in found.values():
                found[field] = names.index(option)
                break
    return found


def _student_id(raw: str) -> str:
    """The id in a cell: Moodle's worksheet says `Participante 123456`."""
    match = PARTICIPANT.match(raw)
    return match.group(1) if match else raw.strip()


def read_roster(path: Path) -> list[Identity]:
    """The students in a participants list, in its order; anything unreadable is one error."""
    hint = "expórtala del LMS (hoja de calificaciones de Moodle o libro de Canvas) en CSV"
    try:
        data = path.read_bytes()[: MAX_ROSTER + 1]
    except OSError as exc:
        why = f"no se puede leer la lista de alumnos {path}: {exc.strerror}"
        raise CompmathError(why, hint) from None
    if len(data) > MAX_ROSTER:
        raise CompmathError(f"la lista de alumnos {path} ocupa más de 8 MiB", hint)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # a spreadsheet saved as «CSV (Windows)»
    rows = list(csv.reader(io.StringIO(text), delimiter=_dialect(text)))
    if not rows:
        raise CompmathError(f"la lista de alumnos {path} está vacía", hint)
    index = _index(rows[0])
    if "student" not in index:
        raise CompmathError(
            f"la lista de alumnos {path} no tiene una columna con el id del alumno",
            "debe tener «Identificador» (Moodle), «ID» (Canvas) o «id»",
        )
    first = rows[0][index["student"]].strip().lstrip("\ufeff").strip('"').lower()
    canvas = "sis_login_id" in index or "sis_user_id" in index
    lms = "moodle" if first in ("identificador", "identifier") else "canvas" if canvas else ""
    people: dict[str, Identity] = {}
    for row in rows[1:]:
        cells = {f: row[i].strip() if i < len(row) else "" for f, i in index.items()}
        student = _student_id(cells.pop("student"))
        if not student or cells.get("name", "").strip().lower() == "points possible":
            continue  # Canvas's «Points Possible» row, blank lines
        if student in people:
            raise CompmathError(
                f"el alumno {student} aparece dos veces en la lista {path}", "deja una sola fila"
            )
        people[student] = Identity(student, lms=lms, **cells)
    return list(people.values())


@dataclass(frozen=True)
class Joined:
    """Submissions joined to a roster: who is graded, who handed in nothing, who is unknown."""

    graded: dict[str, Path | None]  # None: on the roster, no submission
    identities: dict[str, Identity]
    unknown: list[str]  # submissions matching nobody on the roster: listed, never graded


def join(
    found: dict[str, Path], known: dict[str, Identity], roster: list[Identity] | None
) -> Joined:
    """Each roster student with their submission or none; without a roster, every submission."""
    identities: dict[str, Identity] = {}
    if roster is None:
        identities = {s: known.get(s, Identity(s)) for s in found}
        return Joined(dict(found), identities, [])
    graded: dict[str, Path | None] = {}
    for person in roster:
        path = found.get(person.student)
        graded[person.student] = path
        seen = known.get(person.student, Identity(person.student))
        status = seen.status if path is not None else NOT_HANDED_IN
        identities[person.student] = replace(person.merged(seen), status=status)
    unknown = sorted(s for s in found if s not in graded)
    return Joined(graded, identities, unknown)


def absent(student: str, classes: list[ClassInfo]) -> Submission:
    """The submission of a student on the roster who handed in nothing: every class 0."""
    why = f"{NOT_HANDED_IN}: está en la lista de alumnos y no entregó nada"
    return Submission(student, {c.id: Found(None, why) for c in classes})


def write_identities(out: Path, identities: dict[str, Identity]) -> Written:
    """NOTAS/identidades.json: each graded student's identity, in id order (the file, as
    written)."""
    data = {s: asdict(identities[s]) for s in sorted(identities)}
    write_atomic(out / IDENTITIES_NAME, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return Written(out / IDENTITIES_NAME, "quién es cada alumno en el LMS")


def read_identities(folder: Path) -> dict[str, Identity]:
    """What grade wrote to NOTAS/identidades.json ({} when it wrote none)."""
    path = folder / IDENTITIES_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise CompmathError(f"{path} no es un archivo de compmath grade ({exc})", "") from None
    names = {f.name for f in fields(Identity)}
    try:
        return {
            s: Identity(**{k: str(v) for k, v in d.items() if k in names}) for s, d in data.items()
        }
    except (TypeError, AttributeError) as exc:
        raise CompmathError(f"{path} no es un archivo de compmath grade ({exc})", "") from None
