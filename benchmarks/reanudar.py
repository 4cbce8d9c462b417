"""Kill `compmath grade` mid-run and count what it had saved; then resume it and time that.

    python benchmarks/reanudar.py ENTREGAS/ [--a-los 30] [--arbol RAIZ] [--reanudar]

ENTREGAS is what benchmarks/entregas.py writes. The grading runs with the compmath found under
--arbol (default: this tree), so two trees can be measured side by side on the same
submissions. At --a-los seconds after the start it is killed with SIGKILL (the whole process
group: the workers too). What survives is counted: the students' records (alumnos/*.json),
and the classes saved for students not finished yet (alumnos/.en-curso/, checkpoint.py); a
tree without checkpoints saves only whole students. With --reanudar the grading is then run
again to the end and its time printed (what it judged again is what the kill lost).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _command(tree: Path, entregas: Path, out: Path, timeout: float) -> list[str]:
    code = "import sys; from compmath.entry import console; sys.argv[0] = 'compmath'; console()"
    args = ["grade", str(entregas), "--out", str(out), "--root", str(tree)]
    args += ["--timeout", str(timeout), "--sin-aislamiento-completo"]
    return [sys.executable, "-c", code, *args]


def saved(out: Path, classes: int) -> tuple[int, int, int]:
    """(students recorded, classes saved for the others, classes saved in all)."""
    records = {p.stem for p in (out / "alumnos").glob("*.json")}
    partial = [
        p for p in (out / "alumnos" / ".en-curso").glob("*/*.json") if p.parent.name not in records
    ]
    return len(records), len(partial), classes * len(records) + len(partial)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entregas", type=Path)
    parser.add_argument("--a-los", type=float, default=30.0, help="seconds before the kill")
    parser.add_argument("--arbol", type=Path, default=REPO)
    parser.add_argument("--clases", type=int, default=5, help="classes each student has")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--reanudar", action="store_true")
    args = parser.parse_args()
    tree = args.arbol.resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory(prefix="compmath-reanudar-") as scratch:
        out = Path(scratch) / "notas"
        command = _command(tree, args.entregas.resolve(), out, args.timeout)
        start = time.monotonic()
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tree,
            start_new_session=True,
        )  # fmt: skip
        try:
            proc.wait(args.a_los)
            print("the grading ended before the kill: nothing to measure")
            return
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        killed = time.monotonic() - start
        students = len([p for p in args.entregas.iterdir() if not p.name.startswith(".")])
        records, partial, total = saved(out, args.clases)
        print(f"tree {tree}, killed after {killed:.1f} s")
        print(f"students recorded: {records} of {students}")
        print(
            f"classes saved: {total} of {students * args.clases} ({partial} of unfinished students)"
        )
        if args.reanudar:
            begin = time.monotonic()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True, cwd=tree)
            print(f"resumed to the end in {time.monotonic() - begin:.1f} s")
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
