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
