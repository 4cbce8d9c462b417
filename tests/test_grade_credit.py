"""Partial credit where the instructor asks for it: a hole is all or nothing by default, and in a
class with `[practica] credito = "proporcional"` it earns the share of the parameters it matches;
the feedback, notas.csv and informe.json say which."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import FAKE_PART, REPO
from tests.fake_holes import grade_901, hand_in_901


@pytest.mark.lento  # grades the fake course twice: all or nothing, then proportional
def test_credit_is_all_or_nothing_unless_the_class_asks_for_proportional(
    cli, fake_course: Path, tmp_path: Path
) -> None:
    entregas = tmp_path / "entregas"
    hand_in_901(fake_course, entregas, "ana", "mitad = n * escala")
    hand_in_901(fake_course, entregas, "beto", "mitad = n * 0.5")  # right at the defaults only
    hand_in_901(fake_course, entregas, "carla", "mitad = 0.0")  # right nowhere
    schema = json.loads((REPO / "compmath" / "contracts" / "grade.schema.json").read_text("utf-8"))
    toml = fake_course / "classes" / FAKE_PART / "901-pasa" / "class.toml"
    found = {}
    for credit in ("", "proporcional"):
        if credit:
            text = toml.read_text("utf-8").replace(
                "[practica]\n", f'[practica]\ncredito = "{credit}"\n'
            )
            toml.write_text(text, encoding="utf-8")
        out = tmp_path / f"notas-{credit or 'defecto'}"
        result = grade_901(cli, entregas, fake_course, out)
        assert result.code == 0, result.err
        report = json.loads((out / "informe.json").read_text("utf-8"))
        jsonschema.validate(report, schema)
        holes = {a["alumno"]: a["clases"][0]["huecos"][0] for a in report["alumnos"]}
        found[credit] = {
            "credito": report["clases"][0]["credito"],
            "obtenidos": {s: h["obtenidos"] for s, h in holes.items()},
            "variantes": {s: (h["variantes_superadas"], h["variantes"]) for s, h in holes.items()},
            "cabecera": (out / "notas.csv").read_text("utf-8").splitlines()[0],
            "beto": (out / "comentarios" / "beto.md").read_text("utf-8"),
        }
    plain, share = found[""], found["proporcional"]
    assert plain["credito"] == "todo_o_nada" and share["credito"] == "proporcional"
    assert plain["obtenidos"] == {"ana": 1, "beto": 0, "carla": 0}
    assert share["obtenidos"] == {"ana": 1, "beto": 0.5, "carla": 0}
    assert share["variantes"] == {"ana": (2, 2), "beto": (1, 2), "carla": (0, 2)}
    assert plain["cabecera"] == "alumno,901 hueco 1,901 total,total,maximo"
    assert share["cabecera"] == "alumno,901 hueco 1 (proporcional),901 total,total,maximo"
    assert "Crédito todo o nada" in plain["beto"]
    assert "Crédito proporcional" in share["beto"]
    assert "✗ Hueco 1 (1 punto): mal, 1 de 2 parámetros: 0,5 de 1 punto" in share["beto"]
