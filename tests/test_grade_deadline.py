"""Deadlines: [entrega] in curso.toml, each student's time from the sources compmath trusts,
the deduction in a column and a feedback line of its own, and students who try to look on
time (file times they set, a Canvas `_LATE_` they would like gone, a git date pushed back)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import jsonschema
import pytest

from compmath.errors import CompmathError
from compmath.grading.deadline import (
    CLOSED,
    LATE,
    ON_TIME,
    UNKNOWN,
    Extension,
    assess,
    feedback_line,
    parse_time,
    policy_of,
)
from compmath.grading.delivered import (
    GIT,
    GIVEN,
    LMS,
    download_times,
    git_time,
    lateness_of,
    read_extensions,
    read_given,
)
from compmath.grading.lms import read_download
from tests.conftest import REPO, error_lines, no_traceback
from tests.test_grade import AS_IT_CAN, C323, solved

MADRID = dt.timezone(dt.timedelta(hours=1))  # December in Madrid
DUE = dt.datetime(2026, 12, 15, 23, 59, tzinfo=MADRID)
GRADE_SCHEMA = json.loads(
    (REPO / "compmath" / "contracts" / "grade.schema.json").read_text("utf-8")
)
REL = C323.lab.relative_to(REPO)


def per_day(**extra: object) -> dict[str, object]:
    return {"fecha": DUE, "descuento_por_dia": 10, **extra}


def at(days: float) -> dt.datetime:
    return DUE + dt.timedelta(days=days)


# --- the policy ------------------------------------------------------------------------------


def test_on_time_late_within_the_steps_and_past_the_cut_off() -> None:
    policy = policy_of(per_day(cierre=at(5)))
    assert policy is not None
    assert assess(policy, at(-0.5), LMS).state == ON_TIME
    assert assess(policy, DUE, LMS).state == ON_TIME  # the due minute itself is on time
    late = assess(policy, at(1.5), LMS)  # a day and a half: two started days
    assert (late.state, late.days, late.percent) == (LATE, 2, 20.0)
    assert late.final(8.0) == 6.4
    minute = assess(policy, at(1 / 1440), LMS)
    assert (minute.days, minute.percent) == (1, 10.0)
    closed = assess(policy, at(5.01), LMS)
    assert closed.state == CLOSED and closed.final(10.0) == 0.0
    line = feedback_line(late, 8.0, 10.0)
    assert line.startswith("Entrega tardía: 2 días, −20 %") and "con él: 6,4 de 10" in line
    assert "la nota es 0" in feedback_line(closed, 10.0, 10.0)


def test_steps_grace_and_the_end_of_the_last_step_as_cut_off() -> None:
    steps = [{"dias": 1, "descuento": 10}, {"dias": 3, "descuento": 30}]
    policy = policy_of({"fecha": DUE, "tramos": steps, "margen_minutos": 10})
    assert policy is not None
    assert assess(policy, DUE + dt.timedelta(minutes=9), LMS).state == ON_TIME
    assert assess(policy, DUE + dt.timedelta(minutes=11), LMS).percent == 10.0
    assert assess(policy, at(2.5), LMS).percent == 30.0
    assert assess(policy, at(3.2), LMS).state == CLOSED  # past the last step: 0


def test_an_extension_moves_the_due_date_and_the_cut_off() -> None:
    policy = policy_of(per_day(cierre=at(3)))
    assert policy is not None
    assert assess(policy, at(2), LMS).state == LATE
    moved = assess(policy, at(2), LMS, Extension(None, 2.0, "baja médica"))
    assert moved.state == ON_TIME and moved.extension == "baja médica"
    assert assess(policy, at(4), LMS, Extension(at(2))).state == LATE  # the cut-off moved too
    assert assess(policy, at(5.5), LMS, Extension(at(2))).state == CLOSED
    assert "con prórroga (baja médica)" in feedback_line(moved, 10.0, 10.0)


def test_dates_without_a_zone_need_one_and_bad_ones_are_one_spanish_line() -> None:
    policy = policy_of({"fecha": "2026-12-15 23:59", "zona": "Europe/Madrid"})
    assert policy is not None and policy.due.utcoffset() == dt.timedelta(hours=1)
    day = policy_of({"fecha": dt.date(2026, 12, 15), "zona": "America/Bogota"})
    assert day is not None and (day.due.hour, day.due.minute) == (23, 59)  # a day: its end
    with pytest.raises(CompmathError, match="no dice su zona horaria"):
        policy_of({"fecha": dt.datetime(2026, 12, 15, 23, 59)})
    with pytest.raises(CompmathError, match="no es una zona horaria"):
        policy_of({"fecha": DUE, "zona": "Marte/Olympus"})
    with pytest.raises(CompmathError, match="«31/02/2026» no es una fecha"):
        parse_time("31/02/2026", MADRID, end_of_day=True, what="prorrogas.csv, línea 2")
    with pytest.raises(CompmathError, match="cierre es anterior"):
        policy_of(per_day(cierre=at(-1)))
    long = parse_time(
        "miércoles, 16 de diciembre de 2026, 10:05", MADRID, end_of_day=False, what="x"
    )
    assert long == dt.datetime(2026, 12, 16, 10, 5, tzinfo=MADRID)
    github = parse_time("2026-12-16T09:05:00.123Z", None, end_of_day=False, what="x")
    assert github == dt.datetime(2026, 12, 16, 10, 5, tzinfo=MADRID)
    english = parse_time("Wednesday, 16 December 2026, 3:05 PM", MADRID, end_of_day=False, what="x")
    assert english.hour == 15


def test_the_csvs_say_the_bad_line(tmp_path: Path) -> None:
    policy = policy_of(per_day())
    assert policy is not None
    bad = tmp_path / "prorrogas.csv"
    bad.write_text("alumno,dias,motivo\n101,2,viaje\n102,mucho,\n", encoding="utf-8")
    with pytest.raises(CompmathError, match=r"prorrogas\.csv, línea 3: «mucho» no es un número"):
        read_extensions(bad, policy)
    good = tmp_path / "ok.csv"
    good.write_text("alumno;fecha;motivo\n101;17/12/2026 12:00;viaje\n", encoding="utf-8")
    assert read_extensions(good, policy)["101"].due == dt.datetime(2026, 12, 17, 12, tzinfo=MADRID)
    dates = tmp_path / "fechas.csv"
    dates.write_text("alumno,entregado_en\n101,2026-12-16T10:00:00Z\n102,ayer\n", encoding="utf-8")
    with pytest.raises(CompmathError, match=r"fechas\.csv, línea 3: «ayer» no es una fecha"):
        read_given(dates, MADRID)
    headless = tmp_path / "sin.csv"
    headless.write_text("nombre,cuando\nAna,hoy\n", encoding="utf-8")
    with pytest.raises(CompmathError, match="no tiene las columnas alumno y entregado_en"):
        read_given(headless, MADRID)


def test_moodles_worksheet_gives_the_submission_times(tmp_path: Path) -> None:
    """Moodle's offline grading worksheet (gradingtable.php's download) has «Última
    modificación (entrega)» as userdate() writes it, and «-» for no submission."""
    sheet = tmp_path / "hoja.csv"
    sheet.write_text(
        "Identificador,Nombre completo,Estado,Última modificación (entrega)\n"
        'Participante 101,Ana,Enviado,"martes, 15 de diciembre de 2026, 23:10"\n'
        "Participante 102,Luis,Sin entrega,-\n",
        encoding="utf-8",
    )
    assert read_given(sheet, MADRID) == {"101": dt.datetime(2026, 12, 15, 23, 10, tzinfo=MADRID)}


# --- the sources of the times ----------------------------------------------------------------


def _member(name: str, when: dt.datetime, data: bytes) -> tuple[zipfile.ZipInfo, bytes]:
    local = when.astimezone(MADRID)
    info = zipfile.ZipInfo(name, (local.year, local.month, local.day, local.hour, local.minute, 0))
    return info, data


def _zip(path: Path, members: list[tuple[zipfile.ZipInfo, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for info, data in members:
            archive.writestr(info, data)
    return path


def _own_zip(when: dt.datetime) -> bytes:
    """A zip the student packed themselves, its member dated `when` (as they chose)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(_member(str(REL), when, solved(C323).encode())[0], solved(C323))
    return buffer.getvalue()


