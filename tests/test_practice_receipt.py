"""`compmath practice entregar`: the zip `grade` reads, read back as `grade` reads it, with a
SHA-256 that `grade` writes into the feedback; code outside the holes is said not to count."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.holes.regions import splice
from compmath.practice import workspace
from tests.conftest import REPO, error_lines, no_traceback

COURSE = load_course(REPO)
C323 = COURSE.resolve("323")


@pytest.fixture
def space(tmp_path: Path) -> Path:
    made = workspace.create(COURSE, tmp_path / "ws", "ana")
    lab = next(c for c in made.classes() if c.number == 323).lab
    solved_first = splice(lab.read_text("utf-8"), C323.lab.read_text("utf-8"), {2})
    lab.write_text(solved_first, encoding="utf-8")
    return made.root


@pytest.mark.lento  # builds the receipt twice (the public checks of 20 classes) and grades it
def test_the_receipt_is_what_grade_reads(cli, space: Path, tmp_path: Path) -> None:
    out = tmp_path / "entregas" / "ana.zip"
    out.parent.mkdir()
    (space / "apuntes.txt").write_text("nada de esto se entrega")
    args = ["practice", "entregar", "--dir", str(space), "--out", str(out), "--timeout", "10"]
    first = cli(*args)
    said = no_traceback(first)
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    assert first.code == 0 and f"SHA-256 {digest}" in said
    assert "323 Positional encoding: se corregirá el hueco 1" in said
    assert "sin completar: el hueco 2" in said
    names = zipfile.ZipFile(out).namelist()
    assert names and all(n.endswith("/lab.py") for n in names)  # only the labs
    again = cli(*args)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest  # same files, same bytes
    assert again.code == 0
    notas = tmp_path / "notas"
    graded = cli(
        "grade", str(out.parent), "--root", str(REPO), "--clases", "323", "--out", str(notas)
    )
    assert graded.code == 0
    feedback = (notas / "comentarios" / "ana.md").read_text("utf-8")
    assert f"SHA-256 {digest}" in feedback


@pytest.mark.lento  # seconds: out of the quick loop
def test_code_outside_the_holes_is_said_not_to_count(cli, space: Path, tmp_path: Path) -> None:
    lab = next(space.rglob("323-*/lab.py"))
    lab.write_text(lab.read_text("utf-8") + "\nrun = lambda **k: {}  # la instantánea a mano\n")
    out = tmp_path / "ana.zip"
    result = cli("practice", "entregar", "--dir", str(space), "--out", str(out))
    assert result.code == 0
    assert "cambiaste código fuera de los huecos: no cuenta" in no_traceback(result)


@pytest.mark.lento  # seconds: out of the quick loop
def test_the_name_is_the_id_when_a_class_gives_own_numbers(
    cli, space: Path, tmp_path: Path
) -> None:
    result = cli("practice", "entregar", "--dir", str(space), "--out", str(tmp_path / "x.zip"))
    assert result.code == 0 and "llama al .zip con tu id" in no_traceback(result)


@pytest.mark.parametrize("name", ["entrega.tar", "DENTRO"])
def test_bad_targets_are_one_spanish_line(cli, space: Path, name: str) -> None:
    target = space / "e.zip" if name == "DENTRO" else space.parent / name
    result = cli("practice", "entregar", "--dir", str(space), "--out", str(target))
    assert result.code == 2 and len(error_lines(result)) == 1
    no_traceback(result)


@pytest.mark.lento  # builds the receipt (the public checks of 20 classes)
def test_without_out_inside_the_workspace_the_zip_lands_beside_it(
    cli, space: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guide's `compmath practice entregar`, typed in the workspace as it says: the default
    TU_ID.zip cannot be in the folder it packs, so it goes next to it, named by the id."""
    monkeypatch.chdir(space / "classes")  # anywhere inside the workspace
    result = cli("practice", "entregar")
    said = no_traceback(result)
    out = space.parent / "ana.zip"
    assert result.code == 0 and out.is_file()
    assert f"SHA-256 {hashlib.sha256(out.read_bytes()).hexdigest()}" in said
    assert not list(space.rglob("*.zip"))  # nothing left inside to be packed next time


def test_without_out_outside_the_workspace_the_zip_is_in_the_current_folder(
    space: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compmath.cli.practice import default_target

    elsewhere = tmp_path / "entregas"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert default_target(space, "ana") == Path("ana.zip")
    monkeypatch.chdir(space)
    assert default_target(space, "ana").resolve() == space.parent.resolve() / "ana.zip"
    assert default_target(space, None).name == "entrega.zip"
