"""`compmath grade` fails closed and keeps what it writes honest: it refuses without the layers
that keep students apart (with COMPMATH_SIN, and with user namespaces really unavailable to its
process tree), says what was missing in every file when the instructor goes on by name, never
reuses a record earned or forged under a degraded run, and never reuses a damaged one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compmath.errors import CompmathError
from compmath.execution import pool
from compmath.grading import seal
from compmath.grading.protection import REQUIRED, refuse_without
from tests.conftest import REPO, error_lines, no_traceback
from tests.test_grade import C323, LACKING, hand_in, holes_of, record, solved

RISK = "--sin-aislamiento-completo"
PROTECTED = pytest.mark.skipif(bool(LACKING), reason="este sistema no tiene todas las capas")


def grade323(cli, entregas: Path, out: Path, *extra: str):
    return cli(
        "grade", str(entregas), "--root", str(REPO), "--clases", "323", "--out", str(out), *extra
    )


def class_of_two(tmp_path: Path) -> Path:
    entregas = tmp_path / "entregas"
    hand_in(entregas, "ana", {C323: solved(C323, frozenset({2}))})  # 1 of 2
    hand_in(entregas, "beto", {C323: solved(C323)})
    return entregas


def test_every_required_layer_missing_is_refused_and_named() -> None:
    for name in REQUIRED:
        with pytest.raises(CompmathError) as refused:
            refuse_without((name,), risk_accepted=False)
        assert "separan a los alumnos" in str(refused.value) and RISK in refused.value.hint
        refuse_without((name,), risk_accepted=True)  # the instructor named the risk
    refuse_without(("netns", "pidfd", "env"), risk_accepted=False)  # not what keeps them apart
    with pytest.raises(CompmathError):
        refuse_without(("netns",), risk_accepted=False, every=True)
    refuse_without((), risk_accepted=False, every=True)


def test_refused_without_namespaces_unless_named(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas, out = class_of_two(tmp_path), tmp_path / "notas"
    monkeypatch.setenv("COMPMATH_SIN", "pidns")
    pool.shutdown()
    refused = grade323(cli, entregas, out)
    assert refused.code == 2, no_traceback(refused)
    first, hint = refused.err.splitlines()[:2]
    assert first == error_lines(refused)[0]
    assert "espacio de usuario y de procesos" in first and "espacio de montaje" in first
    assert "COMPMATH_SIN" in hint and "apparmor_restrict_unprivileged_userns=0" in hint
    assert RISK in hint
    assert not out.exists()  # nothing read, nothing run, nothing written


@pytest.mark.lento
def test_refused_where_user_namespaces_really_cannot_be_made(tmp_path: Path) -> None:
    """The test's own process tree in a user namespace whose max_user_namespaces is 0: the
    kernel refuses every unshare(CLONE_NEWUSER) below it (ENOSPC), as AppArmor does on Ubuntu
    24.04's runners. The probe finds that, and grade refuses before reading anything."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("sin la orden unshare (util-linux)")
    probe = subprocess.run(
        [unshare, "-r", "sh", "-c", "echo 0 > /proc/sys/user/max_user_namespaces"],
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"no se puede crear un espacio de usuario aquí: {probe.stderr!r}")
    entregas, out = class_of_two(tmp_path), tmp_path / "notas"
    script = 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"'
    command = [sys.executable, "-m", "compmath.entry", "grade", str(entregas), "--root",
               str(REPO), "--clases", "323", "--out", str(out)]  # fmt: skip
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    proc = subprocess.run(
        [unshare, "-r", "sh", "-c", script, "sh", *command],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: no se corrige sin las protecciones"), proc.stderr
    assert "espacio de usuario y de procesos" in proc.stderr and RISK in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


@pytest.mark.lento
@PROTECTED
def test_a_degraded_grading_says_so_everywhere_and_is_not_reused(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas, out = class_of_two(tmp_path), tmp_path / "notas"
    protected = grade323(cli, entregas, out)
    assert protected.code == 0, no_traceback(protected)
    assert record(out, "ana")["protecciones_ausentes"] == []
    assert json.loads((out / "informe.json").read_text("utf-8"))["protecciones_ausentes"] == []
    fingerprint = record(out, "ana")["huella"]

    monkeypatch.setenv("COMPMATH_SIN", "landlock")
    pool.shutdown()
    degraded = grade323(cli, entregas, out, RISK)
    text = no_traceback(degraded)
    assert degraded.code == 0, text
    assert "2 juzgadas ahora" in text  # the protected records are not taken as its own
    assert "protecciones ausentes" in degraded.err
    report = json.loads((out / "informe.json").read_text("utf-8"))
    assert report["protecciones_ausentes"] == ["landlock"]
    assert all(s["protecciones_ausentes"] == ["landlock"] for s in report["alumnos"])
    assert record(out, "ana")["protecciones_ausentes"] == ["landlock"]
    assert record(out, "ana")["huella"] != fingerprint
    feedback = (out / "comentarios" / "ana.md").read_text("utf-8")
    assert "sin todas las protecciones" in feedback and "Landlock" in feedback
    assert not seal.key_path().exists()  # the protected key is gone

    monkeypatch.delenv("COMPMATH_SIN")
    pool.shutdown()
    again = grade323(cli, entregas, out)
    assert "2 juzgadas ahora" in no_traceback(again)  # nothing degraded is reused
    assert record(out, "ana")["protecciones_ausentes"] == [] and record(out, "ana")["huella"] == (
        fingerprint
    )
    assert holes_of(out, "ana")["323"] == [("bien", 1), ("sin completar", 0)]
    once_more = grade323(cli, entregas, out)
    assert "2 ya corregidas antes" in no_traceback(once_more)  # a protected record is reused

    # A record changed by hand (its content no longer matches its seal) is judged again.
    path = out / "alumnos" / "ana.json"
    data = json.loads(path.read_text("utf-8"))
    data["clases"][0]["huecos"][1].update(estado="bien", obtenidos=1)
    data["obtenidos"] = 2
    path.write_text(json.dumps(data), encoding="utf-8")
    damaged = grade323(cli, entregas, out)
    assert "1 juzgada ahora" in no_traceback(damaged)
    assert holes_of(out, "ana")["323"] == [("bien", 1), ("sin completar", 0)]


# Hole 1 of 323 of a student who forges ana's record while a degraded grading runs: it waits
# for the runner to write ana's record, then writes its own with ana's *protected* fingerprint
# (computed with compmath itself, which it can read there), both holes right, sealed with every
# key it can find: the public one of degraded runs, and the protected key if it can read it.
FORGER = """\
import json, time
from pathlib import Path
from compmath.course.tree import load_course
from compmath.grading import records, submissions
from compmath.grading.seal import OPEN_KEY, seal
_clases = [load_course(Path(ROOT)).resolve("323")]
_sub = submissions.read_submission("ana", Path(ANA), _clases)
_huella = records.submission_fingerprint(records.course_fingerprint(_clases, TIMEOUT, ()), _sub)
_limite = time.monotonic() + 20
while time.monotonic() < _limite:
    try:
        _actual = json.load(open(NOTA))
        if _actual.get("protecciones_ausentes") or _actual["obtenidos"] == 2:
            break  # the runner's record of this run, or one forged already
    except (OSError, ValueError):
        pass
    time.sleep(0.05)
_falsa = dict(_actual, huella=_huella, obtenidos=2, protecciones_ausentes=[])
for _h in _falsa["clases"][0]["huecos"]:
    _h.update(estado="bien", obtenidos=1, motivo="")
_falsa["clases"][0]["obtenidos"] = 2
try:
    _clave = bytes.fromhex(open(CLAVE).read())
    print("clave: LEIDA")
except OSError:
    _clave = OPEN_KEY
    print("clave: nada")
_falsa["sello"] = seal(_falsa, _clave)
open(NOTA, "w").write(json.dumps(_falsa))
print("FALSIFICADA")
omega = 1.0 / BASE ** (2 * i / d)
"""


@pytest.mark.lento
@PROTECTED
def test_a_record_forged_under_a_degraded_run_is_judged_again(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entregas, out = class_of_two(tmp_path), tmp_path / "notas"
    assert grade323(cli, entregas, out).code == 0
    assert holes_of(out, "ana")["323"] == [("bien", 1), ("sin completar", 0)]
    constants = (
        f"ROOT = {str(REPO)!r}\nANA = {str(entregas / 'ana')!r}\nTIMEOUT = 60.0\n"
        f"NOTA = {str(out / 'alumnos' / 'ana.json')!r}\nCLAVE = {str(seal.key_path())!r}\n"
    )
    from tests.test_grade import with_hole

    hand_in(entregas, "zeta", {C323: with_hole(C323, 1, constants + FORGER)})
    monkeypatch.setenv("COMPMATH_SIN", "landlock,pidns")  # nothing keeps it from alumnos/
    pool.shutdown()
    degraded = grade323(cli, entregas, out, RISK, "--timeout", "60", "--jobs", "2")
    assert degraded.code == 0, no_traceback(degraded)
    printed = record(out, "zeta")["clases"][0]["salida_del_alumno"]
    assert "FALSIFICADA" in printed and "clave: nada" in printed, json.dumps(record(out, "zeta"))
    forged = json.loads((out / "alumnos" / "ana.json").read_text("utf-8"))
    assert forged["obtenidos"] == 2 and forged["protecciones_ausentes"] == []  # it did write

    monkeypatch.delenv("COMPMATH_SIN")
    pool.shutdown()
    protected = grade323(cli, entregas, out, "--timeout", "60")
    assert protected.code == 0, no_traceback(protected)
    assert "3 juzgadas ahora" in protected.out  # ana's forged record among them
    assert holes_of(out, "ana")["323"] == [("bien", 1), ("sin completar", 0)]
    rows = (out / "notas.csv").read_text("utf-8").splitlines()
    assert rows[1].startswith("ana,1,0,1,")


@pytest.mark.lento
@PROTECTED
def test_a_gap_that_does_not_part_students_is_written_and_every_refuses_it(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the network namespace (seccomp still denies sockets) grade goes on and writes
    it down; `--todas-las-protecciones` refuses it. And if the labs run with fewer protections
    than the probe found at the start, nothing of that pass is kept."""
    entregas, out = class_of_two(tmp_path), tmp_path / "notas"
    monkeypatch.setenv("COMPMATH_SIN", "netns")
    pool.shutdown()
    every = grade323(cli, entregas, out, "--todas-las-protecciones")
    assert every.code == 2 and "espacio de red" in error_lines(every)[0], every.err
    assert not out.exists()
    result = grade323(cli, entregas, out)
    assert result.code == 0, no_traceback(result)
    assert record(out, "ana")["protecciones_ausentes"] == ["netns"]
    assert seal.key_path().exists()  # a protected run: its records are sealed with the key

    from compmath.grading import protection

    monkeypatch.setenv("COMPMATH_SIN", "landlock")
    pool.shutdown()
    monkeypatch.setattr(protection, "probe", lambda: ())  # a probe that saw every layer
    lied = grade323(cli, entregas, tmp_path / "otra")
    assert lied.code == 2 and "corrieron sin Landlock" in error_lines(lied)[0], lied.err
    assert list((tmp_path / "otra" / "alumnos").glob("*.json")) == []
    assert not seal.key_path().exists()  # the labs might have read it: a new one next time
