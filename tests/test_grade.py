"""`compmath grade`: a class of honest and hostile students graded in one run, the gradebook,
resuming a killed run, shards merged into the same bytes as one run, zips read safely, and the
GitHub workflow of the CI matrix (Classroom 50 and the LMSs: test_grade_lms.py)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from compmath.course.tree import ClassInfo, load_course
from compmath.course.workflows import shards_workflow
from compmath.grading.gradebook import read_report
from compmath.grading.protection import REQUIRED, probe
from compmath.grading.shards import Shard, parse_shard
from compmath.grading.submissions import MAX_SOURCE, file_name, read_submission
from compmath.holes.regions import exercise_source, solution_regions, splice, student_regions
from tests.conftest import REPO, Result, error_lines, no_traceback

# A system without the layers that keep students apart (macOS) grades only when told to go on:
# the tests there grade as it can, and those about the layers themselves are skipped.
LACKING = [name for name in REQUIRED if name in probe()]
AS_IT_CAN = ["--sin-aislamiento-completo"] if LACKING else []
COURSE = load_course(REPO)
C323, C324 = COURSE.resolve("323"), COURSE.resolve("324")
CLASSES = [C323, C324]


def exercise(cls: ClassInfo) -> str:
    return exercise_source(cls.lab.read_text("utf-8"), [h.task for h in cls.meta.holes])


def solved(cls: ClassInfo, open_holes: frozenset[int] = frozenset()) -> str:
    """The student's lab.py with every hole answered as the course does, but `open_holes`."""
    return splice(exercise(cls), cls.lab.read_text("utf-8"), set(open_holes))


def with_hole(cls: ClassInfo, number: int, code: str) -> str:
    """Every hole answered as the course does, but hole `number`, which holds `code`."""
    source = solved(cls)
    region = next(r for r in student_regions(source) if r.number == number)
    lines = source.splitlines()
    body = [f"{region.indent}{line}" for line in code.splitlines()]
    return "\n".join(lines[: region.begin + 1] + body + lines[region.end :]) + "\n"


def hand_in(entregas: Path, student: str, labs: dict[ClassInfo, str | bytes]) -> Path:
    """A student's folder in the course layout with the given lab.py files."""
    for cls, source in labs.items():
        lab = entregas / student / cls.lab.relative_to(REPO)
        lab.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            lab.write_bytes(source)
        else:
            lab.write_text(source, encoding="utf-8")
    return entregas / student


def grade_args(entregas: Path, out: Path) -> list[str]:
    """`compmath grade` over the submissions, on 323 and 324 of the real course."""
    base = ["grade", str(entregas), "--root", str(REPO), "--clases", "323,324", "--out", str(out)]
    return base + AS_IT_CAN


def grade(cli: Callable[..., Result], entregas: Path, out: Path, *extra: str) -> Result:
    return cli(*grade_args(entregas, out), *extra)


def record(out: Path, student: str) -> dict:
    return json.loads((out / "alumnos" / f"{student}.json").read_text("utf-8"))


def holes_of(out: Path, student: str) -> dict[str, list[tuple[str, float]]]:
    return {
        c["clase"][:3]: [(h["estado"], h["obtenidos"]) for h in c["huecos"]]
        for c in record(out, student)["clases"]
    }


def outputs(out: Path) -> dict[str, bytes]:
    """The gradebook's files, byte for byte (the per-student records are the run's state)."""
    files = [out / "notas.csv", out / "informe.json", out / "resumen.md"]
    files += [*sorted((out / "comentarios").iterdir()), *sorted((out / "huecos").iterdir())]
    return {str(p.relative_to(out)): p.read_bytes() for p in files}


