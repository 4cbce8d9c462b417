"""Broken class files: empty, unparseable, the wrong type or inconsistent, through run and check.

`run` stops with one `error:` line naming the file (and the line when the parser gives one, shown
under it with a caret), exit 2. `check` reports the class as `configuracion`, still runs the
others, and exits 2 at the end. `list` shows it as `rota`. What tomllib, json and Python's parser
say reaches the user in Spanish only; a lab run without compmath installed says how to install it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART, REPO

CLASS = f"classes/{FAKE_PART}/901-pasa/class.toml"
PART = f"classes/{FAKE_PART}/part.toml"
SCHEMA = "schemas/901-pasa.schema.json"
SNAPSHOT = f"classes/{FAKE_PART}/901-pasa/expected.json"


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


# case id -> (file, how to rewrite its text, phrases of the error)
CASES = {
    "class-vacio": (CLASS, lambda t: "", ["901-pasa/class.toml", "está vacío"]),
    "class-no-toml": (
        CLASS,
        lambda t: 'numero = 901\ntitulo = "sin cerrar\n',
        [
            "901-pasa/class.toml",
            "no es TOML válido",
            "falta la comilla de cierre",
            "línea 2, columna 21",
        ],
    ),
    "class-clave-repetida": (
        CLASS,
        lambda t: _edit(t, "numero = 901\n", "numero = 901\nnumero = 901\n"),
        ["901-pasa/class.toml", "no es TOML válido", "está repetida"],
    ),
    "class-sin-igual": (
        CLASS,
        lambda t: _edit(t, 'demo = "pasa"', 'demo "pasa"'),
        ["901-pasa/class.toml", "falta «=» después de la clave", "línea 3, columna 6"],
    ),
    "class-numero-texto": (
        CLASS,
        lambda t: _edit(t, "numero = 901", 'numero = "x"'),
        ["901-pasa/class.toml no cumple su esquema", "numero", "entero"],
    ),
    "class-decimales-texto": (
        CLASS,
        lambda t: 'decimales = "x"\n' + t,
        ["901-pasa/class.toml no cumple su esquema", "decimales"],
    ),
    "class-titulo-lista": (
        CLASS,
        lambda t: _edit(t, 'titulo = "Un laboratorio que pasa"', "titulo = [1]"),
        ["901-pasa/class.toml no cumple su esquema", "titulo"],
    ),
    "class-salidas-texto": (
        CLASS,
        lambda t: (
            t.split("[[salidas]]")[0]
            + 'salidas = "n"\n'
            + "[[bibliografia]]"
            + t.split("[[bibliografia]]")[1]
        ),
        ["901-pasa/class.toml no cumple su esquema", "salidas"],
    ),
    "class-otro-numero": (
        CLASS,
        lambda t: _edit(t, "numero = 901", "numero = 999"),
        ["901-pasa/class.toml dice numero = 999", "901-pasa"],
    ),
    "class-tolerancia-de-nada": (
        CLASS,
        lambda t: (
            t + '\n[[salidas]]\nnombre = "fantasma"\n'
            'descripcion = "no existe"\ntolerancia = { atol = 0.1 }\n'
        ),
        ["901-pasa/class.toml declara tolerancia para «fantasma»"],
    ),
    "part-vacio": (PART, lambda t: "", ["part.toml", "está vacío"]),
    "part-no-toml": (
        PART,
        lambda t: "numero = 90\n[[plan]\n",
        ["part.toml", "no es TOML válido", "línea 2"],
    ),
    "part-plan-texto": (
        PART,
        lambda t: t.split("[[plan]]")[0] + 'plan = "x"\n',
        ["part.toml no cumple su esquema", "plan", "lista"],
    ),
    "part-plan-numeros": (
        PART,
        lambda t: t.split("[[plan]]")[0] + "plan = [901, 902]\n",
        ["part.toml no cumple su esquema", "plan"],
    ),
    "part-titulo-lista": (
        PART,
        lambda t: _edit(t, 'titulo = "Curso de prueba"', 'titulo = ["a"]'),
        ["part.toml no cumple su esquema", "titulo"],
    ),
    "part-otro-numero": (
        PART,
        lambda t: _edit(t, "numero = 90\n", "numero = 91\n"),
        ["part.toml dice numero = 91", "part-90"],
    ),
    "esquema-vacio": (
        SCHEMA,
        lambda t: "",
        ["901-pasa.schema.json", "no es JSON válido", "línea 1"],
    ),
    "esquema-no-json": (
        SCHEMA,
        lambda t: '{\n  "type": "object",\n  vaya\n}\n',
        [
            "901-pasa.schema.json",
            "no es JSON válido",
            "nombre de una clave entre comillas",
            "línea 3, columna 3",
        ],
    ),
    "esquema-sin-coma": (
        SCHEMA,
        lambda t: '{\n  "type": "object"\n  "required": []\n}\n',
        ["901-pasa.schema.json", "falta una coma", "línea 3, columna 3"],
    ),
    "esquema-lista": (
        SCHEMA,
        lambda t: "[]\n",
        ["901-pasa.schema.json no es un JSON Schema válido"],
    ),
    "esquema-tipo-inventado": (
        SCHEMA,
        lambda t: '{"type": "objeto"}',
        ["901-pasa.schema.json no es un JSON Schema válido"],
    ),
    "esquema-ref-a-nada": (
        SCHEMA,
        lambda t: '{"$ref": "#/$defs/nada"}',
        ["901-pasa.schema.json no se puede aplicar", "nada"],
    ),
    "instantanea-vacia": (
        SNAPSHOT,
        lambda t: "",
        ["901-pasa/expected.json", "está vacío", "compmath update 901"],
    ),
    "instantanea-no-json": (
        SNAPSHOT,
        lambda t: '{\n  "n": 4,\n',
        ["901-pasa/expected.json", "corrupta", "línea 2, columna 10"],
    ),
    "instantanea-coma-final": (
        SNAPSHOT,
        lambda t: '{\n  "n": 4,\n}\n',
        ["901-pasa/expected.json", "corrupta", "coma sobrante antes de «}»", "línea 3, columna 1"],
    ),
    "instantanea-lista": (
        SNAPSHOT,
        lambda t: "[1, 2]\n",
        ["901-pasa/expected.json", "no es un objeto JSON"],
    ),
    "instantanea-nan": (
        SNAPSHOT,
        lambda t: _edit(t, '"mitad": 2.0', '"mitad": NaN'),
        ["901-pasa/expected.json", "nan en salida.mitad", "regenéralo: compmath update 901"],
    ),
}


def break_file(root: Path, case: str) -> tuple[Path, bytes]:
    relative, rewrite, _ = CASES[case]
    path = root / relative
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path, path.read_bytes()


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.lento  # seconds: out of the quick loop
def test_run_names_the_broken_file_and_exits_2(cli, fake_course: Path, case: str) -> None:
    path, broken = break_file(fake_course, case)
    for extra in ([], ["--json"]):
        result = cli("run", "901", "--root", str(fake_course), *extra)
        assert result.code == 2, result.out + result.err
        assert "Traceback" not in result.out + result.err
        shown = one_line(
            result.err if not extra else json.loads(result.out)["clases"][0]["mensaje"]
        )
        if not extra:
            assert result.err.startswith("error: ")
        for phrase in CASES[case][2]:
            assert phrase in shown
    assert path.read_bytes() == broken  # nothing rewrites the broken file


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.lento  # seconds: out of the quick loop
def test_check_reports_configuracion_and_runs_the_others(cli, fake_course: Path, case: str) -> None:
    path, broken = break_file(fake_course, case)
    result = cli(
        "check", "901", "902", "906", "--root", str(fake_course), "--json", "--timeout", "10"
    )
    assert result.code == 2, result.out + result.err
    assert "Traceback" not in result.err
    classes = {c["numero"]: c for c in json.loads(result.out)["clases"]}
    assert classes[901]["resultado"] == "configuracion"
    for phrase in CASES[case][2]:
        assert phrase in one_line(classes[901]["mensaje"])
    if path.name == "part.toml":  # the whole part is affected
        assert {c["resultado"] for c in classes.values()} == {"configuracion"}
    else:
        assert classes[902]["resultado"] == "excepcion"
        assert classes[906]["resultado"] == "coincide"
    assert path.read_bytes() == broken


def test_check_text_summary_with_a_broken_class(cli, fake_course: Path) -> None:
    break_file(fake_course, "class-no-toml")
    result = cli("check", "901", "906", "--root", str(fake_course))
    assert result.code == 2
    assert (
        "3 laboratorios" not in result.out and "2 laboratorios: 1 correcto, 1 falla" in result.out
    )
    assert "no es TOML válido" in one_line(result.out)
    assert "siguiente: compmath run 901" in result.out


def test_update_with_broken_metadata_is_a_setup_error(cli, fake_course) -> None:
    """`update` refuses to write, and a broken class file is exit 2 like in run and check."""
    meta = fake_course / "classes" / "part-90-curso-de-prueba" / "901-pasa" / "class.toml"
    snap = meta.parent / "expected.json"
    before = snap.read_bytes()
    meta.write_text("numero = \n", encoding="utf-8")
    result = cli("update", "901", "--root", str(fake_course))
    assert result.code == 2
    assert "class.toml" in result.out and "no se escribe la instantánea" in result.out
    assert snap.read_bytes() == before


# What tomllib, json and Python's parser say in English; none of it may reach the user.
ENGLISH = re.compile(
    r"\b(line|column|Illegal|character|Expecting|property|enclosed|quotes|delimiter|Extra data|"
    r"Unterminated|unterminated|Invalid|invalid|syntax|never closed|unmatched|expected(?!\.json)|"
    r"indent|unindent|literal|Perhaps|Maybe|cannot|assign|end of document|Traceback|File)\b"
)


@pytest.mark.lento  # every broken file through run, check, lint and list -v
@pytest.mark.parametrize("case", list(CASES))
def test_no_english_from_the_parsers_reaches_the_user(cli, fake_course: Path, case: str) -> None:
    break_file(fake_course, case)
    for args in (["run", "901"], ["check", "901"], ["lint"], ["list", "-v"]):
        result = cli(*args, "--root", str(fake_course))
        shown = result.out + result.err
        assert ENGLISH.search(shown) is None, (args, shown)


@pytest.mark.parametrize("case", ["class-no-toml", "esquema-no-json", "instantanea-no-json"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_a_parse_error_shows_its_line_and_a_caret(
    cli, fake_course: Path, monkeypatch, case: str, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    break_file(fake_course, case)
    err = cli("run", "901", "--root", str(fake_course)).err
    lines = err.splitlines()
    code = next(i for i, ln in enumerate(lines) if re.match(r" +\d+ │ ", ln))
    caret = lines[code + 1]
    assert re.fullmatch(r" +│ *\^", caret), err
    _, number, column = re.search(r"línea (\d+)(?:, columna (\d+))?", one_line(err)).group(0, 1, 2)
    assert lines[code].split("│")[0].strip() == number
    text = (fake_course / CASES[case][0]).read_text(encoding="utf-8").splitlines()[int(number) - 1]
    assert lines[code].split("│ ", 1)[1] == text  # the file's own line, untouched
    if column:
        assert caret.index("^") - caret.index("│") - 2 == int(column) - 1
    assert all(len(ln) <= width for ln in lines)


@pytest.mark.parametrize("case", [c for c in CASES if CASES[c][0] == CLASS])
@pytest.mark.lento  # seconds: out of the quick loop
def test_list_shows_a_broken_class_as_rota_and_says_why_with_v(
    cli, fake_course: Path, case: str
) -> None:
    break_file(fake_course, case)
    out = cli("list", "--root", str(fake_course)).out
    row = next(ln for ln in out.splitlines() if ln.startswith("901 "))
    assert row.split()[-1] == "rota", out
    assert "compmath list -v" in out
    verbose = one_line(cli("list", "-v", "--root", str(fake_course)).out)
    assert "✗ 901: " in verbose and CASES[case][2][-1] in verbose
    listed = json.loads(cli("list", "--json", "--root", str(fake_course)).out)
    (entry,) = [c for p in listed["partes"] for c in p["clases"] if c["numero"] == 901]
    assert entry["estado"] == "rota" and entry["motivo"]
    healthy = next(ln for ln in out.splitlines() if ln.startswith("902 "))
    assert healthy.split()[-1] == "lista"


# lab source -> (the Spanish cause, the line it names)
SYNTAX = {
    "parentesis": ("def run() -> dict:\n    return {'n': (2}\n", "«}» no cierra el «(» abierto", 2),
    "sin-cerrar": (
        "def run() -> dict:\n    x = (1,\n    return {}\n",
        "«(» se abrió y no se cerró nunca",
        2,
    ),
    "dos-puntos": ("def run() -> dict\n    return {}\n", "falta «:»", 1),
    "sangria": ("def run() -> dict:\n    x = 1\n      return {}\n", "sangría inesperada", 3),
    "desangrado": (
        "def run() -> dict:\n    if True:\n        x = 1\n      return {}\n",
        "la sangría no coincide con la de ningún bloque exterior",
        4,
    ),
    "bloque": (
        "def run() -> dict:\n    if True:\n    return {}\n",
        "falta el bloque sangrado después del «if» de la línea 2",
        3,
    ),
    "texto": ("def run() -> dict:\n    return {'n': 'abc}\n", "texto sin cerrar", 2),
    "coma": (
        "def run() -> dict:\n    return {'n': [1 2]}\n",
        "sintaxis no válida: ¿falta una coma?",
        2,
    ),
    "asignar": (
        "def run() -> dict:\n    f() = 3\n    return {}\n",
        "no se puede asignar a una llamada a función",
        2,
    ),
    "cerrar-de-mas": (
        "def run() -> dict:\n    return {'n': 1})\n",
        "«)» cierra algo que no se abrió",
        2,
    ),
}


@pytest.mark.parametrize("case", list(SYNTAX))
@pytest.mark.lento  # seconds: out of the quick loop
def test_a_syntax_error_in_a_lab_is_told_in_spanish(cli, make_lab, monkeypatch, case: str) -> None:
    source, cause, line = SYNTAX[case]
    root = make_lab(951, source, expected={"n": 1})
    monkeypatch.setenv("COLUMNS", "60")
    result = cli("run", "951", "--root", str(root))
    assert result.code == 1
    out = one_line(result.out)
    assert f"error de sintaxis: {cause}" in out and f"(lab.py, línea {line}" in out, result.out
    assert f"{line} │ " in result.out and re.search(r"\n +│ *\^\n", result.out)
    assert ENGLISH.search(result.out + result.err) is None, result.out
    (report,) = json.loads(cli("run", "951", "--root", str(root), "--json").out)["clases"]
    assert report["lugar"]["archivo"] == "lab.py" and report["lugar"]["linea"] == line


@pytest.mark.parametrize("width", [40, 120])
def test_a_syntax_error_is_drawn_from_its_fields_at_the_screen_width(
    cli, make_lab, monkeypatch, width: int
) -> None:
    """The place travels as fields (line, column, text), so a narrow screen wraps the line
    and keeps the caret under the column the error names, inside the width."""
    padding = "x" * 70
    root = make_lab(951, f"def run() -> dict:\n    return {{'{padding}': (2}}\n", expected={"n": 1})
    monkeypatch.setenv("COLUMNS", str(width))
    out = cli("run", "951", "--root", str(root)).out
    lines = out.splitlines()
    assert all(len(ln) <= width for ln in lines), out
    (caret,) = [k for k, ln in enumerate(lines) if re.fullmatch(r" +│ *\^", ln)]
    assert lines[caret - 1].rstrip().endswith("(2}") or lines[caret - 1].rstrip().endswith("}")


FORGED_SYNTAX = """\
import json, os


