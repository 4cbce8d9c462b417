"""`compmath grade` keeps each student's code away from everyone else's: a copier whose hole
reads a classmate's submission (by absolute and relative path, through /proc/self/cwd, walking
from `/`), the course's own lab (the reference solution), its cached bytecode, the other
grafted programs of the run or the grades written so far gets nothing and scores 0 on that
hole, beside honest students whose marks do not change."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from compmath.cache import cache_dir
from compmath.execution import pool
from compmath.execution.reading import carve
from tests.conftest import REPO, no_traceback
from tests.test_grade import C323, grade, hand_in, holes_of, record, solved, with_hole

# The copier's hole 1 of 323 (inside frecuencias(d), which must set omega): every way it knows
# to find someone else's answer, each printed as it is tried; the first one that works is used.
THIEF = """\
import glob, marshal, os, re, textwrap
def _intento(nombre, ruta):
    try:
        texto = open(ruta, encoding="utf-8", errors="replace").read()
    except OSError as exc:
        print(f"{nombre}: nada ({type(exc).__name__})")
        return None
    print(f"{nombre}: LEIDO {len(texto)}")
    return texto
def _hueco(texto):
    hallado = re.search(r"### (?:HUECO 1 ###|BEGIN SOLUTION)[ ]*\\n(.*?)\\n[ ]*### ", texto, re.S)
    return textwrap.dedent(hallado.group(1)) if hallado else None
def _buscar():
    for nombre, ruta in RUTAS:
        texto = _intento(nombre, ruta)
        if texto and _hueco(texto):
            return _hueco(texto)
    for nombre, patron in PATRONES:
        encontrados = [r for r in glob.glob(patron) if os.path.dirname(r) != os.path.dirname(__file__)]
        print(f"{nombre}: {len(encontrados)} archivos")
        for ruta in encontrados:
            texto = _intento(nombre, ruta)
            if texto and _hueco(texto):
                return _hueco(texto)
    vistos = 0
    for carpeta, subcarpetas, archivos in os.walk("/" if WALK else "/nada"):
        subcarpetas[:] = [s for s in subcarpetas if s not in ("proc", "sys", "dev", "usr")]
        vistos += 1
        if "lab.py" in archivos and "323" in carpeta and carpeta != os.path.dirname(__file__):
            texto = _intento("os.walk", os.path.join(carpeta, "lab.py"))
            if texto and _hueco(texto):
                return _hueco(texto)
        if vistos > 200_000:
            break
    print(f"os.walk: {vistos} carpetas")
    return None
def _bytecode():
    for ruta in glob.glob(CACHE + "/**/*.pyc", recursive=True):
        try:
            datos = open(ruta, "rb").read()
        except OSError:
            continue
        espacio = {}
        exec(marshal.loads(datos[16:]), espacio)
        if "frecuencias" in espacio:
            print("bytecode: LEIDO")
            return espacio["frecuencias"](d)
    print("bytecode: nada")
    return None
for _ruta in glob.glob(NOTAS):  # the grades of earlier students
    _intento("notas", _ruta)
print(f"notas: {len(glob.glob(NOTAS))} archivos")
omega = _bytecode() if USE_BYTECODE else None
if omega is None:
    _codigo = _buscar()
    _espacio = dict(globals(), i=i, d=d)
    exec(_codigo, _espacio)
    omega = _espacio["omega"]
