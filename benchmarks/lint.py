"""`compmath lint` beside `compmath check`, cold and warm, in one run, with the labs each runs.

Usage: python benchmarks/lint.py [--repeat N] [--antes CARPETA]

Cold: an empty cache (COMPMATH_CACHE pointing at a new folder) for each command, so lint runs
every lab check and check compiles every lab. Warm: the same command again with the cache it
left (what the hook's `timeout 15 compmath lint` after a commit costs). The commands are timed
alternately (median of N). Each runs in a child Python that counts the labs it judges and the
lab processes it hands to the scheduler (judging.batched runs several labs in one), so the labs
per second are lint's and check's own. With --antes, the same lint from another checkout of
compmath (`--antes /ruta/a/main`: its code, this course) is timed alternately too, cold and
warm: the speed-up measured side by side. Nothing here is a test: no timing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, sys, time
from compmath.execution import scheduler
import compmath.judging.pipeline as pipeline
count = [0, 0]
real = scheduler.run_labs
def counting(requests, *args, **kwargs):
    count[0] += len(requests)
    return real(requests, *args, **kwargs)
pipeline.run_labs = counting
try:
    import compmath.judging.batched as batched
    real_case = batched._batch_case
    def counting_case(members, *args, **kwargs):
        count[1] += len(members) - 1  # one process, len(members) labs
        return real_case(members, *args, **kwargs)
    batched._batch_case = counting_case
except ImportError:
    pass  # a compmath without batches: one process per lab
from compmath import entry
started = time.perf_counter()
try:
    code = entry.main(sys.argv[1:])
finally:
    done = {"labs": count[0] + count[1], "procesos": count[0], "s": time.perf_counter() - started}
    print(json.dumps(done), file=sys.stderr)
"""


def run(args: list[str], cache: Path, code: Path = ROOT) -> tuple[float, int, int]:
    """Wall time of `compmath ARGS` (compmath from `code`) in a child, the labs it judged and
    the lab processes it started."""
    import os

    env = {**os.environ, "COMPMATH_CACHE": str(cache), "PYTHONPATH": str(code)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args, "--root", str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        cwd=code,
        check=False,
    )
    wall = time.perf_counter() - started
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "{}"
    found = json.loads(last) if last.startswith("{") else {}
    return wall, int(found.get("labs", 0)), int(found.get("procesos", found.get("labs", 0)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--antes", type=Path, default=None, help="otra copia de compmath")
    options = parser.parse_args()
    commands = [("lint", ["lint"], ROOT), ("check", ["check"], ROOT)]
    if options.antes is not None:
        commands.append(("lint antes", ["lint"], options.antes.resolve()))
    rows: dict[str, list[tuple[float, int, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-bench-lint-") as tmp:
        for i in range(options.repeat):
            for name, args, code in commands:
                cache = Path(tmp) / f"{name}-{i}"
                rows.setdefault(f"{name} frío", []).append(run(args, cache, code))
                rows.setdefault(f"{name} caliente", []).append(run(args, cache, code))
    median = {k: statistics.median(t for t, _, _ in v) for k, v in rows.items()}
    labs = {k: max(n for _, n, _ in v) for k, v in rows.items()}
    processes = {k: max(p for _, _, p in v) for k, v in rows.items()}
    print("| medida | valor |\n| --- | --- |")
    for key in rows:
        rate = labs[key] / median[key] if median[key] else 0.0
        print(
            f"| {key} | {median[key]:.2f} s · {labs[key]} labs en {processes[key]} procesos · "
            f"{rate:.0f} labs/s |"
        )
    print(f"| lint frío ÷ check frío | {median['lint frío'] / median['check frío']:.1f} (≤ 10) |")
    warm = median["lint caliente"] / median["check caliente"]
    print(f"| lint caliente ÷ check caliente | {warm:.1f} (≤ 3) |")
    if options.antes is not None:
        for when in ("frío", "caliente"):
            ratio = median[f"lint antes {when}"] / median[f"lint {when}"]
            print(f"| lint {when}: antes ÷ ahora | {ratio:.2f} |")


if __name__ == "__main__":
    main()
