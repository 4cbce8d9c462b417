"""Time a first `compmath site` beside `compmath check`, on this tree and on an older checkout.

Usage: python benchmarks/site.py --before DIR [--repeat N]

DIR is a checkout to compare with (`git worktree add /tmp/site-before 9238248`, or any copy of
the repository). Each round runs, for each tree in turn, `compmath check` and then a first
`compmath site` (its verdict cache and output folder emptied, as benchmarks/run.py does), so
the machine's load falls on all four alike. It prints, per tree, the medians and ranges of
both, the ratio of the medians and the median of each round's ratio, and the CPU time of all
their processes (user + system: less sensitive than wall time to a shared machine's load).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compmath_command() -> list[str]:
    script = Path(sys.executable).parent / "compmath"
    return [str(script)] if script.exists() else [sys.executable, "-m", "compmath.entry"]


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str], root: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one command (its processes' CPU, reaped)."""
    cpu, started = _cpu(), time.perf_counter()
    done = subprocess.run(
        command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} terminó con {done.returncode}")
    return time.perf_counter() - started, _cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="la copia con que comparar")
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    roots = [ROOT, args.before.resolve()]
    for root in roots:  # as any install or first run does (see run.py's byte_compile)
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(root / "compmath")],
            check=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
        )
    cm = compmath_command()
    rows: dict[Path, dict[str, list[float]]] = {r: {} for r in roots}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat + 1):  # the first round warms the OS's caches
            for n, root in enumerate(roots):
                work = Path(tmp) / str(n)
                env = {**os.environ, "COMPMATH_CACHE": str(work / "cache"), "PYTHONPATH": str(root)}
                check = timed([*cm, "check", "--root", str(root)], root, env)
                shutil.rmtree(work / "cache" / "web", ignore_errors=True)
                shutil.rmtree(work / "web", ignore_errors=True)
                out = str(work / "web")
                site = timed([*cm, "site", "--root", str(root), "--out", out], root, env)
                if i:
                    found = {
                        "check": check[0],
                        "site": site[0],
                        "check_cpu": check[1],
                        "site_cpu": site[1],
                        "ratio": site[0] / check[0],
                    }
                    for name, value in found.items():
                        rows[root].setdefault(name, []).append(value)
    med = statistics.median
    for root, row in rows.items():
        check, site, ratio = row["check"], row["site"], row["ratio"]
        print(
            f"{root}:\n  check {med(check):.3f} s [{min(check):.3f}–{max(check):.3f}], "
            f"CPU {med(row['check_cpu']):.2f} s\n"
            f"  site  {med(site):.3f} s [{min(site):.3f}–{max(site):.3f}], "
            f"CPU {med(row['site_cpu']):.2f} s\n"
            f"  site ÷ check: {med(site) / med(check):.2f} (medians); per round "
            f"{med(ratio):.2f} [{min(ratio):.2f}–{max(ratio):.2f}]"
        )


if __name__ == "__main__":
    main()
