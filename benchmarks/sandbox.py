"""What the sandbox costs: this tree against another checkout of compmath, side by side in one run.

Usage: python benchmarks/sandbox.py --before DIR [--repeat N]

DIR is an older checkout (e.g. `git worktree add /tmp/before c739af3`). Timed alternately, on
this tree's course: `compmath run 323` with each runner and `python lab.py`; `compmath check`
with each runner and its floor, one interpreter running the 20 labs' run() in sequence; and
the cost of one lab on a warm worker, 40 trivial labs one after another through the scheduler
(the worker's machinery alone: zygote or fork, supervisor, namespaces, sandbox, reply). Each
runner is picked by PYTHONPATH (its worker inherits it). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PART = "part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl"
LAB_323 = ROOT / "classes" / PART / "323-positional-encoding" / "lab.py"
FLOOR = """
import importlib.util, pathlib, sys
for lab in sorted(pathlib.Path(sys.argv[1]).glob("classes/part-*/[0-9]*/lab.py")):
    spec = importlib.util.spec_from_file_location("lab", lab)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(lab.parent))
    spec.loader.exec_module(module)
    module.run()
    sys.path.pop(0)
"""
TRIVIAL = ROOT / "tests" / "fake_course" / "classes" / "part-90-curso-de-prueba" / "901-pasa"
PER_LAB = """
import sys, time
from compmath.execution import scheduler
from compmath.execution.protocol import LabRequest
lab, count = sys.argv[1], int(sys.argv[2])
scheduler.ran(scheduler.run_labs([LabRequest(key=f"w{i}", lab=lab) for i in range(count)], jobs=1))
started = time.perf_counter()
scheduler.ran(scheduler.run_labs([LabRequest(key=f"r{i}", lab=lab) for i in range(count)], jobs=1))
print((time.perf_counter() - started) / count)
"""


def timed(command: list[str], tree: Path | None = None) -> float:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        env["COMPMATH_CACHE"] = f"/tmp/cm-bench-cache-{tree.name}"
    started = time.perf_counter()
    # Started in the tree it measures: an older worker (without -P) would otherwise import
    # this tree's compmath from the current folder; the course is this tree's (--root).
    subprocess.run(
        command,
        cwd=tree or ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started


Commands = dict[str, tuple[list[str], Path | None]]


def alternately(commands: Commands, repeat: int) -> dict[str, float]:
    """The median wall time of each command, all run in turn after one warm-up each."""
    for command, tree in commands.values():
        timed(command, tree)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (command, tree) in commands.items():
            times[name].append(timed(command, tree))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    before = args.before.resolve()
    for tree in (ROOT, before):
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "compmath")],
            check=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
        )
    # -P: `-m` would otherwise put the current folder (this tree) first on the import path,
    # and both sides would run this tree's compmath whatever PYTHONPATH says
    cm = [sys.executable, "-P", "-m", "compmath.entry"]
    run = alternately(
        {
            "run antes": ([*cm, "run", "323", "--root", str(ROOT)], before),
            "run ahora": ([*cm, "run", "323", "--root", str(ROOT)], ROOT),
            "lab.py": ([sys.executable, str(LAB_323)], None),
        },
        args.repeat,
    )
    check = alternately(
        {
            "check antes": ([*cm, "check", "--root", str(ROOT)], before),
            "check ahora": ([*cm, "check", "--root", str(ROOT)], ROOT),
            "suelo": ([sys.executable, "-c", FLOOR, str(ROOT)], None),
        },
        args.repeat,
    )
    lab = per_lab(before, ROOT, args.repeat)
    for when in ("antes", "ahora"):
        print(
            f"{when}: run 323 ÷ python lab.py = {run['run ' + when] / run['lab.py']:.2f} "
            f"({run['run ' + when]:.3f} s / {run['lab.py']:.3f} s); "
            f"check ÷ suelo = {check['check ' + when] / check['suelo']:.2f} "
            f"({check['check ' + when]:.3f} s / {check['suelo']:.3f} s); "
            f"un laboratorio en serie {lab[when] * 1000:.1f} ms"
        )


def per_lab(before: Path, now: Path, repeat: int) -> dict[str, float]:
    """Seconds per trivial lab in series on a warm worker, each tree in turn (median)."""
    times: dict[str, list[float]] = {"antes": [], "ahora": []}
    for _ in range(max(1, repeat // 2)):
        for when, tree in (("antes", before), ("ahora", now)):
            env = {
                **os.environ,
                "PYTHONPATH": str(tree),
                "COMPMATH_CACHE": f"/tmp/cm-bench-cache-{tree.name}",
            }
            out = subprocess.run(
                [sys.executable, "-P", "-c", PER_LAB, str(TRIVIAL / "lab.py"), "40"],
                cwd=tree,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            times[when].append(float(out.split()[-1]))
    return {when: statistics.median(values) for when, values in times.items()}


if __name__ == "__main__":
    main()
