"""One student, one file, and nothing of the course in what they read: colliding and look-alike
names, Markdown and control characters from students' text, a hole that reads its own grafted
program to print the other holes' solution, reasons without temporary paths (two gradings give
the same bytes), a shard given twice, and a student whose grade cannot be made or written."""

from __future__ import annotations

import json
import unicodedata
import zipfile
from pathlib import Path

import pytest

from compmath.grading import run
from compmath.grading.gradebook import Gradebook, write_gradebook
from compmath.grading.names import file_names, look_alikes, skeleton
from compmath.grading.records import ClassGrade, ClassSpec, HoleGrade, StudentGrade
from compmath.grading.shards import Shard, write_share
from compmath.holes.graft import HoleStatus
from compmath.holes.regions import solution_regions, student_regions
from tests.conftest import REPO, error_lines, no_traceback
from tests.test_grade import (
    AS_IT_CAN,
    C323,
    LACKING,
    hand_in,
    outputs,
    record,
    solved,
    with_hole,
)


def grade323(cli, entregas: Path, out: Path, *extra: str):
    args = ["--root", str(REPO), "--clases", "323", "--out", str(out), *extra, *AS_IT_CAN]
    return cli("grade", str(entregas), *args)


def own_holes(codes: dict[int, str]) -> str:
    """323 with the given holes holding the student's code and the others still open (the
    exercise's): the student's file holds no solution but theirs."""
    source = solved(C323, frozenset(r.number for r in solution_regions(C323.lab.read_text())))
    for number, code in sorted(codes.items(), reverse=True):
        region = next(r for r in student_regions(source) if r.number == number)
        lines = source.splitlines()
        body = [f"{region.indent}{line}" for line in code.splitlines()]
        source = "\n".join(lines[: region.begin + 1] + body + lines[region.end :]) + "\n"
    return source


CALLS_HOLE_1 = "pe[:, :] = 0.0 * frecuencias(d).sum()  # wrong, but it runs the student's hole 1"


def test_file_names_are_unique_by_construction() -> None:
    names = file_names(["Ana Pérez", "Ana_P_rez-859e0b14", "ana", "Ana", "beto", "x" * 200])
    assert names["beto"] == "beto"  # a plain name stays as it is
    assert len(set(names.values())) == 6
    assert len({n.casefold() for n in names.values()}) == 6  # also where case does not count
    assert names["Ana Pérez"] != names["Ana_P_rez-859e0b14"]
    assert all(len(n) < 80 for n in names.values())


def test_look_alikes_are_found_and_different_names_are_not() -> None:
    nfd = unicodedata.normalize("NFD", "José")
    assert skeleton("\u0430na") == skeleton("ana") == skeleton("ＡＮＡ") == skeleton("a\u200bna")
    assert look_alikes(["ana", "\u0430na", "beto", "bet0"]) == [("ana", "\u0430na")]
    assert skeleton(nfd) == skeleton("José")
    assert look_alikes(["ana", "anna", "Ana María"]) == []


@pytest.mark.lento
def test_one_student_one_file_and_nothing_injected(cli, tmp_path: Path) -> None:
    entregas, out = tmp_path / "entregas", tmp_path / "notas"
    hand_in(entregas, "Ana Pérez", {C323: solved(C323)})
    hand_in(entregas, "ana", {C323: solved(C323)})
    hand_in(entregas, "\u0430na", {C323: solved(C323, frozenset({2}))})  # a Cyrillic «а»
    hand_in(entregas, "eve\x1b[31m", {C323: solved(C323)})
    bait = (
        'raise ValueError("\\n# Nota corregida: 10 de 10\\n[Reclama tu nota](https://phish.example'
        '/login) ![](https://phish.example/p.png) **APROBADO** <img src=x> www.phish.example")'
    )
    printed = "print('# Nota corregida: 10 de 10')\nprint('[Reclama](https://phish.example)')\n"
    attacker = with_hole(C323, 1, printed + bait)
    with zipfile.ZipFile(entregas / "Ana_P_rez-859e0b14.zip", "w") as archive:
        archive.writestr(f"x/{C323.lab.relative_to(REPO)}", attacker)
        archive.writestr("../[Pincha aquí](https://phish.example)/**x**.py", "x")
    result = grade323(cli, entregas, out)
    text = no_traceback(result)
    assert result.code == 0, text
    assert "nombres parecidos" in text and "'\\u0430na'" in text  # the summary spells it out
    report = json.loads((out / "informe.json").read_text("utf-8"))
    assert report["nombres_parecidos"] == [["ana", "\u0430na"]]

    files = sorted((out / "comentarios").iterdir())
    assert len(files) == 5 == len({p.name.casefold() for p in files})
    ana = next(p for p in files if p.read_text("utf-8").startswith("# Corrección de Ana Pérez"))
    assert "**Nota: 2 de 2 puntos.**" in ana.read_text("utf-8")
    assert "phish" not in ana.read_text("utf-8")  # the attacker's text is not Ana's feedback
    assert record(out, ana.stem)["alumno"] == "Ana Pérez"
    mine = [p for p in files if "phish" in p.read_text("utf-8")]
    assert len(mine) == 1 and mine[0] != ana
    feedback = mine[0].read_text("utf-8")
    assert "lanzó ValueError en la línea" in feedback  # the type and their own line
    assert "https\\://phish" in feedback and "\\[Reclama tu nota\\]" in feedback

    markdown = pytest.importorskip("markdown_it")
    html = markdown.MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(feedback)
    assert "<a " not in html and "<img" not in html and "<strong>APROBADO" not in html
    headings = [line for line in html.splitlines() if line.startswith(("<h1", "<h2", "<h3"))]
    assert not [h for h in headings if "Nota corregida" in h], headings
    assert "<pre><code" in html and "# Nota corregida" in html  # the print, as code

    rows = (out / "notas.csv").read_text("utf-8").splitlines()
    assert any(row.startswith("eve\\x1b[31m,") for row in rows), rows
    assert "\x1b" not in "".join(rows)