def test_the_lms_time_wins_over_the_times_inside_a_students_zip(tmp_path: Path) -> None:
    """Hostile: a student's own zip dated before the due date, handed in late: the download's
    entry (the LMS's time) counts, never what is inside the student's zip."""
    forged = _own_zip(at(-3))
    download = _zip(
        tmp_path / "moodle.zip",
        [
            _member("Ana López_101_assignsubmission_file_/entrega.zip", at(1.5), forged),
            _member("Luis Pérez_102_assignsubmission_file_/lab.py", at(-1), b"x = 1\n"),
        ],
    )
    times = download_times(download, MADRID)
    assert times["101"] == at(1.5).replace(second=0) and times["102"] == at(-1)
    policy = policy_of(per_day())
    assert policy is not None
    found = read_download(download, tmp_path, C323.id)
    late = lateness_of(policy, dict(found.students), download, found.identities, {}, {})
    assert (late["101"].state, late["101"].days, late["101"].source) == (LATE, 2, LMS)
    assert late["102"].state == ON_TIME


def test_the_extended_timestamp_is_read_as_utc(tmp_path: Path) -> None:
    stamp = int(at(0.5).timestamp())
    info = zipfile.ZipInfo("perezluis_202_9002_lab.py", (1999, 1, 1, 0, 0, 0))
    info.extra = b"\x55\x54\x05\x00\x01" + stamp.to_bytes(4, "little")
    download = _zip(tmp_path / "canvas.zip", [(info, b"x = 1\n")])
    assert download_times(download, MADRID)["202"] == at(0.5).replace(microsecond=0)


