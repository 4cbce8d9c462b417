"""Odd file systems: a read-only course, a full disk, a snapshot that is a folder or a FIFO, two
writers at once, and the modes written files keep. Each edge: the exit code, one Spanish
`error:` line naming the file and the command to repeat, no traceback, nothing lost.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from compmath import atomic
from compmath.atomic import remove_stale_temporaries, stale_temporaries, write_atomic
from tests.conftest import FAKE_PART, REPO, error_lines, no_traceback, snapshots
from tests.test_diff import commit, git

DRIFTS = f"classes/{FAKE_PART}/904-deriva"  # its lab moved: `update 904` has something to write


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make `folder` read-only for real: its write bits off for a user, or a read-only bind mount
    for root (who ignores write bits)."""
    if os.geteuid() != 0:
        dirs = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
        for d in dirs:
            d.chmod(0o555)
        try:
            yield
        finally:
            for d in dirs:
                d.chmod(0o755)
        return
    if sys.platform != "linux" or shutil.which("mount") is None:
        pytest.skip("como root hace falta un montaje de solo lectura (Linux, mount)")
    mounted = subprocess.run(["mount", "--bind", "-o", "ro", folder, folder], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"no se pudo montar de solo lectura: {mounted.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", folder], check=True)


def no_space(fd: int) -> None:
    """os.fsync on a full disk."""
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture(params=["simulado", "tmpfs"])
def full_disk(request, fake_course: Path, tmp_path: Path, monkeypatch) -> Iterator[Path]:
    """A course on a full disk: every fsync fails with ENOSPC (in-process), or a real tmpfs
    filled to the last byte (root on Linux only)."""
    if request.param == "simulado":
        monkeypatch.setattr(os, "fsync", no_space)
        yield fake_course
        return
    if os.geteuid() != 0 or sys.platform != "linux":
        pytest.skip("un tmpfs lleno necesita root en Linux")
    disk = tmp_path / "disco"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk]).returncode:
        pytest.skip("no se pudo montar un tmpfs")
    try:
        shutil.copytree(fake_course, disk / "curso")
        with open(disk / "relleno", "wb", buffering=0) as filler:
            try:
                while True:
                    filler.write(b"\0" * 4096)
            except OSError:
                pass
        yield disk / "curso"
    finally:
        subprocess.run(["umount", "-l", disk], check=True)


def test_update_on_a_read_only_course(cli, fake_course: Path) -> None:
    before = snapshots(fake_course)
    with read_only(fake_course):
        result = cli("update", "901", "904", "--root", str(fake_course))
    text = no_traceback(result)
    assert result.code == 2
    assert "sin cambios" in text and "901-pasa" in text  # the other class is still done
    assert error_lines(result) == [
        f"error: no se puede escribir {DRIFTS}/expected.json: "
        + ("el sistema de archivos es de solo lectura" if os.geteuid() == 0 else "no hay permiso")
    ]
    assert "repite: compmath update 904" in text
    assert snapshots(fake_course) == before


def test_update_on_a_full_disk_keeps_the_old_snapshot(cli, full_disk: Path) -> None:
    before = snapshots(full_disk)
    result = cli("update", "904", "--root", str(full_disk))
    text = no_traceback(result)
    assert result.code == 2
    assert error_lines(result) == [
        f"error: no se puede escribir {DRIFTS}/expected.json: no queda espacio en el disco"
    ]
    assert "compmath update 904" in text
    assert snapshots(full_disk) == before
    assert not stale_temporaries(full_disk / DRIFTS)


@pytest.mark.parametrize("disk", ["solo-lectura", "lleno"])
def test_new_that_cannot_write_leaves_the_course_as_it_was(
    cli, fake_course, monkeypatch, disk
) -> None:
    files = sorted(p.relative_to(fake_course) for p in fake_course.rglob("*"))
    part = (fake_course / "classes" / FAKE_PART / "part.toml").read_bytes()
    args = ("new", "950", "nueva", "--title", "Nueva", "--part", "90", "--root", str(fake_course))
    if disk == "lleno":
        monkeypatch.setattr(os, "fsync", no_space)
        result = cli(*args)
    else:
        with read_only(fake_course):
            result = cli(*args)
    text = no_traceback(result)
    assert result.code == 2
    assert len(error_lines(result)) == 1 and "error: no se puede crear classes/" in text
    assert 'repite: compmath new 950 nueva --title "Nueva" --part 90' in text
    assert sorted(p.relative_to(fake_course) for p in fake_course.rglob("*")) == files
    assert (fake_course / "classes" / FAKE_PART / "part.toml").read_bytes() == part