"""


def thief(copied: Path, out: Path, *, anywhere: bool) -> str:
    """The copier's hole: reads `copied` (ana's lab.py) every way it can, and the rest; with
    `anywhere` also what only Landlock keeps out (any run's programs, a walk from `/`)."""
    here = Path.cwd()
    relative = os.path.relpath(copied, here)
    runs = Path(tempfile.gettempdir())
    paths = [
        ("absoluta", str(copied)),
        ("relativa", relative),  # from where the grading was launched
        ("relativa desde su carpeta", "../" * 12 + str(copied).lstrip("/")),
        ("/proc/self/cwd", f"/proc/self/cwd/{relative}"),
        ("/proc/self/cwd/..", f"/proc/self/cwd/../../../../../../..{copied}"),
        ("/proc del ejecutor", f"/proc/{os.getpid()}/cwd/{relative}"),
        ("curso", str(C323.lab)),
        ("solucion de ana", str(copied.parents[3] / ".compmath" / C323.id / "solucion.py")),
    ]
    patterns = []
    if anywhere:
        patterns.append(("otros programas", str(runs / "compmath-practica-*" / "*" / "lab.py")))
    head = f"RUTAS = {paths!r}\nPATRONES = {patterns!r}\nCACHE = {str(cache_dir())!r}\n"
    head += f"NOTAS = {str(out / 'alumnos' / '*.json')!r}\n"
    return head + f"WALK = USE_BYTECODE = {anywhere!r}\n" + THIEF


def classroom(tmp_path: Path, *, anywhere: bool) -> tuple[Path, Path]:
    """ana and beto honest, copion's hole 1 stealing ana's; the folder and the output folder."""
    entregas, out = tmp_path / "entregas", tmp_path / "notas"
    ana = hand_in(entregas, "ana", {C323: solved(C323)})
    copied = ana / C323.lab.relative_to(REPO)
    done = ana / ".compmath" / C323.id / "solucion.py"  # her workspace, once she asked for it
    done.parent.mkdir(parents=True)
    done.write_text(C323.lab.read_text("utf-8"), encoding="utf-8")
    hand_in(entregas, "beto", {C323: solved(C323)})
    hole = thief(copied, out, anywhere=anywhere)
    hand_in(entregas, "copion", {C323: with_hole(C323, 1, hole)})
    (out / "alumnos").mkdir(parents=True)  # left by an earlier grading (unusable: graded again)
    (out / "alumnos" / "zoe.json").write_text('{"alumno": "zoe"}', encoding="utf-8")
    return entregas, out


def graded(cli, entregas: Path, out: Path, *extra: str) -> str:
    result = grade(cli, entregas, out, "--clases", "323", "--timeout", "20", *extra)
    text = no_traceback(result)
    assert result.code == 0, text
    return text


@pytest.mark.lento
@pytest.mark.parametrize("sin", ["", "mountns", "pidns", "landlock"])
def test_a_copier_reads_nothing_of_anyone(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sin: str
) -> None:
    """Full isolation, Landlock alone (its reads confined to what Python needs; with the
    system's /proc where there is no PID namespace), or the mount namespace alone (the named folders empty: the submissions, the grades, the course's labs,
    the cache, the run's programs): the copier's hole fails, the others' do not. Only Landlock
    keeps out a walk from `/`, which would find a copy of the course elsewhere on the disk."""
    if sin:
        monkeypatch.setenv("COMPMATH_SIN", sin)
    # the next workers start with this test's layers, not with those of a worker an earlier
    # test left running (started under another COMPMATH_SIN, it trusts no bytecode cache)
    pool.shutdown()
    monkeypatch.chdir(tmp_path)  # the relative path starts where the grading was launched
    landlock = sin != "landlock"
    if landlock:  # the course's lab compiled into the cache, as any earlier run leaves it
        assert cli("check", "323", "--root", str(REPO)).code == 0
        assert list((cache_dir() / "bytecode").glob("*.pyc"))
    entregas, out = classroom(tmp_path, anywhere=landlock)
    graded(cli, entregas, out, *(["--sin-aislamiento-completo"] if sin else []))
    assert holes_of(out, "ana")["323"] == [("bien", 1), ("bien", 1)]
    assert holes_of(out, "beto")["323"] == [("bien", 1), ("bien", 1)]
    copier = record(out, "copion")["clases"][0]
    assert [h["obtenidos"] for h in copier["huecos"]] == [0, 1], copier
    seen = copier["salida_del_alumno"]
    assert "LEIDO" not in seen, seen
    tried = (
        "absoluta",
        "relativa",
        "relativa desde su carpeta",
        "/proc/self/cwd",
        "/proc del ejecutor",
        "curso",
        "solucion de ana",
    )
    assert all(f"{attempt}: nada" in seen for attempt in tried), seen
    assert "notas: 0 archivos" in seen, seen
    if landlock:  # not even `/` can be listed, nor the cache, nor any run's programs
        assert "os.walk: 0 carpetas" in seen and "bytecode: nada" in seen, seen
        assert "otros programas: 0 archivos" in seen, seen


@pytest.mark.lento
def test_without_either_layer_the_copier_would_copy(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same copier where neither Landlock nor a mount namespace exists (COMPMATH_SIN):
    it reads ana's file and gets her marks, and the grading says which protections were
    missing. This is what the two layers above stop."""
    monkeypatch.setenv("COMPMATH_SIN", "landlock,mountns")
    pool.shutdown()
    monkeypatch.chdir(tmp_path)
    entregas, out = classroom(tmp_path, anywhere=False)
    text = graded(cli, entregas, out, "--sin-aislamiento-completo")
    assert "protecciones ausentes" in text and "leer las entregas de otros" in text
    copier = record(out, "copion")["clases"][0]
    assert "notas: LEIDO" in copier["salida_del_alumno"]  # zoe's record, at least
    assert "absoluta: LEIDO" in copier["salida_del_alumno"]
    assert [h["obtenidos"] for h in copier["huecos"]] == [1, 1]


def test_a_hidden_folder_inside_a_readable_root_is_carved_out(tmp_path: Path) -> None:
    """Submissions kept, say, beside Python's own files: the root Python needs is replaced by
    its other entries, down to the hidden folder, which stays out; a root inside it goes."""
    for folder in ("lib/python", "lib/cursos/entregas/ana", "lib/cursos/otro", "share"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "lib" / "cursos" / "LEEME").write_text("x")
    hidden = [str(tmp_path / "lib" / "cursos" / "entregas")]
    roots = [str(tmp_path), str(tmp_path / "lib" / "cursos" / "entregas" / "ana")]
    assert carve(roots, hidden) == [
        str(tmp_path / "lib" / "cursos" / "LEEME"),
        str(tmp_path / "lib" / "cursos" / "otro"),
        str(tmp_path / "lib" / "python"),
        str(tmp_path / "share"),
    ]
    assert carve([str(tmp_path / "share")], hidden) == [str(tmp_path / "share")]
