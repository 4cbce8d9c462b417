"""The practice screens at 60 columns: what is left hangs under its text, a key never parts from
its label, and `practice check` says what its holes' marks mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.holes.verdict import Attempt, HoleStatus, HoleVerdict
from compmath.practice.practice_screen import KEYS, attempt_blocks
from compmath.practice.report import check_blocks
from compmath.practice.workspace import ClassProgress, Progress
from compmath.present.layout import cell_width, lay_out, plain_text
from tests.conftest import REPO

COURSE = load_course(REPO)
WIDTH = 60


def untouched(number: str) -> Attempt:
    """A class as the exercise leaves it: every hole still to write (nothing run)."""
    cls = COURSE.resolve(number)
    holes = tuple(HoleVerdict(k, hole, HoleStatus.OPEN) for k, hole in enumerate(cls.meta.holes, 1))
    return Attempt(cls, holes, ())


def progress_of(*attempts: Attempt) -> Progress:
    classes = {a.cls.id: ClassProgress() for a in attempts}
    return Progress(classes, attempts[0].cls.id, str(REPO))


def screen(blocks: list, width: int | None = WIDTH) -> list[str]:
    return plain_text(lay_out(blocks, width)).splitlines()


@pytest.mark.parametrize("width", [40, WIDTH, 120])
def test_keys_stay_with_their_labels_and_what_is_left_hangs(width: int, tmp_path: Path) -> None:
    attempt = untouched("321")  # its first hole's task is long: it wraps at 60 columns
    lines = screen(attempt_blocks(attempt, progress_of(attempt), tmp_path / "lab.py"), width)
    at = next(i for i, t in enumerate(lines) if t.startswith("falta el hueco 1: "))
    rest = lines[at + 1 : lines.index("", at)]
    assert rest or width > WIDTH  # it does wrap at 60 columns
    assert all(t.startswith("  ") for t in rest), lines  # under its text, not at column 0
    keys = lines[next(i for i, t in enumerate(lines) if t.startswith("teclas: ")) :]
    for key in KEYS:
        assert sum(key in t for t in keys) == 1, (key, keys)  # whole on one line
    assert " · ".join(KEYS) in " · ".join(t.strip().removeprefix("teclas: ") for t in keys)
    assert all(cell_width(t) <= width for t in keys), keys


def test_check_says_what_the_marks_mean_where_they_first_show() -> None:
    attempts = [untouched("321"), untouched("323")]
    lines = screen(check_blocks(attempts, progress_of(*attempts)))
    assert lines[0] == "huecos: · sin completar  ✓ bien  ✗ mal o falla"
    assert "[· · ·]" in lines[1]  # the marks, right below their legend
    narrow = screen(check_blocks(attempts, progress_of(*attempts)), 24)
    assert narrow[:3] == ["huecos: · sin completar", "  ✓ bien  ✗ mal o falla", narrow[2]]


@pytest.mark.parametrize("width", range(20, 61))
def test_a_hole_keeps_its_number_and_the_marks_their_brackets(width: int) -> None:
    """«hueco 1» never ends a line at «hueco», and `[· ✓ ✗]` never splits inside."""
    from compmath.present.layout import wrap_words

    for text in (
        "✗ 324 Query, Key y Value [· · ✓] — falta el hueco 1: calcula las proyecciones",
        "[✓ · ✗] y el hueco 12 sigue sin completar en esta variante",
    ):
        lines = wrap_words(text, width)
        assert " ".join(lines) == text
        assert not any(ln.endswith((" hueco", "[·")) for ln in lines), lines
        assert not any(ln.startswith(("·", "✓]", "✗]", "· ✓]")) for ln in lines[1:]), lines
