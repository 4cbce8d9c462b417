"""Side by side with the peers: `compmath grade` ÷ nbgrader `autograde` and ÷ `otter run`, on the
same 28 submissions of class 338 with the same per-run time limit, and whether they agree.

Setting up the peers (a venv of their own, never the project's dependencies):

    python -m venv /tmp/compmath-peers
    /tmp/compmath-peers/bin/pip install nbgrader otter-grader numpy

    python benchmarks/peers.py [--peers /tmp/compmath-peers] [--timeout 2] [--repeat 3]
                               [--guardar CARPETA]

Without the venv (or with one of the two missing) it says so and measures what it can.

The 28 students (deterministic): 14 right, 6 with holes left open, 6 with one of class.toml's
mutants in a hole, and 2 whose hole loops forever (hole 3 forgets to append the new iterate, so
the value iteration never stops; hole 1 walks the actions with a `while` that never advances).
Every hole a student filled carries a comment with the student's name, so no two students hand
in the same text (compmath remembers a verdict by the program's text: shared texts would be its
best case, which the peers do not have).

Each tool grades the same code the same way: each hole alone, grafted into the course's lab
(the other holes are the course's), at the defaults and at the class's two hidden variants, and
a hole passes when the outputs it feeds match the course's lab at all three.
- compmath: one folder per student (the practice workspace, lab.py filled in), `compmath grade`.
- nbgrader: a course folder (`nbgrader generate_assignment` of a source notebook whose solution
  cell is the course's lab and whose 9 locked test cells call a checker), one submitted
  notebook per student with its code in the solution cell, `nbgrader autograde`; its per-cell
  limit is `--ExecutePreprocessor.timeout` (an integer number of seconds, interrupting the
  kernel and going on to the next cell: the same limit per run as compmath's `--timeout`).
- otter: `otter generate` of 3 exception-based test files (one per hole, a case per variant),
  one notebook per student, `otter run` on each (it grades one submission per call, no Docker).
  `otter run` has no time limit of its own (otter 7: `otter grade --timeout` is per container,
  needs Docker and would lose every grade of the submission), so its test cases carry the same
  limit per run themselves (`signal.setitimer`, failing the case).

The three are timed in turn, round after round (median of --repeat), after one warm-up of
compmath and a start of each peer's command (its imports read once from disk). The grades
(passed or not, per student and hole) are compared between the three.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import nbformat  # noqa: E402
from run import compmath_command  # noqa: E402

from compmath.course.tree import load_course  # noqa: E402
from compmath.holes.regions import solution_regions, student_regions, without_markers  # noqa: E402
from compmath.practice import workspace  # noqa: E402

SETUP = (
    "python -m venv /tmp/compmath-peers && "
    "/tmp/compmath-peers/bin/pip install nbgrader otter-grader numpy"
)
CLASS = "338"
ASSIGNMENT = "p338"
# Per hole (1, 2, 3): "b" right, "a" left open, "m0"/"m1" class.toml's mutant, "L" loops.
PLANS = (
    [("b", "b", "b")] * 14
    + [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a"), ("a", "a", "b"), ("b", "a", "a")]
    + [("a", "a", "a")]
    + [("m0", "b", "b"), ("m1", "b", "b"), ("b", "m0", "b"), ("b", "b", "m0")]
    + [("m0", "a", "b"), ("b", "m0", "m0")]
    + [("b", "b", "L"), ("L", "b", "b")]
)
LOOPS = {  # a loop a student could write, per hole (hole 2 has none here)
    1: [
        "futuro = np.zeros((len(P),) + np.shape(V))",
        "a = 0",
        "while a < len(P):  # para cada acción (olvida avanzar a)",
        "    futuro[a] = P[a] @ V",
        "Q = R + gamma * np.moveaxis(futuro, 0, -1)",
    ],
    3: [  # V_{k+1} never appended: the change never shrinks, and no memory grows
        "siguiente = operador_bellman(P, R, historia[-1], gamma)",
        "cambio = np.max(np.abs(siguiente - historia[-1]))",
    ],
}
# What the peers' tests run: the student's function, rebound to the course's lab (its globals),
# at one variant, and the outputs the hole feeds against the course's at that variant.
CHECKER = '''\
import signal
import types

import numpy as np

CURSO = {course!r}
VARIANTES = {variants!r}
SALIDAS = {outputs!r}
ESPERADO = {expected!r}
LIMITE = {limit!r}  # segundos por ejecución, o None si la herramienta pone el límite


class TiempoAgotado(Exception):
    pass


def _alarma(signum, frame):
    raise TiempoAgotado(f"superó el límite de {{LIMITE}} s")


def _igual(obtenido, esperado):
    if isinstance(esperado, (bool, str)) or (
        isinstance(esperado, list) and esperado and isinstance(esperado[0], str)
    ):
        return obtenido == esperado or (isinstance(esperado, list) and list(obtenido) == esperado)
    o = np.asarray(obtenido, dtype=float)
    e = np.asarray(esperado, dtype=float)
    return o.shape == e.shape and bool(np.allclose(o, e, rtol=1e-6, atol=1e-6))


def comprobar(funcion, hueco, variante):
    """El hueco `hueco` del alumno (su función) en el laboratorio del curso, en una variante."""
    curso = {{"__name__": "curso"}}
    exec(compile(CURSO, "curso.py", "exec"), curso)
    curso[funcion.__name__] = types.FunctionType(
        funcion.__code__, curso, funcion.__name__, funcion.__defaults__, funcion.__closure__
    )
    if LIMITE:
        anterior = signal.signal(signal.SIGALRM, _alarma)
        signal.setitimer(signal.ITIMER_REAL, LIMITE)
    try:
        salidas = curso["run"](**VARIANTES[variante])
    finally:
        if LIMITE:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, anterior)
    distintas = [n for n in SALIDAS[hueco] if not _igual(salidas[n], ESPERADO[variante][n])]
    assert not distintas, f"hueco {{hueco}}, variante {{variante}}: difieren {{distintas}}"
'''
OTTER_GENERATE = ["otter", "generate", "-t", "tests", "-o", "autograder.zip", "--no-config"]
OTTER_TEST = """\
OK_FORMAT = False

