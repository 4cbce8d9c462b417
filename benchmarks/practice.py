"""From a save to the verdict on screen in `compmath practice`, for class 323 (median of N saves),
with the hidden variants and, side by side, without them (the defaults only, as measured before).

Usage: python benchmarks/practice.py [--repeat N]

A workspace is made from the course in a temporary folder; the real watch loop runs (watchfiles,
the warm worker); each save writes the lab with hole 2 alternately wrong and right, and the time
is taken from the write to the moment the judged screen is handed to the terminal. Saves
alternate between the two settings, so the load of a shared machine falls on both alike. With
variants one save runs 9 labs on the worker (2 holes × 3 parameter sets, and the course's lab
at each); without, 3.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compmath.course.tree import load_course  # noqa: E402
from compmath.practice import verdict, watch, workspace  # noqa: E402
from compmath.practice.holes import solution_regions, student_regions  # noqa: E402
from compmath.practice.session import Session  # noqa: E402
from compmath.practice.variants import Variant, variants_of  # noqa: E402

WRONG = "pe[:, 0::2] = np.cos(angulos)"


def filled(space: workspace.Workspace, swap: bool) -> str:
    """323's exercise with both holes answered (hole 2 with sine and cosine swapped if `swap`)."""
    cls = space.course.resolve("323")
    lines = space.exercise(cls).read_text().splitlines()
    answers = solution_regions(space.reference(cls).lab.read_text())
    for region, solved in reversed(list(zip(student_regions("\n".join(lines)), answers))):
        body = list(solved.body)
        if swap and region.number == 2:
            body = [b.replace("np.sin", "SIN").replace("np.cos", "np.sin").replace("SIN", "np.cos")
                    for b in body]
        lines[region.begin + 1 : region.end] = body
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        space = workspace.create(load_course(ROOT), Path(tmp) / "practica")
        cls = space.course.resolve("323")
        judged = threading.Event()

        def show(blocks: list, fresh: bool) -> None:
            if fresh:
                judged.set()

        hidden = {"on": True}

        def chosen(cls: object) -> tuple[Variant, ...]:
            found = variants_of(cls)  # type: ignore[arg-type]
            return found if hidden["on"] else found[:1]

        verdict.variants_of = chosen  # type: ignore[assignment]
        session = Session(space, show)
        session.current = cls
        read, write = os.pipe()
        loop = threading.Thread(target=watch.run, args=(session,),
                                kwargs={"keys": os.fdopen(read, "r")}, daemon=True)
        loop.start()
        judged.wait(30)
        time.sleep(0.5)  # the watcher is up
        times: dict[bool, list[float]] = {True: [], False: []}
        for i in range(2 * (args.repeat + 1)):
            hidden["on"] = i % 2 == 0
            text = filled(space, swap=(i // 2) % 2 == 0)
            judged.clear()
            started = time.perf_counter()
            cls.lab.write_text(text, encoding="utf-8")
            if not judged.wait(10):
                raise SystemExit("no llegó el veredicto")
            times[hidden["on"]].append(time.perf_counter() - started)
            time.sleep(0.2)
        os.write(write, b"q\n")
        loop.join(10)
    with_variants = statistics.median(times[True][1:]) * 1000
    defaults = statistics.median(times[False][1:]) * 1000
    print(f"guardar → veredicto en pantalla (323, mediana de {args.repeat}), con variantes: "
          f"{with_variants:.0f} ms (objetivo ≤ 150 ms) {'✓' if with_variants <= 150 else '✗'}")
    print(f"  mín {min(times[True][1:]) * 1000:.0f} ms · máx {max(times[True][1:]) * 1000:.0f} ms")
    print(f"solo con los parámetros por defecto: {defaults:.0f} ms "
          f"(mín {min(times[False][1:]) * 1000:.0f} · máx {max(times[False][1:]) * 1000:.0f})")
    print(f"con variantes ÷ sin ellas: {with_variants / defaults:.2f}")


if __name__ == "__main__":
    main()
