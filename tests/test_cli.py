"""The commands end to end on the fake course: exit codes and the key phrases of each message."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART, REPO, snapshots


def test_run_passing_lab(cli, fake_course: Path) -> None:
    result = cli("run", "901", "--root", str(fake_course))
    assert result.code == 0
    assert "901 — Un laboratorio que pasa" in result.out
    assert "Parte 90 · inicial · clase 1 de 9 · 1 hora" in result.out
    assert "3/3 salidas coinciden con la instantánea · esquema válido" in result.out


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("902", "ZeroDivisionError: división entre cero"),
        ("903", "clave no permitida «sobra»"),
        ("904", "salida.mitad: esperado 1,5, obtenido 1,6"),
        ("907", "salida.vector[1] es NaN"),
        ("908", "run() devolvió list, no un dict"),
    ],
)
def test_run_failing_labs_exit_1(cli, fake_course: Path, name: str, phrase: str) -> None:
    before = snapshots(fake_course)
    result = cli("run", name, "--root", str(fake_course))
    assert result.code == 1, result.out + result.err
    assert phrase in result.out
    assert "salida salida" not in result.out  # the path says it is an output; said once
    assert "Traceback (most recent call last)" not in result.err
    assert snapshots(fake_course) == before


def test_exception_shows_the_labs_frames_only(cli, fake_course: Path) -> None:
    out = cli("run", "902", "--root", str(fake_course)).out
    assert out.index("ZeroDivisionError") < out.index("Dónde falló:")  # the message first
    where = out.split("Dónde falló:")[1]
    assert f"classes/{FAKE_PART}/902-lanza/lab.py" in where and "en calcula" in where
    assert str(fake_course) not in where  # relative to the course
    assert "compmath" not in where.replace("compmath run", "")


@pytest.mark.lento  # seconds: out of the quick loop
def test_hanging_lab_times_out(cli, fake_course: Path) -> None:
    result = cli("run", "905", "--root", str(fake_course), "--timeout", "0.5")
    assert result.code == 1
    assert "superó el límite de 0,5 s" in result.out
    # where it was when it was stopped: the worker's stack of the lab, its innermost frame
    assert "estaba en lab.py, línea 8, en run" in result.out
    assert "Stack (most recent call first)" not in result.out


def test_lab_prints_are_captured_apart(cli, fake_course: Path) -> None:
    result = cli("run", "906", "--root", str(fake_course))
    assert result.code == 0
    assert "stdout del laboratorio" in result.out and "mensaje del laboratorio" in result.out
    assert "aviso por stderr" in result.out
    report = json.loads(cli("run", "906", "--root", str(fake_course), "--json").out)
    assert report["clases"][0]["stdout"] == "mensaje del laboratorio\n"
    assert report["clases"][0]["salidas"] == {"n": 2, "mitad": 1.0, "vector": [1.0]}


def test_run_by_id_slug_and_path(cli, fake_course: Path) -> None:
    folder = fake_course / "classes" / FAKE_PART / "901-pasa"
    for name in ("901-pasa", "pasa", str(folder), str(folder / "lab.py")):
        assert cli("run", name, "--root", str(fake_course)).code == 0, name


def test_root_from_environment_and_from_cwd(cli, fake_course: Path, monkeypatch) -> None:
    monkeypatch.setenv("COMPMATH_ROOT", str(fake_course))
    assert cli("run", "901").code == 0
    monkeypatch.delenv("COMPMATH_ROOT")
    monkeypatch.chdir(fake_course / "classes" / FAKE_PART)
    assert cli("run", "901").code == 0


def test_exploration_is_validated_not_compared(cli, fake_course: Path) -> None:
    before = snapshots(fake_course)
    result = cli("run", "901", "--root", str(fake_course), "--set", "n=7", "--set", "escala=2")
    assert result.code == 0
    assert "exploración (n=7, escala=2.0)" in result.out and "no se compara" in result.out
    head = next(line for line in result.out.splitlines() if line.startswith("salida"))
    assert head.split() == ["salida", "obtenido", "estado"]  # nothing expected: no such column
    invalid = cli("run", "901", "--root", str(fake_course), "--set", "n=11")  # vector > 10 items
    assert invalid.code == 1 and "tiene más de 10 elementos" in invalid.out
    assert snapshots(fake_course) == before


@pytest.mark.parametrize(
    ("args", "phrases"),
    [
        (
            ["run", "999"],
            ["error: no existe la clase «999»", "¿quisiste decir", "prueba: compmath list"],
        ),
        (["run", "abc"], ["error: no existe la clase «abc»", "prueba: compmath list"]),
        (["run", "901", "--set", "n=x"], ["parámetro n (int: entero)", "ejemplo: --set n=4"]),
        (
            ["run", "901", "--set", "nope=1"],
            ["no tiene el parámetro «nope»", "n (int), escala (float)"],
        ),
        (["run", "901", "--set", "n"], ["NOMBRE=VALOR"]),
        (["run", "909"], ["no existe la clase «909»"]),
        (
            ["check", "--part", "3"],
            ["error: no hay parte 3; partes del curso: 90\n", "prueba: compmath list --part 90"],
        ),
        (
            ["list", "--part", "17"],
            ["error: no hay parte 17; partes del curso: 90\n", "prueba: compmath list --part 90"],
        ),
        (
            ["run", "901", "--set", "escala=0,5"],
            ["escala (float: real)", "escribe el decimal con punto: --set escala=0.5"],
        ),
        (
            ["run", "901", "--memory", "0,5"],
            ["«0,5» no es un número real: escribe el decimal con punto (0.5)"],
        ),
        (["run", "901", "902"], ["argumentos de más: 902", "para varias: compmath check 901 902"]),
        (["run", "901", "extra"], ["argumentos de más: extra", "prueba: compmath run --help"]),
        (["update"], ["indica las clases o --all"]),
    ],
)
@pytest.mark.lento  # seconds: out of the quick loop
def test_usage_errors_exit_2_in_one_spanish_line(cli, fake_course: Path, args, phrases) -> None:
    result = cli(*args, "--root", str(fake_course))
    assert result.code == 2
    assert result.err.startswith("error: ")
    for phrase in phrases:
        assert phrase in result.err
    assert "Traceback" not in result.err


def test_no_course_root(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli("run", "323")
    assert result.code == 2 and "no se encuentra la raíz del curso" in result.err
    assert "--root" in result.err


def test_parser_errors_are_spanish(cli, fake_course: Path) -> None:
    assert "no existe la orden «frobnicate»" in cli("frobnicate").err
    assert "opción desconocida --bogus" in cli("run", "901", "--bogus").err
    assert "falta el argumento CLASE" in cli("run").err
    assert "«x» no es un número real" in cli("run", "901", "--timeout", "x").err
    assert cli("frobnicate").code == 2


def test_corrupt_snapshot_and_broken_schema_exit_2(cli, fake_course: Path) -> None:
    snap = fake_course / "classes" / FAKE_PART / "901-pasa" / "expected.json"
    snap.write_text('{"n": 4,', encoding="utf-8")
    result = cli("run", "901", "--root", str(fake_course))
    assert result.code == 2 and "instantánea" in result.err and "corrupta" in result.err
    assert "compmath update 901" in result.err
    assert snap.read_text() == '{"n": 4,'
    shutil.copy(
        REPO / "tests" / "fake_course" / "classes" / FAKE_PART / "901-pasa" / "expected.json", snap
    )
    schema = fake_course / "schemas" / "901-pasa.schema.json"
    schema.write_text("{ not json", encoding="utf-8")
    result = cli("run", "901", "--root", str(fake_course))
    assert result.code == 2 and "no es JSON válido" in result.err
    schema.write_text('{"type": "objeto"}', encoding="utf-8")
    result = cli("run", "901", "--root", str(fake_course))
    assert result.code == 2 and "no es un JSON Schema válido" in result.err


def test_tolerance_typo_in_class_toml_is_an_error(cli, fake_course: Path) -> None:
    meta = fake_course / "classes" / FAKE_PART / "901-pasa" / "class.toml"
    meta.write_text(
        meta.read_text().replace(
            'nombre = "mitad"', 'nombre = "mitad"\ntolerancia = { atoll = 0.1 }'
        )
    )
    result = cli("run", "901", "--root", str(fake_course))
    assert result.code == 2 and "class.toml no cumple su esquema" in result.err


def test_declared_tolerance_is_used(cli, fake_course: Path) -> None:
    meta_src = (fake_course / "classes" / FAKE_PART / "901-pasa" / "class.toml").read_text()
    folder = fake_course / "classes" / FAKE_PART / "904-deriva"
    (folder / "class.toml").write_text(
        meta_src.replace("numero = 901", "numero = 904").replace(
            'nombre = "mitad"', 'nombre = "mitad"\ntolerancia = { atol = 0.2 }'
        )
    )
    assert cli("run", "904", "--root", str(fake_course)).code == 0


def test_duplicate_numbers_name_both_folders(cli, fake_course: Path) -> None:
    part = fake_course / "classes" / FAKE_PART
    shutil.copytree(part / "901-pasa", part / "901-otra")
    result = cli("check", "--root", str(fake_course))
    assert result.code == 2
    assert "901-otra" in result.err and "901-pasa" in result.err


@pytest.mark.lento  # seconds: out of the quick loop
def test_check_runs_everything_and_summarises(cli, fake_course: Path) -> None:
    before = snapshots(fake_course)
    result = cli("check", "--root", str(fake_course), "--timeout", "1", "--jobs", "2")
    assert result.code == 1
    assert "8 laboratorios: 2 correctos, 6 fallan" in result.out
    assert "siguiente: compmath run 902" in result.out
    assert snapshots(fake_course) == before
    passing = cli("check", "901", "906", "--root", str(fake_course))
    assert passing.code == 0 and "2 laboratorios: todos coinciden" in passing.out


def test_check_json_report(cli, fake_course: Path) -> None:
    result = cli("check", "901", "904", "--root", str(fake_course), "--json")
    report = json.loads(result.out)
    assert report["resumen"] == report["resumen"] | {"total": 2, "correctos": 1, "fallidos": 1}
    (drift,) = [c for c in report["clases"] if c["clase"] == "904-deriva"]
    assert drift["resultado"] == "difiere"
    assert drift["diferencias"][0]["ruta"] == "salida.mitad"
    assert drift["diferencias"][0]["esperado"] == 1.5 and drift["diferencias"][0]["obtenido"] == 1.6


def test_missing_snapshot_fails(cli, make_lab) -> None:
    root = make_lab(950, "def run() -> dict:\n    return {'n': 1, 'mitad': 0.5, 'vector': []}\n")
    result = cli("run", "950", "--root", str(root))
    assert result.code == 1 and "compmath update 950" in result.out


def test_update_writes_atomically_and_only_when_changed(cli, make_lab) -> None:
    root = make_lab(950, "def run() -> dict:\n    return {'n': 1, 'mitad': 0.5, 'vector': [1/3]}\n")
    snap = root / "classes" / FAKE_PART / "950-ad-hoc" / "expected.json"
    first = cli("update", "950", "--root", str(root))
    assert first.code == 0 and "escrita" in first.out
    assert (
        snap.read_text() == '{\n  "n": 1,\n  "mitad": 0.5,\n  "vector": [\n    0.333333\n  ]\n}\n'
    )
    stamp = snap.stat().st_mtime_ns
    second = cli("update", "950", "--root", str(root))
    assert "sin cambios" in second.out and snap.stat().st_mtime_ns == stamp
    assert cli("run", "950", "--root", str(root)).code == 0
    assert not list(snap.parent.glob(".*compmath-tmp"))


def test_update_refuses_a_failing_or_invalid_lab(cli, fake_course: Path) -> None:
    before = snapshots(fake_course)
    for name in ("902", "903", "907"):
        result = cli("update", name, "--root", str(fake_course))
        assert result.code == 1 and "no se escribe la instantánea" in result.out
    assert snapshots(fake_course) == before


def test_update_refuses_under_ci(cli, fake_course: Path, monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    before = snapshots(fake_course)
    result = cli("update", "--all", "--root", str(fake_course))
    assert result.code == 2 and "CI" in result.err
    assert snapshots(fake_course) == before


def test_list_shows_pending_classes_without_running_labs(cli, fake_course: Path) -> None:
    marker = fake_course / "ran"
    lab = fake_course / "classes" / FAKE_PART / "902-lanza" / "lab.py"
    lab.write_text(f"open({str(marker)!r}, 'w').close()\n" + lab.read_text())
    result = cli("list", "--root", str(fake_course))
    assert result.code == 0
    assert "Parte 90 — Curso de prueba" in result.out
    assert "909" in result.out and "pendiente" in result.out
    assert "8 de 9 clases escritas" in result.out
    assert not marker.exists()


@pytest.mark.lento  # seconds: out of the quick loop
def test_python_lab_py_prints_the_snapshot_and_takes_set() -> None:
    folder = REPO / "tests" / "fake_course" / "classes" / FAKE_PART / "901-pasa"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run(
        [sys.executable, str(folder / "lab.py")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert out == (folder / "expected.json").read_text()
    explored = subprocess.run(
        [sys.executable, str(folder / "lab.py"), "--set", "n=2"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert json.loads(explored)["n"] == 2
    bad = subprocess.run(
        [sys.executable, str(folder / "lab.py"), "--set", "n=x"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert bad.returncode == 2 and "parámetro n (int: entero)" in bad.stderr


def test_outputs_in_another_order_are_named(cli, make_lab) -> None:
    """Same keys as the snapshot, another order: the screen says so instead of a silent ✗."""
    root = make_lab(
        952,
        """
        def run() -> dict:
            return {"mitad": 0.5, "n": 1, "vector": []}
    """,
        expected={"n": 1, "mitad": 0.5, "vector": []},
    )
    result = cli("run", "952", "--root", str(root))
    assert result.code == 1
    assert (
        "las salidas llegan en otro orden que en la instantánea: esperado n, mitad, vector; "
        "obtenido mitad, n, vector" in result.out
    )
    assert "otro orden de salidas" in result.out


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_worker_started_far_from_the_repository_finds_compmath(
    fake_course: Path, tmp_path: Path
) -> None:
    """The worker is a `python -S -m` child: it must import compmath from wherever it starts."""
    done = subprocess.run(
        [sys.executable, "-m", "compmath.entry", "run", "901", "--root", str(fake_course)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3/3 salidas coinciden con la instantánea" in done.stdout


def test_a_command_option_before_the_command_says_where_it_goes(cli, fake_course: Path) -> None:
    result = cli("--root", str(fake_course), "list")
    assert result.code == 2
    assert result.err.splitlines() == [
        "error: la opción --root es de las órdenes, no de compmath",
        "ponla después de la orden: compmath list --root …",
    ]
    assert cli("--bogus", "list").err.startswith("error: opción desconocida --bogus")


def test_several_suggestions_read_as_a_spanish_list(cli, fake_course: Path) -> None:
    err = " ".join(cli("run", "90", "--root", str(fake_course)).err.split())
    assert re.search(r"¿quisiste decir [^?]+, [^?]+ o [^?]+\?", err), err
    assert err.count(" o 9") == 1, err  # «a, b o c», not «a o b o c»


def test_update_help_does_not_promise_all_classes_by_default(cli) -> None:
    out = " ".join(cli("update", "--help").out.split())
    assert "[CLASE]... Clases (o --all para todas)." in out
    assert "por defecto: todas" not in out and "por defecto, todas" not in out


def test_run_help_says_v_also_shows_whole_values(cli) -> None:  # as docs/referencia.md does
    out = " ".join(cli("run", "--help").out.split())
    assert "-v, --verbose Todas las diferencias y cada valor entero." in out


def test_new_ends_with_the_next_commands_one_a_line(cli, fake_course: Path) -> None:
    result = cli(
        "new", "911", "otra-clase", "--title", "Otra", "--part", "90", "--root", str(fake_course)
    )
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    start = lines.index("siguiente: escribe lab.py, class.toml y README.md; luego:")
    assert [s.strip() for s in lines[start + 1 : start + 4]] == [
        "compmath update 911",
        "compmath run 911",
        "compmath lint",
    ]


def test_a_closed_range_reads_from_to(cli) -> None:
    out = " ".join(cli("site", "--help").out.split())
    assert "(por defecto: 8000; de 0 a 65535)" in out
    err = cli("site", "--port", "70000").err
    assert err.startswith("error: valor no válido para --port: 70000 (debe ser de 0 a 65535)"), err
