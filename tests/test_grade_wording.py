"""What `compmath grade` says: feedback that speaks to the student (no key of the practice
screen, no option of the instructor's command), a summary that lists what it wrote where, and a
live line naming who is still being graded."""

from __future__ import annotations

from pathlib import Path

import pytest

from compmath.execution.protocol import LabReply, ReplyState
from compmath.grading import run
from compmath.grading.grade_screen import summary_blocks
from compmath.judging.report import crash_message
from compmath.present.layout import cell_width, lay_out, plain_text
from tests.conftest import no_traceback, rejoined
from tests.test_grade import C323, C324, COURSE, exercise, grade, hand_in, solved, with_hole

# What belongs to another screen or to the instructor's command line, never to a student's file.
LEAKS = ("--timeout", "--memory", "súbelo", "pulsa", " r restaura", "[r]")


@pytest.mark.lento  # seconds: out of the quick loop
def test_feedback_speaks_to_the_student(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas = tmp_path / "entregas"
    hand_in(entregas, "ines", {C323: with_hole(C323, 2, "while True:\n    pass")})
    hand_in(entregas, "mem", {C323: with_hole(C323, 1, "x = bytearray(10**11)")})
    damaged = exercise(C323).replace("### FIN DEL HUECO 1 ###", "", 1)
    hand_in(entregas, "rota", {C323: damaged, C324: ""})
    hand_in(entregas, "vacia", {C323: "\n", C324: solved(C324)})
    monkeypatch.chdir(tmp_path)
    result = grade(cli, entregas, Path("notas"), "--timeout", "1", "--jobs", "2")
    assert result.code == 0, no_traceback(result)

    files = {p.stem: p.read_text("utf-8") for p in (tmp_path / "notas" / "comentarios").iterdir()}
    assert sorted(files) == ["ines", "mem", "rota", "vacia"]
    for student, text in files.items():
        assert not [leak for leak in LEAKS if leak in text], (student, text)
    assert "superó el límite de 1 s" in files["ines"]  # the limit is said, not how to raise it
    assert "superó el límite de memoria" in files["mem"] or "MemoryError" in files["mem"]
    # how to reproduce it, with the student's own command
    assert "`compmath practice check 323`" in files["ines"]
    assert "compmath practice reset 323 restaura el ejercicio" in files["rota"]

    # The summary says what it wrote and where, each path on its own line, relative.
    assert _listed(result.out) == [
        "notas/notas.csv",
        "notas/informe.json",
        "notas/resumen.md",
        "notas/comentarios/",
        "notas/huecos/",
        "notas/alumnos/",
        "notas/identidades.json",
    ]
    assert "el resumen de la clase, 4 comentarios (uno por alumno)" in " ".join(result.out.split())


def _listed(out: str) -> list[str]:
    """The paths of the closing «se escribieron …:» list, in order."""
    lines = out.splitlines()
    at = next(i for i, t in enumerate(lines) if "se escribieron" in t)
    at += next(k for k, t in enumerate(lines[at:]) if t.rstrip().endswith(":"))
    return [t.strip() for t in lines[at + 1 :] if t.startswith("  ") and t.strip()]


@pytest.mark.parametrize("merged", [False, True], ids=["grade", "merge"])
def test_the_closing_list_is_everything_grade_wrote(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, merged: bool
) -> None:
    """What `grade` (and `grade merge`) lists is what the output folder holds, no more, no
    less: resumen.md and huecos/ included. Empty files: graded without running a lab."""
    entregas = tmp_path / "entregas"
    for name in ("ana", "beto"):
        hand_in(entregas, name, {C323: "", C324: ""})
    monkeypatch.chdir(tmp_path)
    result = grade(cli, entregas, Path("notas"), "--timeout", "1")
    assert result.code == 0, no_traceback(result)
    out, said = tmp_path / "notas", result.out
    if merged:
        result = cli("grade", "merge", "notas", "--out", "juntas")
        assert result.code == 0, no_traceback(result)
        out, said = tmp_path / "juntas", result.out
    held = sorted(f"{out.name}/{p.name}" + ("/" if p.is_dir() else "") for p in out.iterdir())
    listed = _listed(said)
    assert sorted(listed) == held, said
    assert f"{out.name}/resumen.md" in listed and f"{out.name}/huecos/" in listed
    assert "2 comentarios (uno por alumno)" in " ".join(said.split())


@pytest.mark.parametrize("width", [60, 120])
@pytest.mark.parametrize("where", ["aqui", "lejos"])
def test_the_summary_never_cuts_a_path_in_a_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, width: int
) -> None:
    """A long output folder is shown relative to the current folder, or absolute when far
    from it, each path on lines of its own: too wide, it goes on after a `/` or a `-` with a
    backslash (pasted, the shell joins it back), never cut inside a word."""
    out = tmp_path / "una-carpeta-de-notas-con-un-nombre-bastante-largo" / "notas"
    far = tmp_path / "a" / "b" / "c"
    far.mkdir(parents=True)
    monkeypatch.chdir(tmp_path if where == "aqui" else far)
    outcome = run.grade_students({}, out, [C323], timeout=1.0, jobs=1)
    lines = plain_text(lay_out(summary_blocks(outcome, None), width)).splitlines()
    assert all(cell_width(t) <= width for t in lines), lines
    shown = out.relative_to(tmp_path) if where == "aqui" else out
    paths = [t.strip() for t in rejoined(lines) if t.strip().startswith(str(shown))]
    assert paths == [
        f"{shown}/{name}"
        for name in ("notas.csv", "informe.json", "resumen.md", "comentarios/", "alumnos/")
    ]
    pieces = [t for t in lines if t.endswith("\\")]
    assert all(t[-2] in "/-_" for t in pieces), pieces  # between words
    assert bool(pieces) == (width == 60 or (where == "lejos" and len(paths[1]) + 2 > width))


