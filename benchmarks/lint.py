"""`compmath lint` beside `compmath check`, cold and warm, in one run, with the labs each runs.

Usage: python benchmarks/lint.py [--repeat N]

Cold: an empty cache (COMPMATH_CACHE pointing at a new folder) for each command, so lint runs
every lab check and check compiles every lab. Warm: the same command again with the cache it
left. The two commands are timed alternately (median of N). Each runs in a child Python that
counts the labs it hands to the scheduler, so the labs per second are lint's and check's own.
Nothing here is a test: no timing is asserted.
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
count = [0]
real = scheduler.run_labs
def counting(requests, *args, **kwargs):
    count[0] += len(requests)
    return real(requests, *args, **kwargs)
pipeline.run_labs = counting
from compmath import entry
started = time.perf_counter()
try:
    code = entry.main(sys.argv[1:])
finally:
    print(json.dumps({"labs": count[0], "s": time.perf_counter() - started}), file=sys.stderr)
"""


def run(args: list[str], cache: Path) -> tuple[float, int]:
    """Wall time of `compmath ARGS` in a child and the labs it ran."""
    env = {"COMPMATH_CACHE": str(cache), "PATH": "/usr/bin:/bin"}
    import os

    env = {**os.environ, **env}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args, "--root", str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - started
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "{}"
    return wall, int(json.loads(last).get("labs", 0))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    rows: dict[str, list[tuple[float, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="compmath-bench-lint-") as tmp:
        for i in range(repeat):
            for name, args in (("lint", ["lint"]), ("check", ["check"])):
                cache = Path(tmp) / f"{name}-{i}"
                rows.setdefault(f"{name} frío", []).append(run(args, cache))
                rows.setdefault(f"{name} caliente", []).append(run(args, cache))
    median = {k: statistics.median(t for t, _ in v) for k, v in rows.items()}
    labs = {k: max(n for _, n in v) for k, v in rows.items()}
    print("| medida | valor |\n| --- | --- |")
    for key in rows:
        rate = labs[key] / median[key] if median[key] else 0.0
        print(f"| {key} | {median[key]:.2f} s · {labs[key]} labs · {rate:.0f} labs/s |")
    print(f"| lint frío ÷ check frío | {median['lint frío'] / median['check frío']:.1f} (≤ 10) |")
    warm = median["lint caliente"] / median["check caliente"]
    print(f"| lint caliente ÷ check caliente | {warm:.1f} (≤ 3) |")


if __name__ == "__main__":
    main()
