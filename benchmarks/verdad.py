"""`compmath grade` against a ground truth: a synthetic class whose every hole is known right or
wrong, graded, and the agreement (hole cells right / total, both ways) beside the time.

    python benchmarks/verdad.py [--alumnos 200] [--clases 325,326,329,335,337] [--semilla 1]
                                [--timeout 5] [--jobs N] [--conservar CARPETA]

Each student hands in, for each class, one kind of lab.py (drawn per student and class):
- right: the course's solution (`bien`); rewritten without changing what it computes (`distinto`:
  the hole's code printed again by `ast.unparse`, numpy idioms swapped: `a @ b` for
  `np.matmul(a, b)`, `x.sum(…)` for `np.sum(x, …)`, integer divisors as floats, the last value
  cast to float: 2.0 for 2); in latin-1 with its `# -*- coding: latin-1 -*-` line (`latin1`);
  the practice notebook filled in and handed in instead of lab.py (`cuaderno`); saved with
  Windows line ends (`crlf`) or a UTF-8 byte order mark (`bom`); printing as it works
  (`imprime`); with code changed outside the holes, which does not count (`fuera`);
- partly done: some holes right, the others left as the exercise has them (`parcial`);
- wrong in one hole, the others right: a common error the class declares as a mutant (`sutil`),
  the values at the defaults written by hand (`fijo`), a syntax error (`sintaxis`), the hole's
  closing marker deleted (`marcas`), or an attack (`hostil`: hangs, floods stdout, writes into
  the other students' files, exits: one student in 25, the attacks in turn, in their first
  class); values by hand past LITERAL_BYTES are not used (a lab.py past 512 KiB is refused
  whole by grade, every hole with it: its policy, not a verdict on the holes);
- nothing: an empty file (`vacio`), no file (`falta`), bytes that are not text (`no_python`).

The truth does not come from compmath's judge: every rewritten, declared-mutant and hand-written
hole is run first with plain Python (the course's lab with that hole's code pasted in, at the
defaults and at each `[practica] variantes`) and compared with the course's lab by this file's
own comparison: a rewrite is used only if every output matches within 1e-9, a wrong hole only if
some output is off by more than 1e-3 or the lab fails. A hole is right if and only if its code
is the solution or a verified rewrite. The grade's verdict for a hole is right if and only if
informe.json says «bien». Reported: cells that agree / all cells, right holes graded otherwise,
wrong holes graded «bien», each disagreement (student, class, hole, kind, what grade said), and
grade's time. Nothing here is a test: no timing is asserted.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from entregas import HOSTILE, _template  # noqa: E402

from compmath.course.tree import ClassInfo, load_course  # noqa: E402
from compmath.holes.mutants import DeclarationError, declared  # noqa: E402
from compmath.holes.regions import solution_regions  # noqa: E402

DEFAULT_CLASSES = ["325", "326", "329", "335", "337"]
# per student and class: the kind of lab.py, by weight
WEIGHTS = {
    "bien": 16,
    "distinto": 16,
    "latin1": 5,
    "cuaderno": 5,
    "crlf": 3,
    "bom": 2,
    "imprime": 3,
    "fuera": 3,
    "parcial": 12,
    "sutil": 14,
    "fijo": 7,
    "sintaxis": 5,
    "marcas": 4,
    "vacio": 3,
    "falta": 3,
    "no_python": 3,
}
SAME = 1e-9  # a rewrite is the same when every number is this close (relative, or absolute)
LITERAL_BYTES = 64 * 1024  # values by hand beyond this make a lab.py grade refuses whole
OFF = 1e-3  # a wrong hole is wrong when some number is at least this far off
RUNNER = """
import importlib.util, json, sys
import numpy as np
def plain(v):
    if isinstance(v, np.ndarray):
        return plain(v.tolist())
    if isinstance(v, np.generic):
        return plain(v.item())
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, float) and v != v:
        return "NaN"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return str(v)
    return v