def run() -> dict:
    result = {"state": "exception", "error_type": "SyntaxError", "message": "no es verdad",
              "error_line": LINE, "error_column": -4, "error_text": TEXT}
    os.write(3, json.dumps(result).encode())
    os._exit(0)
"""


@pytest.mark.parametrize("line", [0, -3, 7])
def test_a_lab_that_forges_a_syntax_error_place_gets_no_more_than_its_own_line(
    cli, make_lab, monkeypatch, line: int
) -> None:
    """A lab writes its own reply claiming a syntax error at a line that is no place, or with
    a line of 100,000 characters, an escape sequence and a second line: no place is drawn for
    a line below 1, the text is cut to one line of 400 characters and escapes are shown."""
    text = "\x1b]52;c;aGk=\x07" + "a" * 100_000 + "\nsegunda línea"
    source = FORGED_SYNTAX.replace("LINE", str(line)).replace("TEXT", repr(text))
    root = make_lab(952, source, expected={"n": 1})
    monkeypatch.setenv("COLUMNS", "60")
    result = cli("run", "952", "--root", str(root))
    assert result.code == 1 and "Traceback" not in result.out + result.err
    assert "\x1b" not in result.out and "segunda línea" not in result.out
    drawn = [ln for ln in result.out.splitlines() if " │ " in ln or ln.strip() == "│ ^"]
    if line < 1:
        assert not any(ln.lstrip().startswith(f"{line} │") for ln in drawn), result.out
    else:
        assert f"{line} │ \\x1b]52" in result.out, result.out
        assert result.out.count("a") < 1000, "the forged line was not cut"


BLOCK_COMPMATH = """
import importlib.abc, runpy, sys
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "compmath" or name.startswith("compmath."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
for module in [m for m in sys.modules if m.startswith("compmath")]:
    del sys.modules[module]
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.lento  # a Python start per lab
@pytest.mark.parametrize(
    "lab", sorted(REPO.glob("classes/*/*/lab.py")), ids=lambda p: p.parent.name[:3]
)
def test_a_lab_run_without_compmath_says_how_to_install_it(lab: Path, tmp_path: Path) -> None:
    """`python lab.py` where compmath cannot be imported: one Spanish line, exit 1."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_COMPMATH, str(lab)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "error: falta compmath; instálalo en la raíz del curso: pip install .\n"


def _raised(source: str) -> BaseException:
    import numpy as np

    try:
        exec(source, {"np": np})
    except Exception as exc:  # the exception Python or numpy really raise, in this version
        return exc
    raise AssertionError(f"{source} did not raise")


# code that fails as a student's code does -> words the Spanish must hold
RAISED = {
    "1 / 0": "división entre cero",
    "[1, 2][5]": "índice fuera de la lista",
    "np.zeros(3)[5]": "el índice 5 se sale del eje 0, de tamaño 3",
    "np.zeros(3) + np.zeros(4)": "no se pueden operar arrays de formas (3,) y (4,)",
    "np.zeros((2, 3)) @ np.zeros((4, 2))": "la dimensión interior no coincide (3 columnas frente a 4 filas)",
    "np.dot(np.zeros((2, 3)), np.zeros((4, 2)))": "formas (2,3) y (4,2) incompatibles",
    "a = np.zeros((6, 8)); a[:] = np.zeros((6, 4))": "de forma (6,4) en uno de forma (6,8)",
    "np.zeros(12).reshape(5, 3)": "un array de 12 elementos no cabe en la forma (5,3)",
    "np.linalg.inv(np.zeros((2, 2)))": "la matriz es singular",
    "nombre_sin_definir + 1": "«nombre_sin_definir» no está definido",
    "x = None; x[0]": "un objeto «NoneType» no admite índices",
    "1 + 'a'": "no se puede aplicar + a «int» y «str»",
    "a, b, c = (1, 2)": "faltan valores para desempaquetar: se esperaban 3 y hay 2",
    "np.zeros(3).suma()": "un objeto «numpy.ndarray» no tiene el atributo «suma»",
}


@pytest.mark.parametrize("source", list(RAISED))
def test_what_python_and_numpy_say_reaches_the_student_in_spanish(source: str) -> None:
    """The messages of the errors students meet most, raised for real by this Python and numpy
    (a new version that rewords one makes this fail, rather than the English coming back)."""
    from compmath.errors_es import runtime_message

    said = runtime_message(str(_raised(source)))
    assert RAISED[source] in said, said
    assert ENGLISH.search(said) is None


def test_a_message_not_known_stays_as_written() -> None:
    from compmath.errors_es import runtime_message

    assert runtime_message("la dimensión debe ser par") == "la dimensión debe ser par"
    assert runtime_message("something else entirely") == "something else entirely"
