"""Hostile labs: whatever a lab does to its worker, the runner, the course or the caches, the
verdicts of the labs beside it stay true, `run` and `check` end, and nothing is left running.

Each attack runs through `run` and through `check` (beside 901, which passes, 902, which raises,
and 904, which differs), once with the whole sandbox and once without Landlock nor namespaces
(COMPMATH_SIN=landlock,pidns: what an older kernel or a locked-down container offers). What the
attacker achieves against its own verdict depends on what it could do there (`powers`); what
it achieves against the others' is nothing, everywhere.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from compmath.cache import cache_dir
from tests.conftest import FAKE_PART
from tests.processes import LINUX, fresh_marker, leftovers, powers

pytestmark = [
    pytest.mark.lento,  # every attack runs with and without the sandbox, through run and check
    pytest.mark.skipif(
        not LINUX, reason="los ataques usan /proc; en macOS corren las alternativas que cubre Linux"
    ),
]

GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
WRONG = {"n": 0, "mitad": 0.0, "vector": []}
BESIDE = {"901-pasa": "coincide", "902-lanza": "excepcion", "904-deriva": "difiere"}
MODES = {"sandbox": "", "sin-sandbox": "landlock,pidns"}

# Every attack starts with these: where compmath's worker is, as seen from the lab.
FIND = '''\
import ctypes, json, os, pathlib, signal, time

HERE = pathlib.Path(__file__).resolve().parent
COURSE = HERE.parent.parent.parent


def workers():
    """The supervisor and the worker above this lab, nearest first (only compmath's own)."""
    pid, found = int(os.readlink("/proc/self")), []
    for _ in range(3):
        try:
            pid = int(pathlib.Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])
            if b"compmath.execution.worker" in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except (OSError, ValueError):
            break
    return found


def attempt(action):
    try:
        action()
        return True
    except OSError:
        return False
'''
FORGE = (
    FIND
    + '''

def run() -> dict:
    """Write an "ok" reply for every class into the worker's channel, then kill the worker."""
    replies = b""
    for folder in sorted(HERE.parent.iterdir()):
        if (folder / "expected.json").exists():
            line = {"key": folder.name, "state": "ok", "output": (folder / "expected.json").read_text()}
            replies += json.dumps(line).encode() + b"\\n"
    libc = ctypes.CDLL(None, use_errno=True)
    for pid in workers():
        for fd in range(3, 40):
            attempt(lambda: os.write(os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK), replies))
            try:
                stolen = libc.syscall(438, os.pidfd_open(pid), fd, 0)  # pidfd_getfd
                if stolen >= 0:
                    attempt(lambda: os.write(stolen, replies))
            except OSError:
                pass
    for pid in workers()[-1:]:  # the worker itself
        attempt(lambda: os.kill(pid, signal.SIGKILL))
    time.sleep(0.5)
    return {"n": 0, "mitad": 0.0, "vector": []}
'''
)
SIGNAL_WORKER = (
    FIND
    + """

def run() -> dict:
    for pid in workers()[-1:]:  # the worker itself
        attempt(lambda: os.kill(pid, signal.{signal}))
    time.sleep(0.5)
    return GOOD_VALUES
""".replace("GOOD_VALUES", repr(GOOD))
)
REWRITE = (
    FIND
    + '''

def run() -> dict:
    """Make the course agree with a wrong answer: its own snapshot, another's, its schema."""
    time.sleep(0.5)  # the labs beside it are done by now: the change is this lab's alone
    wrong = json.dumps({"n": 0, "mitad": 0.0, "vector": []}, indent=2) + "\\n"
    attempt(lambda: (HERE / "expected.json").write_text(wrong))
    attempt(lambda: (HERE.parent / "901-pasa" / "expected.json").write_text(wrong))
    attempt(lambda: (COURSE / "schemas" / f"{HERE.name}.schema.json").write_text("{}"))
    attempt(lambda: (HERE.parent / "nueva.txt").write_text("x"))
    time.sleep(0.3)
    return {"n": 0, "mitad": 0.0, "vector": []}
'''
)
POISON = (
    FIND
    + '''
from importlib.util import source_hash

from compmath.cache import cache_dir
from compmath.execution import bytecode
from compmath.base.encode import canonical_json
from compmath.base.validate import _verdict_file