@pytest.mark.lento
def test_a_class_of_honest_and_hostile_students(cli, tmp_path: Path) -> None:
    entregas = tmp_path / "entregas"
    ana = hand_in(entregas, "ana", {C323: solved(C323), C324: solved(C324)})
    ana_lab = ana / C323.lab.relative_to(REPO)
    hand_in(entregas, "beto", {C323: solved(C323, frozenset({2}))})  # 324 not handed in
    hand_in(entregas, "carla", {C323: with_hole(C323, 1, "omega = 2.0 ** -i"), C324: solved(C324)})
    hand_in(entregas, "dani", {C323: "", C324: "   \n"})
    hand_in(entregas, "eva", {C323: bytes(range(256)), C324: "def run(:\n"})
    writes = (
        f"open({str(ana_lab)!r}, 'w').write('robado')\nopen({str(tmp_path / 'notas' / 'x')!r}, 'w')"
    )
    hand_in(entregas, "gus", {C323: with_hole(C323, 1, writes), C324: solved(C324)})
    reads = (
        f"print(open({str(ana_lab)!r}).read()[:40])\n"
        + solution_regions(C323.lab.read_text("utf-8"))[0].body[0].strip()
    )
    hand_in(entregas, "hugo", {C323: with_hole(C323, 1, reads), C324: solved(C324)})
    hand_in(
        entregas, "ines", {C323: with_hole(C323, 2, "while True:\n    pass"), C324: solved(C324)}
    )
    flood = "import sys\nfor _ in range(1600):\n    sys.stdout.write('x' * 65535 + '\\n')\n"
    first = "\n".join(
        line.strip() for line in solution_regions(C323.lab.read_text("utf-8"))[0].body
    )
    hand_in(entregas, "juan", {C323: with_hole(C323, 1, flood + first), C324: solved(C324)})
    copied = "omega = np.array([1.0, 0.1, 0.01, 0.001])  # los números de la instantánea"
    hand_in(entregas, "mario", {C323: with_hole(C323, 1, copied), C324: solved(C324)})
    cheat = "\n\ndef run(**_):  # the snapshot itself, holes left open\n    import json\n"
    cheat += f"    return json.loads(open({str(C323.snapshot)!r}).read())\n"
    hand_in(entregas, "nora", {C323: exercise(C323) + cheat, C324: solved(C324)})
    huge = "raise ValueError('¡' * 10_000_000)"  # a 10-million-character reason
    hand_in(entregas, "leo", {C323: with_hole(C323, 1, huge), C324: solved(C324)})
    with zipfile.ZipFile(entregas / "kike.zip", "w") as archive:
        archive.writestr("../../fuera.txt", "x")
        archive.writestr(f"kike/{C323.lab.relative_to(REPO)}", solved(C323))
        archive.writestr(f"../{C324.id}/lab.py", solved(C324))
    (entregas / "notas-sueltas.txt").write_text("no es una entrega")
    ana_before = ana_lab.read_bytes()

    out = tmp_path / "notas"
    result = grade(cli, entregas, out, "--timeout", "3", "--jobs", "2")
    text = no_traceback(result)
    assert result.code == 0, text
    assert (
        "13 entregas corregidas" in text
        and "notas-sueltas.txt: no es una carpeta ni un .zip" in text
    )

    assert holes_of(out, "ana") == {
        "323": [("bien", 1), ("bien", 1)],
        "324": [("bien", 1), ("bien", 1)],
    }
    assert holes_of(out, "beto") == {
        "323": [("bien", 1), ("sin completar", 0)],
        "324": [("sin entregar", 0)] * 2,
    }
    assert holes_of(out, "carla")["323"] == [("mal", 0), ("bien", 1)]
    assert record(out, "dani")["clases"][0]["problema"] == "el archivo está vacío"
    eva = record(out, "eva")
    assert "no es un archivo de texto" in eva["clases"][0]["problema"]
    assert {h["estado"] for h in eva["clases"][1]["huecos"]} == {"falla"}  # not Python: 0, why
    # The writer fails its own hole; ana's file and grade are untouched, nothing written in notas/
    assert holes_of(out, "gus")["323"][0] == ("falla", 0)
    why = record(out, "gus")["clases"][0]["huecos"][0]["motivo"]
    assert "lanzó FileNotFoundError en la línea" in why  # out of sight (test_grade_isolation)
    assert ana_lab.read_bytes() == ana_before and not (out / "x").exists()
    assert holes_of(out, "hugo")["323"][0] == ("falla", 0)  # ana's file is not there to read
    ines = record(out, "ines")["clases"][0]["huecos"][1]
    assert ines["estado"] == "falla" and "3 s" in ines["motivo"]
    juan = record(out, "juan")["clases"][0]
    assert juan["huecos"][0]["estado"] == "bien" and len(juan["salida_del_alumno"]) < 5000
    leo = record(out, "leo")["clases"][0]["huecos"][0]
    assert leo["estado"] == "falla" and len(leo["motivo"]) < 1000  # (today: the worker dies)
    # right at the defaults only: 323 gives each student a dimension of their own, so the copied
    # numbers fail first at mario's (re-derived from his id), before any hidden variant
    mario = record(out, "mario")["clases"][0]["huecos"][0]
    assert mario["obtenidos"] == 0 and mario["motivo"].startswith("con tus parámetros (dimension")
    assert "con tus parámetros (dimension" in (out / "comentarios" / "mario.md").read_text("utf-8")
    assert holes_of(out, "nora")["323"] == [("sin completar", 0)] * 2
    assert "Cambiaste código fuera de los huecos" in (out / "comentarios" / "nora.md").read_text()
    kike = record(out, "kike")
    assert holes_of(out, "kike") == {
        "323": [("bien", 1), ("bien", 1)],
        "324": [("sin entregar", 0)] * 2,
    }
    assert any("../../fuera.txt" in note for note in kike["avisos"])
    assert not (tmp_path / "fuera.txt").exists() and not (entregas.parent / "fuera.txt").exists()

    rows = (out / "notas.csv").read_text("utf-8").splitlines()
    assert (
        rows[0]
        == "alumno,323 hueco 1,323 hueco 2,323 total,324 hueco 1,324 hueco 2,324 total,total,maximo"
    )
    assert rows[1] == "ana,1,1,2,1,1,2,4,4" and rows[2] == "beto,1,0,1,0,0,0,1,4"
    report = json.loads((out / "informe.json").read_text("utf-8"))
    jsonschema.validate(
        report, json.loads((REPO / "compmath" / "contracts" / "grade.schema.json").read_text())
    )
    feedback = (out / "comentarios" / "carla.md").read_text("utf-8")
    assert "**Nota: 3 de 4 puntos.**" in feedback and "✗ Hueco 1 (1 punto): mal" in feedback
    assert "Motivo:" in feedback and "esperado" in feedback
    assert "✓ Hueco 2 (1 punto): bien." in feedback
    assert "fuera de los huecos" not in feedback

    # Graded alone, ana gets the same record: no other student changed her grade.
    alone = tmp_path / "sola"
    shutil.copytree(ana, alone / "ana")
    assert grade(cli, alone, tmp_path / "notas-sola").code == 0
    assert record(tmp_path / "notas-sola", "ana")["clases"] == record(out, "ana")["clases"]


