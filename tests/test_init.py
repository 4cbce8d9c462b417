"""`compmath init`: a course outside this repository, checked against the contracts the package
carries; the typo this repository refuses is refused there too; lint guards labs' imports."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

from compmath import contracts
from compmath.authoring.contract_checks import imported
from tests.conftest import REPO

PART = "part-01-primera-parte"
CLASS = f"classes/{PART}/101-media-y-varianza"


@pytest.fixture
def course(cli, tmp_path: Path) -> Path:
    root = tmp_path / "mi-curso"
    result = cli("init", str(root), "--titulo", "Estadística básica")
    assert result.code == 0, result.err
    assert not root.resolve().is_relative_to(REPO)
    return root


def _contract(name: str) -> dict:
    return json.loads(contracts.path(name).read_text(encoding="utf-8"))


def test_the_contracts_are_package_data_not_files_of_a_course() -> None:
    assert contracts.FOLDER == REPO / "compmath" / "contracts"
    for name in contracts.NAMES:
        jsonschema.Draft202012Validator.check_schema(_contract(name))
    assert not any((REPO / "schemas" / contracts.file_name(n)).exists() for n in contracts.NAMES)
    assert not (REPO / "tests" / "fake_course" / "schemas" / "class.schema.json").exists()
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.schema.json" in pyproject["tool"]["setuptools"]["package-data"]["compmath.contracts"]


def test_every_generated_file_is_valid_against_its_schema(course: Path) -> None:
    toml = lambda rel: tomllib.loads((course / rel).read_text(encoding="utf-8"))  # noqa: E731
    jsonschema.validate(toml("curso.toml"), _contract("course"))
    jsonschema.validate(toml(f"classes/{PART}/part.toml"), _contract("part"))
    jsonschema.validate(toml(f"{CLASS}/class.toml"), _contract("class"))
    outputs = json.loads((course / "schemas/101-media-y-varianza.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(outputs)
    expected = json.loads((course / CLASS / "expected.json").read_text(encoding="utf-8"))
    jsonschema.validate(expected, outputs)
    assert expected["varianza_muestral"] == pytest.approx(32 / 7, abs=1e-6)  # the worked example
    assert list(expected) == [s["nombre"] for s in toml(f"{CLASS}/class.toml")["salidas"]]
    assert not (course / "schemas" / "class.schema.json").exists()  # the package's, not a copy
    for name in (".gitignore", "README.md", "requirements.txt"):
        assert (course / name).read_text(encoding="utf-8").strip()
    workflows = sorted(p.name for p in (course / ".github" / "workflows").iterdir())
    assert workflows == ["corregir.yml", "labs.yml", "web.yml"]


def test_the_snapshot_is_what_update_writes(cli, course: Path, monkeypatch) -> None:
    snapshot = course / CLASS / "expected.json"
    written = snapshot.read_bytes()
    snapshot.unlink()
    monkeypatch.chdir(course)
    assert cli("update", "101").code == 0
    assert snapshot.read_bytes() == written


@pytest.mark.lento  # a lint with its mutants, practice, site and grade: seconds under load
def test_the_course_passes_check_lint_practice_site_and_grade(
    cli, course: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(course)  # no --root: found from the current folder
    assert cli("check").code == 0
    lint = cli("lint")
    assert lint.code == 0, lint.out
    space = tmp_path / "practica"
    assert cli("practice", "start", str(space)).code == 0
    assert "### BEGIN SOLUTION" not in (space / CLASS / "lab.py").read_text(encoding="utf-8")
    site = cli("site", "--out", str(tmp_path / "web"))
    assert site.code == 0, site.err
    assert 'lang="es"' in (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    (tmp_path / "entregas").mkdir()
    shutil.copytree(space, tmp_path / "entregas" / "ana")
    graded = cli("grade", str(tmp_path / "entregas"), "--out", str(tmp_path / "notas"))
    assert graded.code == 0, graded.err
    assert (tmp_path / "notas" / "notas.csv").read_text(encoding="utf-8").startswith("alumno,")


def test_new_works_in_the_course_without_root(cli, course: Path, monkeypatch) -> None:
    monkeypatch.chdir(course / "classes")
    result = cli("new", "102", "hola", "--title", "Hola")
    assert result.code == 0, result.err
    assert (course / "classes" / PART / "102-hola" / "lab.py").exists()
    plan = tomllib.loads((course / "classes" / PART / "part.toml").read_text(encoding="utf-8"))
    assert [e["numero"] for e in plan["plan"]] == [101, 102]


def test_new_says_the_committed_notebooks_go_stale(cli, course: Path, monkeypatch) -> None:
    monkeypatch.chdir(course)
    assert cli("notebook", "--all").code == 0
    result = cli("new", "102", "hola", "--title", "Hola")
    assert result.code == 0 and "compmath notebook --all" in result.out
    assert cli("notebook", "101", "--check").code == 1  # 101's «siguiente» now names 102
    assert cli("notebook", "101").code == 0 and cli("notebook", "101", "--check").code == 0


def test_a_typo_in_class_toml_is_refused_in_a_course_made_by_init(cli, course: Path) -> None:
    meta = course / CLASS / "class.toml"
    text = meta.read_text(encoding="utf-8")
    meta.write_text(
        text.replace('nombre = "media"\n', 'nombre = "media"\ntolerancai = { rtol = 0.5 }\n'),
        "utf-8",
    )
    result = cli("run", "101", "--root", str(course))
    assert result.code == 2
    assert "tolerancai" in result.err and "class.schema.json" in result.err
    assert cli("lint", "--no-run", "--root", str(course)).code == 1


def test_a_course_copy_of_a_contract_neither_loosens_it_nor_passes_lint(cli, course: Path) -> None:
    meta = course / CLASS / "class.toml"
    text = meta.read_text(encoding="utf-8")
    meta.write_text(
        text.replace('nombre = "media"\n', 'nombre = "media"\ntolerancai = 1\n'), "utf-8"
    )
    lax = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
    (course / "schemas" / "class.schema.json").write_text(json.dumps(lax), encoding="utf-8")
    assert cli("run", "101", "--root", str(course)).code == 2
    meta.write_text(text, encoding="utf-8")
    lint = cli("lint", "--no-run", "--root", str(course))
    assert lint.code == 1 and "schemas/class.schema.json: es una copia de un contrato" in lint.out


def test_init_refuses_a_folder_that_is_not_empty_and_never_overwrites(cli, tmp_path: Path) -> None:
    folder = tmp_path / "ocupada"
    folder.mkdir()
    (folder / "README.md").write_text("mío\n", encoding="utf-8")
    refused = cli("init", str(folder))
    assert refused.code == 2 and "no está vacía" in refused.err and "--forzar" in refused.err
    forced = cli("init", str(folder), "--forzar")
    assert forced.code == 2 and "ya existe README.md" in forced.err
    assert [p.name for p in folder.iterdir()] == ["README.md"]
    assert (folder / "README.md").read_text(encoding="utf-8") == "mío\n"
    (folder / "README.md").unlink()
    (folder / "notas.txt").write_text("apuntes\n", encoding="utf-8")
    assert cli("init", str(folder), "--forzar", "--parte", "16", "Transformers").code == 0
    assert (folder / "notas.txt").read_text(encoding="utf-8") == "apuntes\n"
    assert (folder / "classes" / "part-16-transformers" / "321-media-y-varianza").is_dir()


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--parte", "0", "Nada"], "no está entre 1 y 49"),
        (["--parte", "1", " "], "el título de la parte está vacío"),
        (["--titulo", ""], "el título del curso está vacío"),
    ],
)
def test_init_refuses_bad_arguments_in_one_line(cli, tmp_path: Path, args, phrase) -> None:
    result = cli("init", str(tmp_path / "c"), *args)
    assert result.code == 2 and phrase in result.err and "Traceback" not in result.err
    assert not (tmp_path / "c").exists()


def test_init_refuses_under_ci(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert cli("init", str(tmp_path / "c")).code == 2 and not (tmp_path / "c").exists()


# --- lint: a lab imports numpy and the standard library only -------------------------------


def test_imports_are_read_from_the_source_also_inside_functions_and_by_name() -> None:
    source = (
        "import numpy as np\nimport os.path, json\nfrom __future__ import annotations\n"
        "def f():\n    from scipy import linalg\n    import importlib\n"
        "    return importlib.import_module('torch'), __import__('sympy')\n"
        "from . import vecino\n"
    )
    assert imported(source) == [
        ("numpy", 1),
        ("os.path", 2),
        ("json", 2),
        ("scipy", 5),
        ("importlib", 6),
        ("torch", 7),
        ("sympy", 7),
        ("", 8),
    ]


def test_lint_names_an_import_and_its_line_and_the_course_may_allow_it(cli, course: Path) -> None:
    lab = course / CLASS / "lab.py"
    text = lab.read_text(encoding="utf-8")
    lab.write_text(
        text.replace("import numpy as np\n", "import numpy as np\nfrom scipy import stats\n"),
        "utf-8",
    )
    lint = cli("lint", "--no-run", "--root", str(course))
    assert lint.code == 1
    assert (
        f"{CLASS}/lab.py: la línea 12 importa scipy, que no es numpy ni de la biblioteca estándar"
        in lint.out
    )
    assert 'importaciones_permitidas = ["scipy"]' in lint.out
    toml = course / "curso.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + 'importaciones_permitidas = ["scipy"]\n', "utf-8"
    )
    assert "importa scipy" not in cli("lint", "--no-run", "--root", str(course)).out


def test_the_real_labs_import_only_what_the_contract_allows(cli) -> None:
    from compmath.authoring.contract_checks import import_problems
    from compmath.course.tree import load_course

    assert import_problems(load_course(REPO)) == []


def test_an_installation_without_its_contract_refuses_rather_than_skips(
    cli, course: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(contracts, "FOLDER", tmp_path / "sin-contratos")
    result = cli("run", "101", "--root", str(course))
    assert result.code == 2 and "le falta class.schema.json" in result.err
    assert "reinstala compmath" in result.err


def test_python_lab_py_prints_the_snapshot_byte_for_byte(course: Path) -> None:
    import subprocess
    import sys

    lab = course / CLASS / "lab.py"
    proc = subprocess.run([sys.executable, str(lab)], capture_output=True, timeout=120, cwd=course)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (course / CLASS / "expected.json").read_bytes()