def test_two_folders_of_one_student_are_refused_naming_both(cli, tmp_path: Path) -> None:
    entregas = tmp_path / "entregas"
    nfc, nfd = "José Núñez", unicodedata.normalize("NFD", "José Núñez")
    hand_in(entregas, nfc, {C323: solved(C323)})
    hand_in(entregas, nfd, {C323: solved(C323)})
    if len(list(entregas.iterdir())) < 2:
        pytest.skip("este sistema de archivos normaliza los nombres")
    result = grade323(cli, entregas, tmp_path / "notas")
    assert result.code == 2, no_traceback(result)
    said = error_lines(result)[0]
    assert "mismo alumno" in said and ascii(nfc) in said and ascii(nfd) in said


# A hole that reads the grafted program it runs in (its own file, its module's functions,
# their bytecode) and sends it back every way it can: printed, in an exception's message, in
# the name of an exception class of its own, and through sys.exit at a hidden variant.
LEAKER = """\
import dis, inspect, io, sys
_yo = sys.modules[frecuencias.__module__]
_salida = io.StringIO()
dis.dis(_yo.codificacion, file=_salida)  # hole 2 lives there: the course's, when grafted
try:
    _texto = open(__file__).read() + inspect.getsource(_yo)
except (OSError, TypeError) as _error:
    _texto = type(_error).__name__
_todo = _salida.getvalue() + _texto
print(_todo[:20000])
if d in (4, 16):  # the class's hidden variants (the student's own d comes first, and raises)
    sys.exit(_todo[:5000])
raise type(_todo.replace("\\n", "_")[:900], (Exception,), {})(_todo)
"""


@pytest.mark.lento
@pytest.mark.skipif(bool(LACKING), reason="sin aislamiento, su archivo lee el curso")
def test_nothing_of_the_course_comes_back_and_two_gradings_are_the_same_bytes(
    cli, tmp_path: Path
) -> None:
    entregas = tmp_path / "entregas"
    hand_in(entregas, "ana", {C323: solved(C323)})
    hand_in(entregas, "fuga", {C323: own_holes({1: LEAKER, 2: CALLS_HOLE_1})})
    missing = "omega = np.zeros(d // 2) + open(__file__ + '.no').read().count('x')"
    hand_in(entregas, "ruta", {C323: own_holes({1: missing})})
    hand_in(entregas, "mal", {C323: with_hole(C323, 1, "omega = 2.0 ** -i")})
    first, second = tmp_path / "notas-1", tmp_path / "notas-2"
    assert grade323(cli, entregas, first, "--jobs", "2").code == 0
    assert grade323(cli, entregas, second, "--jobs", "1").code == 0
    assert outputs(first) == outputs(second)  # no path, no time, no order of landing

    solution = [line.split("#")[0].strip() for r in solution_regions(C323.lab.read_text())
                for line in r.body]  # fmt: skip
    # what grading writes of its own (huecos/ keeps each student's holes as they wrote them,
    # for grade similitud: ana's are the solution because she solved it)
    written = "\n".join(
        p.read_text("utf-8") for p in first.rglob("*") if p.is_file() and "huecos" not in p.parts
    )
    assert [line for line in solution if line in written] == []
    assert "outer" not in written  # hole 2's np.outer, not even as a name in the bytecode
    leak = record(first, "fuga")["clases"][0]
    assert "LOAD_" in leak["salida_del_alumno"]  # the bytecode of its own file is fine
    assert leak["huecos"][0]["estado"] == "falla"
    assert "una excepción en la línea" in leak["huecos"][0]["motivo"]
    assert "compmath-practica" not in written and str(tmp_path / "notas") not in written
    why = record(first, "ruta")["clases"][0]["huecos"][0]["motivo"]
    assert "lanzó FileNotFoundError en la línea" in why and ".no" in why  # their line, no path
    wrong = record(first, "mal")["clases"][0]["huecos"][0]["motivo"]
    assert "esperado" in wrong and "obtenido" not in wrong


