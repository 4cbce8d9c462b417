"""`compmath diff` on a temporary git repository holding a copy of the fake course."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from compmath.course.records import Tolerance
from compmath.judging.compare import compare
from tests.conftest import FAKE, FAKE_PART, REPO

DIFF_SCHEMA = json.loads(
    (REPO / "compmath" / "contracts" / "diff.schema.json").read_text(encoding="utf-8")
)


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def commit(root: Path, message: str = "cambio") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake course copied into tmp_path, in a fresh git repository with one commit."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "curso"
    shutil.copytree(FAKE, root)
    git(root, "init", "-q")
    commit(root, "base")
    return root


def snap(root: Path, name: str) -> Path:
    return root / "classes" / FAKE_PART / name / "expected.json"


def edit(root: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite a class's expected.json as the snapshot writer would, after `change`."""
    path = snap(root, name)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def as_json(cli: Callable[..., Any], root: Path, *args: str) -> dict[str, Any]:
    result = cli("diff", "--root", str(root), "--json", *args)
    assert result.code == 0, result.err
    document: dict[str, Any] = json.loads(result.out)
    return document


def by_class(document: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {c["numero"]: c for c in document["clases"]}


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.__setitem__(key, value)


def test_nothing_changed(cli, repo: Path) -> None:
    result = cli("diff", "--root", str(repo), "--fail-on-change")
    assert result.code == 0, result.err
    assert "sin cambios: 8 clases (901, 902, 903, 904, 905, 906, 907, 908)" in result.out
    assert "ninguna instantánea cambió" in result.out


def test_value_beyond_tolerance_is_real(cli, repo: Path) -> None:
    edit(repo, "901-pasa", set_key("mitad", 2.5))
    (change,) = by_class(as_json(cli, repo))[901]["salidas"]
    assert change["ruta"] == "salida.mitad" and change["cambio"] == "valor"
    assert (change["antes"], change["despues"]) == (2.0, 2.5)
    assert change["cambio_absoluto"] == 0.5 and change["cambio_relativo"] == 0.25
    assert change["real"] is True
    result = cli("diff", "--root", str(repo))
    assert result.code == 0
    assert "901 Un laboratorio que pasa" in result.out
    assert re.search(
        r"mitad +cambia el valor +salida\.mitad +2,0 +2,5 +0,5 +25 % +✗ real", result.out
    )
    assert "sin cambios: 7 clases" in result.out and "hay cambios reales" in result.out


def test_change_within_tolerance_is_noise(cli, repo: Path) -> None:
    edit(repo, "904-deriva", set_key("mitad", 1.5000005))
    edit(repo, "901-pasa", lambda d: d["vector"].__setitem__(1, 0.3333335))
    classes = by_class(as_json(cli, repo))
    (change,) = classes[904]["salidas"]
    assert change["real"] is False and change["fuera_de_tolerancia"] == 0
    assert change["cambio_absoluto"] == 5e-07 and change["tolerancia"] == 2.5e-06
    assert classes[901]["salidas"][0]["ruta"] == "salida.vector[1]"
    result = cli("diff", "--root", str(repo), "--fail-on-change")
    assert result.code == 0
    assert "ruido (≤ tol 2,5·10⁻⁶)" in result.out and "solo ruido" in result.out


def test_worst_element_is_the_one_beyond_tolerance(cli, repo: Path) -> None:
    edit(repo, "901-pasa", set_key("vector", [0.0000001, 0.333333, 0.9, 1.0]))
    (change,) = by_class(as_json(cli, repo))[901]["salidas"]
    assert change["ruta"] == "salida.vector[2]" and change["despues"] == 0.9
    assert change["elementos_cambiados"] == 2 and change["fuera_de_tolerancia"] == 1
    assert change["detalle"] == "2 de 4 elementos cambian, 1 fuera de tolerancia"


def test_class_toml_tolerance_is_used(cli, repo: Path) -> None:
    toml = snap(repo, "901-pasa").parent / "class.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace(
            'donde_se_usa = "En los tests del ejecutor."',
            'donde_se_usa = "En los tests del ejecutor."\ntolerancia = { atol = 0.1 }',
        ),
        encoding="utf-8",
    )
    edit(repo, "901-pasa", set_key("mitad", 2.05))
    (change,) = by_class(as_json(cli, repo))[901]["salidas"]
    assert change["real"] is False and change["tolerancia"] > 0.1


