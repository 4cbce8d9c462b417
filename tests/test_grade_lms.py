"""`compmath grade` where the course lives: LMS downloads in, a roster, gradebook files out,
Classroom 50 and Gradescope. Each test names the consumer's document it follows."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest

from compmath.grading.classroom50 import result_document
from compmath.grading.export import (
    MOODLE,
    Options,
    canvas_gradebook,
    moodle_gradebook,
    moodle_worksheet,
    plain_csv,
)
from compmath.grading.gradebook import FORMULA_START, Gradebook
from compmath.grading.lms import read_download
from compmath.grading.records import ClassGrade, ClassSpec, HoleGrade, StudentGrade
from compmath.grading.roster import Identity
from compmath.holes.graft import HoleStatus
from tests.conftest import REPO, error_lines, no_traceback
from tests.test_grade import C323, solved, with_hole

DATA = Path(__file__).parent / "data"
REL = C323.lab.relative_to(REPO)  # classes/…/323-…/lab.py, the course layout
GRADE_SCHEMA = json.loads(
    (REPO / "compmath" / "contracts" / "grade.schema.json").read_text("utf-8")
)
CLASSROOM50 = json.loads((DATA / "classroom50-result-v1.schema.json").read_text("utf-8"))
GRADESCOPE = json.loads((DATA / "gradescope-results.schema.json").read_text("utf-8"))
WORKSHEET_ES = [  # Moodle's es strings for the gradingtable.php download columns
    "Identificador",
    "Nombre completo",
    "Dirección de correo",
    "Estado",
    "Calificación",
    "Calificación máxima",
    "La calificación puede ser cambiada",
    "Última modificación (entrega)",
    "Última modificación (calificación)",
    "Comentarios de retroalimentación",
]


def zipped(members: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def rows(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=delimiter))


def no_formula(table: list[list[str]]) -> None:
    """No text cell a spreadsheet would run: nothing starts with = + - @ tab CR (OWASP)."""
    for row in table:
        for cell in row:
            assert not cell.startswith(FORMULA_START), (cell, row)


def moodle_download(tmp_path: Path) -> tuple[Path, Path]:
    """A Moodle «Descargar todas las entregas» zip and the worksheet downloaded as roster."""
    inner = zipped({f"mi-practica/{REL}": solved(C323)})
    link = zipfile.ZipInfo("Ana López_101_assignsubmission_file_/enlace")
    link.external_attr = 0o120777 << 16
    download = tmp_path / "moodle.zip"
    download.write_bytes(
        zipped(
            {
                f"Ana López_101_assignsubmission_file_/{REL}": solved(C323),
                "Luis Pérez_102_assignsubmission_file_/lab.py": solved(C323, frozenset({1})),
                "Eva Gil_103_assignsubmission_file_/entrega.zip": inner,
                "Rosa Ruiz_105_assignsubmission_file_lab.py": solved(C323),  # no folders
                "Intruso_999_assignsubmission_file_/lab.py": solved(C323),
                "../fuera.py": "print('fuera')\n",
            }
        )
    )
    with zipfile.ZipFile(download, "a") as archive:
        archive.writestr(link, "/etc/passwd")
    roster = tmp_path / "hoja.csv"
    roster.write_text(
        ",".join(WORKSHEET_ES)
        + "\n"
        + "Participante 101,Ana López,ana@uni.es,,,10,Sí,,-,\n"
        + "Participante 102,Luis Pérez,luis@uni.es,,,10,Sí,,-,\n"
        + 'Participante 103,=HYPERLINK("x"),@eva@uni.es,,,10,Sí,,-,\n'
        + "Participante 104,Nadie Nada,nadie@uni.es,,,10,Sí,,-,\n"
        + "Participante 105,Rosa Ruiz,rosa@uni.es,,,10,Sí,,-,\n",
        encoding="utf-8",
    )
    return download, roster


def moodle_importer_rows(text: str) -> dict[str, tuple[str, str, str]]:
    """What Moodle's assignfeedback_offline importer (importgradeslib.php) takes from a
    worksheet: it finds «Identificador», «Calificación» and «Última modificación
    (calificación)» by name (init() fails without any of them), strips «Participante » off the
    id and reads the grade; the feedback column is found by its description."""
    table = rows(text)
    header = table[0]
    words = MOODLE["es"]
    index = {k: header.index(words[k]) for k in ("recordid", "grade", "lastmodifiedgrade")}
    feedback = header.index(words["feedbackcomments"])
    found = {}
    for row in table[1:]:
        ident = row[index["recordid"]][len(words["hiddenuser"]) :]
        assert ident.isdigit(), row
        when = row[index["lastmodifiedgrade"]]
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", when)  # strtotime reads it
        found[ident] = (row[index["grade"]], row[feedback], when)
    return found


def moodle_feedback_owner(path: str, participants: set[str]) -> str | None:
    """The participant a file of a feedback zip goes to, as importziplib.php's
    is_valid_filename_for_import decides: each path part split at «_» into at most 5 pieces,
    the second a participant id, then plugin type and name."""
    for part in path.split("/"):
        info = part.split("_", 4)
        if len(info) < 4 or not info[1].isdigit() or info[1] not in participants:
            continue
        return info[1] if (info[2], info[3]) == ("assignfeedback", "file") else None
    return None


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_moodle_download_graded_with_a_roster(cli, tmp_path: Path) -> None:
    """Moodle's «Descargar todas las entregas» layout (mod/assign: folders
    `Nombre_ID_assignsubmission_file_`, or files so named without «descargar en carpetas»),
    its offline grading worksheet as the roster and as the export (gradingtable.php columns,
    importgradeslib.php import), and the feedback zip as importziplib.php reads it."""
    download, roster = moodle_download(tmp_path)
    out = tmp_path / "notas"
    args = ["--root", str(REPO), "--clases", "323", "--out", str(out), "--alumnos", str(roster)]
    result = cli("grade", str(download), *args)
    assert result.code == 0, result.err
    report = json.loads((out / "informe.json").read_text("utf-8"))
    jsonschema.validate(report, GRADE_SCHEMA)
    earned = {s["alumno"]: s["obtenidos"] for s in report["alumnos"]}
    assert earned == {"101": 2, "102": 1, "103": 2, "104": 0, "105": 2}  # 999 is not graded
    absent = next(s for s in report["alumnos"] if s["alumno"] == "104")
    assert absent["clases"][0]["problema"].startswith("sin entrega")
    assert "999" in result.err and "lista de alumnos" in result.err
    assert "fuera.py" in result.out and "999" in result.out  # listed, never graded
    assert "enlace: enlace simbólico, ignorado" in result.out
    assert not (out / "alumnos" / "999.json").exists()
    identities = json.loads((out / "identidades.json").read_text("utf-8"))
    assert (
        identities["101"]["email"] == "ana@uni.es" and identities["104"]["status"] == "sin entrega"
    )

    sheet = out / "hoja.csv"
    done = cli(
        "grade",
        "exportar",
        str(out),
        "--formato",
        "moodle-hoja",
        "--escala",
        "10",
        "--out",
        str(sheet),
    )
    assert done.code == 0, done.err
    text = sheet.read_text("utf-8")
    assert rows(text)[0] == WORKSHEET_ES
    no_formula(rows(text))
    imported = moodle_importer_rows(text)
    assert {k: v[0] for k, v in imported.items()} == {
        "101": "10",
        "102": "5",
        "103": "10",
        "104": "0",
        "105": "10",
    }
    assert "hueco 1" in imported["102"][1] and "sin entrega" in imported["104"][1]

    done = cli("grade", "exportar", str(out), "--formato", "moodle-comentarios")
    assert done.code == 0, done.err
    with zipfile.ZipFile(out / "moodle-comentarios.zip") as archive:
        owners = {moodle_feedback_owner(n, set(earned)): n for n in archive.namelist()}
        assert set(owners) == set(earned)
        for student, name in owners.items():
            assert archive.read(name) == (out / "comentarios" / f"{student}.md").read_bytes()
    assert "Ana López_101_assignfeedback_file_/comentarios.md" in owners.values()


def test_a_canvas_download_zip(cli, tmp_path: Path) -> None:
    """Canvas's «Download Submissions» names (`apellidonombre_userid_submissionid_archivo`,
    `_LATE_` after the name when late, `-1` on a file sent again) and its gradebook import as
    Canvas's guides describe it (Student, ID, SIS User ID, SIS Login ID, Section, one column
    per assignment, the «Points Possible» row: VCU «Gradebook Action Menu», OSU «Import a CSV
    file to Carmen Grades»)."""
    download = tmp_path / "submissions.zip"
    download.write_bytes(
        zipped(
            {
                "lopezana_201_9001_lab.py": solved(C323),
                "perezluis_LATE_202_9002_entrega.zip": zipped({str(REL): solved(C323)}),
                "ruizrosa_204_9004_lab-1.py": solved(C323, frozenset({2})),
                "notas del profesor.txt": "no es una entrega",
            }
        )
    )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    found = read_download(download, scratch, C323.id)
    assert sorted(found.students) == ["201", "202", "204"]
    assert found.identities["202"].status == "fuera de plazo"
    assert found.identities["201"].lms == "canvas" and "notas del profesor" in found.ignored[0]
    out = tmp_path / "notas"
    result = cli("grade", str(download), "--root", str(REPO), "--clases", "323", "--out", str(out))
    assert result.code == 0, result.err
    done = cli("grade", "exportar", str(out), "--formato", "canvas", "--tarea", "Práctica 323")
    assert done.code == 0, done.err
    table = rows((out / "canvas.csv").read_text("utf-8"))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Práctica 323"]
    assert table[1] == ["Points Possible", "", "", "", "", "2"]
    assert {r[1]: r[5] for r in table[2:]} == {"201": "2", "202": "2", "204": "1"}
    refused = cli("grade", "exportar", str(out), "--formato", "canvas", "--separador", ";")
    assert refused.code == 2 and "Canvas" in no_traceback(refused)
    roster = tmp_path / "libro.csv"  # Canvas's gradebook export, as the roster
    roster.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,Práctica 323 (77)\n"
        "    Points Possible,,,,,2\n"
        '"López, Ana",201,A201,ana@uni.es,Grupo 1,\n'
        '"Pérez, Luis",202,A202,luis@uni.es,Grupo 1,\n'
        '"Ruiz, Rosa",204,A204,rosa@uni.es,Grupo 2,\n'
        '"Mora, Lucía",205,A205,lucia@uni.es,Grupo 2,\n',
        encoding="utf-8",
    )
    again = cli(
        "grade",
        str(download),
        "--root",
        str(REPO),
        "--clases",
        "323",
        "--out",
        str(out),
        "--alumnos",
        str(roster),
    )
    assert again.code == 0, again.err
    assert cli("grade", "exportar", str(out), "--formato", "canvas").code == 0
    table = rows((out / "canvas.csv").read_text("utf-8"))
    assert table[2] == ["López, Ana", "201", "A201", "ana@uni.es", "Grupo 1", "2"]
    assert table[-1] == ["Mora, Lucía", "205", "A205", "lucia@uni.es", "Grupo 2", "0"]
    misplaced = cli("grade", str(download), "--formato", "canvas")
    assert misplaced.code == 2 and "grade exportar" in error_lines(misplaced)[0]


def synthetic_report() -> tuple[dict, dict[str, Identity]]:
    """An informe.json as grade writes it (checked against its schema), with hostile names."""
    hole = {
        "numero": 1,
        "estado": "mal",
        "obtenidos": 0,
        "puntos": 1.5,
        "motivo": "=cmd|' /C calc'!A0",
        "variantes_superadas": 0,
        "variantes": 1,
    }
    good = dict(hole, estado="bien", obtenidos=1.5, motivo="")
    students = []
    for k, start in enumerate(FORMULA_START):
        students.append(
            {
                "alumno": str(300 + k),
                "huella": "a" * 64,
                "obtenidos": 1.5 * (k % 2),
                "puntos": 3,
                "avisos": [],
                "protecciones_ausentes": [],
                "clases": [
                    {
                        "clase": "323-x",
                        "obtenidos": 1.5 * (k % 2),
                        "puntos": 3,
                        "problema": "",
                        "salida_del_alumno": "",
                        "fuera_de_los_huecos_cambiado": False,
                        "huecos": [good if k % 2 else hole, hole],
                    }
                ],
            }
        )
    report = {
        "version": 1,
        "huella_del_curso": "b" * 64,
        "puntos": 3,
        "protecciones_ausentes": [],
        "nombres_parecidos": [],
        "clases": [
            {
                "clase": "323-x",
                "numero": 323,
                "titulo": "X",
                "puntos": 3,
                "credito": "todo_o_nada",
                "huecos": [{"puntos": 1.5, "tarea": "a"}, {"puntos": 1.5, "tarea": "b"}],
            }
        ],
        "resumen": {"alumnos": 6, "media": 0.75, "con_todo": 0, "sin_puntos": 3},
        "resumen_por_hueco": {"alumnos": 6, "clases": [], "lo_mas_comun": []},
        "alumnos": students,
    }
    jsonschema.validate(report, GRADE_SCHEMA)
    identities = {
        s["alumno"]: Identity(
            s["alumno"],
            name=f"{c}SUM(A1)",
            email=f"{c}x@uni.es",
            id_number=f"{c}7",
            section=f"{c}A",
            sis_login_id=f"{c}login",
        )
        for s, c in zip(students, FORMULA_START)
    }
    return report, identities


def test_every_format_round_trips_and_never_starts_a_formula() -> None:
    """CSV as RFC 4180 (which Moodle's csv_import_reader and Canvas read) through Python's
    reader; OWASP «CSV Injection»: no cell starts with =, +, -, @, tab or CR; the generic CSV
    for a Spanish spreadsheet with `;` and the decimal comma."""
    report, identities = synthetic_report()
    when = Options(now=__import__("datetime").datetime(2026, 12, 1, 10, 0, 0))
    for writer in (moodle_worksheet, moodle_gradebook, canvas_gradebook, plain_csv):
        table = rows(writer(report, identities, when))
        no_formula(table)
        assert len(table) == len(report["alumnos"]) + 1 + (writer is canvas_gradebook)
    names = [r[1] for r in rows(moodle_worksheet(report, identities, when))[1:]]
    assert names == [f"'{c}SUM(A1)" for c in FORMULA_START]  # kept, defused
    spanish = Options(";", ",", "10")
    table = rows(plain_csv(report, identities, spanish), ";")
    nota = table[0].index("nota")
    assert [float(r[nota].replace(",", ".")) for r in table[1:]] == [0, 5, 0, 5, 0, 5]
    assert table[2][table[0].index("323 puntos")] == "1,5"


def test_exports_refuse_what_the_lms_could_not_read(cli, tmp_path: Path) -> None:
    """Spanish universities' Moodle help: with the decimal comma the separator is `;` or a
    tab, never `,`; Moodle's gradebook import maps a user by e-mail or ID number, so a row
    with neither is refused, naming the student."""
    report, _ = synthetic_report()
    out = tmp_path / "notas"
    out.mkdir()
    (out / "informe.json").write_text(json.dumps(report), encoding="utf-8")
    refused = cli(
        "grade", "exportar", str(out), "--formato", "csv", "--decimal", ",", "--separador", ","
    )
    assert refused.code == 2 and "separador" in error_lines(refused)[0]
    refused = cli("grade", "exportar", str(out), "--formato", "moodle-libro")
    assert refused.code == 2 and "300" in error_lines(refused)[0]
    assert cli("grade", "exportar", str(out), "--formato", "xlsx").code == 2
    done = cli("grade", "exportar", str(out), "--formato", "csv", "--decimal", ",")
    assert done.code == 0 and (out / "notas-exportadas.csv").read_text("utf-8-sig").count(";")


def half_points_book() -> Gradebook:
    spec = ClassSpec("323-x", 323, "X", (0.5, 1.0), ("a", "b"), "proporcional")
    holes = (
        HoleGrade(1, 0.5, 0.5, HoleStatus.RIGHT, ""),
        HoleGrade(2, 1.0, 0.3333, HoleStatus.WRONG, "no", 1, 3),
    )
    return Gradebook(
        "c" * 64, [spec], [StudentGrade("ana", "d" * 64, (ClassGrade("323-x", holes),))]
    )


def test_classroom50_result_of_half_points_is_integers(tmp_path: Path) -> None:
    """Classroom 50's schemas/result-v1.schema.json (copied in tests/data with its commit):
    integer score and max-score, per-test score <= max-score (enforced by its runner): a course
    worth halves is scaled by 10 and the feedback says so; a share is never rounded up."""
    document = result_document(half_points_book(), tmp_path)
    jsonschema.Draft202012Validator(CLASSROOM50).validate(document)
    assert [(t["score"], t["max-score"]) for t in document["tests"]] == [(5, 5), (3, 10)]
    assert document["score"] == 8 and document["max-score"] == 15
    assert all("×10" in t["message"] for t in document["tests"])


def test_classroom50_grades_one_repository_and_ignores_a_committed_result(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Classroom 50's runner reads the result.json the autograder leaves in the checkout
    (Advanced Autograding wiki; runner.py): one the student committed claiming full marks must
    be gone before grading, and must not survive a grading that fails."""
    repo = tmp_path / "tarea-ana"
    (repo / REL).parent.mkdir(parents=True)
    (repo / REL).write_text(solved(C323, frozenset({2})), encoding="utf-8")
    fake = {"schema": "classroom50/result/v1", "score": 100, "max-score": 100, "tests": []}
    (repo / "result.json").write_text(json.dumps(fake), encoding="utf-8")
    for name, value in {
        "CLASSROOM": "mates",
        "ASSIGNMENT": "p1",
        "USERNAME": "ana",
        "SUBMISSION_TAG": "submit/20261201T100000Z-abc1234",
        "COMMIT_URL": "https://github.com/o/r/commit/abc",
    }.items():
        monkeypatch.setenv(name, value)
    failed = cli("grade", str(repo), "--classroom50", "--root", str(REPO), "--clases", "999")
    assert failed.code == 2 and not (repo / "result.json").exists()
    (repo / "result.json").write_text(json.dumps(fake), encoding="utf-8")
    result = cli(
        "grade",
        str(repo),
        "--classroom50",
        "--root",
        str(REPO),
        "--clases",
        "323",
        "--out",
        str(tmp_path / "notas"),
    )
    assert result.code == 0, result.err
    document = json.loads((repo / "result.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(CLASSROOM50).validate(document)
    assert (document["score"], document["max-score"], document["owner"]) == (1, 2, "ana")
    assert [t["passed"] for t in document["tests"]] == [True, False]
    assert "1 de 2" in (repo / "release-body.md").read_text("utf-8")


def test_github_classroom_is_gone(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GitHub Classroom was discontinued on 28 August 2026 (github/gh-classroom PR #119): its
    two entry points say so and what to use instead, and write nothing, in a course or not."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPMATH_ROOT", raising=False)
    for args in (
        ["grade", str(tmp_path), "--classroom"],
        ["practice", "start", str(tmp_path / "ws"), "--github-classroom"],
    ):
        result = cli(*args)
        assert result.code == 2, result.out
        assert "28 de agosto de 2026" in error_lines(result)[0] and "Classroom 50" in result.err
        assert "Traceback" not in result.err
    assert not (tmp_path / "ws").exists()


def course_on_github(tmp_path: Path) -> tuple[Path, str]:
    course = tmp_path / "curso"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{REPO}", str(course)], check=True
    )
    subprocess.run(
        [
            "git",
            "-C",
            str(course),
            "remote",
            "set-url",
            "origin",
            "git@github.com:profe/curso-mates.git",
        ],
        check=True,
    )
    commit = subprocess.run(
        ["git", "-C", str(course), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return course, commit


@pytest.mark.lento  # a git clone and zizmor
def test_practice_start_classroom50_writes_the_autograder_and_the_workflow(
    cli, tmp_path: Path
) -> None:
    """Classroom 50's Advanced Autograding: CLASSROOM/autograders/ASSIGNMENT/autograder.py runs
    in the student's checkout; the workflow passes zizmor like every workflow we ship."""
    course, commit = course_on_github(tmp_path)
    result = cli("practice", "start", str(tmp_path / "ws"), "--root", str(course), "--classroom50")
    assert result.code == 0, result.err
    script = (tmp_path / "ws" / "compmath-classroom50" / "autograder.py").read_text("utf-8")
    assert commit in script and "--classroom50" in script
    compile(script, "autograder.py", "exec")
    workflow = tmp_path / "ws" / ".github" / "workflows" / "compmath.yml"
    assert f"ref: {commit}" in workflow.read_text("utf-8")
    from tests.test_workflows import zizmor

    proc = subprocess.run(
        [
            zizmor(),
            "--offline",
            "--no-config",
            "--no-ignores",
            "--format",
            "json",
            str(workflow.parent),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert json.loads(proc.stdout or "null") == [] and proc.returncode == 0, proc.stdout


@pytest.mark.lento  # a git clone, then a grading in a child process
def test_gradescope_autograder_zip_and_its_results(cli, tmp_path: Path) -> None:
    """Gradescope's «Autograder Specifications»: the zip's setup.sh and run_autograder; the
    submission in /autograder/submission, results.json in /autograder/results, validated
    against tests/data/gradescope-results.schema.json (written from that page); one test per
    hole. Hostile: a hole that reads the course's solution in /autograder/source and the
    submitter's metadata finds neither, and a printed forged results document earns nothing."""
    course, commit = course_on_github(tmp_path)
    target = tmp_path / "autograder.zip"
    result = cli(
        "grade",
        "gradescope",
        "323",
        "--root",
        str(course),
        "--out",
        str(target),
        "--visibilidad",
        "after_due_date",
    )
    assert result.code == 0, result.err
    root = tmp_path / "autograder"
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == [
            "compmath-gradescope.json",
            "run_autograder",
            "setup.sh",
        ]
        assert commit in archive.read("setup.sh").decode()
        assert (
            "python3 -m compmath.grading.gradescope /autograder"
            in archive.read("run_autograder").decode()
        )
        config = json.loads(archive.read("compmath-gradescope.json"))
    course_copy = root / "source" / "curso"  # where setup.sh puts the course
    for name in ("classes", "schemas"):
        shutil.copytree(REPO / name, course_copy / name)
    shutil.copy(REPO / "curso.toml", course_copy / "curso.toml")
    config["curso"] = str(course_copy)
    (root / "source" / "compmath-gradescope.json").write_text(json.dumps(config), "utf-8")
    spying = (  # hole 1 reads the course's solution and the submitter's metadata
        f"print('curso:', len(open({str(course_copy / REL)!r}).read()))\n"
        f"print('meta:', open({str(root / 'submission_metadata.json')!r}).read())\n"
    )
    forged = 'print(\'{"score": 100, "tests": []}\')\n'  # a results document, printed
    lab = root / "submission" / REL
    lab.parent.mkdir(parents=True)
    source = with_hole(C323, 1, spying)
    lab.write_text(source.replace("def run(", forged + "\ndef run(", 1), encoding="utf-8")
    (root / "submission_metadata.json").write_text(
        json.dumps({"users": [{"email": "ana@uni.es", "name": "Ana"}]}), "utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    run_autograder = [sys.executable, "-m", "compmath.grading.gradescope", str(root)]
    subprocess.run(run_autograder, check=True, env=env, timeout=300)
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(GRADESCOPE).validate(results)
    assert [t["number"] for t in results["tests"]] == ["323.1", "323.2"]
    assert results["score"] == 1 and [t["score"] for t in results["tests"]] == [0, 1]
    assert {t["visibility"] for t in results["tests"]} == {"after_due_date"}
    assert "FileNotFoundError" in results["tests"][0]["output"]  # neither was there to read
    assert "ana@uni.es" not in json.dumps(results)
    # fail closed, as grade does: without a layer that keeps a hole from /autograder/source,
    # 0 and why, unless the instructor built the zip with --sin-aislamiento-completo
    assert config["sin_aislamiento_completo"] is False
    degraded = {**env, "COMPMATH_SIN": "pidns"}
    subprocess.run(run_autograder, check=True, env=degraded, timeout=300)
    refused = json.loads((root / "results" / "results.json").read_text("utf-8"))
    assert refused["score"] == 0 and refused["tests"] == []
    assert "no pudo corregir" in refused["output"] and "procesos" in refused["output"]
    accepted = {**config, "sin_aislamiento_completo": True}
    (root / "source" / "compmath-gradescope.json").write_text(json.dumps(accepted), "utf-8")
    subprocess.run(run_autograder, check=True, env=degraded, timeout=300)
    graded = json.loads((root / "results" / "results.json").read_text("utf-8"))
    assert graded["score"] == 1 and "protecciones ausentes" in graded["output"]  # said there
    shutil.rmtree(root / "source")
    subprocess.run(run_autograder, check=True, env=env, timeout=300)
    failed = json.loads((root / "results" / "results.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(GRADESCOPE).validate(failed)
    assert failed["score"] == 0 and "no pudo corregir" in failed["output"]


def test_what_is_not_an_lms_download_stays_what_it_was(tmp_path: Path) -> None:
    """Today's layouts (a folder or .zip per student) are not taken for a download because one
    student's folder happens to look like an LMS name; a .zip with no LMS name is refused."""
    from compmath.errors import CompmathError
    from compmath.grading.lms import is_download

    entregas = tmp_path / "entregas"
    for name in ("ana", "beto", "pepe_12_34_x"):
        (entregas / name).mkdir(parents=True)
    assert not is_download(entregas)
    (entregas / "Eva Gil_7_assignsubmission_file_").mkdir()
    assert not is_download(entregas)  # two of four: still a folder of students
    (entregas / "Juan Díaz_9_assignsubmission_file_").mkdir()
    assert is_download(entregas)
    plain = tmp_path / "otra.zip"
    plain.write_bytes(zipped({"ana/lab.py": "x = 1\n"}))
    with pytest.raises(CompmathError, match="no es una descarga de Moodle ni de Canvas"):
        read_download(plain, tmp_path)


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_moodle_download_unzipped_grades_as_the_zip(cli, tmp_path: Path) -> None:
    """Moodle's download once unzipped by the instructor (the same names, as folders and
    files) grades as the zip does."""
    download, roster = moodle_download(tmp_path)
    folder = tmp_path / "descarga"
    with zipfile.ZipFile(download) as archive:
        for info in archive.infolist():
            if ".." in info.filename or info.filename.endswith("enlace"):
                continue
            target = folder / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))
    grades = {}
    for source in (download, folder):
        out = tmp_path / f"notas-{source.name}"
        result = cli(
            "grade",
            str(source),
            "--root",
            str(REPO),
            "--clases",
            "323",
            "--out",
            str(out),
            "--alumnos",
            str(roster),
        )
        assert result.code == 0, result.err
        report = json.loads((out / "informe.json").read_text("utf-8"))
        grades[source.name] = {s["alumno"]: s["obtenidos"] for s in report["alumnos"]}
    assert grades["descarga"] == grades["moodle.zip"]
    assert grades["descarga"]["103"] == 2  # the student's own zip, inside their folder


def test_a_course_not_on_github_is_refused_with_what_to_do(cli, tmp_path: Path) -> None:
    """Gradescope and Classroom 50 fetch the course from GitHub at a commit: a course that is
    not a GitHub checkout is one line saying so, and the hint fits each order (gradescope makes
    no practice workspace)."""
    course = tmp_path / "curso"  # the real course, outside any git repository
    for part in ("classes", "schemas"):
        shutil.copytree(REPO / part, course / part)
    shutil.copy(REPO / "curso.toml", course / "curso.toml")
    made = cli(
        "grade", "gradescope", "323", "--root", str(course), "--out", str(tmp_path / "a.zip")
    )
    start = cli("practice", "start", str(tmp_path / "ws"), "--root", str(course), "--classroom50")
    for result, what in ((made, "gradescope"), (start, "practice start --classroom50")):
        said = " ".join(result.err.split())
        assert result.code == 2, result.err
        assert f"error: {what} necesita que el curso sea un repositorio de GitHub" in said
        assert "repite la orden en una copia suya (git clone)" in said
        assert "espacio" not in result.err.splitlines()[-1]
    assert not (tmp_path / "a.zip").exists() and not (tmp_path / "ws").exists()