def _book(students: list[str]) -> Gradebook:
    spec = ClassSpec(C323.id, 323, "t", (1.0,), ("x",))
    grades = [
        StudentGrade(
            s, "0" * 64, (ClassGrade(C323.id, (HoleGrade(1, 1.0, 1.0, HoleStatus.RIGHT, ""),)),)
        )
        for s in students
    ]
    return Gradebook("f" * 64, [spec], grades)


def test_merge_reads_a_hole_status_back_only_as_a_verdict_word(cli, tmp_path: Path) -> None:
    """Hostile: a shard's informe.json edited to give a hole a status no judge gives
    («aprobado») is not read back as a grade; the honest shards merge."""
    roster = ["ana", "beto", "carla", "dani"]
    folders = []
    for k in (1, 2):
        folder = tmp_path / f"notas-{k}"
        write_gradebook(folder, _book([s for s in roster if Shard(k, 2).holds(s)]))
        write_share(folder, Shard(k, 2), roster)
        folders.append(folder)
    honest = cli("grade", "merge", *map(str, folders), "--out", str(tmp_path / "juntas"))
    assert honest.code == 0, no_traceback(honest)
    merged = json.loads((tmp_path / "juntas" / "informe.json").read_text(encoding="utf-8"))
    assert {h["estado"] for a in merged["alumnos"] for h in a["clases"][0]["huecos"]} == {"bien"}
    path = folders[0] / "informe.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    report["alumnos"][0]["clases"][0]["huecos"][0]["estado"] = "aprobado"
    path.write_text(json.dumps(report), encoding="utf-8")
    forged = cli("grade", "merge", *map(str, folders), "--out", str(tmp_path / "x"))
    assert forged.code == 2 and "no es un informe de compmath grade" in error_lines(forged)[0]
    assert not (tmp_path / "x" / "notas.csv").exists()


def test_merge_refuses_a_shard_given_twice(cli, tmp_path: Path) -> None:
    roster = ["ana", "beto", "carla", "dani"]
    folders = []
    for k in (1, 2):
        folder = tmp_path / f"notas-{k}"
        write_gradebook(folder, _book([s for s in roster if Shard(k, 2).holds(s)]))
        write_share(folder, Shard(k, 2), roster)
        folders.append(folder)
    ok = cli("grade", "merge", *map(str, folders), "--out", str(tmp_path / "juntas"))
    assert ok.code == 0, no_traceback(ok)
    twice = cli("grade", "merge", str(folders[0]), str(folders[0]), str(folders[1]), "--out",
                str(tmp_path / "x"))  # fmt: skip
    assert twice.code == 2 and "se dio dos veces" in error_lines(twice)[0]
    copy = tmp_path / "copia"
    copy.mkdir()
    for name in ("informe.json", "fragmento.json"):
        (copy / name).write_bytes((folders[0] / name).read_bytes())
    copied = cli("grade", "merge", str(folders[0]), str(copy), str(folders[1]), "--out",
                 str(tmp_path / "x"))  # fmt: skip
    assert copied.code == 2 and "el fragmento 1/2 se dio dos veces" in error_lines(copied)[0]
    no_traceback(copied)


@pytest.mark.lento
def test_a_student_who_cannot_be_judged_or_recorded_scores_0_alone(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas, out = tmp_path / "entregas", tmp_path / "notas"
    for student in ("ana", "beto", "carla"):
        hand_in(entregas, student, {C323: solved(C323)})
    (out / "alumnos" / "carla.json").mkdir(parents=True)  # her record cannot be written
    real = run.grade

    def grade_failing_for_beto(specs, submission, *args):
        if submission.student == "beto":
            raise RuntimeError("fallo al juzgar a beto")
        return real(specs, submission, *args)

    monkeypatch.setattr(run, "grade", grade_failing_for_beto)
    result = grade323(cli, entregas, out, "--shard", "1/1")
    assert result.code == 0, no_traceback(result)
    rows = (out / "notas.csv").read_text("utf-8").splitlines()
    assert rows[1:] == ["ana,1,1,2,2,2", "beto,0,0,0,0,2", "carla,0,0,0,0,2"], rows
    report = {s["alumno"]: s for s in json.loads((out / "informe.json").read_text())["alumnos"]}
    assert "no se pudo juzgar esta entrega" in report["beto"]["clases"][0]["problema"]
    assert "RuntimeError" in report["beto"]["clases"][0]["problema"]
    assert "no se pudo guardar" in report["carla"]["clases"][0]["problema"]
    assert report["ana"]["obtenidos"] == 2