def slow_students(entregas: Path, count: int) -> None:
    """Honest students whose first hole of 323 takes a while (each program distinct)."""
    first = "\n".join(
        line.strip() for line in solution_regions(C323.lab.read_text("utf-8"))[0].body
    )
    for k in range(count):
        code = f"import time\ntime.sleep(0.3)  # alumno {k}\n{first}"
        hand_in(entregas, f"alumno-{k:02d}", {C323: with_hole(C323, 1, code), C324: solved(C324)})


@pytest.mark.lento  # grades a class, is killed halfway, grades it again and once more whole
def test_a_killed_run_resumes_where_it_stopped(cli, tmp_path: Path) -> None:
    entregas, out = tmp_path / "entregas", tmp_path / "notas"
    slow_students(entregas, 6)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [
        sys.executable,
        "-m",
        "compmath.entry",
        *grade_args(entregas, out),
        "--jobs",
        "1",
    ]
    proc = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list((out / "alumnos").glob("*.json")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(30)
    done = {p.name: p.stat().st_mtime_ns for p in (out / "alumnos").glob("*.json")}
    assert 1 <= len(done) < 6 and not (out / "informe.json").exists()

    result = grade(cli, entregas, out, "--jobs", "1")
    assert result.code == 0
    judged, kept = 6 - len(done), len(done)
    assert f"{judged} juzgada{'' if judged == 1 else 's'} ahora" in no_traceback(result)
    assert f"{kept} ya corregida{'' if kept == 1 else 's'} antes" in no_traceback(result)
    assert {p: (out / "alumnos" / p).stat().st_mtime_ns for p in done} == done  # not rerun

    fresh = tmp_path / "de-una-vez"
    assert grade(cli, entregas, fresh, "--jobs", "2").code == 0
    assert outputs(out) == outputs(fresh)

    # A student who hands in again is judged again; the others are kept.
    hand_in(entregas, "alumno-03", {C323: solved(C323)})
    again = grade(cli, entregas, out)
    assert "1 juzgada ahora" in no_traceback(again) and "5 ya corregidas antes" in again.out


@pytest.mark.lento
def test_shards_merged_equal_one_run(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entregas = tmp_path / "entregas"
    for k in range(7):
        open_holes = frozenset({1 + k % 2}) if k % 3 else frozenset()
        hand_in(entregas, f"a{k}", {C323: solved(C323, open_holes), C324: solved(C324)})
    hand_in(entregas, "vacio", {C323: ""})
    one = tmp_path / "una"
    assert grade(cli, entregas, one).code == 0
    # The shards as a batch system runs them: Slurm's array index for one, Kubernetes' for the
    # other (the documented one-liners), each in its own folder.
    shards = [tmp_path / "f1", tmp_path / "f2"]
    slurm = {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "2"}
    for name, value in slurm.items():
        monkeypatch.setenv(name, value)
    assert grade(cli, entregas, shards[0], "--shard", "auto").code == 0
    for name in slurm:
        monkeypatch.delenv(name)
    monkeypatch.setenv("JOB_COMPLETION_INDEX", "1")
    assert grade(cli, entregas, shards[1], "--shard", "auto/2").code == 0
    students = [{g.student for g in read_report(f).grades} for f in shards]
    assert students[0] and students[1] and not students[0] & students[1]
    assert students[0] == {s for s in students[0] | students[1] if Shard(1, 2).holds(s)}
    merged = tmp_path / "juntas"
    result = cli("grade", "merge", *map(str, shards), "--out", str(merged))
    assert result.code == 0 and "2 fragmentos juntados: 8 alumnos" in no_traceback(result)
    assert outputs(merged) == outputs(one)
    # A shard left out is named, with the students it would have graded; so are students no
    # shard graded, and shards of different splits.
    alone = cli("grade", "merge", str(shards[0]), "--out", str(tmp_path / "media"))
    owed = ", ".join(sorted(students[1]))
    assert alone.code == 2 and not (tmp_path / "media" / "notas.csv").exists()
    assert error_lines(alone) == [f"error: falta el fragmento 2/2: sin las notas de {owed}"]
    assert "--shard 2/2 --out notas-2" in alone.err
    no_traceback(alone)
    late = tmp_path / "f2-con-una-nueva"
    shutil.copytree(shards[1], late)
    share = json.loads((late / "fragmento.json").read_text("utf-8"))
    (late / "fragmento.json").write_text(
        json.dumps({**share, "entregas": [*share["entregas"], "zoe"]})
    )
    short = cli("grade", "merge", str(shards[0]), str(late), "--out", str(tmp_path / "media"))
    assert error_lines(short) == [
        "error: ningún fragmento corrigió a 1 alumno de las entregas: zoe"
    ]
    (late / "fragmento.json").write_text(json.dumps({**share, "fragmento": "2/3"}))
    split = cli("grade", "merge", str(shards[0]), str(late), "--out", str(tmp_path / "media"))
    assert error_lines(split) == ["error: los fragmentos son de repartos distintos: 1/2, 2/3"]
    explicit = tmp_path / "f1-explicito"
    assert grade(cli, entregas, explicit, "--shard", "1/2").code == 0
    assert outputs(explicit) == outputs(shards[0])
    assert parse_shard("auto", {**slurm, "SLURM_ARRAY_TASK_ID": "2"}) == Shard(2, 2)
    inside = grade(cli, entregas, entregas / "notas")  # the output folder is no student
    assert "8 entregas corregidas" in no_traceback(inside)


def test_a_shard_depends_on_the_student_alone() -> None:
    names = [f"alumno-{k}" for k in range(300)]
    before = {n: next(k for k in range(1, 5) if Shard(k, 4).holds(n)) for n in names}
    assert sorted(set(before.values())) == [1, 2, 3, 4]
    assert all(sum(Shard(k, 4).holds(n) for k in range(1, 5)) == 1 for n in names)
    more = names + [f"nuevo-{k}" for k in range(50)]
    after = {n: next(k for k in range(1, 5) if Shard(k, 4).holds(n)) for n in more}
    assert {n: after[n] for n in names} == before


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--shard", "3/2"], "el fragmento 3/2 no existe"),
        (["--shard", "uno"], "--shard uno: no es K/N"),
        (["--shard", "auto"], "--shard auto necesita SLURM_ARRAY_TASK_ID"),
        (["--clases", "999"], "999"),
    ],
)
def test_bad_options_are_one_spanish_line(
    cli, tmp_path: Path, args, phrase, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "entregas").mkdir()
    result = cli("grade", str(tmp_path / "entregas"), "--root", str(REPO), *args)
    assert result.code == 2 and phrase in " ".join(error_lines(result)), result.err
    no_traceback(result)