def test_canvas_late_is_never_outvoted_by_a_time(tmp_path: Path) -> None:
    """Hostile: Canvas marked the file `_LATE_`; a time that says on time (the student's
    zip, a clock) cannot take that away: late by at least a day."""
    download = _zip(
        tmp_path / "canvas.zip",
        [_member("perezluis_LATE_202_9002_entrega.zip", at(-2), _own_zip(at(-5)))],
    )
    policy = policy_of(per_day())
    assert policy is not None
    found = read_download(download, tmp_path, C323.id)
    late = lateness_of(policy, dict(found.students), download, found.identities, {}, {})
    assert (late["202"].state, late["202"].percent) == (LATE, 10.0)


@pytest.mark.parametrize("days", [-0.07, 2.4], ids=["hora-en-plazo", "hora-tarde"])
def test_the_feedback_names_the_late_mark_when_it_decides(tmp_path: Path, days: float) -> None:
    """A `_LATE_` file timed before the due date (22:00, due 23:59) is one day late because of
    the mark, and its line says so, never «entregada a las 22:00 … 1 día» alone; a `_LATE_`
    file whose own time is late is late by that time, and its line says the time."""
    download = _zip(
        tmp_path / "canvas.zip", [_member("ruizmar_LATE_102_5002_lab.py", at(days), b"x\n")]
    )
    policy = policy_of(per_day())
    assert policy is not None
    found = read_download(download, tmp_path, C323.id)
    late = lateness_of(policy, dict(found.students), download, found.identities, {}, {})["102"]
    line = feedback_line(late, 2, 3)
    shown = at(days).isoformat(timespec="minutes")
    if days < 0:
        assert (late.state, late.days, late.marked) == (LATE, 1, True)
        assert line.startswith("Entrega tardía: 1 día, −10 % (marcada _LATE_ en la descarga")
        assert f"esa marca la hace tardía: su hora, {shown}, es anterior al plazo, " in line
        assert "entregada el" not in line
    else:
        assert (late.state, late.days, late.marked) == (LATE, 3, False)
        assert f"(entregada el {shown} según la descarga del LMS; plazo: " in line
        assert "_LATE_" not in line
    assert "con él: 1,8 de 3" in line or "con él: 1,4 de 3" in line
    assert type(late).from_dict(late.to_dict()) == late  # informe.json keeps the mark
    assert late.to_dict()["marcada_tarde"] is late.marked


