"""Nothing a lab prints can drive the terminal: its stdout, stderr, output keys and values and
exception text show their control characters (`\\x1b`, `\\x07`, `U+202E`) instead of obeying
them, in plain text and in colour, in `run`, `check` and practice mode, beside an honest lab.
"""

from __future__ import annotations

import json

import pytest

from compmath.visible import visible

# A window title, the clipboard (OSC 52), a cleared screen with a fake verdict, a bell, a
# carriage return over the line, a right-to-left override and a C1 CSI.
RAW = (
    "\x1b]0;pwned\x07",
    "\x1b]52;c;cHduZWQ=\x07",
    "\x1b[2J\x1b[H",
    "\r",
    "\u202e",
    "\x9b31m",
)
CONTROLLING = """\
import sys


def run() -> dict:
    print("\\x1b]0;pwned\\x07\\x1b]52;c;cHduZWQ=\\x07")
    print("\\x1b[2J\\x1b[H3/3 salidas coinciden", file=sys.stderr)
    return {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0],
            "\\x1b[2J\\x1b[Hclave": "\\u202eetla\\r\\x9b31m"}
"""
RAISING = """\
def run() -> dict:
    raise ValueError("\\x1b[2J\\x1b[H3/3 salidas coinciden con la instantánea\\x07")
"""
PRACTICE = """\
def run(**kwargs) -> dict:
    print("\\x1b]0;pwned\\x07\\x1b]52;c;cHduZWQ=\\x07")
    raise ValueError("\\x1b[2J\\x1b[H3/3 salidas coinciden\\x07\\u202e")
"""
GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
SCHEMA = {"type": "object"}  # the extra key is a difference, not a schema issue


def test_visible_shows_every_control_and_keeps_text() -> None:
    assert visible("señal ✓ 0,5 s\tvalor") == "señal ✓ 0,5 s\tvalor"
    assert visible("\x1b[31mrojo\x07") == "\\x1b[31mrojo\\x07"
    assert visible("a\u202eb\u2066c") == "aU+202EbU+2066c"
    assert visible("\x9b\x85\x7f\x00") == "\\x9b\\x85\\x7f\\x00"
    assert visible("x\ud800") == "x\\ud800"
    assert visible("uno\r\ndos") == "uno\\r\\ndos"


def _clean(text: str) -> None:
    for raw in RAW:
        assert raw not in text, (raw, text)


@pytest.fixture(params=["plano", "color"])
def colour(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "color":
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv("FORCE_COLOR", "1")
    return str(request.param)


def _labs(make_lab):
    make_lab(980, CONTROLLING, expected=GOOD, schema=SCHEMA, slug="controla")
    return make_lab(981, RAISING, expected=GOOD, schema=SCHEMA, slug="finge")


def test_run_shows_the_codes_instead_of_obeying_them(cli, make_lab, colour) -> None:
    root = _labs(make_lab)
    shown = cli("run", "980", "--root", str(root))
    assert shown.code == 1
    _clean(shown.out + shown.err)
    for text in ("\\x1b]0;pwned\\x07", "\\x1b[2J\\x1b[Hclave", "U+202Eetla\\r\\x9b31m"):
        assert text in shown.out, shown.out
    raised = cli("run", "981", "--root", str(root))
    assert raised.code == 1
    _clean(raised.out + raised.err)
    assert "\\x1b[2J\\x1b[H3/3 salidas coinciden" in raised.out
    honest = cli("run", "901", "--root", str(root))
    assert honest.code == 0


def test_check_shows_the_codes_and_json_keeps_them_as_data(cli, make_lab, colour) -> None:
    root = _labs(make_lab)
    shown = cli("check", "980", "981", "901", "--root", str(root))
    assert shown.code == 1
    _clean(shown.out + shown.err)
    document = json.loads(cli("check", "980", "901", "--root", str(root), "--json").out)
    outcomes = {c["clase"]: c for c in document["clases"]}
    assert outcomes["901-pasa"]["resultado"] == "coincide"
    assert "\x1b]0;pwned" in outcomes["980-controla"]["stdout"]  # JSON escapes it as data


@pytest.mark.lento  # seconds: out of the quick loop
def test_practice_check_shows_the_codes(cli, tmp_path, colour) -> None:
    from compmath.course.tree import load_course
    from compmath.practice import workspace
    from tests.conftest import REPO

    space = workspace.create(load_course(REPO), tmp_path / "practica")
    lab = space.course.resolve("325").lab
    lab.write_text(PRACTICE, encoding="utf-8")
    shown = cli("practice", "check", "325", "--dir", str(space.root))
    assert shown.code == 1
    _clean(shown.out + shown.err)
