"""Every CI workflow passes zizmor, GitHub Actions' security linter, with no finding.

zizmor is in the test extra, so `pip install -e '.[test]'` (and CI) always has it. It runs offline,
with no configuration file and no ignore comment honoured: a finding cannot be silenced, only fixed.
"""

from __future__ import annotations

import json
import re
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


def assert_zizmor_clean(folder: Path) -> None:
    """zizmor, offline and with no ignores, finds nothing in the workflows of `folder`."""
    proc = subprocess.run(
        [zizmor(), "--offline", "--no-config", "--no-ignores", "--format", "json", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(proc.stdout or "null")
    shown = [f"{f['ident']}: {f['desc']}" for f in findings or []]
    assert findings == [] and proc.returncode == 0, "\n".join(shown) or proc.stderr


def test_every_workflow_passes_zizmor() -> None:
    workflows = sorted(WORKFLOWS.glob("*.y*ml"))
    assert workflows, f"no hay workflows en {WORKFLOWS}"
    assert_zizmor_clean(WORKFLOWS)


def test_the_suite_runs_on_linux_and_macos() -> None:
    text = (WORKFLOWS / "labs.yml").read_text(encoding="utf-8")
    assert "os: [ubuntu-24.04, macos-latest]" in text
    assert "runs-on: ${{ matrix.os }}" in text and "run: pytest" in text


def _jobs(text: str) -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load(text)["jobs"]


def _every_workflow() -> dict[str, str]:
    from compmath.authoring.course_files import GRADE_WORKFLOW, LABS_WORKFLOW
    from compmath.course.workflows import shards_workflow
    from compmath.grading.classroom50 import classroom50_workflow

    shipped = {p.name: p.read_text("utf-8") for p in sorted(WORKFLOWS.glob("*.y*ml"))}
    generated = {"compmath.yml": classroom50_workflow("profe/curso", "a" * 40)}
    generated |= {"init-labs.yml": LABS_WORKFLOW, "init-corregir.yml": GRADE_WORKFLOW}  # init's
    return {**shipped, **generated, "corregir-8.yml": shards_workflow(8)}


SYSCTL = "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"


def test_every_job_that_runs_labs_has_every_protection_on_ubuntu_24_04() -> None:
    """Each Linux job that grades students or checks the course's labs (grade, check) runs
    on ubuntu-24.04, lifts AppArmor's restriction on user namespaces before the first of them,
    and fails if a protection is still missing (`--todas-las-protecciones`, or the JUnit gate)."""
    checked = 0
    for name, text in _every_workflow().items():
        for job_id, job in _jobs(text).items():
            runs = [step.get("run", "") for step in job["steps"]]
            labs = [k for k, r in enumerate(runs) if re.search(r"compmath (grade|check)", r)]
            labs = [k for k in labs if "grade merge" not in runs[k]]
            if not labs:
                continue
            checked += 1
            where = f"{name}: {job_id}"
            assert job["runs-on"] in ("ubuntu-24.04", "${{ matrix.os }}"), where
            if job["runs-on"] == "${{ matrix.os }}":
                assert "ubuntu-24.04" in job["strategy"]["matrix"]["os"], where
            first = min(labs)
            assert SYSCTL in runs and runs.index(SYSCTL) < first, where
            for k in labs:
                if "compmath grade" in runs[k]:
                    assert "--todas-las-protecciones" in runs[k], where
            if any("compmath check" in runs[k] for k in labs):
                assert any("protecciones_ausentes" in r for r in runs), where
    assert checked >= 4  # labs.yml's check, corregir's fragments (×2 texts), Classroom 50's


def _gate() -> str:
    job = _jobs((WORKFLOWS / "labs.yml").read_text("utf-8"))["check"]
    return next(s["run"] for s in job["steps"] if "protecciones_ausentes" in s.get("run", ""))


@pytest.mark.parametrize(("missing", "code"), [("", 0), ("pidns,mountns,netns", 1)])
def test_the_labs_gate_reads_the_junit_report(tmp_path: Path, missing: str, code: int) -> None:
    """The gate of labs.yml against a JUnit report as `compmath check --junit-xml` writes it."""
    from compmath.present.junit import write_junit

    write_junit(tmp_path / "informe-labs.xml", [], 0.0, [n for n in missing.split(",") if n])
    proc = subprocess.run(["bash", "-c", _gate()], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == code, proc.stderr
    if code:
        assert "faltan protecciones: pidns,mountns,netns" in proc.stderr


def test_the_workflows_init_writes_pass_zizmor(tmp_path: Path) -> None:
    """A course made by `compmath init` gets CI, site and grading workflows as hardened as ours."""
    from compmath.authoring.init import init_course

    init_course(tmp_path / "curso", "Curso", None)
    generated = tmp_path / "curso" / ".github" / "workflows"
    assert sorted(p.name for p in generated.iterdir()) == ["corregir.yml", "labs.yml", "web.yml"]
    assert_zizmor_clean(generated)
    for name in ("labs.yml", "web.yml", "corregir.yml"):
        assert "pip install -r requirements.txt" in (generated / name).read_text(encoding="utf-8")
