"""Write N synthetic students' submissions for `compmath grade`, from the course's own labs.

    python benchmarks/entregas.py ENTREGAS/ [--alumnos 200] [--clases 323,324,325,326,327]

Each student is a practice workspace (as `compmath practice start` writes it, cut down to the
chosen classes) whose lab.py files are the exercise with holes filled from the course's
solution regions: right, left open, subtly wrong, empty, not Python, or hostile (a hole that
hangs, floods stdout, writes into another student's folder, or exits). Some students hand in a
.zip instead of a folder. Deterministic for a given --semilla.

By default every right hole holds the course's own text, so the students share programs and
`grade` runs each shared one once: its best case. With --distintos each student writes their
holes their own way (the same computation): names of their own (`A_17`, then `A = A_17`), and
by turns independent statements in another order or a tuple assignment split in two, so no two
students' programs are the same text (what a real class looks like).
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


def _names_to_rename(statements: list[ast.stmt]) -> list[str]:
    """The names the hole binds that it does not read first (an `x += …` reads it first)."""
    stored: list[str] = []
    read_first: set[str] = set()
    for statement in statements:
        if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
            read_first.add(statement.target.id)
        loads = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)
                 and isinstance(n.ctx, ast.Load)}  # fmt: skip
        read_first |= {n for n in loads if n not in stored}
        for node in ast.walk(statement):
            fresh = isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
            if fresh and isinstance(node, ast.Name) and node.id not in stored:
                stored.append(node.id)
    return [n for n in stored if n not in read_first]


def _independent(first: ast.stmt, second: ast.stmt) -> bool:
    """Whether two statements can change places: neither touches what the other binds."""

    def names(node: ast.stmt, ctx: type) -> set[str]:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}

    a_store, b_store = names(first, ast.Store), names(second, ast.Store)
    a_all = a_store | names(first, ast.Load)
    b_all = b_store | names(second, ast.Load)
    calls = any(isinstance(n, ast.Call) for s in (first, second) for n in ast.walk(s))
    return not calls and not (a_store & b_all) and not (b_store & a_all)


def _split_tuples(statements: list[ast.stmt]) -> list[ast.stmt]:
    """`a, b = x, y` as `a = x` and `b = y` when no right side reads a name bound there."""
    out: list[ast.stmt] = []
    for statement in statements:
        target = statement.targets[0] if isinstance(statement, ast.Assign) else None
        if (
            isinstance(statement, ast.Assign)
            and isinstance(target, ast.Tuple)
            and isinstance(statement.value, ast.Tuple)
            and len(target.elts) == len(statement.value.elts)
            and all(isinstance(e, ast.Name) for e in target.elts)
        ):
            bound = {e.id for e in target.elts if isinstance(e, ast.Name)}
            read = {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)}
            if not bound & read:
                pairs = zip(target.elts, statement.value.elts)
                out += [ast.fix_missing_locations(ast.Assign([t], v, lineno=1)) for t, v in pairs]
                continue
        out.append(statement)
    return out


def distinct_body(body: tuple[str, ...], indent: str, student: int) -> list[str]:
    """The solution's code for a hole as student number `student` would write it: the same
    computation, in a text no other student's shares."""
    code = "\n".join(line.removeprefix(indent) for line in body)
    tree = ast.parse(code)
    statements = list(tree.body)
    if student % 3 == 1:  # independent neighbours in the other order
        for k in range(len(statements) - 1):
            if _independent(statements[k], statements[k + 1]):
                statements[k], statements[k + 1] = statements[k + 1], statements[k]
                break
    elif student % 3 == 2:
        statements = _split_tuples(statements)
    renamed = {name: f"{name}_{student}" for name in _names_to_rename(statements)}
    for node in ast.walk(ast.Module(statements, [])):
        if isinstance(node, ast.Name) and node.id in renamed:
            node.id = renamed[node.id]
    lines = [ast.unparse(s) for s in statements]
    lines += [f"{name} = {mine}" for name, mine in renamed.items()]
    if not renamed:
        lines.append(f"_alumno = {student}")
    return [f"{indent}{line}" for text in lines for line in text.splitlines()]


def _distinct_splice(exercise: str, solution: str, open_holes: set[int], student: int) -> str:
    """The exercise with each hole not in `open_holes` written the student's own way."""
    filled = exercise
    for region in solution_regions(solution):
        if region.number not in open_holes:
            body = distinct_body(region.body, region.indent, student)
            filled = _with_body(filled, region.number, body)
    return filled


def _with_body(exercise: str, number: int, body: list[str]) -> str:
    region = next(r for r in student_regions(exercise) if r.number == number)
    lines = exercise.splitlines()
    out = lines[: region.begin + 1] + body + lines[region.end :]
    return "\n".join(out) + "\n"


def student_lab(
    cls: ClassInfo,
    exercise: str,
    kind: str,
    rng: random.Random,
    entregas: Path,
    distinct: int | None = None,
) -> str | bytes | None:
    """The lab.py a student of `kind` hands in for `cls` (None: no file); with `distinct`
    (the student's number), their right holes written their own way."""
    solution = cls.lab.read_text(encoding="utf-8")
    holes = list(range(1, len(solution_regions(solution)) + 1))

    def filled(open_holes: set[int]) -> str:
        if distinct is None:
            return splice(exercise, solution, open_holes)
        return _distinct_splice(exercise, solution, open_holes, distinct)

    if kind == "bien":
        return filled(set())
    if kind == "parcial":
        return filled(set(rng.sample(holes, rng.randint(1, len(holes)))))
    if kind == "mal":
        region = rng.choice(solution_regions(solution))
        return _with_body(filled(set()), region.number, _wrong(region.body, region.indent))
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
    return _with_body(filled(set()), region.number, code)


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
    out: Path,
    count: int,
    names: list[str],
    seed: int = 1,
    zips: bool = True,
    distinct: bool = False,
) -> None:
    """Write `count` students' submissions into `out` (which must not exist); with `zips`,
    one student in ten hands in a .zip; with `distinct`, no two students share a hole's text."""
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
            own = k + 1 if distinct else None
            source = student_lab(cls, exercises[cls.id], honest, rng, out, own)
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
    parser.add_argument(
        "--distintos", action="store_true", help="each student writes their holes their own way"
    )
    args = parser.parse_args()
    classes = args.clases.split(",")
    write_submissions(args.out, args.alumnos, classes, args.semilla, distinct=args.distintos)
    print(f"{args.alumnos} entregas en {args.out}")


if __name__ == "__main__":
    main()
