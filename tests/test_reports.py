"""The machine-readable reports: `--json` against its schema, JUnit XML against junit-10.xsd."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import REPO
from tests.test_fallbacks import EXPECTED

REPORT_SCHEMA = json.loads((REPO / "compmath" / "contracts" / "report.schema.json").read_text())


@pytest.mark.lento  # seconds: out of the quick loop
def test_check_json_validates_against_report_schema(cli, fake_course: Path) -> None:
    result = cli("check", "--root", str(fake_course), "--json", "--timeout", "1")
    report = json.loads(result.out)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    outcomes = {c["clase"]: c["resultado"] for c in report["clases"]}
    assert outcomes == EXPECTED  # the fake course's outcome per class (test_fallbacks)
    assert report["resumen"]["fallidos"] == 6 and result.code == 1
    by_class = {c["clase"]: c for c in report["clases"]}
    stopped = by_class["905-cuelga"]["lugar"]  # where the timed-out lab was, as fields
    assert stopped["archivo"] == "lab.py" and stopped["linea"] >= 1 and stopped["funcion"], stopped
    assert by_class["901-pasa"]["lugar"] is None
    drift = by_class["904-deriva"]["diferencias"]
    assert drift and all(d["salida"] == d["ruta"].split(".")[1].split("[")[0] for d in drift)


def test_run_json_has_the_same_shape(cli, fake_course: Path) -> None:
    result = cli("run", "901", "--root", str(fake_course), "--json")
    report = json.loads(result.out)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    assert report["clases"][0]["salidas"] == {
        "n": 4,
        "mitad": 2.0,
        "vector": [0.0, 0.333333, 0.666667, 1.0],
    }


@pytest.mark.lento  # seconds: out of the quick loop
def test_junit_xml_is_valid_and_carries_differences(cli, fake_course: Path, tmp_path: Path) -> None:
    xmlschema = pytest.importorskip("xmlschema")
    target = tmp_path / "informe.xml"
    result = cli("check", "--root", str(fake_course), "--junit-xml", str(target), "--timeout", "1")
    assert result.code == 1
    schema = xmlschema.XMLSchema(str(REPO / "tests" / "data" / "junit-10.xsd"))
    schema.validate(str(target))
    text = target.read_text()
    assert 'tests="8" failures="2" errors="4"' in text
    assert "salida.mitad: esperado 1,5, obtenido 1,6" in text
    assert '<testcase name="901-pasa"' in text


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_junit_text_survives_control_characters(make_lab, cli, tmp_path: Path) -> None:
    xmlschema = pytest.importorskip("xmlschema")
    root = make_lab(
        951,
        "import os\ndef run() -> dict:\n    print('a\\x00b\\x1b[31m')\n"
        "    return {'n': 1, 'mitad': 0.5, 'vector': []}\n",
    )
    target = tmp_path / "informe.xml"
    cli("check", "951", "--root", str(root), "--junit-xml", str(target))
    xmlschema.XMLSchema(str(REPO / "tests" / "data" / "junit-10.xsd")).validate(str(target))