lab, params = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, lab.rsplit("/", 1)[0])
results = []
for p in params:
    spec = importlib.util.spec_from_file_location("lab", lab)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        results.append({"ok": plain(module.run(**p))})
    except BaseException as exc:
        results.append({"error": f"{type(exc).__name__}: {exc}"[:200]})
sys.stdout.write(json.dumps(results))
"""


@dataclass
class Hole:
    """What is known of one hole of a class: the solution's body (dedented), the rewrites that
    compute the same, and the wrong bodies (declared mutants, the values by hand)."""

    number: int
    solution: str
    same: list[str] = field(default_factory=list)
    mutants: list[str] = field(default_factory=list)
    literal: str = ""


# --- rewrites that keep what a hole computes ---------------------------------------------------


class _Idioms(ast.NodeTransformer):
    """`a @ b` → `np.matmul(a, b)`, `x.sum(…)` → `np.sum(x, …)` (mean, max, min too)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.MatMult):
            func = ast.Attribute(ast.Name("np", ast.Load()), "matmul", ast.Load())
            return ast.Call(func, [node.left, node.right], [])
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        reducing = ("sum", "mean", "max", "min")
        if (
            isinstance(func, ast.Attribute)
            and func.attr in reducing
            and not (isinstance(func.value, ast.Name) and func.value.id == "np")
        ):
            attr = ast.Attribute(ast.Name("np", ast.Load()), func.attr, ast.Load())
            return ast.Call(attr, [func.value, *node.args], node.keywords)
        return node


class _FloatDivisors(ast.NodeTransformer):
    """An integer literal on either side of `/` written as a float: `x / 2` → `x / 2.0`."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            for side in ("left", "right"):
                value = getattr(node, side)
                if isinstance(value, ast.Constant) and type(value.value) is int:
                    setattr(node, side, ast.Constant(float(value.value)))
        return node


def _assigned_last(tree: ast.Module) -> str | None:
    for node in reversed(tree.body):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


def rewrites(body: str) -> list[str]:
    """Bodies that should compute what `body` does (each checked by running it: `verify`)."""
    tree = ast.parse(body)
    made = [ast.unparse(tree) + "\n"]
    for transform in (_Idioms(), _FloatDivisors()):
        new = ast.unparse(ast.fix_missing_locations(transform.visit(ast.parse(body)))) + "\n"
        made.append("# reescrito a mi manera (versión del alumno)\n" + new)
    last = _assigned_last(tree)
    if last is not None:  # the hole's last value as a float: 2.0 for 2
        made.append(body + f"{last} = {last} * 1.0\n")
    return list(dict.fromkeys(m for m in made if m.strip() != body.strip()))


# --- the independent oracle: plain Python, this file's comparison -----------------------------


def _grafted(lab_text: str, number: int, body: str) -> str:
    """The course's lab with solution region `number` holding `body` (found by its markers)."""
    lines = lab_text.splitlines()
    begins = [i for i, t in enumerate(lines) if t.strip() == "### BEGIN SOLUTION"]
    ends = [i for i, t in enumerate(lines) if t.strip() == "### END SOLUTION"]
    begin, end = begins[number - 1], ends[number - 1]
    indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
    placed = [indent + line if line.strip() else "" for line in body.splitlines()]
    return "\n".join([*lines[: begin + 1], *placed, *lines[end:]]) + "\n"


def _run_plain(lab: Path, params: list[dict[str, Any]]) -> list[dict[str, Any]]:
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUNNER, str(lab), json.dumps(params)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=lab.parent,
        )
        found = json.loads(done.stdout)
        return found if isinstance(found, list) else []
    except (subprocess.TimeoutExpired, ValueError):
        return [{"error": "no terminó"}] * len(params)


