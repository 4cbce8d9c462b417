"""Every CI workflow passes zizmor, GitHub Actions' security linter, with no finding.

zizmor is in the test extra, so `pip install -e '.[test]'` (and CI) always has it. It runs offline,
with no configuration file and no ignore comment honoured: a finding cannot be silenced, only fixed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

WORKFLOWS = REPO / ".github" / "workflows"


def zizmor() -> str:
    beside = Path(sys.executable).with_name("zizmor")
    found = str(beside) if beside.exists() else shutil.which("zizmor")
    if not found:
        pytest.skip("zizmor no está instalado: pip install -e '.[test]' lo instala")
    return found


def test_every_workflow_passes_zizmor() -> None:
    workflows = sorted(WORKFLOWS.glob("*.y*ml"))
    assert workflows, f"no hay workflows en {WORKFLOWS}"
    proc = subprocess.run(
        [zizmor(), "--offline", "--no-config", "--no-ignores", "--format", "json", str(WORKFLOWS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(proc.stdout or "null")
    shown = [f"{f['ident']}: {f['desc']}" for f in findings or []]
    assert findings == [] and proc.returncode == 0, "\n".join(shown) or proc.stderr


def test_the_suite_runs_on_linux_and_macos() -> None:
    text = (WORKFLOWS / "labs.yml").read_text(encoding="utf-8")
    assert "os: [ubuntu-latest, macos-latest]" in text
    assert "runs-on: ${{ matrix.os }}" in text and "run: pytest" in text


def test_the_workflows_init_writes_pass_zizmor(tmp_path: Path) -> None:
    """A course made by `compmath init` gets CI, site and grading workflows as hardened as ours."""
    from compmath.authoring.init import init_course

    init_course(tmp_path / "curso", "Curso", None)
    generated = tmp_path / "curso" / ".github" / "workflows"
    assert sorted(p.name for p in generated.iterdir()) == ["corregir.yml", "labs.yml", "web.yml"]
    proc = subprocess.run(
        [zizmor(), "--offline", "--no-config", "--no-ignores", "--format", "json", str(generated)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(proc.stdout or "null")
    shown = [f"{f['ident']}: {f['desc']}" for f in findings or []]
    assert findings == [] and proc.returncode == 0, "\n".join(shown) or proc.stderr
    for name in ("labs.yml", "web.yml", "corregir.yml"):
        assert "pip install -r requirements.txt" in (generated / name).read_text(encoding="utf-8")
