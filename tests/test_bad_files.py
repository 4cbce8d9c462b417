"""Broken class files: empty, unparseable, the wrong type or inconsistent, through run and check.

`run` stops with one `error:` line naming the file (and the line when the parser gives one), exit 2.
`check` reports the class as `configuracion`, still runs the others, and exits 2 at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART

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
    "class-no-toml": (CLASS, lambda t: 'numero = 901\ntitulo = "sin cerrar\n',
                      ["901-pasa/class.toml", "no es TOML válido", "línea 2"]),
    "class-numero-texto": (CLASS, lambda t: _edit(t, "numero = 901", 'numero = "x"'),
                           ["901-pasa/class.toml no cumple su esquema", "numero", "entero"]),
    "class-decimales-texto": (CLASS, lambda t: 'decimales = "x"\n' + t,
                              ["901-pasa/class.toml no cumple su esquema", "decimales"]),
    "class-titulo-lista": (CLASS, lambda t: _edit(t, 'titulo = "Un laboratorio que pasa"', "titulo = [1]"),
                           ["901-pasa/class.toml no cumple su esquema", "titulo"]),
    "class-salidas-texto": (CLASS, lambda t: (t.split("[[salidas]]")[0] + 'salidas = "n"\n'
                                                + "[[bibliografia]]" + t.split("[[bibliografia]]")[1]),
                            ["901-pasa/class.toml no cumple su esquema", "salidas"]),
    "class-otro-numero": (CLASS, lambda t: _edit(t, "numero = 901", "numero = 999"),
                          ["901-pasa/class.toml dice numero = 999", "901-pasa"]),
    "class-tolerancia-de-nada": (CLASS, lambda t: t + '\n[[salidas]]\nnombre = "fantasma"\n'
                                 'descripcion = "no existe"\ntolerancia = { atol = 0.1 }\n',
                                 ["901-pasa/class.toml declara tolerancia para «fantasma»"]),
    "part-vacio": (PART, lambda t: "", ["part.toml", "está vacío"]),
    "part-no-toml": (PART, lambda t: "numero = 90\n[[plan]\n", ["part.toml", "no es TOML válido", "línea 2"]),
    "part-plan-texto": (PART, lambda t: t.split("[[plan]]")[0] + 'plan = "x"\n',
                        ["part.toml no cumple su esquema", "plan", "lista"]),
    "part-plan-numeros": (PART, lambda t: t.split("[[plan]]")[0] + "plan = [901, 902]\n",
                          ["part.toml no cumple su esquema", "plan"]),
    "part-titulo-lista": (PART, lambda t: _edit(t, 'titulo = "Curso de prueba"', 'titulo = ["a"]'),
                          ["part.toml no cumple su esquema", "titulo"]),
    "part-otro-numero": (PART, lambda t: _edit(t, "numero = 90\n", "numero = 91\n"),
                         ["part.toml dice numero = 91", "part-90"]),
    "esquema-vacio": (SCHEMA, lambda t: "", ["901-pasa.schema.json", "no es JSON válido", "línea 1"]),
    "esquema-no-json": (SCHEMA, lambda t: '{\n  "type": "object",\n  vaya\n}\n',
                        ["901-pasa.schema.json", "no es JSON válido", "línea 3"]),
    "esquema-lista": (SCHEMA, lambda t: "[]\n", ["901-pasa.schema.json no es un JSON Schema válido"]),
    "esquema-tipo-inventado": (SCHEMA, lambda t: '{"type": "objeto"}', ["901-pasa.schema.json no es un JSON Schema válido"]),
    "esquema-ref-a-nada": (SCHEMA, lambda t: '{"$ref": "#/$defs/nada"}',
                           ["901-pasa.schema.json no se puede aplicar", "nada"]),
    "instantanea-vacia": (SNAPSHOT, lambda t: "", ["901-pasa/expected.json", "está vacío", "compmath update 901"]),
    "instantanea-no-json": (SNAPSHOT, lambda t: '{\n  "n": 4,\n', ["901-pasa/expected.json", "corrupta", "línea 3"]),
    "instantanea-lista": (SNAPSHOT, lambda t: "[1, 2]\n", ["901-pasa/expected.json", "no es un objeto JSON"]),
    "instantanea-nan": (SNAPSHOT, lambda t: _edit(t, '"mitad": 2.0', '"mitad": NaN'),
                        ["901-pasa/expected.json", "nan en salida.mitad", "compmath update 901"]),
}


def break_file(root: Path, case: str) -> tuple[Path, bytes]:
    relative, rewrite, _ = CASES[case]
    path = root / relative
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path, path.read_bytes()


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("case", list(CASES))
def test_run_names_the_broken_file_and_exits_2(cli, fake_course: Path, case: str) -> None:
    path, broken = break_file(fake_course, case)
    for extra in ([], ["--json"]):
        result = cli("run", "901", "--root", str(fake_course), *extra)
        assert result.code == 2, result.out + result.err
        assert "Traceback" not in result.out + result.err
        shown = one_line(result.err if not extra else json.loads(result.out)["clases"][0]["mensaje"])
        if not extra:
            assert result.err.startswith("error: ")
        for phrase in CASES[case][2]:
            assert phrase in shown
    assert path.read_bytes() == broken  # nothing rewrites the broken file


@pytest.mark.parametrize("case", list(CASES))
def test_check_reports_configuracion_and_runs_the_others(cli, fake_course: Path, case: str) -> None:
    path, broken = break_file(fake_course, case)
    result = cli("check", "901", "902", "906", "--root", str(fake_course), "--json", "--timeout", "10")
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
    assert "3 laboratorios" not in result.out and "2 laboratorios: 1 correcto, 1 falla" in result.out
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