def distance(a: Any, b: Any) -> float:
    """How far apart two outputs are: 0 the same, inf a different shape or type."""
    if isinstance(a, bool) or isinstance(b, bool):
        return 0.0 if a is b else math.inf
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) / max(1.0, abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return math.inf
        return max((distance(a[k], b[k]) for k in a), default=0.0)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return math.inf
        return max((distance(x, y) for x, y in zip(a, b)), default=0.0)
    return 0.0 if a == b else math.inf


def verify(cls: ClassInfo, holes: list[Hole], params: list[dict[str, Any]], jobs: int) -> None:
    """Keep only the rewrites plain Python finds the same at every parameter set, and the
    wrong bodies it finds wrong at one."""
    text = cls.lab.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="verdad-") as tmp:
        jobs_list: list[tuple[Path, Hole | None, str, str]] = [(cls.lab, None, "", "")]
        for hole in holes:
            bodies = [("same", b) for b in hole.same] + [("wrong", b) for b in hole.mutants]
            bodies += [("literal", hole.literal)] if hole.literal else []
            for n, (what, body) in enumerate(bodies):
                lab = Path(tmp) / f"{hole.number}-{n}" / "lab.py"
                lab.parent.mkdir()
                lab.write_text(_grafted(text, hole.number, body), encoding="utf-8")
                jobs_list.append((lab, hole, what, body))
        with ThreadPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(lambda j: _run_plain(j[0], params), jobs_list))
    reference = outcomes[0]
    if any("ok" not in r for r in reference) or len(reference) != len(params):
        raise SystemExit(f"el laboratorio de {cls.id} no corre con Python solo: {reference}")
    for hole in holes:
        hole.same, hole.mutants, literal = [], [], hole.literal
        hole.literal = ""
        for (_, owner, what, body), found in zip(jobs_list[1:], outcomes[1:]):
            if owner is not hole:
                continue
            gaps = [
                distance(f["ok"], r["ok"]) if "ok" in f else math.inf
                for f, r in zip(found, reference)
            ]
            if what == "same" and len(gaps) == len(params) and max(gaps) <= SAME:
                hole.same.append(body)
            elif what != "same" and (len(gaps) < len(params) or max(gaps) >= OFF):
                if what == "literal" and body == literal:
                    hole.literal = body
                else:
                    hole.mutants.append(body)


# --- the class: what each kind of student hands in ----------------------------------------------


def known_holes(cls: ClassInfo, literal: dict[int, tuple[str, ...]]) -> list[Hole]:
    solution = cls.lab.read_text(encoding="utf-8")
    holes = []
    for spec, region in zip(cls.meta.holes, solution_regions(solution)):
        body = textwrap.dedent("\n".join(region.body)) + "\n"
        hole = Hole(region.number, body, rewrites(body))
        for index, mutant in enumerate(spec.mutants, 1):
            try:
                made = declared(region.number, index, mutant, region.body)
            except DeclarationError:
                continue
            hole.mutants.append("\n".join(made.body) + "\n")
        if literal.get(region.number) and sum(map(len, literal[region.number])) < LITERAL_BYTES:
            hole.literal = "\n".join(literal[region.number]) + "\n"
        holes.append(hole)
    return holes


def _fill(exercise: str, bodies: dict[int, str]) -> str:
    """The exercise (or a notebook cell of it) with each hole in `bodies` holding that code,
    found by its markers («### HUECO k ###» … «### FIN DEL HUECO k ###»); the others stay."""
    lines = exercise.splitlines()
    for number, body in bodies.items():
        opens = [i for i, t in enumerate(lines) if t.strip() == f"### HUECO {number} ###"]
        closes = [i for i, t in enumerate(lines) if t.strip() == f"### FIN DEL HUECO {number} ###"]
        if not opens or not closes:
            continue
        begin, end = opens[0], closes[0]
        indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
        placed = [indent + line if line.strip() else "" for line in body.splitlines()]
        lines = [*lines[: begin + 1], *placed, *lines[end:]]
    return "\n".join(lines) + ("\n" if exercise.endswith("\n") else "")


