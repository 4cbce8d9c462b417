"""Time `grade similitud`'s comparison on synthetic classes of 200, 1,000 and 5,000 students.

    python benchmarks/similitud.py [--alumnos 200,1000,5000] [--huecos 5] [--repeat 3]

Every student writes each hole in their own words: 6 to 14 statements drawn from a pool of
shapes, with their own names, numbers and comments, so no two texts are alike by accident;
one student in fifty copies another's hole, renamed and reformatted, with one line added.
The figure is the comparison alone (normalising, fingerprints, the inverted index, pairs and
groups), the median CPU time of --repeat (the wall time beside it); it should grow close to
linearly with the class. It also counts the planted copies found.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compmath.grading.similarity import similarity

SHAPES = [
    "{a} = np.{f}({b}) * {n}",
    "{a} = {b} @ {c}.T + {n}",
    "for {i} in range({n}):\n    {a}[{i}] = {b}[{i}] ** 2",
    "if {a}.sum() > {n}:\n    {b} = {b} / {a}.sum()",
    "{a} = [{b} * {i} for {i} in range({n})]",
    "{a} = np.where({b} > {n}, {b}, 0.0)",
    "{a}, {b} = {b}, {a} + {n}",
    "while {a} < {n}:\n    {a} += {b}",
    "{a} = np.{f}({b}, axis={k})",
    "{a} = {{'{a}': {b}, 'n': {n}}}",
    "{a} = max({b}, key=lambda {i}: {i} * {n})",
    "try:\n    {a} = {b}[{k}]\nexcept IndexError:\n    {a} = {n}",
]
FUNCS = ["exp", "log", "sqrt", "tanh", "cumsum", "mean", "max"]
NAMES = [
    f"{p}{s}" for p in ("x", "y", "peso", "tabla", "fila", "val", "q", "v") for s in ("", "2", "_a")
]


def student_hole(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(6, 14)):
        shape = rng.choice(SHAPES)
        names = rng.sample(NAMES, 4)
        text = shape.format(
            a=names[0],
            b=names[1],
            c=names[2],
            i=names[3],
            f=rng.choice(FUNCS),
            n=rng.randint(1, 99),
            k=rng.randint(0, 1),
        )
        if rng.random() < 0.3:
            text = f"# {rng.choice(['paso', 'ojo', 'cálculo'])} {rng.randint(1, 9)}\n" + text
        lines.append(text)
    return "\n".join(lines)


def renamed(code: str, rng: random.Random) -> str:
    """A copy: every name swapped for another, spaces changed, one line added."""
    mapping = {n: f"otro_{k}" for k, n in enumerate(NAMES)}
    code = re.sub(r"\b\w+\b", lambda m: mapping.get(m.group(), m.group()), code)
    return code.replace(" = ", "=") + f"\notro_0 = otro_0 + {rng.randint(1, 9)}"


PLANTED: set[tuple[str, str, str]] = set()  # (hole, copied from, copier) of the last class


def synthetic(count: int, holes: int, seed: int = 1) -> dict[str, dict[str, dict[str, str]]]:
    rng = random.Random(seed)
    saved: dict[str, dict[str, dict[str, str]]] = {}
    PLANTED.clear()
    for k in range(count):
        student = f"alumno-{k + 1:05d}"
        mine = {}
        for hole in range(1, holes + 1):
            if k > 10 and rng.random() < 0.02:
                origin = f"alumno-{rng.randint(1, k - 1):05d}"
                source = saved[origin]["999-sintetica"][str(hole)]
                mine[str(hole)] = renamed(source, rng)
                PLANTED.add((str(hole), origin, student))
            else:
                mine[str(hole)] = student_hole(rng)
        saved[student] = {"999-sintetica": mine}
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alumnos", default="200,1000,5000")
    parser.add_argument("--huecos", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    given = {("999-sintetica", str(h)): ["raise NotImplementedError('hueco')"] for h in range(1, 6)}
    times = {}
    for count in (int(n) for n in args.alumnos.split(",")):
        saved = synthetic(count, args.huecos)
        runs, cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = similarity(saved, given)
            runs.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        times[count] = statistics.median(cpu)  # on a shared machine, less noisy than the wall
        found = {(p.hole, p.first, p.second) for p in result.pairs}
        found |= {
            (g.hole, a, b) for g in result.groups for a in g.students for b in g.students if a < b
        }
        caught = sum(1 for hole, a, b in PLANTED if (hole, min(a, b), max(a, b)) in found)
        print(
            f"{count:>6} alumnos × {args.huecos} huecos: {times[count]:.2f} s de CPU "
            f"({statistics.median(runs):.2f} s de reloj) "
            f"({len(result.pairs)} parejas, {len(result.groups)} grupos; "
            f"{caught} de {len(PLANTED)} copias sembradas encontradas)"
        )
    counts = sorted(times)
    for small, large in itertools.pairwise(counts):
        ratio = times[large] / times[small]
        print(f"{large} ÷ {small}: {ratio:.2f} en CPU (lineal: {large / small:g})")


if __name__ == "__main__":
    main()
