"""Right code passes: a number in another representation (2.0 for 2, a NumPy scalar, a tuple for
a list) unless the class says the type is the lesson; a file's declared encoding; a practice
notebook handed in for lab.py; a damaged hole mark costing only its hole. Beside each, what
must still fail: a bool for an int, a text "2" for 2, `check`'s exact types.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compmath.course.records import Tolerance, class_record
from compmath.course.tree import load_course
from compmath.grading.submissions import read_submission
from compmath.holes.regions import exercise_source, splice, student_holes
from compmath.holes.verdict import judge_many
from compmath.judging.compare import compare
from compmath.judging.report import describe_difference
from compmath.notebook.build import build_notebook
from tests.conftest import FAKE_PART, REPO
from tests.fake_holes import grade_901, with_hole_901

TOL = Tolerance()
STRICT = Tolerance(strict_type=True)


def test_a_number_s_representation_counts_only_where_the_class_says_so() -> None:
    expected = {"L": [[2, -1], [-1, 1]], "x": 0.5, "b": True, "k": 2}
    floats = {"L": [[2.0, -1.0], [-1.0, 1.0]], "x": 0.5, "b": True, "k": 2}
    assert compare(expected, floats, TOL, loose=True) == []
    assert compare({"x": 2.0}, {"x": 2}, TOL, loose=True) == []  # an int where a real is
    assert compare({"k": 2}, {"k": 2.000001}, TOL, loose=True) == []  # within the tolerance
    (far,) = compare({"k": 2}, {"k": 2.1}, TOL, loose=True)
    assert far.kind == "valor"
    strict = [d.kind for d in compare(expected, floats, TOL)]  # check: the type is exact
    assert strict == ["tipo"] * 4
    for wrong in (True, "2", None, [2]):  # a bool never equals an int, nor a text "2"
        (d,) = compare({"k": 2}, {"k": wrong}, TOL, loose=True)
        assert d.kind == "tipo" and not d.lesson
    (lesson,) = compare({"k": 2}, {"k": 2.0}, TOL, {"k": STRICT}, loose=True)
    assert lesson.kind == "tipo" and lesson.lesson
    said = describe_difference(lesson)
    assert said == (
        "salida.k: esperado 2, obtenido 2,0 · el tipo es parte de la lección: "
        "devuelve un entero: int(x), o .astype(int) en un array"
    )
    (real,) = compare({"x": 0.5 * 4}, {"x": 2}, STRICT, loose=True)
    assert "devuelve un real: float(x)" in describe_difference(real)


def test_tipo_estricto_is_read_from_class_toml_and_checked_by_its_schema() -> None:
    data = {
        "numero": 1,
        "titulo": "t",
        "tolerancia": {"tipo_estricto": True},
        "salidas": [
            {"nombre": "a", "descripcion": "d", "tolerancia": {"tipo_estricto": False}},
            {"nombre": "b", "descripcion": "d", "tolerancia": {"atol": 0.1}},
        ],
    }
    meta = class_record(data)
    default, per_output = meta.tolerances()
    assert default.strict_type and not per_output["a"].strict_type and per_output["b"].strict_type
    assert not per_output["a"].declared and per_output["b"].declared  # integers stay exact in a
    import jsonschema

    schema = json.loads((REPO / "compmath" / "contracts" / "class.schema.json").read_text("utf-8"))
    tolerance = schema["$defs"]["tolerancia"]
    jsonschema.validate({"tipo_estricto": True}, tolerance)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tipo_estricto": "sí"}, tolerance)


def _fake_lab(fake: Path, strict: bool = False) -> None:
    """901 whose hole also makes `vector`; with `strict`, `mitad`'s type is the lesson."""
    folder = fake / "classes" / FAKE_PART / "901-pasa"
    lab = folder / "lab.py"
    text = (
        lab.read_text("utf-8")
        .replace(
            "    mitad = n * escala\n", "    mitad = n * escala\n    vector = np.arange(n) / 3\n"
        )
        .replace('"vector": np.arange(n) / 3', '"vector": vector')
    )
    lab.write_text(text, encoding="utf-8")
    if strict:
        toml = folder / "class.toml"
        said = "descripcion = '$n$ por la escala.'\n"
        toml.write_text(
            toml.read_text("utf-8").replace(said, said + "tolerancia = { tipo_estricto = true }\n"),
            encoding="utf-8",
        )