from otter.test_files import test_case

name = "hueco{hole}"
points = {points}

{checker}
{cases}"""
OTTER_CASE = """
@test_case(points=1)
def test_variante_{variant}(env):
    comprobar(env["{function}"], {hole}, {variant})
"""


# --- the class: its holes, variants and the course's outputs -------------------------------


def canonical(value: Any) -> Any:
    """A lab's output as JSON values (numpy arrays and scalars to lists and numbers)."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if hasattr(value, "tolist"):
        return canonical(value.tolist())
    return value


def hole_functions(solution: str) -> list[str]:
    """The function each solution region is in, in order."""
    functions = [
        (node.lineno, node.end_lineno or node.lineno, node.name)
        for node in ast.walk(ast.parse(solution))
        if isinstance(node, ast.FunctionDef)
    ]
    names = []
    for region in solution_regions(solution):
        inside = [f for f in functions if f[0] <= region.begin + 1 <= f[1]]
        names.append(max(inside)[2])  # the innermost
    return names


def without_main(source: str) -> str:
    """The lab without its `if __name__ == "__main__":` block (in a notebook it would run)."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            return "\n".join(source.splitlines()[: node.lineno - 1]).rstrip() + "\n"
    return source


class Class338:
    """What the three tools need to know of the class, read from the course."""

    def __init__(self) -> None:
        course = load_course(REPO)
        (self.info,) = course.select([CLASS])
        self.solution = self.info.lab.read_text("utf-8")
        toml = tomllib.loads((self.info.path / "class.toml").read_text("utf-8"))
        self.holes = toml["huecos"]
        self.variants: list[dict[str, float]] = [{}, *toml["practica"]["variantes"]]
        self.functions = hole_functions(self.solution)
        spec = importlib.util.spec_from_file_location("curso_338", self.info.lab)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self.expected = [canonical(module.run(**v)) for v in self.variants]

    def checker(self, limit: float | None) -> str:
        return CHECKER.format(
            course=without_markers(without_main(self.solution)),  # nbgrader reads markers anywhere
            variants=self.variants,
            outputs={k + 1: h["salidas"] for k, h in enumerate(self.holes)},
            expected=self.expected,
            limit=limit,
        )


# --- the students ------------------------------------------------------------------------------


def hole_body(cls: Class338, number: int, kind: str, student: str) -> list[str] | None:
    """The lines a student writes in hole `number` (without indentation); None: left open."""
    region = solution_regions(cls.solution)[number - 1]
    solution = [line.removeprefix(region.indent) for line in region.body]
    if kind == "a":
        return None
    if kind == "L":
        body = list(LOOPS[number])
    elif kind.startswith("m"):
        mutant = cls.holes[number - 1]["mutantes"][int(kind[1:])]
        text = "\n".join(solution)
        assert mutant["cambia"] in text, mutant
        body = text.replace(mutant["cambia"], mutant["por"], 1).splitlines()
    else:
        body = solution
    return [f"# {student}", *body]  # a text of the student's own


def student_source(cls: Class338, exercise: str, plan: tuple[str, ...], student: str) -> str:
    lines = exercise.splitlines()
    for region in sorted(student_regions(exercise), key=lambda r: -r.begin):
        body = hole_body(cls, region.number, plan[region.number - 1], student)
        if body is not None:
            indented = [f"{region.indent}{line}" for line in body]
            lines[region.begin + 1 : region.end] = indented
    return "\n".join(lines) + "\n"


def students(seed: int) -> list[tuple[str, tuple[str, ...]]]:
    plans = list(PLANS)
    random.Random(seed).shuffle(plans)
    return [(f"alumno-{k + 1:02d}", plan) for k, plan in enumerate(plans)]


def write_compmath(cls: Class338, folder: Path, roster: list[tuple[str, tuple[str, ...]]]) -> str:
    """One practice workspace per student (cut down to the class), its lab.py filled in; returns
    the class's exercise as `practice start` wrote it."""
    template = folder / ".plantilla"
    made = workspace.create(load_course(REPO), template)
    for other in made.classes():
        if other.id != cls.info.id:
            shutil.rmtree(other.path)
            shutil.rmtree(made.exercise(other).parent)
    lab = cls.info.lab.relative_to(REPO)
    exercise = (template / lab).read_text("utf-8")
    for student, plan in roster:
        shutil.copytree(template, folder / student)
        (folder / student / lab).write_text(student_source(cls, exercise, plan, student), "utf-8")
    shutil.rmtree(template)
    return exercise


