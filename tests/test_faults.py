"""Fault matrix: whatever a lab does, `run` and `check` report it, go on, and leave nothing behind.

After each command no process of the test may still exist, not even as a zombie (tests/processes.py
finds them by the worker's command line and an environment mark, wherever they went). Snapshots
are hashed before and after.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compmath.execution.protocol import LabReply, LabRequest, ReplyState
from compmath.execution.scheduler import run_one
from compmath.judging.report import Outcome, crash_message
from tests.conftest import FAKE_PART, REPO, snapshots
from tests.processes import fresh_marker, leftovers

pytestmark = pytest.mark.lento  # a process per fault, some of them waiting for a timeout

GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
RECORD = "import os as _os\n"
RETURN_GOOD = f"    return {GOOD!r}\n"

# case id -> (body of lab.py after RECORD, phrases of the message, extra options)
CASES: dict[str, tuple[str, list[str], list[str]]] = {
    "lanza": (
        "def run() -> dict:\n    raise ValueError('dato imposible')\n",
        ["el laboratorio lanzó una excepción", "ValueError: dato imposible"],
        [],
    ),
    "sintaxis": (
        "def run() -> dict\n    return {}\n",
        ["el laboratorio lanzó una excepción", "error de sintaxis: falta «:»", "línea 2"],
        [],
    ),
    "modulo-inexistente": (
        "import modulo_que_no_existe\ndef run() -> dict:\n    return {}\n",
        ["ModuleNotFoundError", "modulo_que_no_existe"],
        [],
    ),
    "sys-exit-0": (
        "import sys\ndef run() -> dict:\n    sys.exit(0)\n",
        ["terminó sin devolver resultado", "llamó a sys.exit(0)"],
        [],
    ),
    "sys-exit-3": (
        "import sys\ndef run() -> dict:\n    sys.exit(3)\n",
        ["terminó sin devolver resultado", "llamó a sys.exit(3)"],
        [],
    ),
    "os-exit": (
        "def run() -> dict:\n    _os._exit(0)\n",
        ["terminó sin devolver resultado", "código 0", "os._exit"],
        [],
    ),
    "segfault": (
        "import ctypes\ndef run() -> dict:\n    ctypes.string_at(0)\n    return {}\n",
        ["murió por la señal SIGSEGV", "violación de segmento"],
        [],
    ),
    "bucle-infinito": (
        "def run() -> dict:\n    while True:\n        pass\n",
        ["se agotó el tiempo", "superó el límite de 1 s", "--timeout"],
        ["--timeout", "1"],
    ),
    "ignora-sigterm": (
        (
            "import signal, time\ndef run() -> dict:\n"
            "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n    time.sleep(300)\n"
        ),
        ["se agotó el tiempo", "superó el límite de 1 s"],
        ["--timeout", "1"],
    ),
    "hijo-popen": (
        (
            "import subprocess\ndef run() -> dict:\n"
            "    subprocess.Popen(['sleep', '300'])\n"
            "    raise RuntimeError('me voy y dejo un hijo')\n"
        ),
        ["RuntimeError: me voy y dejo un hijo"],
        [],
    ),
    "hijo-fork-cuelga": (
        (
            "import time\ndef run() -> dict:\n    pid = _os.fork()\n    if pid == 0:\n"
            "        time.sleep(300)\n        _os._exit(0)\n"
            "    while True:\n        time.sleep(0.01)\n"
        ),
        ["se agotó el tiempo"],
        ["--timeout", "1"],
    ),
    "nieto-en-otra-sesion": (
        (
            "import subprocess\ndef run() -> dict:\n"
            "    subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
            "    return {'n': 1}\n"
        ),
        ["no cumple su esquema", "falta la clave requerida «mitad»"],
        [],
    ),
    "nan-anidado": (
        "def run() -> dict:\n    return {'n': 1, 'mitad': 1.0, 'vector': [1.0, [float('nan')]]}\n",
        ["no es representable en JSON", "salida.vector[1][0] es NaN"],
        [],
    ),
    "infinito-anidado": (
        "def run() -> dict:\n    return {'n': 1, 'mitad': 1.0, 'vector': [[1.0, float('-inf')]]}\n",
        ["no es representable en JSON", "salida.vector[0][1] es infinito"],
        [],
    ),
    "objeto": (
        "def run() -> dict:\n    return {'n': 1, 'mitad': object(), 'vector': []}\n",
        ["no es representable en JSON", "salida.mitad", "object"],
        [],
    ),
    "lista-circular": (
        "def run() -> dict:\n    a = []\n    a.append(a)\n    return {'n': 1, 'mitad': 1.0, 'vector': a}\n",
        ["no es representable en JSON", "sin fin"],
        [],
    ),
    "lista-en-vez-de-dict": (
        "def run() -> dict:\n    return [1, 2, 3]\n",
        ["no es representable en JSON", "run() devolvió list, no un dict"],
        [],
    ),
    "claves-no-textuales": (
        "def run() -> dict:\n    return {'n': 1, 'mitad': {1: 2.0}, 'vector': []}\n",
        ["no es representable en JSON", "salida.mitad", "clave no textual"],
        [],
    ),
    "mensaje-de-10-mb": (
        "def run() -> dict:\n    raise ValueError('dato ' * 2_000_000)\n",
        ["el laboratorio lanzó una excepción", "ValueError: dato dato", "caracteres más"],
        [],
    ),
    "sys-exit-texto": (
        "import sys\ndef run() -> dict:\n    sys.exit('adiós')\n",
        ["llamó a sys.exit('adiós')"],
        [],
    ),
    "memoria-bytearray": (
        "def run() -> dict:\n    datos = bytearray(10**11)\n    return {}\n",
        ["se agotó la memoria", "límite de memoria de 0,5 GiB", "MemoryError", "--memory"],
        ["--memory", "0.5", "--timeout", "30"],
    ),
    "memoria-lista": (
        "def run() -> dict:\n    datos = []\n    while True:\n        datos.append([len(datos)] * 1000)\n",
        ["se agotó la memoria", "límite de memoria de 0,5 GiB"],
        ["--memory", "0.5", "--timeout", "30"],
    ),
    "memoria-flotantes": (
        "def run() -> dict:\n    datos = []\n    while True:\n        datos.append(float(len(datos)))\n",
        ["se agotó la memoria", "límite de memoria de 0,5 GiB"],
        ["--memory", "0.5", "--timeout", "60"],
    ),
    "memoria-numpy": (
        "import numpy as np\ndef run() -> dict:\n    return {'n': int(np.ones((30000, 30000)).sum())}\n",
        ["se agotó la memoria", "límite de memoria de 0,5 GiB", "Unable to allocate"],
        ["--memory", "0.5", "--timeout", "30"],
    ),
    "recursion-sin-fin": (
        "def f(n):\n    return f(n + 1) + 1\ndef run() -> dict:\n    return {'n': f(0)}\n",
        ["RecursionError", "recursión sin fin"],
        [],
    ),
}
NUMBERS = {name: 950 + i for i, name in enumerate(CASES)}
DEFAULTS = ["--timeout", "10"]


def without_compmath_frames(text: str) -> None:
    assert str(REPO / "compmath") not in text, text
    assert (
        'File "compmath' not in text
        and "compmath/zygote.py" not in text
        and "sandbox.py" not in text
    )


@pytest.fixture
def marker(monkeypatch: pytest.MonkeyPatch) -> str:
    return fresh_marker(monkeypatch)


@pytest.fixture
def faulty(make_lab):
    """Write the lab of one case; return (course root, number)."""

    def write(case: str) -> tuple[Path, int]:
        number = NUMBERS[case]
        return make_lab(number, RECORD + CASES[case][0], expected=GOOD, slug=case), number

    return write


@pytest.mark.parametrize("case", list(CASES))
def test_run_reports_the_fault(cli, faulty, marker, case: str) -> None:
    root, number = faulty(case)
    _, phrases, options = CASES[case]
    before = snapshots(root)
    result = cli("run", str(number), "--root", str(root), *DEFAULTS, *options)
    assert result.code == 1, result.out + result.err
    shown = " ".join((result.out + result.err).split())  # the terminal wraps long lines
    for phrase in phrases:
        assert phrase in shown
    assert "Traceback" not in result.err
    without_compmath_frames(result.out + result.err)
    assert leftovers(marker) == []
    assert snapshots(root) == before


@pytest.mark.parametrize("case", list(CASES))
def test_check_reports_the_fault_and_the_good_lab_still_passes(
    cli, faulty, marker, case: str
) -> None:
    root, number = faulty(case)
    _, phrases, options = CASES[case]
    before = snapshots(root)
    result = cli("check", str(number), "901", "--root", str(root), "--json", *DEFAULTS, *options)
    assert result.code == 1, result.out + result.err
    report = json.loads(result.out)
    by_number = {c["numero"]: c for c in report["clases"]}
    assert by_number[901]["resultado"] == "coincide"
    bad = by_number[number]
    assert bad["correcto"] is False
    for phrase in phrases:
        assert phrase in f"{Outcome(bad['resultado']).label}: {bad['mensaje']} {bad['traza']}"
    without_compmath_frames(bad["traza"] + bad["mensaje"])
    assert leftovers(marker) == []
    assert snapshots(root) == before


@pytest.mark.parametrize(
    ("source", "stream", "size"),
    [
        (
            "import sys\ndef run() -> dict:\n    sys.stdout.write('x' * (20 * 1024 * 1024))\n"
            + RETURN_GOOD,
            "stdout",
            20 * 1024 * 1024,
        ),
        (
            "def run() -> dict:\n    _os.write(1, b'directo al fd 1\\n')\n    _os.write(2, b'directo al fd 2\\n')\n"
            + RETURN_GOOD,
            "stderr",
            16,
        ),
    ],
)
def test_output_to_the_streams_never_corrupts_the_result(
    cli, make_lab, source, stream, size
) -> None:
    """Printing is not a fault: the lab still passes and what it wrote is shown apart, trimmed."""
    root = make_lab(990, RECORD + source, expected=GOOD, slug="escribe")
    before = snapshots(root)
    result = cli("run", "990", "--root", str(root), *DEFAULTS)
    assert result.code == 0, result.out
    assert "3/3 salidas coinciden con la instantánea" in result.out
    assert f"{stream} del laboratorio ({size} bytes)" in result.out
    checked = cli("check", "990", "901", "--root", str(root), "--json", *DEFAULTS)
    assert checked.code == 0
    lab = json.loads(checked.out)["clases"][0]
    assert lab["salidas"] == GOOD and len(lab[stream]) <= 64 * 1024
    assert snapshots(root) == before


def test_a_passing_lab_may_not_leave_a_process_behind(cli, make_lab, marker) -> None:
    """A lab that passes but starts a process in its own session: the process is still ended."""
    source = (
        "import subprocess\ndef run() -> dict:\n"
        "    subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
        "    subprocess.Popen(['sh', '-c', 'sleep 301 & echo $!'], start_new_session=True).wait()\n"
        + RETURN_GOOD
    )
    root = make_lab(991, RECORD + source, expected=GOOD, slug="deja-procesos")
    result = cli("run", "991", "--root", str(root), *DEFAULTS)
    assert result.code == 0, result.out
    assert "stdout del laboratorio" in result.out  # the shell's sleep 301 was started
    assert leftovers(marker) == []


@pytest.mark.parametrize(
    ("reply", "outcome", "phrase"),
    [
        (
            LabReply("x", ReplyState.SIGNAL, signal_name="SIGSEGV", peak_memory=400 * 1024**2),
            "memoria_agotada",
            "con la memoria al límite (400 MiB de 0,5 GiB",
        ),
        (
            LabReply("x", ReplyState.SIGNAL, signal_name="SIGSEGV", peak_memory=30 * 1024**2),
            "senal",
            "señal SIGSEGV (violación de segmento)",
        ),
        (
            LabReply("x", ReplyState.SIGNAL, signal_name="SIGKILL", peak_memory=30 * 1024**2),
            "senal",
            "¿el sistema se quedó sin memoria?",
        ),
        (
            LabReply("x", ReplyState.MEMORY, error_type="MemoryError"),
            "memoria_agotada",
            "superó el límite de memoria de 0,5 GiB",
        ),
        (LabReply("x", ReplyState.TIMEOUT), "tiempo_agotado", "superó el límite de 2 s"),
        (
            LabReply.worker_lost("x"),
            "excepcion",
            "el proceso trabajador terminó de forma inesperada",
        ),
    ],
)
def test_crash_messages_name_the_limit_that_was_hit(reply, outcome, phrase) -> None:
    """A fatal signal at the address-space limit is reported as memory, not as a mystery."""
    crash = crash_message(reply, 2.0, 512 * 1024**2)
    assert crash.outcome == outcome and phrase in f"{crash.message} · {crash.remedy}"


def test_a_limit_below_the_workers_own_size_is_explained(fake_course: Path) -> None:
    """50 MiB cannot even hold the worker with numpy loaded: said plainly as a setup error (exit
    2, not a failed lab), and the lab never starts."""
    lab = fake_course / "classes" / FAKE_PART / "901-pasa" / "lab.py"
    reply = run_one(LabRequest("901-pasa", str(lab), memory=50 * 1024**2))
    outcome, message, remedy = crash_message(reply, 60.0, 50 * 1024**2)
    assert outcome == "configuracion" and reply.run_seconds == 0.0 and "--memory" in remedy
    assert re.search(r"no alcanza ni para el proceso que ejecuta el laboratorio \(\d+ MiB", message)
    assert "MemoryError" not in message


def test_a_timeout_says_where_the_lab_was(cli, make_lab) -> None:
    """The lab's stack when it was stopped: its own frames, innermost first (for `run` to show)."""
    source = (
        "def espera():\n    while True:\n        pass\n\n"
        "def run() -> dict:\n    espera()\n    return {}\n"
    )
    root = make_lab(992, source, expected=GOOD, slug="espera")
    result = cli("check", "992", "--root", str(root), "--json", "--timeout", "1")
    lab = json.loads(result.out)["clases"][0]
    assert lab["resultado"] == "tiempo_agotado"
    frames = [line.strip() for line in lab["traza"].splitlines() if line.strip().startswith("File")]
    assert frames[0].endswith('lab.py", line 3 in espera') or frames[0].endswith("line 2 in espera")
    assert frames[1].endswith('lab.py", line 6 in run')
    without_compmath_frames(lab["traza"])