def test_merge_refuses_what_is_not_a_finished_shard(cli, tmp_path: Path) -> None:
    result = cli("grade", "merge", str(tmp_path / "nada"), "--out", str(tmp_path / "n"))
    assert result.code == 2 and "ese fragmento no terminó" in result.err
    missing = cli("grade", str(tmp_path / "no-existe"), "--root", str(REPO))
    assert missing.code == 2 and "no es una carpeta" in missing.err


def test_zips_are_read_in_memory_refusing_escapes_links_and_bombs(tmp_path: Path) -> None:
    path = tmp_path / "eva.zip"
    layout = f"eva/{C323.lab.relative_to(REPO)}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("../../../tmp/escapa/lab.py", "x")
        archive.writestr("/etc/323-x/lab.py", "x")
        link = zipfile.ZipInfo(f"eva/{C324.id}/lab.py")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, "/etc/passwd")
        archive.writestr(layout, solved(C323))
        archive.writestr("eva/otra/323-x/lab.py", "más lejos del formato del curso")
    found = read_submission("eva", path, CLASSES)
    assert found.files[C323.id].source == solved(C323)
    assert found.files[C324.id].problem == f"no se entregó {C324.id}/lab.py"
    notes = " ".join(found.notes)
    assert "../../../tmp/escapa/lab.py" in notes and "/etc/323-x/lab.py" in notes
    assert "enlace simbólico" in notes
    bomb = tmp_path / "bomba.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(layout, "#" * (MAX_SOURCE * 8))
    assert "no es un lab.py" in read_submission("b", bomb, CLASSES).files[C323.id].problem
    moodle = tmp_path / "Ana García_123_assignsubmission_file_"  # a campus export's folder
    moodle.mkdir()
    shutil.copy(path, moodle / "entrega.zip")
    inside = read_submission("Ana García", moodle, CLASSES)
    assert inside.files[C323.id].source == solved(C323) and inside.notes[0] == "se leyó entrega.zip"
    (tmp_path / "roto.zip").write_bytes(b"PK\x03\x04 no es un zip")
    assert "dañado" in read_submission("r", tmp_path / "roto.zip", CLASSES).notes[0]


