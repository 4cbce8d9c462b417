"""From a save to the verdict on screen in `compmath practice`, for class 323 (median of N saves),
with the hidden variants and, side by side, without them (the defaults only, as measured before).

Usage: python benchmarks/practice.py [--repeat N]

Three kinds of save, taken in turn: hole 2 edited (hole 1 and the course's references are
remembered from earlier saves: what a student's save costs), the same with the defaults only
(3 labs, what was measured before the variants), and a cold save (both holes new, nothing
remembered: every lab of the verdict runs).

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
from compmath.holes import verdict  # noqa: E402
from compmath.holes.regions import solution_regions, student_regions  # noqa: E402
from compmath.holes.variants import Variant, variants_of  # noqa: E402
from compmath.practice import watch, workspace  # noqa: E402
from compmath.practice.session import Session  # noqa: E402

WRONG = "pe[:, 0::2] = np.cos(angulos)"


def filled(space: workspace.Workspace, swap: bool, mark: str = "", both: bool = False) -> str:
    """323's exercise with both holes answered (hole 2 with sine and cosine swapped if `swap`);
    `mark`, a comment that makes hole 2 (and hole 1 with `both`) new code never judged before."""
    cls = space.course.resolve("323")
    lines = space.exercise(cls).read_text().splitlines()
    answers = solution_regions(space.reference(cls).lab.read_text())
    for region, solved in reversed(list(zip(student_regions("\n".join(lines)), answers))):
        body = list(solved.body)
        if swap and region.number == 2:
            body = [
                b.replace("np.sin", "SIN").replace("np.cos", "np.sin").replace("SIN", "np.cos")
                for b in body
            ]
        if mark and (region.number == 2 or both):
            body.append(f"{region.indent}# {mark}")
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
        loop = threading.Thread(
            target=watch.run, args=(session,), kwargs={"keys": os.fdopen(read, "r")}, daemon=True
        )
        loop.start()
        judged.wait(30)
        time.sleep(0.5)  # the watcher is up
        kinds = (
            "un hueco editado, con variantes",
            "un hueco editado, sin variantes",
            "en frío (todo nuevo), con variantes",
        )
        times: dict[str, list[float]] = {kind: [] for kind in kinds}
        for i in range(3 * (args.repeat + 1)):
            kind = kinds[i % 3]
            hidden["on"] = kind != kinds[1]
            if kind == kinds[2]:
                session.memo.clear()
            text = filled(
                space, swap=(i // 3) % 2 == 0, mark=f"guardado {i}", both=kind == kinds[2]
            )
            judged.clear()
            started = time.perf_counter()
            cls.lab.write_text(text, encoding="utf-8")
            if not judged.wait(10):
                raise SystemExit("no llegó el veredicto")
            times[kind].append(time.perf_counter() - started)
            time.sleep(0.2)
        os.write(write, b"q\n")
        loop.join(10)
    print(
        f"guardar → veredicto en pantalla, clase 323, mediana de {args.repeat} (objetivo ≤ 150 ms):"
    )
    for kind in kinds:
        found = times[kind][1:]
        median = statistics.median(found) * 1000
        print(
            f"  {kind}: {median:.0f} ms (mín {min(found) * 1000:.0f} · máx "
            f"{max(found) * 1000:.0f}) {'✓' if median <= 150 else '✗'}"
        )
    base = statistics.median(times[kinds[1]][1:])
    print(
        f"con variantes ÷ sin ellas (un hueco editado): "
        f"{statistics.median(times[kinds[0]][1:]) / base:.2f}; en frío ÷ sin variantes: "
        f"{statistics.median(times[kinds[2]][1:]) / base:.2f}"
    )


if __name__ == "__main__":
    main()