def hand_in(
    cls: ClassInfo,
    exercise: str,
    holes: list[Hole],
    kind: str,
    rng: random.Random,
    entregas: Path,
) -> tuple[str | bytes | None, str, dict[int, bool]]:
    """(what the student hands in: text, bytes or None; "lab" or "cuaderno"; the truth per
    hole). A kind the class cannot make (no verified mutant, say) becomes `bien`."""
    numbers = [h.number for h in holes]
    right = {h.number: h.solution for h in holes}
    truth = dict.fromkeys(numbers, True)
    wrong_one = rng.choice(holes)
    if kind == "distinto" and any(h.same for h in holes):
        bodies = {h.number: rng.choice(h.same) if h.same else h.solution for h in holes}
        return _fill(exercise, bodies), "lab", truth
    if kind == "latin1":
        text = "# -*- coding: latin-1 -*-\n" + _fill(exercise, right)
        data = text.encode("latin-1", errors="replace")
        if all(
            h.solution.encode("latin-1", errors="replace").decode("latin-1") == h.solution
            for h in holes
        ):
            return data, "lab", truth
    if kind == "cuaderno":
        return _notebook(cls, right), "cuaderno", truth
    if kind == "crlf":  # saved on Windows
        return _fill(exercise, right).replace("\n", "\r\n").encode("utf-8"), "lab", truth
    if kind == "bom":  # an editor that writes the UTF-8 byte order mark
        return ("\ufeff" + _fill(exercise, right)).encode("utf-8"), "lab", truth
    if kind == "imprime":  # prints while it works
        bodies = {n: f"print('hueco {n}: calculando')\n" + b for n, b in right.items()}
        return _fill(exercise, bodies), "lab", truth
    if kind == "fuera":  # right holes, and code changed outside them (it does not count)
        text = _fill(exercise, right).replace(
            "import numpy as np", "import numpy as np\nimport math", 1
        )
        return text + "\n\n# entregado con cambios fuera de los huecos\n", "lab", truth
    if kind == "parcial":
        done = set(rng.sample(numbers, rng.randint(0, len(numbers) - 1)))
        return _fill(exercise, {n: right[n] for n in done}), "lab", {n: n in done for n in numbers}
    if kind == "sutil" and any(h.mutants for h in holes):
        wrong_one = rng.choice([h for h in holes if h.mutants])
        bodies = {**right, wrong_one.number: rng.choice(wrong_one.mutants)}
        return _fill(exercise, bodies), "lab", {**truth, wrong_one.number: False}
    if kind == "fijo" and any(h.literal for h in holes):
        wrong_one = rng.choice([h for h in holes if h.literal])
        bodies = {**right, wrong_one.number: wrong_one.literal}
        return _fill(exercise, bodies), "lab", {**truth, wrong_one.number: False}
    if kind == "sintaxis":
        bodies = {**right, wrong_one.number: right[wrong_one.number] + "resultado = (\n"}
        return _fill(exercise, bodies), "lab", {**truth, wrong_one.number: False}
    if kind == "marcas":
        text = _fill(exercise, right)
        closing = f"### FIN DEL HUECO {wrong_one.number} ###"
        text = "\n".join(t for t in text.splitlines() if t.strip() != closing) + "\n"
        return text, "lab", {**truth, wrong_one.number: False}
    if kind.startswith("hostil-"):
        attack = HOSTILE[sorted(HOSTILE)[int(kind.removeprefix("hostil-"))]]
        code = attack.format(entregas=str(entregas.resolve())) + "\n"
        bodies = {**right, holes[0].number: code}
        return _fill(exercise, bodies), "lab", {**truth, holes[0].number: False}
    if kind == "vacio":
        return "", "lab", dict.fromkeys(numbers, False)
    if kind == "falta":
        return None, "lab", dict.fromkeys(numbers, False)
    if kind == "no_python":
        return bytes(rng.randrange(256) for _ in range(300)), "lab", dict.fromkeys(numbers, False)
    return _fill(exercise, right), "lab", truth