def _statuses(fake: Path, codes: list[str]) -> list[tuple[str, str]]:
    cls = load_course(fake).resolve("901")
    attempts = judge_many([(cls, with_hole_901(fake, c)) for c in codes], timeout=20, jobs=2)
    return [(str(a.holes[0].status), a.holes[0].reason) for a in attempts]


@pytest.mark.lento  # judges a hole of the fake course, written seven ways, at two variants
def test_a_hole_in_another_representation_passes_and_a_bool_or_text_does_not(fake_course) -> None:
    _fake_lab(fake_course)
    found = _statuses(
        fake_course,
        [
            "mitad = n * escala\nvector = np.arange(n) / 3",
            "mitad = int(n * escala)\nvector = np.arange(n) / 3",  # 2 where the snapshot has 2.0
            "mitad = np.float64(n * escala)\nvector = tuple(float(x) for x in np.arange(n) / 3)",
            "mitad = np.float32(n * escala)\nvector = list(np.arange(n) / 3)",
            "mitad = str(n * escala)\nvector = np.arange(n) / 3",
            "mitad = bool(n * escala)\nvector = np.arange(n) / 3",
            "mitad = n * escala\nvector = [str(x) for x in np.arange(n) / 3]",
        ],
    )
    assert [s for s, _ in found] == ["bien"] * 4 + ["mal"] * 3, found
    assert "cambia el tipo" in found[4][1] and "parte de la lección" not in found[4][1]


@pytest.mark.lento  # judges a hole of the fake course twice
def test_where_the_type_is_the_lesson_the_feedback_says_so_with_the_fix(fake_course) -> None:
    _fake_lab(fake_course, strict=True)
    right, other = _statuses(
        fake_course,
        [
            "mitad = n * escala\nvector = np.arange(n) / 3",
            "mitad = int(n * escala)\nvector = np.arange(n) / 3",
        ],
    )
    assert right == ("bien", "")
    assert other[0] == "mal" and other[1] == (
        "con los parámetros por defecto: salida.mitad: esperado 2,0, obtenido 2 · el tipo es "
        "parte de la lección: devuelve un real: float(x), o .astype(float) en un array"
    )


@pytest.mark.lento  # judges the real 335's hole 1, in floating point and as booleans
def test_335_hole_1_in_floating_point_passes() -> None:
    course = load_course(REPO)
    cls = course.resolve("335")
    lab = cls.lab.read_text("utf-8")
    solved = splice(exercise_source(lab, [h.task for h in cls.meta.holes]), lab, set())
    region = student_holes(solved)[0][1]
    lines = solved.splitlines()

    def hole(code: str) -> str:
        body = [region.indent + line for line in code.splitlines()]
        return "\n".join(lines[: region.begin + 1] + body + lines[region.end :]) + "\n"

    floating = hole("grados = A.sum(axis=1).astype(float)\nL = np.diag(grados) - A")
    booleans = hole("grados = A.sum(axis=1)\nL = (np.diag(grados) - A) == 1")
    right, wrong = judge_many([(cls, floating), (cls, booleans)], timeout=20, jobs=2)
    assert right.done, [h.reason for h in right.holes]
    assert str(wrong.holes[0].status) == "mal" and "cambia el tipo" in wrong.holes[0].reason