def run() -> dict:
    """A "valid" verdict for its own invalid output; bytecode that makes 902 pass."""
    invalid = {"n": -1, "mitad": 1.5, "vector": [0.0, 0.333333, 0.666667]}
    schema = (COURSE / "schemas" / f"{HERE.name}.schema.json").read_text()
    verdict = _verdict_file(schema, canonical_json(invalid))
    attempt(lambda: (verdict.parent.mkdir(parents=True, exist_ok=True), verdict.touch()))
    victim = str(HERE.parent / "902-lanza" / "lab.py")
    source = pathlib.Path(victim).read_bytes()
    code = compile("def run():\\n    return {'n': 3, 'mitad': 1.5, 'vector': [0.0, 0.333333, 0.666667]}\\n", victim, "exec")
    data = b"".join([bytecode.MAGIC_NUMBER, bytecode.CHECKED_HASH, source_hash(source), __import__("marshal").dumps(code)])
    target = pathlib.Path(bytecode.entry(str(cache_dir() / "bytecode"), victim))
    attempt(lambda: (target.parent.mkdir(parents=True, exist_ok=True), target.write_bytes(data)))
    print("veredicto:", verdict.exists(), "bytecode:", target.exists())
    return invalid
'''
)
ESCAPE = (
    FIND
    + '''

def run() -> dict:
    """A chain that forks, exits and starts a new session, generation after generation."""
    if os.fork() == 0:
        for _ in range(50):
            time.sleep(0.01)
            if os.fork():
                os._exit(0)
            os.setsid()
        import subprocess
        subprocess.Popen(["sleep", "300"], start_new_session=True)
        time.sleep(300)
        os._exit(0)
    time.sleep(0.3)
    return GOOD_VALUES