def test_an_unzipped_download_counts_its_files_times_and_nothing_else(tmp_path: Path) -> None:
    """Unzipped, each entry's time on disk is the one unzip took from the LMS's zip."""
    folder = tmp_path / "descarga"
    student = folder / "Ana López_101_assignsubmission_file_"
    student.mkdir(parents=True)
    (student / "lab.py").write_text("x = 1\n", encoding="utf-8")
    os.utime(student / "lab.py", (at(2.2).timestamp(), at(2.2).timestamp()))
    (folder / "Luis Pérez_102_assignsubmission_file_lab.py").write_text("x\n", encoding="utf-8")
    os.utime(folder / "Luis Pérez_102_assignsubmission_file_lab.py", (0, at(-1).timestamp()))
    times = download_times(folder, MADRID)
    assert times == {"101": at(2.2), "102": at(-1)}


def test_a_plain_folders_file_times_are_never_trusted(tmp_path: Path) -> None:
    """Hostile: a student's folder whose files they dated before the due date (or in the
    future): no time is taken from them, so the student is «sin fecha», never «a tiempo»."""
    folder = tmp_path / "entregas"
    lab = folder / "ana" / REL
    lab.parent.mkdir(parents=True)
    lab.write_text(solved(C323), encoding="utf-8")
    os.utime(lab, (at(-10).timestamp(), at(-10).timestamp()))
    future = folder / "luis" / REL
    future.parent.mkdir(parents=True)
    future.write_text(solved(C323), encoding="utf-8")
    os.utime(future, (at(400).timestamp(), at(400).timestamp()))
    policy = policy_of(per_day())
    assert policy is not None
    students: dict[str, Path | None] = {"ana": folder / "ana", "luis": folder / "luis"}
    late = lateness_of(policy, students, folder, {}, {}, {})
    assert {late["ana"].state, late["luis"].state} == {UNKNOWN}
    assert "no se aplicó ningún descuento" in feedback_line(late["ana"], 1, 2)


def _git(repo: Path, *args: str, when: dt.datetime | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "HOME": str(repo)}
    env |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    if when is not None:
        env |= {"GIT_AUTHOR_DATE": when.isoformat(), "GIT_COMMITTER_DATE": when.isoformat()}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.mark.skipif(shutil.which("git") is None, reason="sin git")
def test_git_counts_the_latest_date_of_the_history(tmp_path: Path) -> None:
    """A repository's time is its history's latest commit date. Hostile: a last commit dated
    back before the due date cannot come before the late commit it builds on."""
    repo = tmp_path / "ana"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.txt").write_text("1", encoding="utf-8")
    _git(repo, "add", "a.txt")
    _git(repo, "commit", "-q", "-m", "uno", when=at(1.2))
    assert git_time(repo) == at(1.2).replace(microsecond=0)
    (repo / "a.txt").write_text("2", encoding="utf-8")
    _git(repo, "commit", "-qam", "dos", when=at(-4))  # dated back by the student
    assert git_time(repo) == at(1.2).replace(microsecond=0)
    policy = policy_of(per_day())
    assert policy is not None
    late = lateness_of(policy, {"ana": repo}, tmp_path, {}, {}, {})["ana"]
    assert (late.state, late.days, late.source) == (LATE, 2, GIT)
    assert git_time(tmp_path) is None  # no repository: no time


def test_the_instructors_list_overrides_every_other_source(tmp_path: Path) -> None:
    download = _zip(
        tmp_path / "canvas.zip", [_member("perezluis_LATE_202_9002_lab.py", at(3), b"x = 1\n")]
    )
    policy = policy_of(per_day())
    assert policy is not None
    found = read_download(download, tmp_path, C323.id)
    given = {"202": at(-0.1)}  # the instructor checked: Canvas's due date was wrong
    late = lateness_of(policy, dict(found.students), download, found.identities, given, {})
    assert (late["202"].state, late["202"].source) == (ON_TIME, GIVEN)


# --- through `compmath grade` ----------------------------------------------------------------


def course_with_deadline(tmp_path: Path, table: str) -> Path:
    """A course of class 323 alone whose curso.toml has `table` as its [entrega]."""
    root = tmp_path / "curso"
    part = C323.path.parent
    (root / "classes" / part.name).mkdir(parents=True)
    shutil.copy(part / "part.toml", root / "classes" / part.name / "part.toml")
    shutil.copytree(C323.path, root / "classes" / part.name / C323.path.name)
    (root / "schemas").mkdir()
    shutil.copy(C323.schema_path, root / "schemas" / C323.schema_path.name)
    title = 'titulo = "compmath"\n'
    (root / "curso.toml").write_text(f"{title}\n[entrega]\n{table}", encoding="utf-8")
    return root


