"""lint with the private variants: each hole written as a table of its values at the defaults and
at the public variants (what a student who copies those numbers hands in) must fail at the
private ones. The table hole passes practice (the threat is real); private variants that change
what the hole computes reject it (honest: lint is quiet), private variants that do not change it
let it through (hostile: lint says so); without a private file lint says it could not check."""

from __future__ import annotations

from pathlib import Path

import pytest

from compmath.authoring.lookup_check import captured, lookup_problems, lookup_sources
from compmath.course.tree import load_course
from compmath.holes.lookup import DEFAULTS, lookup_body, table
from compmath.holes.verdict import HoleStatus, judge_many
from tests.conftest import REPO
from tests.test_lint import edit


def private_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variantes-privadas.toml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(root: Path, private: Path) -> list[str]:
    return [p.what for p in lookup_problems(load_course(root), private, 2)]


# --- the table, read without running ------------------------------------------------------------


def test_the_table_keeps_each_run_in_order_and_the_defaults_apart() -> None:
    runs = [(True, [["[4]", "{'m': 1}"], ["[4]", "{'m': 2}"]]), (False, [["[6]", "{'m': 3}"]])]
    assert table(runs) == {"[4]": ["{'m': 1}", "{'m': 2}"], DEFAULTS: ["{'m': 1}", "{'m': 2}"],
                           "[6]": ["{'m': 3}"]}  # fmt: skip
    assert table([(True, [["[4]", "{'m': 1}"]]), (False, [])]) == {}  # a run not captured: none


def test_the_table_hole_is_code_that_parses_and_copies_what_it_assigns() -> None:
    import ast

    body = lookup_body(2, ["mitad"], ["n", "escala"], {DEFAULTS: ["{'mitad': 2.0}"]})
    ast.parse("\n".join(body))
    assert body[0].startswith("#") and "    mitad = _fila['mitad']" in body


def test_what_a_hole_reads_and_what_it_only_overwrites() -> None:
    from compmath.holes.lookup import overwritten, read
    from compmath.holes.regions import Region

    body = (
        "    angulos = np.outer(posiciones, frecuencias(d))",
        "    pe[:, 0::2] = np.sin(angulos)",
        "    total += pe.sum()",
    )
    region = Region(2, 0, 4, "    ", body)
    assert read(region) == read(region)  # deterministic
    assert set(read(region)) == {"np", "posiciones", "frecuencias", "d", "angulos", "pe", "total"}
    assert overwritten(region) == ["pe"]  # np.empty's content is no input; its shape is


def test_what_a_hole_changes_is_its_targets_not_the_names_in_their_index() -> None:
    """`p[np.argmax(z)] = 1.0` changes p, not np (written as a value, np would be a module's
    repr: a table, or the literal mutant, that does not even compile); a method called as a
    statement changes its object."""
    from compmath.holes.lookup import changed
    from compmath.holes.mutation import assigned
    from compmath.holes.regions import Region

    body = (
        "    p = np.zeros_like(z)",
        "    p[np.argmax(z)] = 1.0",
        "    a, (b, *c) = 1, (2, 3)",
        "    historia.append(operador(P, historia[-1]))",
        "    print(p)",
    )
    region = Region(1, 0, 6, "    ", body)
    assert assigned(region) == ["p", "a", "b", "c"]
    assert changed(region) == ["p", "a", "b", "c", "historia"]


# --- against the labs ----------------------------------------------------------------------------


def test_the_table_hole_passes_practice_at_every_public_point(course_901: Path) -> None:
    """The control: with the defaults and the public variant (escala = 2.0) it is right."""
    course = load_course(course_901)
    cls = course.resolve("901")
    tables = captured(course, [cls], 2)[cls.id]
    assert DEFAULTS in tables[1] and len(tables[1]) == 3  # and (n, escala) = (4, 0.5), (4, 2.0)
    source = lookup_sources(cls, tables)
    assert "n * escala" not in source  # numbers only: the solution is nowhere in it
    attempt = judge_many([(cls, source)], timeout=20.0, jobs=2)[0]
    assert [h.status for h in attempt.holes] == [HoleStatus.RIGHT], attempt.holes[0].reason


