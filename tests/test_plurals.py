"""Spanish plurals by count: a count of 1 never stands beside a plural noun («1 clases»), on the
terminal (at 60 and 120 columns), on the site or in a message; and a scan of compmath's f-strings
that catches a new `{n} nouns` written by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from compmath.course.records import CourseMeta, PartMeta
from compmath.judging.report import LabReport, Outcome
from compmath.practice.practice_screen import progress_bar
from compmath.practice.workspace import ClassProgress, Progress
from compmath.present.layout import lay_out, plain_text
from compmath.present.run_screen import summary
from compmath.present.screens import check_screen
from compmath.site.render import PartView, Row, part_page

PACKAGE = Path(__file__).resolve().parents[1] / "compmath"
WIDTHS = (60, 120)
# «1 clases», «1 de 1 laboratorios», «1 laboratorio: todos coinciden», «1/1 salidas coinciden»
WRONG = re.compile(r"(?<![\d,])1 (?:de 1 )?[a-záéíóúñ]{2,}s\b(?<!\bmás)|1 \w+: todos|1/1 salidas")


def _text(blocks: list, width: int) -> str:  # type: ignore[type-arg]
    return plain_text(lay_out(blocks, width))


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("width", WIDTHS)
def test_one_class_in_the_practice_bar(width: int) -> None:
    one = Progress({"321": ClassProgress()}, "321", "/curso")
    shown = _flat(_text([progress_bar(one)], width))
    assert "0 de 1 clase hecha" in shown and not WRONG.search(shown)
    two = Progress({"321": ClassProgress(done=True), "322": ClassProgress()}, "321", "/curso")
    assert "1 de 2 clases hechas" in _flat(_text([progress_bar(two)], width))


@pytest.mark.parametrize("width", WIDTHS)
def test_one_lab_in_check(width: int) -> None:
    one = LabReport("321-bpe", 321, "Tokenización BPE", Outcome.MATCHES, duration=0.2)
    shown = _flat(_text(check_screen([one], 0.28), width))
    assert "1 laboratorio: coincide con su instantánea" in shown and not WRONG.search(shown)
    both = _flat(_text(check_screen([one, one], 0.5), width))
    assert "2 laboratorios: todos coinciden con su instantánea" in both


@pytest.mark.parametrize("width", WIDTHS)
def test_one_output_in_run(width: int) -> None:
    one = LabReport("321-bpe", 321, "BPE", Outcome.MATCHES, expected={"a": 1}, outputs={"a": 1})
    shown = _flat(_text([summary(one)], width))
    assert "1/1 salida coincide con la instantánea" in shown and not WRONG.search(shown)
    three = {"a": 1, "b": 2, "c": 3}
    many = LabReport("321-bpe", 321, "BPE", Outcome.MATCHES, expected=three, outputs=three)
    assert "3/3 salidas coinciden con la instantánea" in _flat(_text([summary(many)], width))


def test_a_part_of_one_class_on_the_site() -> None:
    row = Row(321, "Tokenización BPE", "básico", "2 h", "clase-321.html", "", "")
    part = PartView(16, "Parte 16", PartMeta(16, "Parte 16", level="medio"), (row,))
    page = part_page(CourseMeta(), part)
    assert "Plan de la parte (1 clase)" in page and "medio · 1 clase<" in page
    assert not WRONG.search(page)
    two = PartView(16, "Parte 16", PartMeta(16, "Parte 16"), (row, row))
    assert "Plan de la parte (2 clases)" in part_page(CourseMeta(), two)


# --- the scan ------------------------------------------------------------------------------

# A word right after a formatted value that ends in -s and is no plural noun.
NOT_NOUNS = {
    "más",
    "antes",
    "s",
    "ms",
    "es",
    "los",
    "las",
    "sus",
    "tus",
    "refers",
}  # refers: English
# f-strings whose count beside a plural noun is never 1, each with why.
NEVER_ONE = {
    ("authoring/exercises.py", "huecos"): "only when there are more than MAX_HOLES",
    ("authoring/mutant_check.py", "variantes"): "only when there are more than two",
    ("cli/interrupt.py", "laboratorios"): "only when more than one lab runs",
    ("cli/labs.py", "instantáneas"): "one unwritten snapshot is said by name",
    ("course/workflows.py", "fragmentos"): "the course's workflow grades in 4 shards",
    ("grading/delivered.py", "días"): "only for a number of days outside 1..366",
    ("grading/export.py", "puntos"): "the column header «321 puntos»: a class, not a count",
    ("grading/submissions.py", "archivos"): "a limit (MAX_ENTRIES) or more than it",
    ("grading/submissions.py", "carpetas"): "a limit, MAX_FOLDERS",
    ("grading/submissions.py", "niveles"): "a limit, MAX_DEPTH",
    ("grading/verdict.py", "caracteres"): "only for a print longer than PRINT_WIDTH",
    ("holes/mutants.py", "veces"): "only when found twice or more (once is fine, 0 is said)",
    ("judging/judge.py", "veces"): "a constant, RESULT_FACTOR",
    ("judging/report.py", "veces"): "only when lost more than once",
    ("present/charts.py", "columnas"): "a heatmap needs many columns",
    ("present/page.py", "elementos"): "only a list cut after max_items",
    ("site/book.py", "impresiones"): "a constant, PRINTS",
    ("interrupt.py", "laboratorios"): "only when more than one lab runs",
    ("authoring/snapdiff.py", "elementos"): "only when the value holds more than one",
    ("practice/practice_screen.py", "pistas"): "a single hint is said in words",
    ("notebook/checker.py", "diferencias"): "only beyond MOSTRADAS",
    ("notebook/checker.py", "conjuntos"): "only with a variant left out, so two sets or more",
    ("notebook/checker.py", "salidas"): "embedded in every generated notebook: to be fixed "
    "with the notebooks regenerated",
    ("present/screens.py", "clases"): "written_phrase says a part of one class in words",
    # ad hoc `{'s' if …}` that stay
    ("grading/feedback.py", "{'s' if …}"): "points are a float written by _number (0,5 puntos)",
    (
        "notebook/checker.py",
        "{'s' if …}",
    ): "embedded in every notebook, which cannot import compmath",
}
NOUN_AFTER = re.compile(r" (?:de (?:sus |los |las )?)?([a-záéíóúñ]+)")


def _hand_written_plurals(package: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """Every f-string of compmath with a formatted value followed by ` nouns` (a word in -s),
    or with an ad hoc `{'s' if n != 1 else ''}`: where a count may meet a fixed plural."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            values = node.values
            for first, then in zip(values, values[1:]):
                if not isinstance(first, ast.FormattedValue):
                    continue
                if isinstance(first.value, ast.Call):  # count(n, …), percent(…): said right
                    continue
                if not (isinstance(then, ast.Constant) and isinstance(then.value, str)):
                    continue
                word = NOUN_AFTER.match(then.value)
                if word and word[1].endswith("s") and word[1] not in NOT_NOUNS:
                    found.append((rel, node.lineno, word[1]))
            for value in values:
                if isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.IfExp):
                    branches = {ast.unparse(value.value.body), ast.unparse(value.value.orelse)}
                    if branches in ({"'s'", "''"}, {"'es'", "''"}):
                        found.append((rel, node.lineno, "{'s' if …}"))
    return found


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_no_count_beside_a_fixed_plural() -> None:
    """A count is written through wording.count (or in words for one); the exceptions above
    are counts that cannot be 1."""
    wrong = [
        f"compmath/{rel}:{lineno}: «{{n}} {word}» (usa wording.count)"
        for rel, lineno, word in _hand_written_plurals()
        if (rel, word) not in NEVER_ONE
    ]
    assert not wrong, "\n".join(wrong)


def test_the_scan_sees_a_hand_written_plural(tmp_path: Path) -> None:
    """The scan is no test that cannot fail: a `{n} clases` and a `{'s' if …}` are found."""
    (tmp_path / "bad.py").write_text(
        "def f(n: int) -> str:\n    return f\"{n} clases y {n} hueco{'s' if n != 1 else ''}\"\n"
    )
    assert [w for _, _, w in _hand_written_plurals(tmp_path)] == ["clases", "{'s' if …}"]


TEMPLATE_COUNT = re.compile(r"\}\}\s+([a-záéíóúñ]{2,}s)\b")


def test_no_template_writes_a_count_beside_a_fixed_plural() -> None:
    """The site's templates: «Plan de la parte ({{ n }} clases)» was «(1 clases)» for a part of
    one class; a count comes written (`count`) from the page's view."""
    wrong = [
        f"{path.name}: «{{{{ … }}}} {found[1]}»"
        for path in sorted((PACKAGE / "site" / "templates").glob("*.html"))
        for found in TEMPLATE_COUNT.finditer(path.read_text("utf-8"))
    ]
    assert not wrong, wrong
    assert TEMPLATE_COUNT.search("Plan de la parte ({{ part.rows | length }} clases)")