@pytest.mark.lento
def test_grade_writes_the_deduction_apart_and_the_feedback_line(cli, tmp_path: Path) -> None:
    table = (
        "fecha = 2026-12-15T23:59:00+01:00\ndescuento_por_dia = 10\n"
        'cierre = 2026-12-20T23:59:00+01:00\nprorrogas = "prorrogas.csv"\n'
    )
    root = course_with_deadline(tmp_path, table)
    (root / "prorrogas.csv").write_text("alumno,dias,motivo\nrosa,3,viaje\n", encoding="utf-8")
    entregas = tmp_path / "entregas"
    for student in ("ana", "luis", "rosa", "eva"):
        lab = entregas / student / REL
        lab.parent.mkdir(parents=True)
        lab.write_text(solved(C323), encoding="utf-8")
    dates = tmp_path / "fechas.csv"
    dates.write_text(
        "alumno,entregado_en\nana,2026-12-15 20:00\nluis,2026-12-17 10:00\n"
        "rosa,2026-12-17 10:00\neva,2026-12-21 09:00\n",
        encoding="utf-8",
    )
    out = tmp_path / "notas"
    args = ["grade", str(entregas), "--root", str(root), "--out", str(out), *AS_IT_CAN]
    bad = cli(*args, "--entregado-en", str(tmp_path / "no-existe.csv"))
    assert bad.code == 2 and "no se puede leer la lista de fechas" in error_lines(bad)[0]
    no_traceback(bad)
    broken = tmp_path / "rotas.csv"
    broken.write_text("alumno,entregado_en\nana,15/13/2026\n", encoding="utf-8")
    refused = cli(*args, "--entregado-en", str(broken))
    assert (
        refused.code == 2
        and "rotas.csv, línea 2: «15/13/2026» no es una fecha" in (error_lines(refused)[0])
    )
    assert not (out / "notas.csv").exists()  # refused before anything was graded
    done = cli(*args, "--entregado-en", str(dates))
    assert done.code == 0, done.err
    said = " ".join(done.out.split())
    assert "plazo: 1 entrega tardía · 1 fuera de plazo (0) · 0 sin fecha" in said
    table_rows = list(csv.DictReader(io.StringIO((out / "notas.csv").read_text("utf-8"))))
    by = {r["alumno"]: r for r in table_rows}
    assert {s: (r["total"], r["penalizacion"], r["nota_final"]) for s, r in by.items()} == {
        "ana": ("2", "0", "2"),
        "luis": ("2", "20", "1.6"),  # 1 day 10 h late: two started days
        "rosa": ("2", "0", "2"),  # three days more
        "eva": ("2", "100", "0"),  # past the cut-off
    }
    assert by["eva"]["entrega"] == "fuera de plazo" and by["luis"]["dias_tarde"] == "2"
    feedback = (out / "comentarios" / "luis.md").read_text("utf-8")
    assert "**Nota: 1,6 de 2 puntos (2 antes del descuento por retraso).**" in feedback
    assert "Entrega tardía: 2 días, −20 %" in feedback
    eva = (out / "comentarios" / "eva.md").read_text("utf-8")
    assert "la nota es 0" in eva and "**Nota: 0 de 2 puntos (2 sin contar el cierre" in eva
    rosa = (out / "comentarios" / "rosa.md").read_text("utf-8")
    assert "Entregada a tiempo con prórroga (viaje): entregada el 2026-12-17T10:00" in rosa
    report = json.loads((out / "informe.json").read_text("utf-8"))
    jsonschema.validate(report, GRADE_SCHEMA)
    luis = next(s for s in report["alumnos"] if s["alumno"] == "luis")
    assert luis["obtenidos"] == 2 and luis["entrega"]["nota_final"] == 1.6
    from compmath.grading.gradebook import merge, read_report

    book = read_report(out)  # what `grade merge` and `exportar` read back
    assert book.lateness["luis"].percent == 20.0 and merge([book]).lateness == book.lateness
    exported = cli("grade", "exportar", str(out), "--formato", "csv")
    assert exported.code == 0, exported.err
    plain = list(csv.reader(io.StringIO((out / "notas-exportadas.csv").read_text("utf-8-sig"))))
    index = plain[0].index("penalizacion")
    assert {r[0]: (r[index], r[index + 1]) for r in plain[1:]}["luis"] == ("20", "1.6")


