"""`list` remembers the classes `run` would accept, keyed by what that verdict rests on, and
still says `rota` for every broken class.toml: a sound listing remembered, then the file, the
outputs schema or the class schema broken; a cold listing of many classes checked in two
processes, and a child that fails leaving nothing unchecked.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FAKE_PART, REPO

# --- list: a sound listing remembered, then something it rests on broken ------------------------

CLASS = f"classes/{FAKE_PART}/901-pasa/class.toml"


def _row(cli: Any, root: Path) -> str:
    out = cli("list", "--root", str(root)).out
    return next(ln for ln in out.splitlines() if ln.startswith("901 ")).split()[-1]


def _reason(cli: Any, root: Path) -> str:
    listed = json.loads(cli("list", "--json", "--root", str(root)).out)
    (entry,) = [c for p in listed["partes"] for c in p["clases"] if c["numero"] == 901]
    return str(entry.get("motivo", ""))


@pytest.mark.parametrize(
    ("where", "rewrite", "phrase"),
    [
        (CLASS, lambda t: t.replace("numero = 901", "numero = 9_01\nnivel = 3"), "nivel"),
        (CLASS, lambda t: t.replace("numero = 901", "numero = 901\r\nnumero = 901"), "repetida"),
        (CLASS, lambda t: t.replace("numero = 901", 'numero = "901"'), "numero"),
        (CLASS, lambda t: t.replace("numero = 901", "numero = 902"), "numero = 902"),
        (
            CLASS,
            lambda t: t + '\n[[huecos]]\ntarea = "t"\nsalidas = ["nada"]\npistas = ["p"]\n',
            "«nada»",
        ),
        (
            "schemas/901-pasa.schema.json",
            lambda t: json.dumps({"type": "object", "properties": {}}),
            "«mitad»",
        ),
        (
            "contrato/class.schema.json",  # the package's contract, here a copy of it
            lambda t: t.replace('"minLength": 1}', '"minLength": 1, "maxLength": 3}', 1),
            "titulo",
        ),
    ],
)
@pytest.mark.lento  # seconds: out of the quick loop
def test_list_says_rota_after_a_sound_listing_when_a_file_breaks(
    cli: Any,
    fake_course: Path,
    where: str,
    rewrite: Any,
    phrase: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from compmath import contracts

    shutil.copytree(contracts.FOLDER, fake_course / "contrato")
    monkeypatch.setattr(contracts, "FOLDER", fake_course / "contrato")
    meta = fake_course / CLASS
    meta.write_text(
        meta.read_text(encoding="utf-8").replace(
            "descripcion = '$n$ por la escala.'",
            "descripcion = '$n$ por la escala.'\ntolerancia = { atol = 0.1 }",
        ),
        encoding="utf-8",
    )
    assert _row(cli, fake_course) == "lista"
    assert _row(cli, fake_course) == "lista"  # remembered
    path = fake_course / where
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert _row(cli, fake_course) == "rota"
    assert phrase in _reason(cli, fake_course)


def _big_course(tmp_path: Path) -> Path:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", REPO / "benchmarks" / "run.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return Path(bench.big_course(tmp_path / "curso", parts=8, per_part=20))  # classes 100-259


def _states(cli: Any, root: Path) -> dict[int, str]:
    listed = json.loads(cli("list", "--json", "--root", str(root)).out)
    return {c["numero"]: c["estado"] for p in listed["partes"] for c in p["clases"]}


@pytest.mark.parametrize("child_fails", [False, True])
@pytest.mark.lento  # seconds: out of the quick loop
def test_a_cold_listing_of_many_classes_vouches_in_two_processes_and_misses_no_broken_one(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, child_fails: bool
) -> None:
    from compmath.course import soundness

    root = _big_course(tmp_path)
    broken = {
        101: lambda t: t.replace('nivel = "experto"', 'nivel = "facil"'),  # the parent's half
        250: lambda t: t.replace("numero = 250", "numero = 250\nnumero = 250"),  # the child's
        255: lambda t: t.replace("[[salidas]]", "[[salidas]]\ntolerancia = {}", 1),
    }
    for number, rewrite in broken.items():
        (meta,) = root.glob(f"classes/*/{number}-*/class.toml")
        meta.write_text(rewrite(meta.read_text(encoding="utf-8")), encoding="utf-8")
    forks = []
    real_fork = os.fork

    def fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(soundness.os, "fork", fork)
    if child_fails:  # whatever the child said is then not trusted: its half takes run's path
        monkeypatch.setattr(soundness.os, "waitstatus_to_exitcode", lambda status: 1)
    states = _states(cli, root)
    assert forks == [1]
    assert {n for n, s in states.items() if s == "rota"} == set(broken)
    assert len(states) == 160 and set(states.values()) == {"lista", "rota"}
    assert _states(cli, root) == states and forks == [1]  # warm: nothing left to vouch for
