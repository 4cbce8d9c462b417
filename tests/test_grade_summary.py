"""The class report (resumen.md, informe.json's resumen_por_hueco, `grade resumen`) and the
regrade diff (`grade comparar`): honest classes beside hostile ones whose names and exception
messages try to inject Markdown or HTML into the instructor's report."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from compmath.grading.failure import Failure, failure_of
from compmath.grading.gradebook import Gradebook, report_document, write_gradebook
from compmath.grading.records import ClassGrade, ClassSpec, HoleGrade, StudentGrade
from compmath.grading.regrade import compare
from compmath.grading.summary import class_summary, normalised
from compmath.grading.summary_text import md_code, md_text, summary_blocks, summary_markdown
from compmath.holes.graft import HoleStatus
from compmath.present.layout import lay_out, plain_text
from tests.conftest import REPO, error_lines, no_traceback

SPEC = ClassSpec("323-positional-encoding", 323, "Positional encoding", (1.0, 1.0), ("a", "b"))
PRINT = "f" * 64
SCHEMA = json.loads((REPO / "compmath" / "contracts" / "grade.schema.json").read_text("utf-8"))
WRONG_16 = Failure(
    "difiere", "publica", {"dimension": 16}, "codificaciones", "salida.c[0]", "1", "2"
)
HOSTILE = "<script>alert(1)</script> [pulsa](http://evil.example) ![x](y.png) **3** | x"


def hole(number: int, status: str, failure: Failure | None = None, reason: str = "") -> HoleGrade:
    earned = 1.0 if status == "bien" else 0.0
    return HoleGrade(number, 1.0, earned, HoleStatus(status), reason, int(earned) * 3, 3, failure)


def student(name: str, first: HoleGrade, second: HoleGrade | None = None) -> StudentGrade:
    holes = (first, second or hole(2, "bien"))
    return StudentGrade(name, PRINT, (ClassGrade(SPEC.class_id, holes),))


def error(message: str, outcome: str = "excepcion") -> Failure:
    return Failure(outcome, "defecto", None, error=message)


def book() -> Gradebook:
    grades = [
        student("ana", hole(1, "bien")),
        student("luis", hole(1, "mal", WRONG_16)),
        student("marta", hole(1, "mal", WRONG_16)),
        student("olga", hole(1, "mal", WRONG_16)),
        student("pepe", hole(1, "falla", error("IndexError: index 5 is out of bounds for size 4"))),
        student("rosa", hole(1, "falla", error("IndexError: index 7 is out of bounds for size 2"))),
        student("sara", hole(1, "falla", error("se agotó", "tiempo_agotado"))),
        student("teo", hole(1, "sin completar")),
    ]
    return Gradebook("0" * 64, [SPEC], grades)


def test_counts_groups_and_order() -> None:
    summary = class_summary(book().specs, book().grades)
    first = summary["clases"][0]["huecos"][0]
    counts = {k: first[k] for k in ("bien", "mal", "falla", "tiempo_agotado", "sin_completar")}
    assert counts == {"bien": 1, "mal": 3, "falla": 2, "tiempo_agotado": 1, "sin_completar": 1}
    top = summary["lo_mas_comun"]
    assert [g["cuantos"] for g in top] == [3, 2, 1]  # most students first
    assert top[0]["alumnos"] == ["luis", "marta", "olga"] and top[0]["porcentaje"] == 37.5
    # the two IndexErrors differ only in their numbers: one group
    assert top[1]["error"] == "IndexError: index N is out of bounds for size N"
    assert top[1]["alumnos"] == ["pepe", "rosa"] and top[2]["tipo"] == "tiempo"
    text = summary_markdown(summary)
    assert "37,5 % (3 alumnos) falla `codificaciones` con dimension = 16" in text
    assert "12,5 % (1 alumno) agota el tiempo" in text  # the singular, by count
    jsonschema.validate(report_document(book()), SCHEMA)


def test_numbers_are_taken_out_of_messages() -> None:
    assert normalised("shapes (3,4) and (5, 6.5e-3) at 0x7f3a") == "shapes (N,N) and (N, N) at N"


def test_student_text_cannot_inject_markup(tmp_path: Path) -> None:
    """A student named like HTML whose exception message is Markdown and HTML: resumen.md,
    parsed as GitHub renders it, holds no HTML, no link, no image, no emphasis of theirs."""
    markdown_it = pytest.importorskip("markdown_it")
    grades = [
        student("<b>eva</b>*", hole(1, "falla", error(HOSTILE))),
        student("[ana](http://x.example)", hole(1, "falla", error(HOSTILE))),
        student("luis`|", hole(1, "mal", Failure("difiere", "defecto", None, "a`b<i>", "p"))),
    ]
    write_gradebook(tmp_path, Gradebook("0" * 64, [SPEC], grades))
    text = (tmp_path / "resumen.md").read_text("utf-8")
    parser = markdown_it.MarkdownIt("gfm-like") if _has_linkify() else markdown_it.MarkdownIt()
    tokens = parser.parse(text)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_inline", "html_block", "link_open", "image", "em_open"}, kinds
    strong = [
        t.children[k + 1].content
        for t in tokens
        for k, c in enumerate(t.children or [])
        if c.type == "strong_open"
    ]
    assert strong and all(re.fullmatch(r"323, hueco \d", s) for s in strong), strong  # ours
    html = parser.render(text)
    assert "<script" not in html and "<b>" not in html and "<i>" not in html
    assert "href" not in html and "<img" not in html
    assert "&lt;b&gt;eva&lt;/b&gt;*" in html  # the name is there, as text


def _has_linkify() -> bool:
    try:
        import linkify_it  # noqa: F401
    except ImportError:
        return False
    return True


def test_escapes() -> None:
    assert md_text("a*b_c<d>[e](f)") == "a\\*b\\_c\\<d\\>\\[e\\](f)"
    assert md_text("http://x www.y") == "http\\://x www\\.y"
    assert md_code("a``b") == "```a``b```" and md_code("`") == "`` ` ``"


@pytest.mark.parametrize("width", [60, 120])
def test_the_screen_fits_any_width(width: int) -> None:
    lines = plain_text(
        lay_out(summary_blocks(class_summary(book().specs, book().grades)), width)
    ).splitlines()
    assert all(len(t) <= width for t in lines)
    assert "37,5 % (3 alumnos) falla «codificaciones»" in " ".join(" ".join(lines).split())


def test_compare_says_what_moved_and_why() -> None:
    before = book()
    fixed = [g if g.student != "luis" else student("luis", hole(1, "bien")) for g in before.grades]
    after = Gradebook("1" * 64, before.specs, fixed)
    result = compare(before, after)
    assert [c.student for c in result.changes] == ["luis"]
    change = result.changes[0]
    assert change.moved == 1.0 and change.number == 1
    assert any("mal → bien" in w for w in change.why)
    assert any("dimension = 16" in w and "salida.c[0]" in w for w in change.why)
    assert result.to_dict()["curso_cambiado"] is True
    assert not compare(before, before).changed


def test_compare_names_a_new_variant_and_value() -> None:
    before = book()
    moved = Failure(
        "difiere", "publica", {"dimension": 12}, "codificaciones", "salida.c[0]", "1", "3"
    )
    grades = [
        g if g.student != "olga" else student("olga", hole(1, "mal", moved)) for g in before.grades
    ]
    change = compare(before, Gradebook(before.course, before.specs, grades)).changes[0]
    said = " ".join(change.why)
    assert "con dimension = 16 → con dimension = 12" in said
    assert "el valor del alumno en salida.c[0]: 2 → 3" in said


C323 = "323-positional-encoding"


def _course_copy(tmp_path: Path) -> Path:
    root = tmp_path / "curso"
    root.mkdir()
    for name in ("schemas", "curso.toml"):
        source = REPO / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, root / name)
    part = next((REPO / "classes").iterdir())
    if part.is_file():
        part = next(p for p in (REPO / "classes").iterdir() if p.is_dir())
    (root / "classes" / part.name).mkdir(parents=True)
    shutil.copy(part / "part.toml", root / "classes" / part.name / "part.toml")
    shutil.copytree(part / C323, root / "classes" / part.name / C323)
    return root


def _hand_in(entregas: Path, root: Path) -> None:
    from compmath.course.tree import load_course
    from compmath.holes.graft import course_lab
    from compmath.holes.regions import solution_regions, splice, student_regions

    cls = load_course(root).resolve("323")
    solution = cls.lab.read_text("utf-8")
    right = splice(course_lab(cls).exercise, solution, set())
    body = [t.removeprefix("    ") for t in solution_regions(solution)[0].body]

    def with_hole(code: str) -> str:
        region = student_regions(right)[0]
        lines = right.splitlines()
        lines[region.begin + 1 : region.end] = [f"    {t}" for t in code.splitlines()]
        return "\n".join(lines) + "\n"

    labs = {
        "ana": right,
        "luis": with_hole("\n".join(body) + "\nif d == 16:\n    omega = omega * 1.01"),
        "pepe": with_hole(f"raise ValueError({HOSTILE!r})"),
    }
    for name, text in labs.items():
        lab = entregas / name / cls.lab.relative_to(root)
        lab.parent.mkdir(parents=True)
        lab.write_text(text, encoding="utf-8")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_grade_writes_the_report_and_comparar_finds_a_changed_variant(cli, tmp_path: Path) -> None:
    root = _course_copy(tmp_path)
    entregas = tmp_path / "entregas"
    _hand_in(entregas, root)
    before, after = tmp_path / "antes", tmp_path / "despues"
    args = ["grade", str(entregas), "--root", str(root), "--clases", "323", "--timeout", "10"]
    assert cli(*args, "--out", str(before)).code == 0
    report = json.loads((before / "informe.json").read_text("utf-8"))
    jsonschema.validate(report, SCHEMA)
    summary = (before / "resumen.md").read_text("utf-8")
    assert "33,3 % (1 alumno) falla `codificaciones` con dimension = 16. Alumnos: luis" in summary
    # the exception by its type: its message is the program's own text (a path, or what a
    # grafted program read of the course's holes), and stays out, markup included
    assert "lanza `ValueError`" in summary and "<script>" not in summary
    shown = cli("grade", "resumen", str(before), "--json")
    assert shown.code == 0 and json.loads(shown.out) == report["resumen_por_hueco"]
    assert "«codificaciones»" in no_traceback(cli("grade", "resumen", str(before)))

    similar = cli("grade", "similitud", str(before), "--root", str(root))
    assert similar.code == 0 and "no acusaciones" in no_traceback(similar)
    assert (before / "similitud.html").exists()
    too_high = cli("grade", "similitud", str(before), "--root", str(root), "--umbral", "2")
    assert too_high.code == 2 and len(error_lines(too_high)) == 1

    meta = next(root.rglob(f"{C323}/class.toml"))
    text = meta.read_text("utf-8")
    assert "{ dimension = 16 }" in text
    meta.write_text(text.replace("{ dimension = 16 }", "{ dimension = 12 }"), encoding="utf-8")
    assert cli(*args, "--out", str(after)).code == 0
    same = cli("grade", "comparar", str(before), str(before), "--fail-on-change")
    assert same.code == 0 and "dan lo mismo" in same.out
    changed = cli("grade", "comparar", str(before), str(after), "--fail-on-change")
    said = " ".join(no_traceback(changed).split())
    assert changed.code == 1 and "luis" in said and "mal (0) → bien (1)" in said
    assert "con dimension = 16" in said and "el curso cambió" in said
    # what changed in the course, by name: the variant, from what to what
    variant = f"{C323}: cambió la variante con dimension = 16: dimension = 16 → 12"
    assert variant in said, said
    # luis no longer fails at dimension = 16 because it is no longer checked, not fixed
    assert "ya no se comprueba donde fallaba (esa variante ya no está): con dimension = 16" in said
    assert "ya no falla donde fallaba" not in said
    data = json.loads(cli("grade", "comparar", str(before), str(after), "--json").out)
    assert [c["alumno"] for c in data["cambios"]] == ["luis"]
    assert data["alumnos_con_cambios"] == ["luis"]
    assert data["cambios_en_las_clases"] == [variant]
    recorded = json.loads((after / "informe.json").read_text("utf-8"))["clases"][0]
    assert {"dimension": 12} in recorded["variantes"] and recorded["limite_de_tiempo"] == 10
    assert recorded["tolerancias"][0]["salida"] == ""


@pytest.mark.parametrize(
    "args",
    [
        ["grade", "resumen"],
        ["grade", "comparar", "x"],
        ["grade", "resumen", "no-existe"],
        ["grade", "similitud"],
        ["grade", "ENTREGAS", "--json"],
    ],
)
def test_bad_uses_are_one_spanish_line(cli, args: list[str], tmp_path: Path) -> None:
    result = cli(*args)
    assert result.code == 2 and len(error_lines(result)) == 1
    no_traceback(result)


def test_the_schema_names_every_outcome_a_failure_can_have() -> None:
    from compmath.judging.report import Outcome

    enum = SCHEMA["$defs"]["fallo"]["properties"]["resultado"]["enum"]
    assert sorted(enum) == sorted(str(o) for o in Outcome)


def test_a_private_variant_keeps_its_numbers_private() -> None:
    """The record of a hole that fails at a private variant holds neither its parameters nor
    the values there (they would tell the variant), and the report says only «privada»."""
    from compmath.course.records import Hole
    from compmath.holes.variants import Variant
    from compmath.holes.verdict import HoleStatus, HoleVerdict
    from compmath.judging.compare import Difference, DifferenceKind

    wrong = Difference("pe", (0,), DifferenceKind.VALUE, 0.25, 0.5, 0.25, 1e-6)
    private = Variant({"dimension": 22}, private=True)
    public = Variant({"dimension": 16})
    task = Hole("t", ("pe",), ())
    failure_private = failure_of(
        HoleVerdict(1, task, HoleStatus.WRONG, "r", private, wrong, 0.25, 0.5, outcome="difiere")
    )
    failure_public = failure_of(
        HoleVerdict(1, task, HoleStatus.WRONG, "r", public, wrong, 0.25, 0.5, outcome="difiere")
    )
    assert failure_private is not None and failure_public is not None
    assert failure_private.params is None and failure_private.kind == "privada"
    assert not (failure_private.expected or failure_private.obtained or failure_private.path)
    assert "22" not in json.dumps(failure_private.to_dict())
    assert failure_public.params == {"dimension": 16} and failure_public.tolerance == 1e-6
    assert failure_public.expected == "0.25" and failure_public.obtained == "0.5"


def _with_variants(book: Gradebook, *variants: dict, timeout: float = 5.0) -> Gradebook:
    from dataclasses import replace

    from compmath.grading.records import variant_json

    spec = replace(
        SPEC,
        variants=tuple(variant_json(v) for v in variants),
        tolerances=(("", 1e-6, 1e-6),),
        timeout=timeout,
    )
    return Gradebook(book.course, [spec], book.grades)


def test_compare_tells_a_variant_no_longer_checked_from_a_fixed_hole() -> None:
    """Honest: luis's hole is right now at dimension = 16, still a variant: «ya no falla».
    Hostile to the wording: the variant he failed at is gone: «ya no se comprueba», and the
    class's changes are named, variant by variant, with the time limit."""
    before = _with_variants(book(), {"dimension": 16}, {"dimension": 4})
    fixed = [g if g.student != "luis" else student("luis", hole(1, "bien")) for g in book().grades]
    kept = _with_variants(Gradebook("1" * 64, [SPEC], fixed), {"dimension": 16}, {"dimension": 4})
    (change,) = compare(before, kept).changes
    assert any(w.startswith("ya no falla donde fallaba: con dimension = 16") for w in change.why)
    assert not compare(before, kept).spec_changes
    gone = _with_variants(Gradebook("1" * 64, [SPEC], fixed), {"dimension": 4}, {"k": 2}, timeout=9)
    result = compare(before, gone)
    (change,) = result.changes
    assert any(w.startswith("ya no se comprueba donde fallaba") for w in change.why), change.why
    assert not any("ya no falla" in w for w in change.why)
    assert list(result.spec_changes) == [
        f"{SPEC.class_id}: variante nueva: con k = 2",
        f"{SPEC.class_id}: variante quitada (ya no se comprueba): con dimension = 16",
        "el límite de tiempo: 5 s → 9 s",
    ]
    assert result.to_dict()["cambios_en_las_clases"] == list(result.spec_changes)


def test_compare_names_a_changed_tolerance() -> None:
    before = book()
    looser = Failure(**{**WRONG_16.__dict__, "tolerance": 1e-3})
    strict = Failure(**{**WRONG_16.__dict__, "tolerance": 1e-6})
    old = Gradebook(before.course, before.specs, [student("luis", hole(1, "mal", strict))])
    new = Gradebook(before.course, before.specs, [student("luis", hole(1, "mal", looser))])
    (change,) = compare(old, new).changes
    assert any(w.startswith("la tolerancia: 1e-06 → 0.001") for w in change.why)
