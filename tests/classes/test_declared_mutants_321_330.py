"""Classes 321–330: every declared mutant of a hole fails under the practice verdict.

Each `[[huecos]] mutantes` entry is built as class.toml describes it (the hole's solution with
`cambia` replaced once by `por`, or `codigo` as the whole body), grafted into the course's lab
and judged at the defaults and the hidden variants, like a student's hole. Every common error
is accounted for: some mutant embodies it, or `[practica] sin_mutante` says why none can.
"""

from __future__ import annotations

import textwrap
import tomllib

import pytest

from compmath.course.tree import load_course
from compmath.holes.graft import HoleStatus, course_lab
from compmath.holes.regions import splice, student_regions
from compmath.holes.verdict import judge_many
from tests.conftest import REPO

COURSE = load_course(REPO)
CLASSES = range(321, 331)


def declared(number: int) -> dict:
    return tomllib.loads(COURSE.resolve(str(number)).meta_path.read_text(encoding="utf-8"))


def mutant_body(solution: str, mutant: dict) -> str:
    if "codigo" in mutant:
        return mutant["codigo"]
    assert solution.count(mutant["cambia"]) == 1, mutant["cambia"]
    return solution.replace(mutant["cambia"], mutant["por"])


def student_source(number: int, hole: int, body: str) -> str:
    """The exercise with every hole solved except `hole`, which holds `body`."""
    cls = COURSE.resolve(str(number))
    lab = course_lab(cls)
    filled = splice(lab.exercise, "\n".join(lab.lines) + "\n", {hole})
    region = student_regions(filled)[hole - 1]
    lines = filled.splitlines()
    indented = [region.indent + line if line.strip() else "" for line in body.splitlines()]
    lines[region.begin + 1 : region.end] = indented
    return "\n".join(lines) + "\n"


def all_mutants() -> list[tuple[int, int, dict, str]]:
    made = []
    for number in CLASSES:
        lab = course_lab(COURSE.resolve(str(number)))
        for hole, entry in enumerate(declared(number).get("huecos", []), 1):
            solution = textwrap.dedent("\n".join(lab.regions[hole - 1].body))
            for mutant in entry.get("mutantes", []):
                made.append((number, hole, mutant, mutant_body(solution, mutant)))
    return made


@pytest.mark.parametrize("number", CLASSES)
def test_every_common_error_has_a_mutant_or_a_reason(number: int) -> None:
    meta = declared(number)
    errors = len(meta["errores_comunes"])
    with_mutant = {m["error"] for h in meta["huecos"] for m in h.get("mutantes", [])}
    without = {s["error"] for s in meta.get("practica", {}).get("sin_mutante", [])}
    assert with_mutant | without == set(range(1, errors + 1))
    assert not with_mutant & without  # a reason for no mutant contradicts a mutant
    assert all(meta["huecos"][k].get("mutantes") for k in range(len(meta["huecos"])))


@pytest.mark.lento
def test_every_declared_mutant_is_rejected_and_the_solution_passes() -> None:
    mutants = all_mutants()
    honest = [
        (
            COURSE.resolve(str(n)),
            student_source(
                n, 1, textwrap.dedent("\n".join(course_lab(COURSE.resolve(str(n))).regions[0].body))
            ),
        )
        for n in CLASSES
    ]
    items = [(COURSE.resolve(str(n)), student_source(n, h, body)) for n, h, _, body in mutants]
    attempts = judge_many(honest + items, timeout=20.0, jobs=2)
    assert all(a.done for a in attempts[: len(honest)])
    passed = [
        f"{n} hueco {h}: {m.get('nota', m.get('cambia', ''))}"
        for (n, h, m, _), a in zip(mutants, attempts[len(honest) :])
        if a.holes[h - 1].status == HoleStatus.RIGHT
    ]
    assert not passed
    assert len(mutants) >= 60
