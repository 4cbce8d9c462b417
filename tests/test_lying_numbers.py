"""Numbers that cannot lie: what a lab's process writes is parsed strictly and encoded again by
the runner, so NaN, Infinity, a huge number or a lone surrogate never passes and never crashes
`run`, `run --json`, `check --junit-xml` or `update`; each is a failing lab with a Spanish reason.

Each hostile lab runs beside 901, which passes: its verdict does not change.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from compmath.course.records import Tolerance
from compmath.execution.protocol import ChildResult, LabReply, ReplyState, parse_line
from compmath.judging.compare import compare
from tests.conftest import FAKE_PART, no_traceback

GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}

# The lab writes its own result (fd 3) and leaves before the sandbox replaces it.
OWN_RESULT = """\
import json, os


def run() -> dict:
    output = OUTPUT
    result = {"state": "ok", "output": output, "run_seconds": SECONDS}
    os.write(3, json.dumps(result).encode())
    os._exit(0)
"""


def own_result(output: str, seconds: str = "0.1") -> str:
    return OWN_RESULT.replace("OUTPUT", repr(output)).replace("SECONDS", seconds)


PATCHED_ENCODER = '''\
import json

import compmath.base.encode as encode


def run() -> dict:
    """The encoder in this process is the lab's: it lets NaN through, unrounded."""
    encode.normalize = lambda value, *args, **kwargs: value
    encode.dumps = lambda data: json.dumps(data)
    return {"n": 4, "mitad": float("nan"), "vector": [0.0, 0.333333, 0.666667, 1.0]}
'''
SURROGATE_KEY = """\
def run() -> dict:
    return {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0], "x\\ud800": 1}
"""
SURROGATE_PATH = """\
def run() -> dict:
    return {"n": 4, "mitad": 2.0, "vector": [0.0], "x\\ud800": float("nan")}
"""
HUGE = """\
def run() -> dict:
    return {"n": 10 ** 4000, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
"""
NAN_TEXT = '{"n": 4, "mitad": NaN, "vector": [0.0, 0.333333, 0.666667, 1.0]}'
LABS = {
    "nan-en-su-resultado": (own_result(NAN_TEXT), "NaN no es un número"),
    "infinito-en-su-resultado": (
        own_result(NAN_TEXT.replace("NaN", "1e400")),
        "1e400 no cabe en un número real",
    ),
    "sustituto-en-su-resultado": (
        own_result(NAN_TEXT.replace("NaN", "2.0").replace('"n"', '"n\\ud800"')),
        "sustituto suelto",
    ),
    "codificador-parcheado": (PATCHED_ENCODER, "NaN no es un número"),
    "clave-con-sustituto": (SURROGATE_KEY, "sustituto suelto"),
    "nan-tras-un-sustituto": (SURROGATE_PATH, "salida.x\\ud800 es NaN"),  # killed the worker
    "segundos-nan": (own_result(json.dumps(GOOD), "float('nan')"), "sin devolver sus salidas"),
}


def _lab(make_lab, name: str) -> tuple[Path, str]:
    number = 970 + list(LABS).index(name)
    root = make_lab(number, LABS[name][0], expected=GOOD, slug=name)
    return root, f"{number}-{name}"


@pytest.mark.parametrize("name", list(LABS))
@pytest.mark.lento  # seconds: out of the quick loop
def test_run_refuses_what_the_lab_wrote_with_a_reason(cli, make_lab, name) -> None:
    root, class_id = _lab(make_lab, name)
    shown = cli("run", class_id, "--root", str(root))
    assert shown.code == 1
    no_traceback(shown)
    result = cli("run", class_id, "--root", str(root), "--json")
    assert result.code == 1
    report = json.loads(result.out)["clases"][0]
    assert report["resultado"] in ("no_representable", "salida_prematura"), report
    assert LABS[name][1] in report["mensaje"]
    no_traceback(result)


@pytest.mark.parametrize("name", list(LABS))
@pytest.mark.lento  # seconds: out of the quick loop
def test_check_writes_junit_and_keeps_the_honest_lab(cli, make_lab, tmp_path, name) -> None:
    root, class_id = _lab(make_lab, name)
    junit = tmp_path / "junit.xml"
    result = cli("check", class_id, "901", "--root", str(root), "--json", "--junit-xml", str(junit))
    assert result.code == 1
    outcomes = {c["clase"]: c["resultado"] for c in json.loads(result.out)["clases"]}
    assert outcomes["901-pasa"] == "coincide"
    assert outcomes[class_id] != "coincide"
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    assert len(list(cases[class_id])) > 0 and not list(cases["901-pasa"])


@pytest.mark.parametrize("name", ["nan-en-su-resultado", "clave-con-sustituto", "segundos-nan"])
def test_update_writes_nothing_and_says_why(cli, make_lab, name) -> None:
    root, class_id = _lab(make_lab, name)
    snapshot = root / "classes" / FAKE_PART / class_id / "expected.json"
    before = snapshot.read_bytes()
    result = cli("update", class_id, "--root", str(root))
    assert result.code == 1
    no_traceback(result)
    assert snapshot.read_bytes() == before


def test_a_huge_integer_differs_without_crashing(cli, make_lab) -> None:
    root = make_lab(979, HUGE, expected=GOOD, slug="enorme")
    result = cli("run", "979", "--root", str(root), "--json")
    report = json.loads(result.out)["clases"][0]
    assert report["resultado"] == "difiere", report
    no_traceback(cli("run", "979", "--root", str(root)))


def test_nan_never_equals_anything() -> None:
    loose = Tolerance(atol=1e300, rtol=1.0)
    nan = math.nan
    assert compare({"a": nan}, {"a": nan}, loose)
    assert compare({"a": 1.0}, {"a": nan}, loose)
    assert compare({"a": nan}, {"a": 1.0}, loose)
    assert compare({"a": [1.0, {"b": nan}]}, {"a": [1.0, {"b": nan}]}, loose)
    assert not compare({"a": 1.0}, {"a": 1.0}, Tolerance())
    assert compare({"a": 10**400}, {"a": 1}, Tolerance())  # no OverflowError
    assert compare({"a": 1.0e308}, {"a": -1.0e308}, loose)


def test_non_finite_fields_of_a_reply_are_refused() -> None:
    assert ChildResult.from_json('{"state": "ok", "run_seconds": NaN}') is None
    assert ChildResult.from_json('{"state": "ok", "run_seconds": 1e999}') is None
    with pytest.raises(ValueError):
        parse_line('{"key": "a", "state": "ok", "run_seconds": Infinity}')
    reply = parse_line('{"key": "a", "state": "exception", "message": "x\\ud800"}')
    assert isinstance(reply, LabReply)
    assert reply.message == "x\\ud800"  # shown, encodable
    assert ChildResult(ReplyState.OK, message="x\ud800").to_json()  # ASCII: never raises
