"""Hostile labs against the whole-lab limits and the cleanup: 3,000 nested folders followed by
separate runs, a fork storm, a file-size bomb, and the lying numbers under every sandbox.

As in test_hostile_escape, each runs through `check` beside 901, with the layer that stops it
on and off, and its outcome is read from the protections the report says were missing.
"""

from __future__ import annotations

import json

import pytest

from tests.processes import LINUX, fresh_marker, leftovers
from tests.test_hostile_escape import GOOD, check_beside, switch_off

pytestmark = [
    pytest.mark.lento,  # attacks on real sandboxed labs, with and without each layer
    pytest.mark.skipif(not LINUX, reason="las capas que se prueban son de Linux"),
]

NESTED = """\
import os


def run() -> dict:
    try:
        os.makedirs(os.environ[WHERE], exist_ok=True)
        fd = os.open(os.environ[WHERE], os.O_RDONLY)
        for _ in range(3000):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        print("anidadas")
    except OSError as exc:
        print("rechazado", exc.errno)
    return GOOD
""".replace("GOOD", repr(GOOD))
BESIDE = {"901-pasa": "coincide", "902-lanza": "excepcion", "904-deriva": "difiere"}


@pytest.mark.lento
@pytest.mark.parametrize(
    ("where", "off"),
    [
        ("TMPDIR", ""),
        ("TMPDIR", "mountns"),
        ("COMPMATH_PYCACHE", "landlock,mountns"),
    ],
)
def test_3000_nested_folders_leave_later_runs_alone(cli, make_lab, monkeypatch, where, off) -> None:
    """shutil.rmtree would raise RecursionError: in the worker, killing it (and every later
    worker whose idle sweep reached the folder); in the runner, purging a cache an unconfined
    lab could write."""
    marker = switch_off(monkeypatch, off)
    root = make_lab(994, NESTED.replace("WHERE", repr(where)), expected=GOOD, slug="anida")
    outcomes, report, _ = check_beside(cli, root, "994-anida")
    assert outcomes == {"994-anida": "coincide", "901-pasa": "coincide"}
    assert "anidadas" in report["stdout"]
    for _ in range(3):  # separate runs, with the same worker and with fresh ones
        result = cli("check", *BESIDE, "--root", str(root), "--json")
        assert {c["clase"]: c["resultado"] for c in json.loads(result.out)["clases"]} == BESIDE
        fresh_marker(monkeypatch)
    assert leftovers(marker) == []


STORM = """\
import os, time


def run() -> dict:
    children = 0
    for _ in range(1000):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        children += 1
    print("hijos:", children)
    return GOOD
""".replace("GOOD", repr(GOOD))


@pytest.mark.parametrize("off", ["", "pidns"])
def test_a_fork_storm_stops_at_the_labs_process_limit(cli, make_lab, monkeypatch, off) -> None:
    from compmath.execution.isolation import PROCESSES

    marker = switch_off(monkeypatch, off)
    root = make_lab(995, STORM, expected=GOOD, slug="tormenta")
    outcomes, report, missing = check_beside(cli, root, "995-tormenta")
    assert outcomes == {"995-tormenta": "coincide", "901-pasa": "coincide"}
    children = int(report["stdout"].split("hijos:")[1])
    if "pidns" in missing:
        assert children == 1000  # no limit: the subreaper still ends them all
    else:
        assert children < PROCESSES
    assert leftovers(marker) == []


BOMB = """\
import os


def run() -> dict:
    path = os.path.join(os.environ["TMPDIR"], "bomba")
    with open(path, "wb", buffering=0) as handle:
        try:
            handle.seek(1 << 30)
            handle.write(b"x")
            print("disperso: escrito")
        except OSError as exc:
            print("disperso:", exc.errno)
    if DENSE:
        written = 0
        chunk = b"x" * (1 << 20)
        with open(path + "2", "wb", buffering=0) as handle:
            try:
                for _ in range(320):
                    written += handle.write(chunk)
            except OSError as exc:
                print("denso:", exc.errno)
        print("MiB:", written >> 20)
    return GOOD
""".replace("GOOD", repr(GOOD))


@pytest.mark.parametrize("off", ["", "rlimit", "mountns", "rlimit,mountns"])
def test_a_file_size_bomb_stops_at_the_limits(cli, make_lab, monkeypatch, off) -> None:
    """A sparse gigabyte (RLIMIT_FSIZE: EFBIG) and, where some limit holds, 320 MiB written for
    real (the tmpfs: ENOSPC at its size; or EFBIG): nothing beyond 256 MiB."""
    switch_off(monkeypatch, off)
    dense = off != "rlimit,mountns"  # without both limits it would fill the disk for real
    root = make_lab(996, BOMB.replace("DENSE", str(dense)), expected=GOOD, slug="bomba")
    outcomes, report, missing = check_beside(cli, root, "996-bomba")
    assert outcomes == {"996-bomba": "coincide", "901-pasa": "coincide"}
    out = report["stdout"]
    if "rlimit" in missing:
        assert "disperso: escrito" in out
    else:
        assert "disperso: 27" in out  # EFBIG
    if dense:
        assert int(out.split("MiB:")[1]) <= 256
        assert "denso: 28" in out or "denso: 27" in out  # ENOSPC on the tmpfs, or EFBIG


@pytest.mark.parametrize("off", ["", "landlock,pidns,seccomp,env,rlimit"])
def test_lying_numbers_fail_whatever_the_sandbox(cli, make_lab, monkeypatch, off) -> None:
    from tests.test_lying_numbers import LABS

    switch_off(monkeypatch, off)
    for number, name in enumerate(LABS, start=970):
        root = make_lab(number, LABS[name][0], expected=GOOD, slug=name)
        outcomes, report, _ = check_beside(cli, root, f"{number}-{name}")
        assert outcomes[f"{number}-{name}"] in ("no_representable", "salida_prematura")
        assert outcomes["901-pasa"] == "coincide"
        assert LABS[name][1] in report["mensaje"]