'''.replace("GOOD_VALUES", repr(GOOD))
)


@dataclass(frozen=True)
class Attack:
    number: int
    source: str
    needs: str  # the power that lets the attack reach its own verdict ('' when none can)
    seen: tuple[tuple[str, list[str]], tuple[str, list[str]]]  # (outcome, phrases) without, with

    def expected(self, could: set[str]) -> tuple[str, list[str]]:
        return self.seen[self.needs in could]


LOST_TWICE = ("excepcion", ["murió o dejó de responder 2 veces", "lo mató o lo detuvo"])
FAILS_ITS_OWN = ("difiere", ["3 diferencias"])
PASSES = ("coincide", [])
ATTACKS = {
    "falsifica-respuestas": Attack(960, FORGE, "senalar", (FAILS_ITS_OWN, LOST_TWICE)),
    "mata-al-trabajador": Attack(
        961, SIGNAL_WORKER.replace("{signal}", "SIGKILL"), "senalar", (PASSES, LOST_TWICE)
    ),
    "detiene-al-trabajador": Attack(
        962, SIGNAL_WORKER.replace("{signal}", "SIGSTOP"), "senalar", (PASSES, LOST_TWICE)
    ),
    "reescribe-el-curso": Attack(
        963,
        REWRITE,
        "escribir",
        (
            FAILS_ITS_OWN,
            (
                "modifico_el_curso",
                [
                    "el laboratorio modificó",
                    "901-pasa/expected.json",
                    "963-reescribe-el-curso.schema.json",
                ],
            ),
        ),
    ),
    "envenena-caches": Attack(964, POISON, "", (("esquema_invalido", ["salida.n"]),) * 2),
    "escapa": Attack(965, ESCAPE, "", (PASSES, PASSES)),
}


@pytest.fixture(params=list(MODES))
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COMPMATH_SIN", MODES[request.param])
    return str(request.param)


@pytest.fixture
def marker(mode: str, monkeypatch: pytest.MonkeyPatch) -> str:
    return fresh_marker(monkeypatch)  # after COMPMATH_SIN: the next worker starts with both


def hostile(make_lab, name: str) -> tuple[Path, str]:
    attack = ATTACKS[name]
    root = make_lab(attack.number, attack.source, expected=GOOD, slug=name)
    return root, f"{attack.number}-{name}"


def said(result) -> None:
    """The notice of missing protections: once, and only when some are missing."""
    missing = json.loads(result.out)["protecciones_ausentes"]
    assert result.err.count("aviso: protecciones ausentes") == (1 if missing else 0), result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("name", list(ATTACKS))
def test_run_tells_the_truth_about_a_hostile_lab(cli, make_lab, mode, marker, name) -> None:
    root, class_id = hostile(make_lab, name)
    started = time.monotonic()
    result = cli("run", class_id, "--root", str(root), "--json", "--timeout", "10")
    elapsed = time.monotonic() - started
    document = json.loads(result.out)
    report = document["clases"][0]
    outcome, phrases = ATTACKS[name].expected(powers(document["protecciones_ausentes"]))
    assert report["resultado"] == outcome, report
    for phrase in phrases:
        assert phrase in report["mensaje"]
    said(result)
    assert elapsed < 40  # two attempts at most, each within its deadline
    assert leftovers(marker) == []


@pytest.mark.parametrize("name", list(ATTACKS))
def test_check_keeps_the_labs_beside_it_true(cli, make_lab, mode, marker, name) -> None:
    root, class_id = hostile(make_lab, name)
    result = cli(
        "check", class_id, *BESIDE, "--root", str(root), "--json", "--timeout", "10", "--jobs", "2"
    )
    assert result.code == 1
    document = json.loads(result.out)
    missing = document["protecciones_ausentes"]
    assert set(MODES[mode].split(",")) - {""} <= set(missing)
    outcomes = {c["clase"]: (c["resultado"], c["mensaje"]) for c in document["clases"]}
    outcome, phrases = ATTACKS[name].expected(powers(missing))
    for beside, expected in BESIDE.items():
        got, message = outcomes[beside]
        if got == "modifico_el_curso" != expected and outcome == "modifico_el_curso":
            # the writes landed (no Landlock): every lab running when the files changed fails
            # with the hostile one, which its message names; the load decides which overlap
            assert f"o lo hizo {class_id}" in message, outcomes
            continue
        assert got == expected, outcomes
    assert outcomes[class_id][0] == outcome, outcomes
    for phrase in phrases:
        assert phrase in outcomes[class_id][1]
    said(result)
    assert leftovers(marker) == []


def test_rewritten_course_files_are_named_and_update_writes_nothing(
    cli, make_lab, monkeypatch
) -> None:
    """Without Landlock the lab's writes land: they are reported, and `update` keeps its hands off."""
    monkeypatch.setenv("COMPMATH_SIN", "landlock,mountns")
    fresh_marker(monkeypatch)
    root, class_id = hostile(make_lab, "reescribe-el-curso")
    snapshot = root / "classes" / FAKE_PART / class_id / "expected.json"
    result = cli("update", class_id, "--root", str(root))
    assert result.code == 1
    assert "el laboratorio modificó" in result.out and "expected.json" in result.out
    assert json.loads(snapshot.read_text()) == WRONG  # what the lab wrote, not an update of it
    assert snapshot.stat().st_mtime < time.time() - 0.2  # written by the lab, during its run
    assert (root / "schemas" / f"{class_id}.schema.json").read_text() == "{}"


def test_poisoned_caches_are_not_believed_later(cli, make_lab, monkeypatch) -> None:
    """Poison left by an unconfined lab is gone once its run ends; 902 still raises after it."""
    monkeypatch.setenv("COMPMATH_SIN", "landlock,pidns")
    fresh_marker(monkeypatch)
    root, class_id = hostile(make_lab, "envenena-caches")
    first = cli("run", class_id, "--root", str(root), "--json")
    assert "veredicto: True bytecode: True" in json.loads(first.out)["clases"][0]["stdout"]
    assert not (cache_dir() / "verdicts").exists() and not (cache_dir() / "bytecode").exists()
    monkeypatch.setenv("COMPMATH_SIN", "")
    fresh_marker(monkeypatch)
    again = cli("check", "902", class_id, "--root", str(root), "--json")
    outcomes = {c["clase"]: c["resultado"] for c in json.loads(again.out)["clases"]}
    assert outcomes == {"902-lanza": "excepcion", class_id: "esquema_invalido"}


def test_a_corrupt_cache_entry_costs_only_speed(cli, fake_course: Path) -> None:
    from compmath.execution import bytecode

    lab = fake_course / "classes" / FAKE_PART / "901-pasa" / "lab.py"
    assert cli("run", "901", "--root", str(fake_course)).code == 0
    entry = Path(bytecode.entry(str(cache_dir() / "bytecode"), str(lab)))
    assert entry.exists()
    entry.write_bytes(entry.read_bytes()[:20])  # truncated: the marshalled code is cut
    assert cli("run", "901", "--root", str(fake_course)).code == 0
    assert len(entry.read_bytes()) > 20  # compiled again and stored again


@pytest.mark.parametrize("command", ["run", "check"])
def test_an_edit_within_the_same_second_runs_the_new_code(cli, make_lab, mode, command) -> None:
    """`7` becomes `8` (same size), the date is put back: the new code runs all the same."""
    source = "def run() -> dict:\n    return {'n': 7, 'mitad': 1.0, 'vector': []}\n"
    root = make_lab(966, source, expected={"n": 8, "mitad": 1.0, "vector": []}, slug="editada")
    lab = root / "classes" / FAKE_PART / "966-editada" / "lab.py"
    first = cli(command, "966", "--root", str(root), "--json")
    assert json.loads(first.out)["clases"][0]["resultado"] == "difiere"
    stat = lab.stat()
    lab.write_text(source.replace("7", "8"))
    os.utime(lab, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert lab.stat().st_size == stat.st_size and lab.stat().st_mtime_ns == stat.st_mtime_ns
    second = cli(command, "966", "--root", str(root), "--json")
    assert json.loads(second.out)["clases"][0]["resultado"] == "coincide"
