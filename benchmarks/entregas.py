"""Write N synthetic students' submissions for `compmath grade`, from the course's own labs.

    python benchmarks/entregas.py ENTREGAS/ [--alumnos 200] [--clases 323,324,325,326,327]

Each student is a practice workspace (as `compmath practice start` writes it, cut down to the
chosen classes) whose lab.py files are the exercise with holes filled from the course's
solution regions: right, left open, subtly wrong, empty, not Python, or hostile (a hole that
hangs, floods stdout, writes into another student's folder, or exits). Some students hand in a
.zip instead of a folder. Deterministic for a given --semilla.
"""

from __future__ import annotations

import argparse
import ast
import random
import shutil
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from compmath.course.tree import ClassInfo, load_course  # noqa: E402
from compmath.holes.regions import solution_regions, splice, student_regions  # noqa: E402
from compmath.practice import workspace  # noqa: E402

DEFAULT_CLASSES = ["323", "324", "325", "326", "327"]
HOSTILE = {
    "cuelga": "while True:\n    pass",
    "inunda": (  # 100 MiB on stdout
        "import sys\nfor _ in range(1600):\n    sys.stdout.write('x' * 65535 + '\\n')"
    ),
    "escribe_en_otro": (  # ENTREGAS is filled in: every other student's lab.py, overwritten
        "import pathlib\n"
        "for lab in pathlib.Path({entregas!r}).rglob('lab.py'):\n"
        "    lab.write_text('robado')"
    ),
    "sale": "import os\nos._exit(0)",
}
# Out of 20 students: what each does (the same pattern repeats, shuffled per seed).
MIX = ["bien"] * 9 + ["parcial"] * 4 + ["mal"] * 3 + ["vacio", "falta", "no_python", "hostil"]


def _wrong(body: tuple[str, ...], indent: str) -> list[str]:
    """The solution's code for a hole, then its first assigned name nudged by 1 %."""
    code = "\n".join(line.removeprefix(indent) for line in body)
    names = [
        t.id
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    ]
    extra = [f"{indent}{names[0]} = {names[0]} * 1.01"] if names else [f"{indent}return None"]
    return [*body, *extra]


def _with_body(exercise: str, number: int, body: list[str]) -> str:
    region = next(r for r in student_regions(exercise) if r.number == number)
    lines = exercise.splitlines()
    out = lines[: region.begin + 1] + body + lines[region.end :]
    return "\n".join(out) + "\n"


def student_lab(
    cls: ClassInfo, exercise: str, kind: str, rng: random.Random, entregas: Path
) -> str | bytes | None:
    """The lab.py a student of `kind` hands in for `cls` (None: no file)."""
    solution = cls.lab.read_text(encoding="utf-8")
    holes = list(range(1, len(solution_regions(solution)) + 1))
    if kind == "bien":
        return splice(exercise, solution, set())
    if kind == "parcial":
        return splice(exercise, solution, set(rng.sample(holes, rng.randint(1, len(holes)))))
    if kind == "mal":
        region = rng.choice(solution_regions(solution))
        filled = splice(exercise, solution, set())
        return _with_body(filled, region.number, _wrong(region.body, region.indent))
    if kind == "vacio":
        return ""
    if kind == "falta":
        return None
    if kind == "no_python":
        return bytes(rng.randrange(256) for _ in range(300))
    attack = sorted(HOSTILE)[int(kind.removeprefix("hostil-"))]
    region = solution_regions(solution)[0]
    attack_code = HOSTILE[attack].format(entregas=str(entregas.resolve()))
    code = [f"{region.indent}{line}" for line in attack_code.splitlines()]
    return _with_body(splice(exercise, solution, set()), region.number, code)


def _template(classes: list[ClassInfo], folder: Path) -> Path:
    """A practice workspace of the course, cut down to `classes`."""
    course = load_course(REPO)
    made = workspace.create(course, folder)
    keep = {c.id for c in classes}
    for cls in made.classes():
        if cls.id not in keep:
            shutil.rmtree(cls.path)
            shutil.rmtree(made.exercise(cls).parent)
    return folder


def write_submissions(
    out: Path, count: int, names: list[str], seed: int = 1, zips: bool = True
) -> None:
    """Write `count` students' submissions into `out` (which must not exist); with `zips`,
    one student in ten hands in a .zip."""
    course = load_course(REPO)
    classes = course.select(names)
    rng = random.Random(seed)
    out.mkdir(parents=True)
    template = _template(classes, out / ".plantilla")
    exercises = {c.id: (template / c.lab.relative_to(REPO)).read_text("utf-8") for c in classes}
    hostile = 0
    for k in range(count):
        student = f"alumno-{k + 1:04d}"
        kind = MIX[k % len(MIX)] if k % len(MIX) else rng.choice(MIX)
        if kind == "hostil":  # the attacks in turn, one per hostile student, in its first class
            kind = f"hostil-{hostile % len(HOSTILE)}"
            hostile += 1
        folder = out / student
        shutil.copytree(template, folder)
        for position, cls in enumerate(classes):
            lab = folder / cls.lab.relative_to(REPO)
            honest = "bien" if kind.startswith("hostil") and position else kind
            source = student_lab(cls, exercises[cls.id], honest, rng, out)
            if source is None:
                lab.unlink()
            elif isinstance(source, bytes):
                lab.write_bytes(source)
            else:
                lab.write_text(source, encoding="utf-8")
        if zips and k % 10 == 9:  # one in ten hands in a .zip, as an LMS export does
            with zipfile.ZipFile(out / f"{student}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
                for path in sorted(folder.rglob("*")):
                    if path.is_file():
                        archive.write(path, f"{student}/{path.relative_to(folder)}")
            shutil.rmtree(folder)
    shutil.rmtree(template)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--alumnos", type=int, default=200)
    parser.add_argument("--clases", default=",".join(DEFAULT_CLASSES))
    parser.add_argument("--semilla", type=int, default=1)
    args = parser.parse_args()
    write_submissions(args.out, args.alumnos, args.clases.split(","), args.semilla)
    print(f"{args.alumnos} entregas en {args.out}")


if __name__ == "__main__":
    main()
