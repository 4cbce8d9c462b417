"""Numbers of their own and private variants: each student's parameters derived from their id
([practica.por_alumno]), the same in practice and in grade; the instructor's private grading
variants, which a hole hard-coding every public point cannot pass; lint at every such point."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from compmath.course.params import specs_from_source
from compmath.course.per_student import (
    declaration_problems,
    filled,
    points,
    sample,
    student_key,
    student_params,
)
from compmath.course.records import OwnParam
from compmath.course.tree import load_course
from compmath.holes.own import own_params, with_defaults
from compmath.holes.regions import solution_regions, splice, student_regions
from tests.conftest import REPO

COURSE = load_course(REPO)
C323 = COURSE.resolve("323")
TYPES = {s.name: s.type_name for s in specs_from_source(C323.lab) or []}


def own_of(student: str) -> dict:
    return own_params(C323, student)


def two_students() -> tuple[str, str]:
    """Two ids whose dimensions differ (the derivation picks them; the test does not)."""
    first = "ana"
    other = next(
        s
        for s in ("beto", "carla", "dani", "eva")
        if own_of(s)["dimension"] != own_of(first)["dimension"]
    )
    return first, other


# --- the derivation ------------------------------------------------------------------------


def test_the_numbers_are_a_stable_hash_of_course_class_and_id() -> None:
    declared = C323.meta.per_student
    # SHA-256 of the same text on every machine and Python: these are the numbers `practice
    # start --alumno ana` gave on the machine that wrote this test, and grade re-derives them
    assert student_params("compmath", 323, "ana", declared, TYPES) == {
        "dimension": 12,
        "posiciones": 8,
    }
    assert student_params("compmath", 323, " Ana ", declared, TYPES) == own_of("ana")
    assert student_key("ÁNGELA") == student_key("ángela")
    options = next(o for o in declared if o.name == "dimension").options
    dims = {
        student_params("compmath", 323, f"alumno{k}", declared, TYPES)["dimension"]
        for k in range(60)
    }
    assert dims == set(options)  # every choice is reached, nothing else
    other_course = {
        student_params("otro", 323, f"alumno{k}", declared, TYPES)["dimension"] for k in range(8)
    }
    this_course = {
        student_params("compmath", 323, f"alumno{k}", declared, TYPES)["dimension"]
        for k in range(8)
    }
    assert other_course != this_course or len(options) == 1  # the course is part of the hash


def test_ranges_choices_and_their_sample_points() -> None:
    assert points(OwnParam("n", low=4, high=8), "int") == [4, 5, 6, 7, 8]
    assert points(OwnParam("n", low=4, high=12, step=4), "int") == [4, 8, 12]
    assert points(OwnParam("x", low=0.5, high=2.0, step=0.25), "float")[-1] == 2.0
    assert len(points(OwnParam("x", low=0.5, high=2.0), "float")) == 1001
    wide = OwnParam("n", low=0, high=100)
    assert sample(wide, "int") == [0, 25, 50, 75, 100]  # the ends and a few between
    assert sample(OwnParam("b", options=(True, False)), "bool") == [True, False]
    problems = declaration_problems(
        [
            OwnParam("dimension", options=(8, 2.5)),
            OwnParam("nada", options=(1, 2)),
            OwnParam("posiciones", low=1.5, high=4),
            OwnParam("posicion_lejana", low=9, high=3),
        ],
        TYPES,
    )
    assert len(problems) == 4 and "no es parámetro de run()" in problems[1]


def test_the_class_schema_holds_por_alumno() -> None:
    schema = json.loads((REPO / "compmath" / "contracts" / "class.schema.json").read_text("utf-8"))
    own = schema["properties"]["practica"]["properties"]["por_alumno"]
    good = {"dimension": {"opciones": [8, 16]}, "escala": {"min": 0.5, "max": 2.0, "paso": 0.5}}
    jsonschema.validate(good, own)
    for bad in ({"d": {"opciones": [8]}}, {"d": {"min": 1}}, {"d": {"min": 1, "max": 2, "x": 1}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, own)


def test_the_exercise_defaults_to_the_students_numbers() -> None:
    text = C323.lab.read_text("utf-8")
    own = own_of("ana")
    mine = with_defaults(text, own)
    assert (
        f"DIMENSION = {own['dimension']}  " in mine
        and f"POSICIONES = {own['posiciones']}  " in mine
    )
    assert [r.body for r in solution_regions(mine)] == [r.body for r in solution_regions(text)]
    # a default that is not a constant used once is changed in run()'s signature instead
    lab = "N = 3\n\ndef run(n: int = N, m: int = 2) -> dict:\n    return {'n': n * N, 'm': m}\n"
    assert "n: int = 5, m: int = 7" in with_defaults(lab, {"n": 5, "m": 7})
    assert filled("d = {{dimension}}, {{otro}}", {"dimension": 12}) == "d = 12, {{otro}}"


# --- two students, practice and grade ------------------------------------------------------


def course_lab_module():
    spec = importlib.util.spec_from_file_location("lab323", C323.lab)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hard_coded(dimensions: list[int]) -> str:
    """Hole 1 of 323 as a student who copies numbers writes it: ω at each d, typed in (the
    values computed by the course's own lab), and nothing right anywhere else."""
    lab = course_lab_module()
    lines = []
    for k, d in enumerate(dict.fromkeys(dimensions)):
        lines += [
            f"{'if' if k == 0 else 'elif'} d == {d}:",
            f"    omega = np.array({lab.frecuencias(d).tolist()!r})",
        ]
    return "\n".join([*lines, "else:", "    omega = np.zeros(d // 2)"])


def with_hole_1(source: str, code: str) -> str:
    solved = splice(source, C323.lab.read_text("utf-8"), set())
    region = student_regions(solved)[0]
    lines = solved.splitlines()
    body = [f"{region.indent}{line}" for line in code.splitlines()]
    return "\n".join(lines[: region.begin + 1] + body + lines[region.end :]) + "\n"


def workspace_lab(folder: Path) -> Path:
    return folder / C323.lab.relative_to(REPO)


def start(cli, folder: Path, student: str) -> None:
    result = cli("practice", "start", str(folder), "--alumno", student, "--root", str(REPO))
    assert result.code == 0, result.out + result.err
    shown = ", ".join(f"{k} = {v}" for k, v in own_of(student).items())
    assert f"tus números en 323 (alumno {student}): {shown}" in " ".join(result.out.split())


def grade_323(cli, entregas: Path, out: Path, *extra: str):
    """`compmath grade` of the submissions on 323 of the real course."""
    return cli(
        "grade", str(entregas), "--root", str(REPO), "--clases", "323", "--out", str(out), *extra
    )


PUBLIC = [8, *(v["dimension"] for v in C323.meta.variants)]  # the defaults' d and the public ones


@pytest.mark.lento
def test_two_students_their_own_numbers_in_practice_and_in_grade(cli, tmp_path: Path) -> None:
    ana, beto = two_students()
    mine = {s: own_of(s) for s in (ana, beto)}
    assert mine[ana] != mine[beto]
    entregas = tmp_path / "entregas"
    for student in (ana, beto):
        folder = tmp_path / f"ws-{student}"
        start(cli, folder, student)
        assert json.loads((folder / "practica.json").read_text("utf-8"))["alumno"] == student
        lab = workspace_lab(folder)
        exercise = lab.read_text("utf-8")
        assert f"DIMENSION = {mine[student]['dimension']}" in exercise
        lab.write_text(splice(exercise, C323.lab.read_text("utf-8"), set()), encoding="utf-8")
        # the workspace's lab, its snapshot and its check all use the student's numbers
        snapshot = json.loads((lab.parent / "expected.json").read_text("utf-8"))
        assert snapshot["dimension"] == mine[student]["dimension"]
        assert len(snapshot["codificaciones"]) == mine[student]["posiciones"]
        ran = cli("run", "323", "--root", str(folder))
        assert ran.code == 0 and "coinciden con la instantánea" in ran.out, ran.out
        checked = cli("practice", "check", "323", "--dir", str(folder))
        assert checked.code == 0, checked.out
        shutil.copytree(folder, entregas / student)  # handed in as practice left it
    out = tmp_path / "notas"
    graded = grade_323(cli, entregas, out)
    assert graded.code == 0, graded.out + graded.err
    for student in (ana, beto):
        right = json.loads((out / "alumnos" / f"{student}.json").read_text("utf-8"))
        assert [h["estado"] for h in right["clases"][0]["huecos"]] == ["bien", "bien"]
    # the other student's numbers typed in (with every public variant's): wrong at one's own
    for student, other in ((ana, beto), (beto, ana)):
        folder = tmp_path / f"ws-{student}"
        lab = workspace_lab(folder)
        literals = hard_coded([mine[other]["dimension"], *PUBLIC])
        lab.write_text(with_hole_1(lab.read_text("utf-8"), literals), encoding="utf-8")
        checked = cli("practice", "check", "323", "--dir", str(folder), "--json")
        assert checked.code == 1
        hole = json.loads(checked.out)["clases"][0]["huecos"][0]
        assert hole["estado"] == "mal" and hole["variante"] == mine[student], hole


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_each_passes_with_the_right_code_and_fails_with_the_others_numbers(
    cli, tmp_path: Path
) -> None:
    ana, beto = two_students()
    mine = {s: own_of(s) for s in (ana, beto)}
    entregas = tmp_path / "entregas"
    solved = C323.lab.read_text("utf-8")
    exercise_of = {s: with_defaults(exercise(), mine[s]) for s in (ana, beto)}
    # one who practised without --alumno hands in the course's exercise: the same verdict
    generic = entregas / "bien" / "sin-alumno" / C323.lab.relative_to(REPO)
    generic.parent.mkdir(parents=True)
    generic.write_text(splice(exercise(), solved, set()), encoding="utf-8")
    for student in (ana, beto):
        other = beto if student == ana else ana
        right = entregas / "bien" / student / C323.lab.relative_to(REPO)
        right.parent.mkdir(parents=True)
        right.write_text(splice(exercise_of[student], solved, set()), encoding="utf-8")
        wrong = entregas / "copia" / student / C323.lab.relative_to(REPO)
        wrong.parent.mkdir(parents=True)
        literals = hard_coded([mine[other]["dimension"], *PUBLIC])
        wrong.write_text(with_hole_1(exercise_of[student], literals), encoding="utf-8")
    for kind in ("bien", "copia"):
        out = tmp_path / f"notas-{kind}"
        result = grade_323(cli, entregas / kind, out)
        assert result.code == 0, result.out + result.err
        for student in (ana, beto, "sin-alumno") if kind == "bien" else (ana, beto):
            record = json.loads((out / "alumnos" / f"{student}.json").read_text("utf-8"))
            hole = record["clases"][0]["huecos"][0]
            if kind == "bien":
                assert [h["estado"] for h in record["clases"][0]["huecos"]] == ["bien", "bien"]
                assert record["clases"][0]["fuera_de_los_huecos_cambiado"] is False
                continue
            shown = ", ".join(f"{k} = {v}" for k, v in mine[student].items())  # re-derived by grade
            assert hole["estado"] == "mal", hole
            assert hole["motivo"].startswith(f"con tus parámetros ({shown})"), hole["motivo"]


def exercise() -> str:
    from compmath.holes.graft import course_lab

    return course_lab(C323).exercise


# --- private variants ----------------------------------------------------------------------


def private_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variantes-privadas.toml"
    path.write_text(text, encoding="utf-8")
    return path


PRIVATE = "[323]\nvariantes = [ { dimension = 22 }, { dimension = 2, posiciones = 7 } ]\n"


@pytest.mark.lento  # seconds: out of the quick loop
def test_a_hole_hard_coding_every_public_point_fails_at_the_private_variants(
    cli, tmp_path: Path
) -> None:
    student = "zoe"
    own = own_of(student)
    assert own["dimension"] not in (22, 2)  # the private variants are not the student's numbers
    folder = tmp_path / "ws"
    start(cli, folder, student)
    lab = workspace_lab(folder)
    # ω typed in at the student's d, the defaults' and every public variant's, computed by the
    # course's own lab: practice (which has only the public variants) cannot tell
    lab.write_text(
        with_hole_1(lab.read_text("utf-8"), hard_coded([own["dimension"], *PUBLIC])),
        encoding="utf-8",
    )
    checked = cli("practice", "check", "323", "--dir", str(folder))
    assert checked.code == 0, checked.out
    entregas = tmp_path / "entregas"
    shutil.copytree(folder, entregas / student)
    plain = grade_323(cli, entregas, tmp_path / "sin")
    assert plain.code == 0
    before = json.loads((tmp_path / "sin" / "alumnos" / f"{student}.json").read_text("utf-8"))
    assert before["clases"][0]["huecos"][0]["estado"] == "bien"  # the threat is real
    out = tmp_path / "con"
    private = private_file(tmp_path, PRIVATE)
    graded = grade_323(cli, entregas, out, "--variantes-privadas", str(private))
    assert graded.code == 0, graded.out + graded.err
    hole = json.loads((out / "alumnos" / f"{student}.json").read_text("utf-8"))["clases"][0][
        "huecos"
    ][0]
    assert hole["estado"] == "mal" and hole["obtenidos"] == 0
    assert hole["motivo"].startswith("con una variante privada de la corrección: la salida ")
    feedback = (out / "comentarios" / f"{student}.md").read_text("utf-8")
    assert "variante privada" in feedback and "22" not in feedback  # never its numbers
    # the honest student passes the private variants too
    shutil.rmtree(entregas / student)
    lab = workspace_lab(folder)
    lab.write_text(
        splice(lab.read_text("utf-8"), C323.lab.read_text("utf-8"), set()), encoding="utf-8"
    )
    shutil.copytree(folder, entregas / student)
    again = grade_323(cli, entregas, out, "--variantes-privadas", str(private))
    assert again.code == 0
    record = json.loads((out / "alumnos" / f"{student}.json").read_text("utf-8"))
    assert [h["estado"] for h in record["clases"][0]["huecos"]] == ["bien", "bien"]
    # the same files are not judged again; another private file is part of every verdict
    same = grade_323(cli, entregas, out, "--variantes-privadas", str(private))
    assert "0 juzgadas ahora" in " ".join(same.out.split())
    changed = private_file(tmp_path, PRIVATE.replace("22", "26"))
    rerun = grade_323(cli, entregas, out, "--variantes-privadas", str(changed))
    assert "1 juzgada ahora" in " ".join(rerun.out.split()), rerun.out


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_bad_private_file_is_one_spanish_line(cli, tmp_path: Path) -> None:
    entregas = tmp_path / "entregas"
    entregas.mkdir()
    cases = {
        '[323]\nvariantes = [ { dimension = "ocho" } ]\n': "un valor que no es int",
        "[999]\nvariantes = [ { dimension = 8 } ]\n": "[999]: el curso no tiene esa clase",
        "[323]\nvariantes = [ { dimension = 16 } ]\n": "es también pública",
        "[323]\nvariantes = 3\n": "no cumple su esquema",
        "[323\n": "no es TOML válido",
    }
    for text, said in cases.items():
        path = private_file(tmp_path, text)
        result = cli(
            "grade",
            str(entregas),
            "--root",
            str(REPO),
            "--out",
            str(tmp_path / "n"),
            "--variantes-privadas",
            str(path),
        )
        assert result.code == 2, result.out + result.err
        errors = [line for line in result.err.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and said in errors[0] and "Traceback" not in result.err, result.err
    missing = cli(
        "grade",
        str(entregas),
        "--root",
        str(REPO),
        "--variantes-privadas",
        str(tmp_path / "no.toml"),
    )
    assert missing.code == 2 and "no se puede leer" in missing.err


# --- lint ----------------------------------------------------------------------------------


def copy_of_323(tmp_path: Path, own: str) -> Path:
    """A course holding only 323, with `own` as its [practica.por_alumno] table."""
    root = tmp_path / "curso"
    target = root / C323.path.relative_to(REPO)
    shutil.copytree(C323.path, target)
    shutil.copy2(C323.part.meta_path, target.parent / "part.toml")
    (root / "schemas").mkdir()
    shutil.copy2(REPO / "schemas" / f"{C323.id}.schema.json", root / "schemas")
    toml = target / "class.toml"
    text = toml.read_text("utf-8")
    start = text.index("[practica.por_alumno]")
    toml.write_text(text[:start] + "[practica.por_alumno]\n" + own, encoding="utf-8")
    return root


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_lint_runs_every_point_of_a_declaration_and_of_the_private_file(tmp_path: Path) -> None:
    from compmath.authoring.own_checks import own_points, own_problems, private_problems

    assert own_points(C323)[0] == {"dimension": C323.meta.per_student[0].options[0]}
    assert own_problems(COURSE, 2) == []  # the real course holds at every point
    root = copy_of_323(
        tmp_path, "dimension = { opciones = [6, 7] }\nposiciones = { min = 6, max = 9 }\n"
    )
    course = load_course(root)
    found = own_problems(course, 2)  # at 7 alone, and at the corner with posiciones = 9
    assert found and all("con dimension = 7" in p.what for p in found), found
    assert "el laboratorio no da salidas válidas: ValueError" in found[0].what
    private = private_file(
        tmp_path, "[323]\nvariantes = [ { dimension = 3 }, { dimension = 22 } ]\n"
    )
    found = private_problems(COURSE, private, 2, run_labs=True)
    assert len(found) == 1 and "[323]: con dimension = 3" in found[0].what
    assert private_problems(COURSE, private, 2, run_labs=False) == []


def test_lint_remembers_a_declaration_found_valid_and_runs_a_changed_or_failing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compmath.authoring import own_checks

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    ran: list[int] = []
    real = own_checks.run_at

    def counting(points, **kwargs):
        ran.append(len(points))
        return real(points, **kwargs)

    monkeypatch.setattr(own_checks, "run_at", counting)
    root = copy_of_323(tmp_path, "dimension = { opciones = [6, 8] }\n")
    assert own_checks.own_problems(load_course(root), 2) == []
    assert own_checks.own_problems(load_course(root), 2) == [] and ran == [2, 0]  # remembered
    toml = next(root.rglob("class.toml"))
    toml.write_text(toml.read_text("utf-8").replace("[6, 8]", "[6, 7]"), encoding="utf-8")
    for _ in range(2):  # 7 fails: found each time, never remembered
        found = own_checks.own_problems(load_course(root), 2)
        assert len(found) == 1 and "con dimension = 7" in found[0].what, found
    assert ran == [2, 0, 2, 2]


def test_lint_checks_the_declaration_against_run(tmp_path: Path) -> None:
    from compmath.authoring.lint import lint_course

    root = copy_of_323(
        tmp_path, 'dimension = { opciones = ["ocho", "16"] }\nnada = { min = 1, max = 3 }\n'
    )
    found = [p.what for p in lint_course(load_course(root), run_labs=False)]
    assert any("[practica.por_alumno]: «dimension» es int" in w for w in found), found
    assert any("[practica.por_alumno]: «nada» no es parámetro de run()" in w for w in found), found


def test_a_hint_shows_the_students_number_and_lint_checks_the_names(tmp_path: Path) -> None:
    from compmath.authoring.lint import lint_course
    from compmath.holes.variants import Variant
    from compmath.holes.verdict import Attempt, HoleStatus, HoleVerdict
    from compmath.practice.practice_screen import hint_blocks
    from compmath.practice.workspace import ClassProgress, Progress
    from compmath.present.layout import lay_out, plain_text

    hole = C323.meta.holes[0]
    assert "{{dimension}}" in hole.hints[1]
    own = {"dimension": 14, "posiciones": 7}
    attempt = Attempt(
        C323,
        (
            HoleVerdict(1, hole, HoleStatus.WRONG, "mal"),
            HoleVerdict(2, C323.meta.holes[1], HoleStatus.RIGHT),
        ),
        (Variant(own, own=True),),
    )
    progress = Progress({C323.id: ClassProgress(hints_seen={"1": 1})}, C323.id, str(REPO))
    shown = " ".join(plain_text(lay_out(hint_blocks(attempt, progress), None)).split())
    assert "Con d = 14 salen 14/2 frecuencias" in shown and "{{" not in shown
    root = copy_of_323(tmp_path, "dimension = { opciones = [6, 10] }\n")
    toml = next(root.rglob("class.toml"))
    toml.write_text(toml.read_text("utf-8").replace("{{dimension}}", "{{dim}}", 1), "utf-8")
    found = [p.what for p in lint_course(load_course(root), run_labs=False)]
    assert any("la pista 2 del hueco 1 escribe {{dim}}, que no es parámetro" in w for w in found)


def test_start_without_an_id_says_how_to_get_ones_numbers(cli, tmp_path: Path) -> None:
    result = cli("practice", "start", str(tmp_path / "ws"), "--root", str(REPO))
    assert result.code == 0
    said = " ".join(result.out.split())
    assert "aviso: la clase 323 da a cada alumno sus propios números" in said
    assert "--alumno TU_ID" in said
    assert "alumno" not in json.loads((tmp_path / "ws" / "practica.json").read_text("utf-8"))
    bad = cli("practice", "start", str(tmp_path / "otro"), "--alumno", " ", "--root", str(REPO))
    assert bad.code == 2 and bad.err.startswith("error: « » no sirve como id de alumno")
    assert not (tmp_path / "otro").exists()


def test_start_inside_a_workspace_says_to_start_from_the_course(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workspace has the shape of a course: `start --alumno` typed in it (the guide's next
    step, after `cd ~/compmath-practica`) names the course to start from, not a lint error."""
    assert cli("practice", "start", str(tmp_path / "ws"), "--root", str(REPO)).code == 0
    monkeypatch.chdir(tmp_path / "ws")
    result = cli("practice", "start", str(tmp_path / "ana"), "--alumno", "ana")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 2, result.err
    assert result.err.startswith("error: esta carpeta es un espacio de práctica, no un curso")
    assert f"compmath practice start CARPETA --root {REPO}" in " ".join(result.err.split())
    assert "regiones de solución" not in result.err
    assert not (tmp_path / "ana").exists()


def test_a_bad_private_file_points_at_a_page_that_says_the_format(cli, tmp_path: Path) -> None:
    """The hint of a bad private-variants file names the guide where its format is (the README
    no longer has it), and that page has the section."""
    entregas = tmp_path / "entregas"
    entregas.mkdir()
    path = private_file(tmp_path, "[999]\nvariantes = [ { dimension = 8 } ]\n")
    result = cli(
        "grade",
        str(entregas),
        "--root",
        str(REPO),
        "--out",
        str(tmp_path / "n"),
        "--variantes-privadas",
        str(path),
    )
    said = " ".join(result.err.split())
    assert result.code == 2 and "[999]: el curso no tiene esa clase" in said
    assert "docs/profesores.md, «Variantes privadas»" in said and "README" not in said
    guide = (REPO / "docs" / "profesores.md").read_text("utf-8")
    assert "\n### Variantes privadas\n" in guide and "variantes-privadas.toml" in guide