def test_the_live_line_names_who_is_still_being_graded(tmp_path: Path) -> None:
    from compmath.grading.grade_screen import grading_now

    entregas = tmp_path / "entregas"
    for name in ("ana", "beto", "carla"):  # empty files: graded without running anything
        hand_in(entregas, name, {C323: "", C324: ""})
    students, _, _ = run.select_students(entregas, None, tmp_path / "notas")
    pending: list[str] = []
    notes: list[tuple[str, str]] = []

    def landed(student: str) -> None:
        pending.remove(student)
        notes.append((student, grading_now(pending)))

    run.grade_students(
        students,
        tmp_path / "notas",
        [COURSE.resolve("323"), COURSE.resolve("324")],
        timeout=1.0,
        jobs=1,
        started=pending.extend,
        landed=landed,
    )
    assert [n for n, _ in notes] == ["ana", "beto", "carla"]
    assert [note for _, note in notes] == ["corrigiendo beto (y 1 más)", "corrigiendo carla", ""]
    assert grading_now(["alumno-0003", "alumno-0004", "alumno-0005"]) == (
        "corrigiendo alumno-0003 (y 2 más)"
    )


@pytest.mark.parametrize(
    "reply",
    [
        LabReply("k", ReplyState.TIMEOUT),
        LabReply("k", ReplyState.MEMORY, error_type="MemoryError", message="x"),
        LabReply("k", ReplyState.SIGNAL, signal_name="SIGSEGV", peak_memory=2 << 30),
    ],
    ids=["tiempo", "memoria", "señal-con-memoria-al-limite"],
)
def test_every_limit_the_runner_hints_at_is_said_without_its_option(reply: LabReply) -> None:
    """Every limit a lab can hit comes with the option that lifts it as a field of its own
    (`remedy`), never inside the message: the command that ran the lab says both, grading's
    feedback the message alone."""
    crash = crash_message(reply, 3.0, 2 << 30)
    assert crash.remedy.startswith("súbelo con --")  # what `run` and `practice` add
    assert "--" not in crash.message and "súbelo" not in crash.message
    assert crash.message.count("(") == crash.message.count(")")


def test_the_live_line_keeps_its_time_whole_at_60_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The note beside it gives way: `1,50 s` never splits into `1,50` and a lone `s`."""
    import io
    import re

    from compmath.grading.grade_screen import grading_now
    from compmath.present.terminal import spinner

    monkeypatch.setenv("COLUMNS", "60")
    stream = io.StringIO()
    with spinner(stream, 6, "entregas", colour=False) as advance:
        advance(grading_now([f"alumno-{k:04d}" for k in range(3, 16)]))
    frames = re.split(r"[\r\n]+", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue()))
    drawn = [f for f in frames if f.strip()]
    assert any("1/6" in f and "corrigiendo alumno-0003" in f for f in drawn), drawn
    assert all(f.count("(") == f.count(")") for f in drawn), drawn  # never «(y 12…»
    assert all(re.search(r"\d+(,\d+)? m?s\b", f) for f in drawn), drawn
    assert all(re.search(r"\b[0-6]/6\b", f) for f in drawn), drawn  # the count is never cut
    assert all(len(f) <= 60 for f in drawn), drawn


@pytest.mark.parametrize("points, said", [((1.0,), "de 1 punto ·"), ((0.5, 1.5), "de 2 puntos ·")])
def test_the_mean_mark_says_punto_for_one_point(points: tuple[float, ...], said: str) -> None:
    """«nota media 0,5 de 1 punto», never «de 1 puntos»; two points or more, «puntos»."""
    from compmath.grading.grade_screen import marks_blocks
    from compmath.grading.gradebook import Gradebook
    from compmath.grading.records import ClassGrade, ClassSpec, HoleGrade, StudentGrade

    names = tuple(f"h{k}" for k, _ in enumerate(points, 1))
    spec = ClassSpec("323-x", 323, "X", points, names, "todo")
    holes = tuple(HoleGrade(k, p, 0.0, "mal", "no") for k, p in enumerate(points, 1))
    student = StudentGrade("ana", "d" * 64, (ClassGrade("323-x", holes),))
    book = Gradebook("c" * 64, [spec], [student])
    assert said in plain_text(lay_out(marks_blocks(book), 60))


@pytest.mark.parametrize(
    "args, command",
    [
        (["grade", "entregas", "--out", "notas", "--timeout", "5"], "compmath grade"),
        (["grade", "gradescope", "323"], "compmath grade gradescope"),
        (["list"], "compmath list"),
    ],
)
def test_outside_a_course_the_hint_names_the_command_that_ran(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], command: str
) -> None:
    """Run where no folder holds classes/, the hint repeats the command run, with --root
    (not another command); given a --root with no classes/, the same."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPMATH_ROOT", raising=False)
    (tmp_path / "entregas").mkdir()
    for extra in ([], ["--root", str(tmp_path)]):
        result = cli(*args, *extra)
        said = no_traceback(result)
        assert result.code == 2, said
        assert f": {command} --root RUTA" in said, said
        others = {"compmath list", "compmath grade", "compmath grade gradescope"} - {command}
        assert not [o for o in others if f"{o} --root" in said], said