def test_a_damaged_mark_costs_only_the_holes_it_breaks() -> None:
    text = "\n".join(
        [
            "def f():",
            "    ### HUECO 1 ###",
            "    a = 1",
            "    ### FIN DEL HUECO 1 ###",
            "    ### HUECO 2 ###",
            "    b = 2",  # its closing mark deleted
            "    ### HUECO 3 ###",
            "    c = 3",
            "    ### FIN DEL HUECO 3 ###",
            "    ### HUECO 4 ###",
            "    d = 4",
            "  ### FIN DEL HUECO 4 ###",  # another indentation
            "    ### HUECO 5 ###",
            "    ### FIN DEL HUECO 5 ###",
            "    ### FIN DEL HUECO 5 ###",
        ]
    )
    regions, damaged = student_holes(text)
    assert sorted(regions) == [1, 3] and regions[3].body == ("    c = 3",)
    assert damaged == {
        2: "falta la marca ### FIN DEL HUECO 2 ###",
        4: "### FIN DEL HUECO 4 ### no tiene la sangría de ### HUECO 4 ###",
        5: "las marcas del hueco 5 están repetidas",
    }
    crossed = "### HUECO 1 ###\n### HUECO 2 ###\n### FIN DEL HUECO 1 ###\n### FIN DEL HUECO 2 ###"
    assert set(student_holes(crossed)[1]) == {1, 2}


def test_a_declared_encoding_is_honoured(tmp_path: Path) -> None:
    cls = load_course(REPO).resolve("323")
    lab = tmp_path / "ana" / cls.lab.relative_to(REPO)
    lab.parent.mkdir(parents=True)
    body = "# -*- coding: latin-1 -*-\n# la señal de año\nx = 'año'\n"
    lab.write_bytes(body.encode("latin-1"))
    assert read_submission("ana", tmp_path / "ana", [cls]).files[cls.id].source == body
    lab.write_bytes(body.replace("latin-1", "utf-8").encode("latin-1"))  # says UTF-8, is not
    found = read_submission("ana", tmp_path / "ana", [cls]).files[cls.id]
    assert found.source is None and found.problem.startswith("no es texto UTF-8")
    lab.write_bytes(b"# -*- coding: inventada -*-\nx = 1\n")
    found = read_submission("ana", tmp_path / "ana", [cls]).files[cls.id]
    assert found.source is None and "codificación que Python no conoce" in found.problem
    lab.write_bytes("\ufeffx = 'ñ'\n".encode())  # a byte-order mark is no part of the code
    assert read_submission("ana", tmp_path / "ana", [cls]).files[cls.id].source == "x = 'ñ'\n"


def _notebook(fake: Path, code: str | None) -> str:
    course = load_course(fake)
    cls = course.resolve("901")
    book = build_notebook(course, cls, practice=True)
    for cell in book["cells"]:
        if cell["cell_type"] == "code" and code is not None and "### HUECO 1 ###" in cell["source"]:
            cell["source"] = re.sub(r"raise NotImplementedError\(.*\)", code, cell["source"])
            cell["source"] = cell["source"].splitlines(keepends=True)  # as Jupyter saves it
    return json.dumps(book)


@pytest.mark.lento  # grades three students of the fake course
def test_grade_reads_latin_1_and_a_practice_notebook(
    cli, fake_course: Path, tmp_path: Path
) -> None:
    cls = load_course(fake_course).resolve("901")
    entregas = tmp_path / "entregas"
    latin = with_hole_901(fake_course, "mitad = n * escala  # la mitad, año 1").replace(
        '"""Un laboratorio', '# -*- coding: latin-1 -*-\n"""Un laboratorio', 1
    )
    lab = entregas / "latin" / cls.lab.relative_to(fake_course)
    lab.parent.mkdir(parents=True)
    lab.write_bytes(latin.encode("latin-1"))
    for student, code in (("cuaderno", "mitad = n * escala"), ("abierto", None)):
        (entregas / student).mkdir()
        (entregas / student / "901-pasa.ipynb").write_text(_notebook(fake_course, code), "utf-8")
    out = tmp_path / "notas"
    result = grade_901(cli, entregas, fake_course, out)
    assert result.code == 0, result.err
    holes = {
        s: json.loads((out / "alumnos" / f"{s}.json").read_text("utf-8"))["clases"][0]
        for s in ("latin", "cuaderno", "abierto")
    }
    assert holes["latin"]["huecos"][0]["estado"] == "bien"
    assert holes["cuaderno"]["huecos"][0]["estado"] == "bien"
    assert not holes["cuaderno"]["fuera_de_los_huecos_cambiado"]
    assert holes["abierto"]["huecos"][0]["estado"] == "sin completar"