def test_deadline_options_without_a_deadline_are_refused(cli, tmp_path: Path) -> None:
    entregas = tmp_path / "entregas"
    (entregas / "ana").mkdir(parents=True)
    dates = tmp_path / "fechas.csv"
    dates.write_text("alumno,entregado_en\nana,2026-12-15 20:00\n", encoding="utf-8")
    done = cli("grade", str(entregas), "--root", str(REPO), "--entregado-en", str(dates))
    assert done.code == 2 and "[entrega]" in error_lines(done)[0]


def test_the_lms_gradebooks_get_the_final_grade_and_the_comment_says_why() -> None:
    """Moodle's worksheet (assignfeedback_offline reads «Calificación») and Canvas's import
    (the assignment column) have no column for a deduction: they get the grade after it, and
    the worksheet's feedback comment opens with the lateness; the plain CSV has its column."""
    from compmath.grading.export import Options, canvas_gradebook, moodle_worksheet, plain_csv
    from tests.test_grade_lms import rows, synthetic_report

    report, identities = synthetic_report()
    late = assess(policy_of(per_day()) or pytest.fail("sin política"), at(1.5), LMS)
    student = next(s for s in report["alumnos"] if s["obtenidos"] == 1.5)
    student["entrega"] = {**late.to_dict(), "nota_final": late.final(1.5)}
    jsonschema.validate(report, GRADE_SCHEMA)
    when = Options(now=dt.datetime(2026, 12, 20, 10, 0, 0))
    sheet = {r[0]: r for r in rows(moodle_worksheet(report, identities, when))}
    row = sheet[f"Participante {student['alumno']}"]
    assert row[4] == "1.2" and row[9].startswith("Entrega tardía: 2 días, −20 %")
    canvas = {r[1]: r for r in rows(canvas_gradebook(report, identities, Options()))}
    assert canvas[student["alumno"]][5] == "1.2"
    plain = rows(plain_csv(report, identities, Options()))
    mine = next(r for r in plain if r[0] == student["alumno"])
    assert mine[plain[0].index("penalizacion")] == "20" and mine[plain[0].index("nota")] == "1.2"


def test_one_late_file_makes_the_canvas_submission_late(tmp_path: Path) -> None:
    """Hostile: a student who hands in an early file and then a late one is late: the
    `_LATE_` of any of their files counts, and an earlier file's time does not undo it."""
    download = _zip(
        tmp_path / "canvas.zip",
        [
            _member("perezluis_202_9001_notas.txt", at(-3), b"borrador\n"),
            _member("perezluis_LATE_202_9002_lab.py", at(-3), b"x = 1\n"),
        ],
    )
    policy = policy_of(per_day())
    assert policy is not None
    found = read_download(download, tmp_path, C323.id)
    late = lateness_of(policy, dict(found.students), download, found.identities, {}, {})
    assert late["202"].state == LATE


def test_an_extension_for_nobody_is_said(cli, tmp_path: Path) -> None:
    root = course_with_deadline(tmp_path, "fecha = 2026-12-15T23:59:00+01:00\n")
    entregas = tmp_path / "entregas"
    (entregas / "ana" / REL).parent.mkdir(parents=True)
    (entregas / "ana" / REL).write_text(solved(C323), encoding="utf-8")
    extensions = tmp_path / "prorrogas.csv"
    extensions.write_text("alumno,dias\nanna,2\n", encoding="utf-8")
    done = cli(
        "grade", str(entregas), "--root", str(root), "--out", str(tmp_path / "notas"),
        "--prorrogas", str(extensions), *AS_IT_CAN,
    )  # fmt: skip
    assert done.code == 0, done.err
    said = " ".join(done.err.split())
    assert "nombra a 1 alumno(s) que no están entre las entregas (anna)" in said
    assert "No consta cuándo entregaron 1 alumno(s) (ana)" in said
