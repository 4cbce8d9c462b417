"""Measure `compmath grade` side by side in one run: the grading ratio and its shards.

Usage: python benchmarks/grade.py [--alumnos 200] [--repeat N] [--jobs N]

Writes the synthetic submissions once (benchmarks/entregas.py: 5 classes, right, partial,
wrong, empty, missing, not Python and hostile students; folders only, since `practice check`
reads no zip), then times alternately:
- `compmath grade ENTREGAS` from scratch ÷ a shell loop running `compmath practice check` in
  each student's folder (target ≤ 0.3), and the submissions graded per second;
- `grade --shard 1/2` + `grade --shard 2/2` + `grade merge`, one after the other ÷ one run, and
  checks that the merged gradebook has the same bytes as the single run's.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from entregas import DEFAULT_CLASSES, write_submissions
from run import compmath_command, timed

CLASSES = ",".join(DEFAULT_CLASSES)


def same_gradebook(a: Path, b: Path) -> bool:
    """notas.csv, informe.json and every feedback file byte-identical."""
    names = ["notas.csv", "informe.json"]
    feedback = sorted(p.name for p in (a / "comentarios").iterdir())
    if feedback != sorted(p.name for p in (b / "comentarios").iterdir()):
        return False
    names += [f"comentarios/{n}" for n in feedback]
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alumnos", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument(
        "--sin-bucle", action="store_true", help="sin el bucle de practice check (lo más lento)"
    )
    args = parser.parse_args()
    compmath = compmath_command()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory(prefix="compmath-bench-grade-") as tmp:
        work = Path(tmp)
        entregas = work / "entregas"
        write_submissions(entregas, args.alumnos, DEFAULT_CLASSES, zips=False)
        grade = [*compmath, "grade", str(entregas), "--clases", CLASSES, *jobs]
        loop = (
            f'for d in {entregas}/*/; do {" ".join(compmath)} practice check --dir "$d" '
            ">/dev/null 2>&1; done"
        )
        one, shards, parallel, loops = [], [], [], []
        for _ in range(args.repeat):
            for name in ("una", "f1", "f2", "juntas"):
                shutil.rmtree(work / name, ignore_errors=True)
            one.append(timed([*grade, "--out", str(work / "una")]))
            first = timed([*grade, "--shard", "1/2", "--out", str(work / "f1")])
            second = timed([*grade, "--shard", "2/2", "--out", str(work / "f2")])
            merge = timed(
                [
                    *compmath,
                    "grade",
                    "merge",
                    str(work / "f1"),
                    str(work / "f2"),
                    "--out",
                    str(work / "juntas"),
                ]
            )
            shards.append(first + second + merge)
            parallel.append(max(first, second) + merge)  # two machines at once, then the merge
            if not args.sin_bucle:
                loops.append(timed([loop], shell=True))
        t_one, t_shards, t_parallel = map(statistics.median, (one, shards, parallel))
        t_loop = statistics.median(loops) if loops else float("nan")
        identical = same_gradebook(work / "una", work / "juntas")
        head = (work / "una" / "notas.csv").read_text("utf-8").splitlines()[:4]
    n = args.alumnos
    print(f"{n} entregas de {len(DEFAULT_CLASSES)} clases, mediana de {args.repeat}")
    if loops:
        print(
            f"| `compmath grade` ÷ bucle de `practice check` | {t_one / t_loop:.3f} | ≤ 0.3 "
            f"{'✓' if t_one / t_loop <= 0.3 else '✗'} | {t_one:.2f} s / {t_loop:.2f} s |"
        )
    print(f"| entregas corregidas por segundo | {n / t_one:.1f} | | {n} / {t_one:.2f} s |")
    print(
        f"| `--shard 1/2` + `2/2` + `merge`, uno tras otro ÷ una pasada | {t_shards / t_one:.2f} "
        f"| | {t_shards:.2f} s / {t_one:.2f} s; mismos bytes: {'sí' if identical else 'NO'} |"
    )
    print(
        f"| los dos fragmentos a la vez (el más lento) + `merge` ÷ una pasada | "
        f"{t_parallel / t_one:.2f} | | {t_parallel:.2f} s / {t_one:.2f} s |"
    )
    print("\n".join(head))


if __name__ == "__main__":
    main()