_NOTEBOOKS: dict[str, bytes] = {}


def _notebook(cls: ClassInfo, bodies: dict[int, str]) -> bytes:
    """The class's practice notebook (as `compmath notebook --practice` writes it) with each
    hole's cells filled with `bodies` (the solution's: made once per class)."""
    if cls.id not in _NOTEBOOKS:
        _NOTEBOOKS[cls.id] = _filled_notebook(cls, bodies)
    return _NOTEBOOKS[cls.id]


def _filled_notebook(cls: ClassInfo, bodies: dict[int, str]) -> bytes:
    from compmath.notebook.build import notebook_bytes

    book = json.loads(notebook_bytes(load_course(REPO), cls, practice=True, validate=False))
    for cell in book["cells"]:
        if cell.get("cell_type") != "code":
            continue
        source = cell["source"]
        text = "".join(source) if isinstance(source, list) else source
        if "### HUECO" in text and cell.get("id", "").startswith("codigo-"):
            cell["source"] = _fill(text, bodies).splitlines(keepends=True)
    return json.dumps(book, ensure_ascii=False, indent=1).encode("utf-8")


def write_class(
    out: Path, count: int, classes: list[ClassInfo], seed: int, jobs: int
) -> dict[tuple[str, str, int], tuple[bool, str]]:
    """Write the students into `out`; the truth: (student, class id, hole) -> (right, kind)."""
    from compmath.holes.mutation import captured_values
    from compmath.holes.variants import variants_of

    rng = random.Random(seed)
    literal, _ = captured_values(classes, 60.0, jobs)
    known: dict[str, list[Hole]] = {}
    for cls in classes:
        holes = known_holes(cls, literal.get(cls.id, {}))
        params = [dict(v.params) for v in variants_of(cls)]
        verify(cls, holes, params, jobs)
        known[cls.id] = holes
        for h in holes:
            print(
                f"{cls.id} hueco {h.number}: {len(h.same)} reescrituras, {len(h.mutants)} "
                f"mutantes, {'valores a mano' if h.literal else 'sin valores a mano'} verificados",
                file=sys.stderr,
            )
    out.mkdir(parents=True)
    template = _template(classes, out / ".plantilla")
    exercises = {c.id: (template / c.lab.relative_to(REPO)).read_text("utf-8") for c in classes}
    kinds, weights = list(WEIGHTS), list(WEIGHTS.values())
    truth: dict[tuple[str, str, int], tuple[bool, str]] = {}
    for k in range(count):
        student = f"alumno-{k + 1:04d}"
        folder = out / student
        shutil.copytree(template, folder)
        attack = k % 25 == 24  # one student in 25 attacks, in their first class
        for position, cls in enumerate(classes):
            kind = rng.choices(kinds, weights)[0]
            if attack and position == 0:
                kind = f"hostil-{(k // 25) % len(HOSTILE)}"
            lab = folder / cls.lab.relative_to(REPO)
            made, form, holes = hand_in(cls, exercises[cls.id], known[cls.id], kind, rng, out)
            if form == "cuaderno":
                lab.unlink()
                assert isinstance(made, bytes)
                lab.parent.with_suffix(".ipynb").write_bytes(made)
            elif made is None:
                lab.unlink()
            elif isinstance(made, bytes):
                lab.write_bytes(made)
            else:
                lab.write_text(made, encoding="utf-8")
            for number, right in holes.items():
                truth[(student, cls.id, number)] = (right, kind)
        if k % 10 == 9:  # one in ten hands in a .zip, as an LMS export does
            with zipfile.ZipFile(out / f"{student}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
                for path in sorted(folder.rglob("*")):
                    if path.is_file():
                        archive.write(path, f"{student}/{path.relative_to(folder)}")
            shutil.rmtree(folder)
    shutil.rmtree(template)
    return truth


def graded(report: Path) -> dict[tuple[str, str, int], tuple[str, str]]:
    """(student, class id, hole) -> (estado, motivo), from informe.json."""
    data = json.loads(report.read_text(encoding="utf-8"))
    return {
        (s["alumno"], c["clase"], h["numero"]): (h["estado"], h.get("motivo", ""))
        for s in data["alumnos"]
        for c in s["clases"]
        for h in c["huecos"]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alumnos", type=int, default=200)
    parser.add_argument("--clases", default=",".join(DEFAULT_CLASSES))
    parser.add_argument("--semilla", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--conservar", type=Path, default=None, help="deja ahí entregas y notas")
    args = parser.parse_args()
    import os

    jobs = args.jobs or os.cpu_count() or 1
    course = load_course(REPO)
    classes = course.select(args.clases.split(","))
    work = args.conservar or Path(tempfile.mkdtemp(prefix="compmath-verdad-"))
    try:
        started = time.perf_counter()
        truth = write_class(work / "entregas", args.alumnos, classes, args.semilla, jobs)
        written = time.perf_counter() - started
        command = [sys.executable, "-m", "compmath.entry", "grade", str(work / "entregas")]
        command += ["--clases", args.clases, "--out", str(work / "notas")]
        command += ["--timeout", str(args.timeout), "--jobs", str(jobs), "--root", str(REPO)]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        seconds = time.perf_counter() - started
        if not (work / "notas" / "informe.json").exists():
            raise SystemExit(f"compmath grade no escribió informe.json:\n{done.stderr[-2000:]}")
        verdicts = graded(work / "notas" / "informe.json")
        _report(truth, verdicts, seconds, written, args.alumnos, len(classes), done.returncode)
    finally:
        if args.conservar is None:
            shutil.rmtree(work, ignore_errors=True)


def _report(
    truth: dict[tuple[str, str, int], tuple[bool, str]],
    verdicts: dict[tuple[str, str, int], tuple[str, str]],
    seconds: float,
    written: float,
    students: int,
    classes: int,
    code: int,
) -> None:
    agree = missed = granted = absent = 0
    wrong: list[str] = []
    by_kind: dict[str, list[int]] = {}
    for cell, (right, kind) in sorted(truth.items()):
        found = verdicts.get(cell)
        counts = by_kind.setdefault(kind.split("-")[0], [0, 0])
        counts[1] += 1
        if found is None:
            absent += 1
            wrong.append(f"{cell[0]} {cell[1]} hueco {cell[2]} ({kind}): no está en informe.json")
            continue
        said = found[0] == "bien"
        if said == right:
            agree += 1
            counts[0] += 1
            continue
        if right:
            missed += 1
        else:
            granted += 1
        wrong.append(
            f"{cell[0]} {cell[1]} hueco {cell[2]} ({kind}, {'bien' if right else 'no bien'}): "
            f"grade dice «{found[0]}» {found[1][:160]}"
        )
    total = len(truth)
    rights = sum(1 for r, _ in truth.values() if r)
    print("| medida | valor |\n| --- | --- |")
    print(f"| alumnos × clases | {students} × {classes} |")
    print(f"| celdas (huecos) | {total}: {rights} bien, {total - rights} no |")
    print(f"| coinciden | {agree} / {total} ({agree / total:.2%}) |")
    print(f"| bien juzgados como no bien | {missed} / {rights} |")
    print(f"| no bien juzgados «bien» | {granted} / {total - rights} |")
    print(f"| ausentes del informe | {absent} |")
    print(
        f"| compmath grade | {seconds:.1f} s (salida {code}) · {students / seconds:.1f} alumnos/s |"
    )
    print(f"| generar y verificar la verdad | {written:.1f} s |")
    print("\n| tipo | coinciden |\n| --- | --- |")
    for kind, (ok, all_) in sorted(by_kind.items()):
        print(f"| {kind} | {ok} / {all_} |")
    if wrong:
        print(f"\nDesacuerdos ({len(wrong)}):")
        for line in wrong[:60]:
            print(f"- {line}")


if __name__ == "__main__":
    main()
