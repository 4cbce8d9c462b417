"""Judging has bounds: a result past its size is refused before it is parsed, a schema's cheap
bounds come before a full validation, validation stops at the first error and has a deadline.

Hostile labs write a 40 MB and a 200 MB result, through `check` and as a student's hole through
`grade`, beside an honest lab that passes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from compmath.base.validate import SMALL, OverBudget, bound_issue, validate
from compmath.judging.judge import RESULT_CAP, oversized
from tests.conftest import SIMPLE_SCHEMA
from tests.fake_holes import grade_901, hand_in_901

GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
HUGE = """\
def run() -> dict:
    return {"n": 4, "mitad": 2.0, "vector": ["0" * SIZE]}
"""


def test_a_result_past_its_bound_is_refused_unparsed() -> None:
    assert oversized("x" * 100, 1000, "el límite") == ""
    said = oversized("x" * 3 * 1024**2, 1024**2, "los 1 MiB que admite esta clase")
    assert said == "el resultado ocupa 3 MiB, más de los 1 MiB que admite esta clase: no se analiza"
    assert oversized("ñ" * 600_000, 1024**2, "x")  # 1.2 MB of UTF-8 in 600,000 characters


@pytest.mark.lento  # seconds: out of the quick loop
def test_cheap_bounds_come_before_the_full_validation() -> None:
    numbers = [0.0] * 5_000_000
    issue = bound_issue(SIMPLE_SCHEMA, {"n": 4, "mitad": 2.0, "vector": numbers})
    assert issue is not None and issue.rule == "maxItems" and issue.path == "salida.vector"
    assert "tiene más de 10 elementos" in issue.message
    nested = {
        "$defs": {"t": {"type": "string", "maxLength": 3}},
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/t"}}},
    }
    found = bound_issue(nested, {"a": ["ab", "abcd"]})
    assert found is not None and found.path == "salida.a[1]" and found.rule == "maxLength"
    assert bound_issue(nested, {"a": ["ab", "abc"]}) is None
    text = json.dumps(SIMPLE_SCHEMA)
    big = {"n": 4, "mitad": 2.0, "vector": numbers}
    issues = validate(
        text,
        SIMPLE_SCHEMA,
        big,
        json.dumps(big),
        "x",
        use_cache=False,
        deadline=time.monotonic() + 60,
    )
    assert [i.rule for i in issues] == ["maxItems"]


def test_a_lab_s_validation_stops_at_the_first_error_and_at_its_deadline() -> None:
    text = json.dumps(SIMPLE_SCHEMA)
    wrong = {"n": -1, "mitad": "a", "vector": ["b"], "sobra": 1}
    every = validate(text, SIMPLE_SCHEMA, wrong, "", "x", use_cache=False)
    small = validate(
        text, SIMPLE_SCHEMA, wrong, "", "x", use_cache=False, deadline=time.monotonic() + 60
    )  # a screen's worth: every rule named
    padded = {**wrong, "relleno": "x" * (SMALL + 1)}
    first = validate(
        text,
        SIMPLE_SCHEMA,
        padded,
        json.dumps(padded),
        "x",
        use_cache=False,
        deadline=time.monotonic() + 60,
    )
    assert len(every) == 4 and small == every and len(first) == 1
    schema = {"type": "array", "items": {"type": "number"}}
    with pytest.raises(OverBudget):
        validate(
            json.dumps(schema),
            schema,
            [0.0] * 100_000,
            "",
            "x",
            use_cache=False,
            deadline=time.monotonic() - 1,
        )


@pytest.mark.lento  # a 200 MB result is written by a real lab
def test_check_refuses_a_40_and_a_200_mb_result_beside_an_honest_lab(cli, make_lab) -> None:
    root = make_lab(991, HUGE.replace("SIZE", "40_000_000"), expected=GOOD, slug="cuarenta")
    make_lab(992, HUGE.replace("SIZE", "200_000_000"), expected=GOOD, slug="doscientos")
    began = time.monotonic()
    result = cli("check", "991", "992", "901", "--root", str(root), "--json", "--timeout", "60")
    took = time.monotonic() - began
    reports = {c["clase"]: c for c in json.loads(result.out)["clases"]}
    assert reports["901-pasa"]["resultado"] == "coincide"
    cuarenta, doscientos = reports["991-cuarenta"], reports["992-doscientos"]
    assert cuarenta["resultado"] == doscientos["resultado"] == "no_representable"
    assert "más de los 1 MiB que admite esta clase" in cuarenta["mensaje"]
    assert "MiB que se leen: no se analiza" in doscientos["mensaje"]  # the worker never read it
    assert took < 600  # the mechanism is the refusal above; this only catches a runaway


@pytest.mark.lento  # grades a class whose hole writes a 40 MB result at two variants
def test_grade_refuses_a_hole_s_40_mb_result_and_grades_the_honest_student(
    cli, fake_course: Path, tmp_path: Path
) -> None:
    entregas = tmp_path / "entregas"
    hand_in_901(fake_course, entregas, "ana", "mitad = n * escala")
    hand_in_901(fake_course, entregas, "hugo", 'mitad = "0" * 40_000_000')
    out = tmp_path / "notas"
    result = grade_901(cli, entregas, fake_course, out)
    assert result.code == 0, result.err
    records = {
        s: json.loads((out / "alumnos" / f"{s}.json").read_text("utf-8")) for s in ("ana", "hugo")
    }
    ana, hugo = (records[s]["clases"][0]["huecos"][0] for s in ("ana", "hugo"))
    assert ana["obtenidos"] == 1 and ana["estado"] == "bien"
    assert hugo["obtenidos"] == 0 and hugo["estado"] == "falla"
    assert "el resultado ocupa 38 MiB, más de los 1 MiB que admite esta clase" in hugo["motivo"]


def test_the_bounds_are_documented() -> None:
    contract = (Path(__file__).resolve().parent.parent / "docs" / "autores.md").read_text("utf-8")
    assert f"{RESULT_CAP // 1024**2} MiB" in contract