def test_a_folder_is_walked_without_following_links(tmp_path: Path) -> None:
    other = hand_in(tmp_path, "otra", {C323: solved(C323)})
    mine = tmp_path / "yo" / C323.lab.relative_to(REPO)
    mine.parent.mkdir(parents=True)
    mine.symlink_to(other / C323.lab.relative_to(REPO))
    found = read_submission("yo", tmp_path / "yo", CLASSES)
    assert found.files[C323.id].source is None and "enlace simbólico" in " ".join(found.notes)
    assert file_name("ana") == "ana" and file_name("../x").startswith("x-")


def test_the_shards_workflow_is_the_one_shipped() -> None:
    shipped = REPO / ".github" / "workflows" / "corregir.yml"
    assert shipped.read_text("utf-8") == shards_workflow(4)  # zizmor checks it (test_workflows)
    assert 'compmath grade "$ENTREGAS" --shard "$SHARD/4"' in shipped.read_text("utf-8")
    assert "compmath grade merge fragmentos/notas-* --out notas" in shipped.read_text("utf-8")


def test_points_per_hole_come_from_class_toml(cli, tmp_path: Path) -> None:
    course = tmp_path / "curso"
    for name in ("classes", "schemas"):
        shutil.copytree(REPO / name, course / name)
    shutil.copy(REPO / "curso.toml", course / "curso.toml")
    meta = course / C323.meta_path.relative_to(REPO)
    text = meta.read_text("utf-8")
    meta.write_text(text.replace("[[huecos]]\n", "[[huecos]]\npuntos = 2.5\n", 1), "utf-8")
    entregas = tmp_path / "entregas"
    hand_in(entregas, "ana", {C323: solved(C323, frozenset({2}))})
    out = tmp_path / "notas"
    result = cli(
        "grade", str(entregas), "--root", str(course), "--clases", "323", "--out", str(out),
        *AS_IT_CAN,
    )  # fmt: skip
    assert result.code == 0, result.err
    rows = (out / "notas.csv").read_text("utf-8").splitlines()
    assert rows == [
        "alumno,323 hueco 1,323 hueco 2,323 total,total,maximo",
        "ana,2.5,0,2.5,2.5,3.5",
    ]
    assert "(2,5 puntos): bien" in (out / "comentarios" / "ana.md").read_text("utf-8")