# --- nbgrader ----------------------------------------------------------------------------------


def _nbgrader_meta(grade_id: str, *, solution: bool = False, points: int = 0) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "grade": bool(points),
        "grade_id": grade_id,
        "locked": not solution,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if points:
        meta["points"] = points
    return {"nbgrader": meta}


def test_cells(cls: Class338) -> list[tuple[str, str]]:
    """(grade id, code) of the 9 test cells: one per hole and variant."""
    return [
        (f"hueco{h + 1}_v{v}", f"comprobar({cls.functions[h]}, {h + 1}, {v})")
        for h in range(len(cls.holes))
        for v in range(len(cls.variants))
    ]


def nbgrader_source(cls: Class338) -> nbformat.NotebookNode:
    v4 = nbformat.v4
    cells = [
        v4.new_markdown_cell("# 338 — MDP, ecuación de Bellman e iteración de valor"),
        v4.new_code_cell(cls.checker(None), metadata=_nbgrader_meta("comprobacion")),
        v4.new_code_cell(
            without_main(cls.solution), metadata=_nbgrader_meta("codigo", solution=True)
        ),
    ]
    cells += [v4.new_code_cell(c, metadata=_nbgrader_meta(g, points=1)) for g, c in test_cells(cls)]
    notebook = v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    return notebook