def test_private_variants_that_change_the_hole_reject_its_table(
    course_901: Path, tmp_path: Path
) -> None:
    private = private_file(tmp_path, "[901]\nvariantes = [ { escala = 3.0 }, { n = 6 } ]\n")
    assert problems(course_901, private) == []
    course = load_course(course_901)
    cls = course.resolve("901")
    tables = captured(course, [cls], 2)[cls.id]
    attempt = judge_many(
        [(cls, lookup_sources(cls, tables))],
        timeout=20.0,
        jobs=2,
        private={901: [{"escala": 3.0}]},
    )[0]
    hole = attempt.holes[0]
    assert hole.status == HoleStatus.WRONG and hole.variant is not None and hole.variant.private


def test_private_variants_that_leave_the_hole_alone_let_its_table_through(
    course_901: Path, tmp_path: Path
) -> None:
    """`nombre` and `activo` change nothing mitad depends on: the copied numbers pass grading."""
    private = private_file(
        tmp_path, '[901]\nvariantes = [ { nombre = "y" }, { activo = false, escala = 2.0 } ]\n'
    )
    assert problems(course_901, private) == [
        "[901]: el hueco 1 pasa escribiendo a mano sus valores de los parámetros por defecto y "
        "de las variantes públicas: ninguna variante privada cambia lo que calcula"
    ]
    # one variant that changes it is enough
    edit(private, '{ nombre = "y" }', '{ nombre = "y" }, { n = 5 }')
    assert problems(course_901, private) == []


@pytest.mark.lento
def test_a_hole_that_runs_many_times_is_looked_up_time_by_time(tmp_path: Path) -> None:
    """322's coseno runs 21 times per run, at other vectors each time: its table passes the
    public variants; epsilon = 2 (above every norm) changes all three holes, indice_busqueda
    none of them."""
    course = load_course(REPO)
    touching = private_file(tmp_path, "[322]\nvariantes = [ { epsilon = 2.0 } ]\n")
    assert [p.what for p in lookup_problems(course, touching, 2)] == []
    idle = private_file(tmp_path, "[322]\nvariantes = [ { indice_busqueda = 4 } ]\n")
    assert [p.what for p in lookup_problems(course, idle, 2)] == [
        f"[322]: el hueco {k} pasa escribiendo a mano sus valores de los parámetros por defecto "
        "y de las variantes públicas: ninguna variante privada cambia lo que calcula"
        for k in (1, 2, 3)
    ]


@pytest.mark.lento  # two lints of a course, seconds
def test_lint_says_which_classes_it_could_not_check(cli, course_901: Path, tmp_path: Path) -> None:
    without = cli("lint", "--mutantes", "--root", str(course_901))
    assert without.code == 0, without.out
    said = " ".join(without.out.split())
    assert (
        "sin --variantes-privadas RUTA, lint no comprueba que un hueco que escriba a mano" in said
    )
    idle = private_file(tmp_path, '[901]\nvariantes = [ { nombre = "y" } ]\n')
    flagged = cli(
        "lint", "--mutantes", "--root", str(course_901), "--variantes-privadas", str(idle)
    )
    assert flagged.code == 1
    shown = " ".join(flagged.out.split())
    assert "[901]: el hueco 1 pasa escribiendo a mano sus valores" in shown, shown
    assert "sin --variantes-privadas" not in shown and "sin variantes privadas:" not in shown
    touching = private_file(tmp_path, "[901]\nvariantes = [ { n = 7 } ]\n")
    clean = cli("lint", "--root", str(course_901), "--variantes-privadas", str(touching))
    assert clean.code == 0, clean.out


def test_the_classes_a_private_file_leaves_out_are_named() -> None:
    from compmath.authoring.lookup_check import uncovered
    from compmath.authoring.mutant_screen import lookup_note
    from compmath.present.layout import lay_out, plain_text

    course = load_course(REPO)
    left = [c.number for c in uncovered(course, {323: [{"dimension": 22}]})]
    assert 323 not in left and 322 in left and len(left) == len(course.classes) - 1
    note = " ".join(plain_text(lay_out(lookup_note([321, 322, 324]), None)).split())
    assert note.startswith("sin variantes privadas: 321, 322 y 324; en esas clases un hueco")
    assert lookup_note([]) == []
