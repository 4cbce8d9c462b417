"""Odd arguments and environments: limits that are not finite numbers, report paths that are not
regular files, a missing TMPDIR, a lab returning {}, a class without lab.py. Each edge: the
documented exit code, one Spanish `error:` line with the next command, no traceback; `check`
still runs everything and prints its summary first.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART, error_lines, no_traceback


@pytest.mark.parametrize("command", ["run", "check", "update"])
@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("--memory", "nan", "de 0,1 a 1024 GiB"),
        ("--memory", "inf", "de 0,1 a 1024 GiB"),
        ("--memory", "1e300", "de 0,1 a 1024 GiB"),
        ("--memory", "0", "de 0,1 a 1024 GiB"),
        ("--timeout", "inf", "de 0,1 a 86400 s"),
        ("--timeout", "nan", "de 0,1 a 86400 s"),
        ("--timeout", "-1", "de 0,1 a 86400 s"),
    ],
)
@pytest.mark.lento  # seconds: out of the quick loop
def test_limits_are_finite_numbers_in_range(
    cli, fake_course, command, option, value, allowed
) -> None:
    before = {p: p.read_bytes() for p in fake_course.rglob("expected.json")}
    result = cli(command, "901", option, value, "--root", str(fake_course))
    assert result.code == 2
    assert error_lines(result) == [
        f"error: valor no válido para {option}: "
        f"{float(value):g} (debe ser un número finito {allowed})"
    ]
    assert f"compmath {command} --help" in no_traceback(result)
    assert {p: p.read_bytes() for p in fake_course.rglob("expected.json")} == before


def test_limits_at_their_bounds_are_accepted(cli, fake_course: Path) -> None:
    result = cli("run", "901", "--timeout", "86400", "--memory", "1024", "--root", str(fake_course))
    assert result.code == 0, no_traceback(result)


# --- report paths ----------------------------------------------------------------------------

REPORT_PATHS = {
    "carpeta": (lambda tmp: str(tmp), "es una carpeta, no un archivo normal"),
    "carpeta-que-falta": (lambda tmp: str(tmp / "no" / "r.xml"), "la carpeta no existe"),
    "vacia": (lambda tmp: "", None),
    "fifo": (
        lambda tmp: (os.mkfifo(tmp / "f"), str(tmp / "f"))[1],
        "es un archivo especial, no un archivo normal",
    ),
    "dev-zero": (lambda tmp: "/dev/zero", "es un archivo especial, no un archivo normal"),
}


@pytest.mark.parametrize("as_json", [False, True], ids=["texto", "json"])
@pytest.mark.parametrize("case", REPORT_PATHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_an_unwritable_report_comes_after_the_summary(
    cli, fake_course, tmp_path, case, as_json
) -> None:
    make, reason = REPORT_PATHS[case]
    path = make(tmp_path)
    result = cli(
        "check",
        "901",
        "--junit-xml",
        path,
        "--root",
        str(fake_course),
        *(["--json"] if as_json else []),
    )
    text = no_traceback(result)
    assert result.code == 2
    if as_json:
        assert json.loads(result.out)["resumen"]["correctos"] == 1
    else:
        assert "1 laboratorio: coincide con su instantánea" in result.out
    expected = (
        f"error: no se puede escribir el informe JUnit en {path}: {reason}"
        if reason
        else "error: --junit-xml recibió una ruta vacía"
    )
    assert error_lines(result) == [expected]
    assert "compmath check --junit-xml informe-labs.xml" in text


def test_a_report_symlink_is_followed_and_kept(cli, fake_course: Path, tmp_path: Path) -> None:
    real = tmp_path / "informes" / "labs.xml"
    real.parent.mkdir()
    real.write_text("viejo")
    real.chmod(0o640)
    link = tmp_path / "labs.xml"
    link.symlink_to(real)
    result = cli("check", "901", "--junit-xml", str(link), "--root", str(fake_course))
    assert result.code == 0, no_traceback(result)
    assert link.is_symlink() and real.read_text().startswith("<?xml")
    assert real.stat().st_mode & 0o777 == 0o640


# --- the environment -------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "check", "update"])
@pytest.mark.parametrize("kind", ["falta", "archivo"])
def test_a_missing_tmpdir_is_an_environment_error(
    cli, fake_course, tmp_path, monkeypatch, command, kind
) -> None:
    folder = tmp_path / "tmp-que-no-esta"
    if kind == "archivo":
        folder.write_text("")
    monkeypatch.setenv("TMPDIR", str(folder))
    result = cli(command, "901", "--root", str(fake_course))
    text = no_traceback(result)
    assert result.code == 2
    problem = "no existe" if kind == "falta" else "no es una carpeta"
    assert error_lines(result) == [
        f"error: la carpeta temporal {folder} (TMPDIR) {problem}: ahí dejan los laboratorios "
        "sus resultados"
    ]
    assert "export TMPDIR=/tmp" in text and (kind != "falta" or f"mkdir -p {folder}" in text)


# --- odd labs --------------------------------------------------------------------------------

EMPTY = "def run() -> dict:\n    return {}\n"
ANY_OBJECT = {"type": "object"}


def test_a_lab_returning_an_empty_dict(cli, make_lab) -> None:
    root = make_lab(960, EMPTY, expected={}, schema=ANY_OBJECT, slug="vacio")
    run = cli("run", "960", "--root", str(root))
    assert run.code == 0
    assert "run() devolvió un dict vacío: no hay salidas que mostrar" in no_traceback(run)
    assert cli("check", "960", "--root", str(root)).code == 0
    assert cli("update", "960", "--root", str(root)).code == 0


def test_an_empty_dict_against_a_snapshot_with_outputs(cli, make_lab) -> None:
    root = make_lab(960, EMPTY, expected={"a": 1}, schema=ANY_OBJECT, slug="vacio")
    result = cli("run", "960", "--root", str(root))
    text = no_traceback(result)
    assert result.code == 1
    assert "a — 1 ✗" in text and "0/1 salida coincide con la instantánea" in text


def test_an_empty_dict_against_its_schema_names_each_missing_key(cli, make_lab) -> None:
    root = make_lab(960, EMPTY, expected={"n": 1, "mitad": 0.5, "vector": []}, slug="vacio")
    result = cli("run", "960", "--root", str(root))
    text = no_traceback(result)
    assert result.code == 1
    for key in ("n", "mitad", "vector"):
        assert text.count(f"✗ salida: falta la clave requerida «{key}»") == 1
    assert "n — 1 ✗" in text
    assert cli("check", "960", "--root", str(root)).code == 1
    update = cli("update", "960", "--root", str(root))
    assert update.code == 1 and "no se escribe la instantánea" in no_traceback(update)


def test_a_class_without_lab_py_does_not_stop_check(cli, fake_course: Path) -> None:
    (fake_course / "classes" / FAKE_PART / "901-pasa" / "lab.py").unlink()
    result = cli("check", "901", "906", "--root", str(fake_course))
    text = no_traceback(result)
    assert result.code == 2
    assert "901: la clase 901-pasa no tiene lab.py" in text
    assert "906 Un laboratorio que imprime ✓ coincide con la instantánea" in text
    assert "2 laboratorios: 1 correcto, 1 falla" in text
    run = cli("run", "901", "--root", str(fake_course))
    assert run.code == 2 and error_lines(run) == ["error: la clase 901-pasa no tiene lab.py"]