def write_nbgrader(
    cls: Class338,
    folder: Path,
    roster: list[tuple[str, tuple[str, ...]]],
    exercise: str,
    env: dict[str, str],
) -> None:
    """A course folder: source, release (generate_assignment) and one submission per student."""
    (folder / "source" / ASSIGNMENT).mkdir(parents=True)
    (folder / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.course_id = "compmath-338"\n', "utf-8"
    )
    nbformat.write(nbgrader_source(cls), folder / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    subprocess.run(
        ["nbgrader", "generate_assignment", ASSIGNMENT, "--create"],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
    )
    release = nbformat.read(folder / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    for student, plan in roster:
        notebook = nbformat.from_dict(json.loads(json.dumps(release)))
        for cell in notebook.cells:
            if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "codigo":
                cell.source = without_main(student_source(cls, exercise, plan, student))
        target = folder / "submitted" / student / ASSIGNMENT
        target.mkdir(parents=True)
        nbformat.write(notebook, target / f"{ASSIGNMENT}.ipynb")


NBGRADER_GRADES = """\
import json
from nbgrader.api import Gradebook
with Gradebook("sqlite:///gradebook.db") as gb:
    out = {}
    for student in gb.students:
        nb = gb.find_submission_notebook("p338", "p338", student.id)
        out[student.id] = {g.name: [g.score, g.max_score] for g in nb.grades}
print(json.dumps(out))
"""


def nbgrader_grades(folder: Path, python: Path, holes: int) -> dict[str, tuple[bool, ...]]:
    found = subprocess.run(
        [str(python), "-c", NBGRADER_GRADES], cwd=folder, capture_output=True, text=True
    )
    scores = json.loads(found.stdout)
    return {
        student: tuple(
            all(s == m for name, (s, m) in cells.items() if name.startswith(f"hueco{h}_"))
            for h in range(1, holes + 1)
        )
        for student, cells in scores.items()
    }


# --- otter -------------------------------------------------------------------------------------


def write_otter(
    cls: Class338,
    folder: Path,
    roster: list[tuple[str, tuple[str, ...]]],
    exercise: str,
    env: dict[str, str],
    limit: float,
) -> None:
    """autograder.zip from 3 test files, and one notebook per student."""
    tests = folder / "tests"
    tests.mkdir(parents=True)
    checker = cls.checker(limit)
    for h, function in enumerate(cls.functions, start=1):
        cases = "".join(
            OTTER_CASE.format(variant=v, function=function, hole=h)
            for v in range(len(cls.variants))
        )
        test = OTTER_TEST.format(hole=h, points=len(cls.variants), checker=checker, cases=cases)
        (tests / f"hueco{h}.py").write_text(test, "utf-8")
    subprocess.run(
        [*OTTER_GENERATE, "--no-requirements", "--no-environment"],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
    )
    (folder / "entregas").mkdir()
    for student, plan in roster:
        code = without_main(student_source(cls, exercise, plan, student))
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
        notebook.metadata["kernelspec"] = {
            "display_name": "Python 3",
            "language": "python",
            "name": "python3",
        }
        nbformat.write(notebook, folder / "entregas" / f"{student}.ipynb")


def otter_loop(folder: Path, out: Path, env: dict[str, str]) -> float:
    """`otter run` on each submission, one after the other (it grades one per call)."""
    run = ["otter", "run", "-a", str(folder / "autograder.zip")]
    started = time.perf_counter()
    for notebook in sorted((folder / "entregas").glob("*.ipynb")):
        target = out / notebook.stem
        target.mkdir(parents=True)
        subprocess.run(
            [*run, "-o", str(target), "--no-logo", str(notebook)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    return time.perf_counter() - started


def otter_grades(out: Path, holes: int) -> dict[str, tuple[bool, ...]]:
    grades = {}
    for results in sorted(out.glob("*/results.json")):
        tests = json.loads(results.read_text("utf-8"))["tests"]
        by_name = {t["name"]: t for t in tests}
        grades[results.parent.name] = tuple(
            (t := by_name.get(f"hueco{h}")) is not None and t["score"] == t["max_score"]
            for h in range(1, holes + 1)
        )
    return grades


# --- compmath ----------------------------------------------------------------------------------


def compmath_grades(out: Path, holes: int) -> dict[str, tuple[bool, ...]]:
    report = json.loads((out / "informe.json").read_text("utf-8"))
    grades = {}
    for student in report["alumnos"]:
        (cls,) = [c for c in student["clases"] if c["clase"].startswith(CLASS)]
        done = {h["numero"]: h["estado"] == "bien" for h in cls["huecos"]}
        grades[student["alumno"]] = tuple(done.get(h, False) for h in range(1, holes + 1))
    return grades


# --- timing ------------------------------------------------------------------------------------


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall time of `command`; its output is kept only to say why it failed."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: compmath grade with students who did not pass
        sys.exit(f"{command[:3]} salió con {done.returncode}:\n{done.stderr[-2000:]}")
    return elapsed


def agreement(
    a: dict[str, tuple[bool, ...]], b: dict[str, tuple[bool, ...]]
) -> tuple[int, list[str]]:
    """How many students have the same grades in both, and those who do not."""
    differ = sorted(s for s in a.keys() | b.keys() if a.get(s) != b.get(s))
    return len(a.keys() | b.keys()) - len(differ), differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=Path("/tmp/compmath-peers"))
    parser.add_argument("--timeout", type=int, default=2, help="segundos por ejecución")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--semilla", type=int, default=1)
    parser.add_argument("--alumnos", type=int, default=len(PLANS), help="los N primeros (prueba)")
    parser.add_argument("--guardar", type=Path, help="deja aquí las entregas y las notas")
    args = parser.parse_args()
    bin_dir = args.peers / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)  # the peers run in their own venv
    have = {tool: (bin_dir / tool).exists() for tool in ("nbgrader", "otter")}
    for tool, there in have.items():
        if not there:
            print(f"sin {tool} en {bin_dir}: se omite (instálalo así: {SETUP} y pasa --peers)")
    ours = {**os.environ, "PYTHONPATH": str(REPO)}
    cls = Class338()
    roster = students(args.semilla)[: args.alumnos]
    work = Path(tempfile.mkdtemp(prefix="compmath-bench-peers-"))
    try:
        measure(args, cls, roster, work, env, ours, have)
    finally:
        if args.guardar:
            shutil.rmtree(args.guardar, ignore_errors=True)
            shutil.copytree(work, args.guardar, symlinks=True)
        shutil.rmtree(work)


def measure(
    args: argparse.Namespace,
    cls: Class338,
    roster: list[tuple[str, tuple[str, ...]]],
    work: Path,
    env: dict[str, str],
    ours: dict[str, str],
    have: dict[str, bool],
) -> None:
    exercise_text = write_compmath(cls, work / "compmath" / "entregas", roster)
    if have["nbgrader"]:
        write_nbgrader(cls, work / "nbgrader-curso", roster, exercise_text, env)
    if have["otter"]:
        write_otter(cls, work / "otter", roster, exercise_text, env, args.timeout)
    grade = [*compmath_command(), "grade", str(work / "compmath" / "entregas")]
    grade += ["--clases", CLASS, "--timeout", str(args.timeout), "--root", str(REPO)]
    timed([*grade, "--out", str(work / "calentamiento")], work, ours)  # warm-up
    for tool, there in have.items():
        if there:
            timed([tool, "--help"], work, env)
    times: dict[str, list[float]] = {"compmath": [], "nbgrader": [], "otter": []}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.repeat):
        out = work / f"notas-{round_}"
        times["compmath"].append(timed([*grade, "--out", str(out)], work, ours))
        if have["nbgrader"]:
            course = work / f"nbgrader-{round_}"
            shutil.copytree(work / "nbgrader-curso", course)
            autograde = ["nbgrader", "autograde", ASSIGNMENT]
            autograde += [f"--ExecutePreprocessor.timeout={args.timeout}"]
            times["nbgrader"].append(timed(autograde, course, env))
        if have["otter"]:
            times["otter"].append(otter_loop(work / "otter", work / f"otter-{round_}", env))
        loads.append(os.getloadavg()[0])
        (work / "tiempos.json").write_text(json.dumps({"tiempos": times, "carga": loads}), "utf-8")
        print(
            f"ronda {round_ + 1}: "
            + ", ".join(f"{t} {v[-1]:.1f} s" for t, v in times.items() if v)
            + f" (carga {loads[-1]:.1f})",
            flush=True,
        )
    report(args, cls, roster, work, times, loads, have)


def report(
    args: argparse.Namespace,
    cls: Class338,
    roster: list[tuple[str, tuple[str, ...]]],
    work: Path,
    times: dict[str, list[float]],
    loads: list[float],
    have: dict[str, bool],
) -> None:
    holes = len(cls.holes)
    last = args.repeat - 1
    grades = {"compmath": compmath_grades(work / f"notas-{last}", holes)}
    if have["nbgrader"]:
        python = args.peers / "bin" / "python"
        grades["nbgrader"] = nbgrader_grades(work / f"nbgrader-{last}", python, holes)
    if have["otter"]:
        grades["otter"] = otter_grades(work / f"otter-{last}", holes)
    medians = {t: statistics.median(v) for t, v in times.items() if v}
    print(
        f"\n{len(roster)} entregas de la clase {CLASS} ({holes} huecos × {len(cls.variants)} "
        f"variantes), límite {args.timeout} s por ejecución, mediana de {args.repeat}; carga "
        f"media {min(loads):.1f}–{max(loads):.1f} (1 min), {os.cpu_count()} núcleos"
    )
    print("| medida | valor | objetivo | detalle |\n| --- | --- | --- | --- |")
    ours = medians["compmath"]
    peers = (("nbgrader", 0.1, "`nbgrader autograde`"), ("otter", 0.05, "`otter run`"))
    for tool, target, name in peers:
        if tool in medians:
            ratio = ours / medians[tool]
            pairs = [a / b for a, b in zip(times["compmath"], times[tool])]
            print(
                f"| `compmath grade` ÷ {name} | {ratio:.3f} | ≤ {target} "
                f"{'✓' if ratio <= target else '✗'} | {ours:.1f} s / {medians[tool]:.1f} s; "
                f"rondas {min(pairs):.3f}–{max(pairs):.3f} |"
            )
    right = [g.count(True) for g in grades["compmath"].values()]
    print(f"huecos bien según compmath: {sum(right)} de {holes * len(roster)}")
    for tool in ("nbgrader", "otter"):
        if tool in grades:
            same, differ = agreement(grades["compmath"], grades[tool])
            print(
                f"notas iguales a las de compmath ({tool}): {same} de {len(roster)} alumnos"
                + (f"; distintas: {', '.join(differ)}" if differ else "")
            )
            for student in differ:
                print(
                    f"  {student}: compmath {grades['compmath'].get(student)}, "
                    f"{tool} {grades[tool].get(student)}"
                )


if __name__ == "__main__":
    main()