def test_added_removed_type_and_shape(cli, repo: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        del data["n"]
        data["mitad"] = "1.0"
        data["vector"] = [1.0, 2.0]
        data["extra"] = [1, 2]

    edit(repo, "906-imprime", change)
    outputs = {o["salida"]: o for o in by_class(as_json(cli, repo))[906]["salidas"]}
    assert {k: o["cambio"] for k, o in outputs.items()} == {
        "n": "eliminada",
        "mitad": "tipo",
        "vector": "forma",
        "extra": "nueva",
    }
    assert (outputs["vector"]["antes"], outputs["vector"]["despues"]) == ([1.0], [1.0, 2.0])
    assert outputs["vector"]["detalle"] == "longitud 1 → 2"
    assert all(o["real"] for o in outputs.values())
    out = cli("diff", "--root", str(repo), "906").out
    for phrase in ("salida eliminada", "salida nueva", "cambia el tipo", "cambia la forma"):
        assert phrase in out


def test_new_and_deleted_class(cli, repo: Path) -> None:
    shutil.rmtree(snap(repo, "902-lanza").parent)
    new = snap(repo, "909-pendiente")
    new.parent.mkdir()
    new.write_text('{"a": 1, "b": 2}\n', encoding="utf-8")
    classes = by_class(as_json(cli, repo))
    assert classes[902]["estado"] == "eliminada" and classes[902]["num_salidas"] == 3
    assert classes[909]["estado"] == "nueva" and classes[909]["num_salidas"] == 2
    assert classes[909]["titulo"] == "Una clase aún sin escribir"
    result = cli("diff", "--root", str(repo), "902", "--fail-on-change")
    assert result.code == 1 and "instantánea eliminada (3 salidas)" in result.out
    assert "instantánea nueva (2 salidas)" in cli("diff", "--root", str(repo), "909").out


def test_reordered_outputs_are_a_real_change(cli, repo: Path) -> None:
    edit(repo, "901-pasa", lambda d: d.update({"n": d.pop("n")}))
    document = as_json(cli, repo, "901")
    assert document["clases"][0]["orden_cambiado"] is True and document["hay_cambios_reales"]


def test_after_update_diff_names_what_moved(cli, repo: Path) -> None:
    lab = snap(repo, "901-pasa").parent / "lab.py"
    lab.write_text(
        lab.read_text(encoding="utf-8").replace("escala: float = 0.5", "escala: float = 0.75"),
        encoding="utf-8",
    )
    assert cli("update", "901", "--root", str(repo)).code == 0
    document = as_json(cli, repo)
    assert [
        (c["numero"], [o["ruta"] for o in c["salidas"]])
        for c in document["clases"]
        if c["estado"] != "sin_cambios"
    ] == [(901, ["salida.mitad"])]
    assert document["clases"][0]["salidas"][0]["despues"] == 3.0


@pytest.mark.parametrize("base", ["nope", "HEAD~5", "--all"])
def test_bad_revision_exit_2(cli, repo: Path, base: str) -> None:
    result = cli("diff", "--root", str(repo), f"--base={base}")
    assert result.code == 2
    assert result.err.startswith(f"error: la revisión «{base}» no existe")
    assert "git log --oneline" in result.err and "Traceback" not in result.err


def test_no_git_repository_exit_2(cli, fake_course: Path, monkeypatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(fake_course.parent))
    result = cli("diff", "--root", str(fake_course))
    assert result.code == 2
    assert "no está en un repositorio git" in result.err and "--root" in result.err


def test_corrupt_snapshot_at_base_exit_2(cli, repo: Path) -> None:
    good = snap(repo, "903-forma-erronea").read_bytes()
    snap(repo, "903-forma-erronea").write_text('{"n": 3,', encoding="utf-8")
    commit(repo)
    snap(repo, "903-forma-erronea").write_bytes(good)
    result = cli("diff", "--root", str(repo))
    assert result.code == 2
    first = result.err.splitlines()[0]
    assert first.startswith(
        "error: la instantánea classes/part-90-curso-de-prueba/"
        "903-forma-erronea/expected.json en la revisión HEAD ("
    )
    assert "no es JSON válido" in first and "compmath diff --base REV" in result.err
    assert cli("diff", "--root", str(repo), "--base", "HEAD~1").code == 0


def test_corrupt_snapshot_in_working_tree_exit_2(cli, repo: Path) -> None:
    snap(repo, "901-pasa").write_text("[1, 2]\n", encoding="utf-8")
    result = cli("diff", "--root", str(repo))
    assert result.code == 2 and "del árbol de trabajo no es un objeto JSON" in result.err
    assert "compmath update 901" in result.err


def test_markdown_is_one_clean_table(cli, repo: Path) -> None:
    edit(repo, "901-pasa", set_key("nota", "a|b"))
    edit(repo, "904-deriva", set_key("mitad", 1.6))
    shutil.rmtree(snap(repo, "902-lanza").parent)
    result = cli("diff", "--root", str(repo), "--format", "markdown")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].startswith("### Cambios de instantáneas frente a `HEAD`")
    table = [i for i, line in enumerate(lines) if line.startswith("|")]
    assert table == list(range(table[0], table[0] + len(table)))  # one contiguous block
    rows = [re.split(r"(?<!\\)\|", lines[i])[1:-1] for i in table]
    assert {len(cells) for cells in rows} == {9}
    assert rows[1][0].strip() == "---" and len(rows) == 2 + 3
    assert '`"a\\|b"`' in result.out
    assert "| **real (> tol 2,5·10⁻⁶)** |" in result.out
    assert "sin cambios: 5 clases (903, 905, 906, 907, 908)" in result.out


