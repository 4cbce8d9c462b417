"""Submissions that cannot stop the class: a folder 1,100 levels deep, a zip that declares 3 M
members, a submission that cannot be read at all, each beside an honest student (also in shards).
"""

from __future__ import annotations

import json
import os
import struct
import zipfile
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.grading import submissions
from compmath.grading.submissions import MAX_DEPTH, MAX_ENTRIES, read_submission
from tests.conftest import REPO
from tests.fake_holes import grade_901, hand_in_901

C323 = load_course(REPO).resolve("323")


def nest(top: Path, depth: int) -> None:
    """`depth` folders one inside the other under `top`, made through file descriptors (a path
    that long is past what os.makedirs recurses or the system resolves)."""
    top.mkdir(parents=True)
    fd = os.open(top, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)


def unnest(top: Path) -> None:
    """Remove what nest made, without recursion (pytest's own cleanup would recurse)."""
    fds = [os.open(top, os.O_RDONLY)]
    while True:
        try:
            fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
        except FileNotFoundError:
            break
    fds.pop()
    while len(fds) > 0:
        fd = fds.pop()
        os.rmdir("d", dir_fd=fd)
        os.close(fd)


def test_a_folder_1100_levels_deep_is_walked_within_its_budgets(tmp_path: Path) -> None:
    student = tmp_path / "hondo"
    lab = student / C323.lab.relative_to(REPO)
    lab.parent.mkdir(parents=True)
    lab.write_text("x = 1\n", encoding="utf-8")
    nest(student / "pozo", 1100)
    try:
        found = read_submission("hondo", student, [C323])
    finally:
        unnest(student / "pozo")
    assert found.files[C323.id].source == "x = 1\n"
    assert f"carpetas a más de {MAX_DEPTH} niveles: no se miran" in found.notes


def test_a_walk_stops_at_its_budget_of_folders(tmp_path: Path) -> None:
    student = tmp_path / "ancho"
    for i in range(submissions.MAX_FOLDERS + 5):
        (student / f"c{i:05d}").mkdir(parents=True)
    found = read_submission("ancho", student, [C323])
    assert f"más de {submissions.MAX_FOLDERS} carpetas: se dejó de buscar" in found.notes


CENTRAL = struct.Struct("<4s6H3L5H2L")  # a central directory record, before its name


def many_members(
    path: Path, members: int, declared: int | None = None, *, unread: bool = False
) -> None:
    """A zip of `members` one-letter members, its central directory written record by record
    (no local headers: only what a reader meets first); its end record declares `declared`.
    `unread`: the central directory only takes its room (a hole in the file, no disk written),
    for a reader that must refuse the zip from its end record without reading that far."""
    record = CENTRAL.pack(b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0) + b"a"
    chunk = 100_000
    size = len(record) * members
    with path.open("wb") as handle:
        if unread:
            handle.seek(size)
        else:
            for start in range(0, members, chunk):
                handle.write(record * min(chunk, members - start))
        count = members if declared is None else declared
        if count > 0xFFFF:  # zip64: its end record and the locator that points to it
            handle.write(
                struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, size, 0)
            )
            handle.write(struct.pack("<4sLQL", b"PK\x06\x07", 0, size, 1))
        low = min(count, 0xFFFF)
        handle.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, low, low, size, 0, 0))


def test_a_zip_of_3_million_members_is_refused_from_its_end_record(tmp_path, monkeypatch) -> None:
    path = tmp_path / "muchos.zip"
    many_members(path, 3_000_000, unread=True)  # 141 MB, of which only the end is written
    assert path.stat().st_size < submissions.MAX_ZIP  # under the size cap
    assert submissions._declared(path) == (3_000_000, 47 * 3_000_000)

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the central directory was parsed")

    monkeypatch.setattr(zipfile, "ZipFile", never)
    found = read_submission("muchos", path, [C323])
    said = f"el .zip tiene 3000000 archivos, más de los {MAX_ENTRIES} que se miran: no se abre"
    assert found.notes == (said,) and found.files[C323.id].source is None
    lying = tmp_path / "miente.zip"
    many_members(lying, 100_000, declared=10)  # says 10, holds 100,000 records
    assert submissions._declared(lying) == (10, 4_700_000)
    assert (
        "el índice del .zip ocupa 4,48 MiB, más de 4 MiB: no se abre"
        in read_submission("miente", lying, [C323]).notes
    )


@pytest.mark.lento  # two gradings of a small class, one of them in two shards
def test_a_deep_or_unreadable_submission_scores_0_and_the_class_is_graded(
    cli, fake_course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas = tmp_path / "entregas"
    hand_in_901(fake_course, entregas, "ana", "mitad = n * escala")
    nest(hand_in_901(fake_course, entregas, "hondo", "mitad = n * escala") / "pozo", 1100)
    (entregas / "roto").mkdir()
    real = submissions._read_submission

    def failing(student: str, path: Path, classes: list) -> submissions.Submission:
        if student == "roto":
            raise PermissionError(13, "Permission denied")
        return real(student, path, classes)

    monkeypatch.setattr(submissions, "_read_submission", failing)
    try:
        for shards in ([None], ["1/2", "2/2"]):
            grades: dict[str, dict] = {}
            for shard in shards:
                out = tmp_path / f"notas-{shard or 'todo'}".replace("/", "de")
                extra = ["--shard", shard] if shard else []
                result = grade_901(cli, entregas, fake_course, out, *extra)
                assert result.code == 0 and "Traceback" not in result.err, result.err
                assert (out / "notas.csv").exists()
                for record in (out / "alumnos").iterdir():
                    data = json.loads(record.read_text("utf-8"))
                    grades[data["alumno"]] = data
            assert sorted(grades) == ["ana", "hondo", "roto"]
            assert grades["ana"]["obtenidos"] == grades["hondo"]["obtenidos"] == 1
            roto = grades["roto"]["clases"][0]
            assert roto["obtenidos"] == 0
            assert roto["problema"] == "no se pudo leer la entrega: no hay permiso"
    finally:
        unnest(entregas / "hondo" / "pozo")
