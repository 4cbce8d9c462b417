"""Measure the performance ratios side by side in one run and print them beside their targets.

Usage: python benchmarks/run.py [--repeat N] [--quick]

Every ratio compares two commands timed alternately in the same run (median of N), so machine
load affects both sides alike. Peak memory is the largest single process of `compmath check`
(its own, a worker's, or a lab's), read from getrusage after it is reaped.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PART = "part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl"
LAB_323 = ROOT / "classes" / PART / "323-positional-encoding" / "lab.py"


def compmath_command() -> list[str]:
    """The console script next to this interpreter (a pyenv shim would add its own start-up)."""
    script = Path(sys.executable).parent / "compmath"
    return [str(script)] if script.exists() else [sys.executable, "-m", "compmath.entry"]


def timed(
    command: list[str], cwd: Path = ROOT, shell: bool = False, env: dict[str, str] | None = None
) -> float:
    started = time.perf_counter()
    subprocess.run(
        command if not shell else command[0],
        cwd=cwd,
        shell=shell,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        env=env,
    )
    return time.perf_counter() - started


RANGES: dict[str, tuple[float, float]] = {}  # measure -> (lowest, highest) ratio of one pair


def _pairs(name: str, times_a: list[float], times_b: list[float]) -> None:
    ratios = [a / b for a, b in zip(times_a, times_b, strict=True)]
    RANGES[name] = (min(ratios), max(ratios))


def side_by_side(
    a: list[str],
    b: list[str],
    repeat: int,
    cwd_a: Path = ROOT,
    cwd_b: Path = ROOT,
    shell_b: bool = False,
    name: str = "",
) -> tuple[float, float]:
    """Median wall times of a and b, run alternately after one warm-up each (the range of the
    pairs' ratios goes to RANGES[name])."""
    timed(a, cwd_a), timed(b, cwd_b, shell_b)
    times_a, times_b = [], []
    for _ in range(repeat):
        times_a.append(timed(a, cwd_a))
        times_b.append(timed(b, cwd_b, shell_b))
    _pairs(name, times_a, times_b)
    return statistics.median(times_a), statistics.median(times_b)


def cold_and_warm(
    command: list[str], cache: Path, repeat: int, name: str = ""
) -> tuple[float, float]:
    """Median times of `command` with its user cache emptied first (cold) and right after
    (warm), alternately."""
    env = {**os.environ, "COMPMATH_CACHE": str(cache)}
    colds, warms = [], []
    for _ in range(repeat + 1):
        shutil.rmtree(cache, ignore_errors=True)
        colds.append(timed(command, env=env))
        warms.append(timed(command, env=env))
    _pairs(name, colds[1:], warms[1:])
    return statistics.median(colds[1:]), statistics.median(warms[1:])


def shell_loop() -> str:
    """What an instructor would write without compmath: run each lab and diff its snapshot."""
    return (
        f'for d in classes/part-*/[0-9]*/; do "{sys.executable}" "$d/lab.py" '
        '| diff -q - "$d/expected.json" >/dev/null || echo "difiere: $d"; done'
    )


def big_course(target: Path, parts: int = 45, per_part: int = 20) -> Path:
    """A generated course of parts × per_part classes (900: numbers 100 to 999), each with a
    real class.toml, and the course's metadata schemas."""
    source = ROOT / "classes" / PART
    meta = (source / "323-positional-encoding" / "class.toml").read_text(encoding="utf-8")
    part_meta = (source / "part.toml").read_text(encoding="utf-8").split("[[plan]]")[0]
    for p in range(parts):
        folder = target / "classes" / f"part-{p + 1:02d}-generada"
        folder.mkdir(parents=True)
        plan = []
        for c in range(per_part):
            number = 100 + p * per_part + c
            class_dir = folder / f"{number}-clase-{number}"
            class_dir.mkdir()
            (class_dir / "class.toml").write_text(
                re.sub(r"^numero = \d+", f"numero = {number}", meta, flags=re.M), encoding="utf-8"
            )
            (class_dir / "lab.py").write_text("def run() -> dict:\n    return {}\n")
            plan.append(
                f'[[plan]]\nnumero = {number}\nslug = "clase-{number}"\n'
                f'titulo = "Positional encoding"\n'
            )
        (folder / "part.toml").write_text(
            re.sub(r"^numero = \d+", f"numero = {p + 1}", part_meta, flags=re.M) + "\n".join(plan),
            encoding="utf-8",
        )
    shutil.copytree(ROOT / "schemas", target / "schemas")
    return target


def site_course(target: Path, parts: int, per_part: int = 20) -> Path:
    """A generated course whose every class is a working copy of 323 (lab, page, snapshot and
    schema), for timing `compmath site` as the course grows."""
    big_course(target, parts, per_part)
    source = ROOT / "classes" / PART / "323-positional-encoding"
    schema = (ROOT / "schemas" / "323-positional-encoding.schema.json").read_bytes()
    for class_dir in sorted(target.glob("classes/*/*-clase-*")):
        for name in ("lab.py", "expected.json", "README.md"):
            shutil.copyfile(source / name, class_dir / name)
        (target / "schemas" / f"{class_dir.name}.schema.json").write_bytes(schema)
    return target


def site_builds(root: Path, work: Path, repeat: int) -> tuple[float, float, float]:
    """Median times of `compmath check`, a first `compmath site` (no verdict remembered, empty
    output folder) and a second one with nothing changed, taken alternately on `root`."""
    cm = compmath_command()
    cache = work / "cache"
    env = {**os.environ, "COMPMATH_CACHE": str(cache)}
    site = [*cm, "site", "--root", str(root), "--out", str(work / "web")]
    checks, firsts, seconds = [], [], []
    for i in range(repeat + 1):
        checks.append(timed([*cm, "check", "--root", str(root)], env=env))
        shutil.rmtree(cache / "web", ignore_errors=True)
        shutil.rmtree(work / "web", ignore_errors=True)
        firsts.append(timed(site, env=env))
        seconds.append(timed(site, env=env))
        if i == 0:  # a warm-up round: the OS caches the files and the wheels' code
            checks, firsts, seconds = [], [], []
    return statistics.median(checks), statistics.median(firsts), statistics.median(seconds)


def first_build(root: Path, work: Path) -> float:
    """The time of one `compmath site` with nothing remembered, on a generated course."""
    env = {**os.environ, "COMPMATH_CACHE": str(work / "cache")}
    command = [*compmath_command(), "site", "--root", str(root), "--out", str(work / "web")]
    return timed(command, env=env)


def peak_memory_mib(command: list[str]) -> float:
    """Largest resident set of any single process in the command's tree (Linux: KiB units)."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,"
        " stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *command], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return int(out.strip()) / 1024


def byte_compile() -> None:
    """Write compmath's bytecode first, as any normal install or first run does.

    Where PYTHONDONTWRITEBYTECODE is set (as on some shared machines), an editable install
    would otherwise recompile the runner's modules on every call and measure that instead.
    """
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "compmath")],
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--quick", action="store_true", help="sin la web de 225 y 900 clases (un par de minutos)"
    )
    args = parser.parse_args()
    byte_compile()
    cm = compmath_command()
    lab = [sys.executable, str(LAB_323)]
    rows = []

    run_t, lab_t = side_by_side(
        [*cm, "run", "323"], lab, args.repeat, name="compmath run 323 ÷ python lab.py"
    )
    rows.append(
        (
            "compmath run 323 ÷ python lab.py",
            run_t / lab_t,
            "<= 1.5",
            f"{run_t:.3f} s / {lab_t:.3f} s",
            run_t / lab_t <= 1.5,
        )
    )

    check_t, lab_t = side_by_side(
        [*cm, "check"], lab, args.repeat, name="compmath check (20 clases) ÷ python lab.py"
    )
    rows.append(
        (
            "compmath check (20 clases) ÷ python lab.py",
            check_t / lab_t,
            "<= 3",
            f"{check_t:.3f} s / {lab_t:.3f} s",
            check_t / lab_t <= 3,
        )
    )

    check_t, loop_t = side_by_side(
        [*cm, "check"],
        [shell_loop()],
        max(3, args.repeat // 2),
        shell_b=True,
        name="compmath check ÷ bucle de shell lab.py + diff",
    )
    rows.append(
        (
            "compmath check ÷ bucle de shell lab.py + diff",
            check_t / loop_t,
            "<= 0.333",
            f"{check_t:.3f} s / {loop_t:.3f} s",
            check_t / loop_t <= 1 / 3,
        )
    )

    with tempfile.TemporaryDirectory() as tmp:
        big = big_course(Path(tmp) / "curso")
        big_t, real_t = side_by_side(
            [*cm, "list", "--root", str(big)],
            [*cm, "list", "--root", str(ROOT)],
            args.repeat,
            name="compmath list 900 clases ÷ curso real",
        )
        cold_t, warm_t = cold_and_warm(
            [*cm, "list", "--root", str(big)],
            Path(tmp) / "cache",
            args.repeat,
            name="compmath list 900 clases: en frío ÷ en caliente",
        )
    rows.append(
        (
            "compmath list 900 clases ÷ curso real",
            big_t / real_t,
            "<= 2",
            f"{big_t:.3f} s / {real_t:.3f} s",
            big_t / real_t <= 2,
        )
    )
    rows.append(
        (
            "compmath list 900 clases: en frío ÷ en caliente",
            cold_t / warm_t,
            "<= 2",
            f"{cold_t:.3f} s / {warm_t:.3f} s",
            cold_t / warm_t <= 2,
        )
    )

    with tempfile.TemporaryDirectory() as tmp:
        check_t, first_t, second_t = site_builds(ROOT, Path(tmp), max(3, args.repeat // 2))
    rows.append(
        (
            "compmath site (20 clases) ÷ compmath check",
            first_t / check_t,
            "<= 2",
            f"{first_t:.3f} s / {check_t:.3f} s",
            first_t / check_t <= 2,
        )
    )
    rows.append(
        (
            "compmath site sin cambios ÷ primera",
            second_t / first_t,
            "<= 0.333",
            f"{second_t:.3f} s / {first_t:.3f} s",
            second_t / first_t <= 1 / 3,
        )
    )

    if not args.quick:
        with tempfile.TemporaryDirectory() as tmp:
            small = first_build(site_course(Path(tmp) / "c225", 15), Path(tmp) / "w225")
            large = first_build(site_course(Path(tmp) / "c900", 45), Path(tmp) / "w900")
        rows.append(
            (
                "compmath site 900 clases ÷ 225 (lineal: 4)",
                large / small,
                "<= 5",
                f"{large:.1f} s / {small:.1f} s",
                large / small <= 5,
            )
        )

    peak = peak_memory_mib([*cm, "check"])
    rows.append(
        ("memoria pico de compmath check (MiB)", peak, "<= 150", "proceso mayor", peak <= 150)
    )

    width = max(len(r[0]) for r in rows)
    print(f"{'medida':<{width}}  {'valor':>8}  {'objetivo':>9}  detalle")
    for name, value, target, detail, ok in rows:
        low, high = RANGES.get(name, (value, value))
        pairs = f"  (pares {low:.2f}–{high:.2f})" if name in RANGES else ""
        print(f"{name:<{width}}  {value:8.3f}  {target:>9}  {detail}{pairs}  {'✓' if ok else '✗'}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} núcleos, mediana de {args.repeat})")


if __name__ == "__main__":
    main()