@pytest.mark.parametrize("kind", ["carpeta", "fifo"])
def test_a_snapshot_that_is_not_a_file(cli, fake_course: Path, monkeypatch, kind: str) -> None:
    snapshot = fake_course / "classes" / FAKE_PART / "901-pasa" / "expected.json"
    snapshot.unlink()
    snapshot.mkdir() if kind == "carpeta" else os.mkfifo(snapshot)
    what = "es una carpeta" if kind == "carpeta" else "es un archivo especial"
    shown = f"classes/{FAKE_PART}/901-pasa/expected.json"
    root = ("--root", str(fake_course))

    run = cli("run", "901", *root)  # a FIFO is never opened: nothing hangs
    assert run.code == 2 and f"error: no se puede leer {shown}: {what}" in no_traceback(run)
    check = cli("check", "901", "906", *root)
    assert check.code == 2 and "906 Un laboratorio que imprime ✓" in no_traceback(check)
    assert "2 laboratorios: 1 correcto, 1 falla" in no_traceback(check)
    update = cli("update", "901", *root)
    assert update.code == 2
    assert error_lines(update) == [
        f"error: no se puede escribir {shown}: {what}, no un archivo normal"
    ]


def test_diff_names_a_snapshot_folder_in_the_working_tree(cli, fake_course, monkeypatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    git(fake_course, "init", "-q")
    commit(fake_course, "base")
    snapshot = fake_course / "classes" / FAKE_PART / "901-pasa" / "expected.json"
    snapshot.unlink()
    snapshot.mkdir()
    result = cli("diff", "--root", str(fake_course))
    assert result.code == 2
    assert error_lines(result) == [
        f"error: no se puede leer classes/{FAKE_PART}/901-pasa/"
        "expected.json del árbol de trabajo: es una carpeta, no un archivo normal"
    ]
    assert "compmath update 901" in no_traceback(result)


# --- two writers at once ---------------------------------------------------------------------

RACE = """\
import sys
from pathlib import Path
from compmath.atomic import remove_stale_temporaries, write_atomic
target = Path(sys.argv[1])
for i in range(300):
    remove_stale_temporaries(target.parent)
    write_atomic(target, f"{sys.argv[2]} {i}\\n")
"""


@pytest.mark.lento  # seconds: out of the quick loop
def test_two_writers_cleaning_one_folder_never_delete_each_others_temporaries(tmp_path) -> None:
    target = tmp_path / "expected.json"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(target), name],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    errors = [w.communicate(timeout=120)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errors
    assert target.read_text().split()[1] == "299"
    assert not stale_temporaries(tmp_path)


def test_update_keeps_a_temporary_another_write_holds(cli, fake_course: Path) -> None:
    import fcntl

    folder = fake_course / "classes" / FAKE_PART / "901-pasa"
    held = folder / ".expected.json.otro.compmath-tmp"
    left = folder / ".expected.json.viejo.compmath-tmp"
    held.write_text("a medias")
    left.write_text("de una escritura interrumpida")
    with open(held) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        result = cli("update", "901", "--root", str(fake_course))
        assert result.code == 0 and held.exists() and not left.exists()
    remove_stale_temporaries(folder)
    assert not held.exists()


def test_a_temporary_removed_before_it_is_locked_is_replaced(tmp_path, monkeypatch) -> None:
    made = []
    real = atomic.tempfile.mkstemp

    def raced(**kwargs):
        fd, name = real(**kwargs)
        made.append(name)
        if len(made) == 1:
            os.unlink(name)  # a cleaner got there first
        return fd, name

    monkeypatch.setattr(atomic.tempfile, "mkstemp", raced)
    assert write_atomic(tmp_path / "f.json", "nuevo\n")
    assert len(made) == 2 and (tmp_path / "f.json").read_text() == "nuevo\n"


# --- modes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o664])
def test_update_keeps_the_mode_of_the_snapshot_it_replaces(cli, fake_course, mode: int) -> None:
    snapshot = fake_course / DRIFTS / "expected.json"
    snapshot.chmod(mode)
    assert cli("update", "904", "--root", str(fake_course)).code == 0
    assert "1.6" in snapshot.read_text() and snapshot.stat().st_mode & 0o777 == mode


def test_new_files_follow_the_umask(cli, fake_course: Path, tmp_path: Path) -> None:
    (fake_course / DRIFTS / "expected.json").unlink()
    old = os.umask(0o027)
    try:
        assert cli("update", "904", "--root", str(fake_course)).code == 0
        assert (
            cli(
                "check", "901", "--junit-xml", str(tmp_path / "r.xml"), "--root", str(fake_course)
            ).code
            == 0
        )
        assert (
            cli(
                "new",
                "950",
                "nueva",
                "--title",
                "Nueva",
                "--part",
                "90",
                "--root",
                str(fake_course),
            ).code
            == 0
        )
    finally:
        os.umask(old)
    written = [
        fake_course / DRIFTS / "expected.json",
        tmp_path / "r.xml",
        fake_course / "classes" / FAKE_PART / "950-nueva" / "lab.py",
        fake_course / "schemas" / "950-nueva.schema.json",
    ]
    assert {p.name: p.stat().st_mode & 0o777 for p in written} == dict.fromkeys(
        (p.name for p in written), 0o640
    )