def test_json_is_valid_against_its_schema(cli, repo: Path) -> None:
    Draft202012Validator.check_schema(DIFF_SCHEMA)
    edit(repo, "901-pasa", set_key("mitad", 2.0000001))
    edit(repo, "906-imprime", lambda d: d.update({"extra": True, "n": "dos"}))
    shutil.rmtree(snap(repo, "902-lanza").parent)
    document = as_json(cli, repo)
    Draft202012Validator(DIFF_SCHEMA).validate(document)
    assert document["resumen"] == {
        "clases": 8,
        "cambiadas": 2,
        "nuevas": 0,
        "eliminadas": 1,
        "sin_cambios": 5,
        "solo_ruido": 1,
    }
    broken = document | {"resumen": {}}
    assert not Draft202012Validator(DIFF_SCHEMA).is_valid(broken)


def test_fail_on_change_exits_1_only_for_real_changes(cli, repo: Path) -> None:
    edit(repo, "901-pasa", set_key("n", 5))
    assert cli("diff", "--root", str(repo)).code == 0
    assert cli("diff", "--root", str(repo), "--fail-on-change").code == 1
    assert cli("diff", "--root", str(repo), "--fail-on-change", "902").code == 0
    commit(repo)
    assert cli("diff", "--root", str(repo), "--fail-on-change", "--base", "HEAD~1").code == 1
    assert cli("diff", "--root", str(repo), "--fail-on-change").code == 0


def test_format_errors(cli, repo: Path) -> None:
    result = cli("diff", "--root", str(repo), "--format", "html")
    assert result.code == 2 and "formato desconocido «html»" in result.err
    assert cli("diff", "--root", str(repo), "--format", "markdown", "--json").code == 2
    assert "no existe la clase «999»" in cli("diff", "--root", str(repo), "999").err


def test_compare_lists_changes_within_tolerance_only_when_asked() -> None:
    tol = Tolerance()
    assert compare({"a": [1.0, 2.0]}, {"a": [1.0 + 5e-7, 2.5]}, tol) == [
        d
        for d in compare({"a": [1.0, 2.0]}, {"a": [1.0 + 5e-7, 2.5]}, tol, include_within=True)
        if not d.within
    ]
    noise, real = compare({"a": [1.0, 2.0]}, {"a": [1.0 + 5e-7, 2.5]}, tol, include_within=True)
    assert (noise.path, noise.within, real.path, real.within) == (
        "salida.a[0]",
        True,
        "salida.a[1]",
        False,
    )
    assert compare({"a": 1.0}, {"a": 1.0}, tol, include_within=True) == []


def test_narrow_terminal_prints_lines_instead_of_a_table(cli, repo: Path, monkeypatch) -> None:
    edit(repo, "901-pasa", set_key("mitad", 2.5))
    monkeypatch.setenv("COLUMNS", "70")
    out = cli("diff", "--root", str(repo)).out
    assert "✗ mitad: cambia el valor" in out
    assert "salida.mitad: 2,0 → 2,5 · Δ 0,5 · 25 % · real (> tol 3·10⁻⁶)" in out
    assert "veredicto" not in out


def test_a_change_of_shape_and_of_values_are_both_reported(cli, repo: Path) -> None:
    """An output that gains an element AND moves its values: the values are not lost."""
    edit(repo, "901-pasa", set_key("vector", [0.5, 0.833333, 1.166667, 1.5, 9.0]))
    shape, values = by_class(as_json(cli, repo))[901]["salidas"]
    assert (shape["salida"], shape["cambio"], shape["detalle"]) == (
        "vector",
        "forma",
        "longitud 4 → 5",
    )
    assert (values["salida"], values["cambio"]) == ("vector", "valor")
    assert values["elementos_cambiados"] == 4 and values["fuera_de_tolerancia"] == 4
    assert values["ruta"] == "salida.vector[0]" and values["cambio_absoluto"] == 0.5
    out = cli("diff", "--root", str(repo)).out
    assert (
        "cambia la forma: longitud 4 → 5" in out
        and "cambia el valor: 4 de 4 elementos cambian" in out
    )


def test_all_lists_every_changed_element(cli, repo: Path, monkeypatch) -> None:
    edit(repo, "901-pasa", set_key("vector", [0.0000001, 0.333333, 0.9, 1.5]))
    document = as_json(cli, repo, "--all")
    Draft202012Validator(DIFF_SCHEMA).validate(document)
    (change,) = by_class(document)[901]["salidas"]
    assert [(e["ruta"], e["real"]) for e in change["elementos"]] == [
        ("salida.vector[0]", False),
        ("salida.vector[2]", True),
        ("salida.vector[3]", True),
    ]
    assert "elementos" not in by_class(as_json(cli, repo))[901]["salidas"][0]
    for width in ("70", "200"):
        monkeypatch.setenv("COLUMNS", width)
        out = cli("diff", "--root", str(repo), "--all").out
        assert "salida.vector[0]" in out and "salida.vector[2]" in out and "salida.vector[3]" in out
        assert "salida.vector[1]" not in out
    markdown = cli("diff", "--root", str(repo), "--all", "--format", "markdown").out
    assert markdown.count("`salida.vector[") == 3
