"""Each protection switched off on Linux (COMPMATH_SIN), as on a system that lacks it (macOS has
none of Landlock, namespaces, pidfd, prctl or an enforced address-space limit): compmath still
judges correctly, says once which protections are off, records them in `check --json`, and the
fallback does its part."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from compmath.execution.facilities import FACILITIES, WHAT_IS_LOST
from tests.conftest import REPO
from tests.processes import LINUX, fresh_marker, leftovers, marked, parent_of, powers
from tests.test_hostile import ATTACKS, BESIDE, GOOD, hostile
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.lento,
    pytest.mark.skipif(
        not LINUX, reason="apaga las protecciones de Linux; en macOS ya corren sus alternativas"
    ),
]

EXPECTED = {
    "901-pasa": "coincide",
    "902-lanza": "excepcion",
    "903-forma-erronea": "esquema_invalido",
    "904-deriva": "difiere",
    "905-cuelga": "tiempo_agotado",
    "906-imprime": "coincide",
    "907-nan": "no_representable",
    "908-no-dict": "no_representable",
}
NOTICE = "aviso: protecciones ausentes en este sistema"


def without(monkeypatch: pytest.MonkeyPatch, names: str) -> str:
    monkeypatch.setenv("COMPMATH_SIN", names)
    return fresh_marker(monkeypatch)


@pytest.mark.parametrize("facility", FACILITIES)
def test_each_fallback_still_judges_and_says_so_once(
    cli, fake_course, monkeypatch, facility
) -> None:
    marker = without(monkeypatch, facility)
    run = cli("run", "901", "--root", str(fake_course))
    assert run.code == 0 and run.err.count(NOTICE) == 1, run.err
    check = cli("check", "--root", str(fake_course), "--json", "--timeout", "1")
    document = json.loads(check.out)
    assert {c["clase"]: c["resultado"] for c in document["clases"]} == EXPECTED
    missing = document["protecciones_ausentes"]
    assert facility in missing and check.err.count(NOTICE) == 1
    if facility == "prctl":  # Landlock needs no_new_privs, namespaces need the C library
        assert {"landlock", "pidns", "prctl"} <= set(missing)
    assert "Traceback" not in run.err + check.err
    assert leftovers(marker) == []


@pytest.mark.parametrize(
    ("off", "names"),
    [
        ("landlock", ("mata-al-trabajador", "detiene-al-trabajador", "escapa")),
        ("pidns", ("mata-al-trabajador", "detiene-al-trabajador", "escapa")),
    ],
)
def test_one_protection_off_the_other_still_holds(cli, make_lab, monkeypatch, off, names) -> None:
    """Without Landlock, the namespace hides the worker; without the namespace, Landlock (ABI 6)
    refuses the signal and the subreaper ends the escaping chain."""
    marker = without(monkeypatch, off)
    for name in names:
        root, class_id = hostile(make_lab, name)
        result = cli("check", class_id, *BESIDE, "--root", str(root), "--json")
        document = json.loads(result.out)
        outcomes = {c["clase"]: c["resultado"] for c in document["clases"]}
        expected = ATTACKS[name].expected(powers(document["protecciones_ausentes"]))[0]
        assert outcomes == {class_id: expected, **BESIDE}
        assert leftovers(marker) == []


def test_without_landlock_course_writes_are_caught_after_the_run(
    cli, make_lab, monkeypatch
) -> None:
    without(monkeypatch, "landlock,mountns")
    root, class_id = hostile(make_lab, "reescribe-el-curso")
    report = json.loads(cli("run", class_id, "--root", str(root), "--json").out)["clases"][0]
    assert report["resultado"] == "modifico_el_curso"
    assert "el laboratorio modificó" in report["mensaje"]


def test_without_an_enforced_limit_memory_is_judged_when_the_lab_ends(
    cli, make_lab, monkeypatch
) -> None:
    without(monkeypatch, "rlimit")
    source = (
        "import numpy as np\ndef run() -> dict:\n    datos = np.ones(40_000_000)\n"
        f"    return {GOOD!r}\n"
    )
    root = make_lab(967, source, expected=GOOD, slug="memoria-sin-limite")
    result = cli("run", "967", "--root", str(root), "--memory", "0.2")
    assert result.code == 1
    shown = " ".join(result.out.split())
    assert "se agotó la memoria" in shown and "límite de memoria de 0,2 GiB" in shown
    assert "al terminar" in shown


HANGS = "import time\ndef run() -> dict:\n    time.sleep(300)\n    return {}\n"


def test_without_prctl_a_lab_dies_with_its_worker(make_lab, monkeypatch) -> None:
    """No parent-death signal: the supervisor's lifeline thread takes the lab down instead."""
    marker = without(monkeypatch, "prctl")
    root = make_lab(
        968,
        HANGS + "import subprocess\nsubprocess.Popen(['sleep', '300'])\n",
        expected=GOOD,
        slug="cuelga",
    )
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "compmath.entry",
            "run",
            "968",
            "--root",
            str(root),
            "--timeout",
            "300",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        first = running_sleep(marker, proc)
        os.kill(worker_of(marker, proc), signal.SIGKILL)
        # the lab and what it started end with their worker
        wait_until(lambda: first not in marked(marker), "el laboratorio muere con su trabajador")
        running_sleep(marker, proc)  # the lab runs again on a fresh worker
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 130
        assert "interrumpido: el laboratorio 968, «Cuelga»" in proc.communicate()[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert leftovers(marker, [proc.pid], patience=60) == []


def running_sleep(marker: str, proc: subprocess.Popen) -> int:
    """Wait until a lab of `proc` has started its `sleep`; its pid."""
    wait_until(lambda: marked(marker) or proc.poll() is not None, "el laboratorio arranca")
    assert proc.poll() is None, "el ejecutor terminó antes de que el laboratorio arrancara"
    return marked(marker)[0]


def worker_of(marker: str, proc: subprocess.Popen) -> int:
    """The worker of the runner `proc` (its child)."""
    return next(
        pid for pid in leftovers(marker, [proc.pid], patience=0) if parent_of(pid) == proc.pid
    )


@pytest.mark.parametrize("off", ["", "seccomp,netns", "mountns,env", ",".join(FACILITIES)])
def test_junit_names_the_missing_protections_as_json_does(
    cli, fake_course, monkeypatch, tmp_path, off
) -> None:
    import xml.etree.ElementTree as ET

    import jsonschema

    without(monkeypatch, off)
    junit = tmp_path / "informe.xml"
    result = cli("check", "901", "--root", str(fake_course), "--json", "--junit-xml", str(junit))
    document = json.loads(result.out)
    missing = document["protecciones_ausentes"]
    jsonschema.validate(
        document, json.loads((REPO / "compmath" / "contracts" / "report.schema.json").read_text())
    )
    assert set(off.split(",")) - {""} <= set(missing)
    assert result.err.count(NOTICE) == (1 if missing else 0)
    for name in missing:
        assert result.err.count(WHAT_IS_LOST[name]) == 1
    found = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert found["protecciones_ausentes"].split(",") == (missing or [""])
