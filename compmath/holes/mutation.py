"""Lint's mutation check: a hole that writes the defaults' values literally must fail.

For every hole, the course's lab runs once (in the sandbox, through the worker) instrumented to
capture, the first time the hole's region ends, the values of the names it assigns, written as
Python literals (the notebooks' recordings capture them too, in the same run: lint then needs
no run of its own, notebook.recording.captured). That text becomes a student's hole (the other
holes hold the solution), which authoring.mutant_check judges with the other mutants at the
hidden variants: if it passes at every one, the class's variants cannot tell copied numbers from
code, and lint says so.
"""

from __future__ import annotations

import ast
from pathlib import Path

from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError, Problem
from compmath.holes.graft import course_lab
from compmath.holes.regions import HoleError, Region

CAPTURE = """
def __literal__(value):
    import numpy
    if isinstance(value, numpy.ndarray) and value.size > 64 and value.dtype.kind in "biuf":
        import base64  # a long list literal takes seconds to compile; one bytes string does not
        import hashlib
        data = base64.b64encode(numpy.ascontiguousarray(value).tobytes()).decode()
        made = (f"__import__('numpy').frombuffer(__import__('base64').b64decode('{data}'), "
                f"dtype={value.dtype.str!r}).reshape({value.shape!r})")
        # decoded once per run, a copy each pass: a region in a loop would decode it every pass
        key = "__valores_" + hashlib.sha256(made.encode()).hexdigest()[:16] + "__"
        return (f"(globals()[{key!r}] if {key!r} in globals() else "
                f"globals().setdefault({key!r}, {made})).copy()")
    if isinstance(value, numpy.ndarray):
        return f"__import__('numpy').array({value.tolist()!r}, dtype={value.dtype.str!r})"
    if isinstance(value, numpy.generic):
        return f"__import__('numpy').{type(value).__name__}({value.item()!r})"
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return f"float({str(value)!r})"
    return repr(value)
__capturas__ = {}
__por_capturar__ = set()  # the holes whose values are still to capture: a pass after costs a lookup
def __captura__(hole, names, scope):
    __por_capturar__.discard(hole)
    __capturas__[hole] = "\\n".join(
        f"{name} = {__literal__(scope[name])}" for name in names if name in scope)
"""
WRAP = """
__run__ = run
def run():
    __run__()
    return {f"hueco_{k}": text for k, text in __capturas__.items()}
"""


def assigned(region: Region) -> list[str]:
    """The names a region binds or changes in place (`x = …`, `x[i] = …`, `x += …`, for x)."""
    import textwrap

    names: list[str] = []
    tree = parse(textwrap.dedent("\n".join(region.body)))
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [node.target]
        for target in targets:
            for name in _bound(target):
                if name not in names:
                    names.append(name)
    return names


def _bound(target: ast.expr) -> list[str]:
    """The names an assignment target binds or changes: `x`, each of `a, *b`, and the object
    under `x[i]` or `x.y` (not the names in the index: `p[np.argmax(z)]` changes p, not np)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound(element)]
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    while isinstance(target, (ast.Subscript, ast.Attribute)):
        target = target.value
    return [target.id] if isinstance(target, ast.Name) else []


def capture_call(region: Region) -> str:
    """The line, at the end of `region`, that captures the names it assigns the first time."""
    number, names = region.number, assigned(region)
    call = f"__captura__({number}, {names!r}, locals())"
    return f"{region.indent}if {number} in __por_capturar__: {call}"


def capture_code(regions: list[Region]) -> str:
    """CAPTURE, with every one of `regions` still to capture."""
    return CAPTURE + f"__por_capturar__.update({[r.number for r in regions]!r})\n"


def capturing_source(cls: ClassInfo) -> str:
    """The course's lab, instrumented to return each hole's values as literal Python text."""
    lab = course_lab(cls)
    lines = list(lab.lines)
    for region in reversed(lab.regions):
        lines.insert(region.end, capture_call(region))
    return "\n".join(lines) + "\n" + capture_code(list(lab.regions)) + WRAP


def _has_holes(cls: ClassInfo) -> bool:
    """True for a class with holes; a broken class.toml is lint's to report, not this check's."""
    try:
        return bool(cls.meta.holes) and cls.lab.exists()
    except CompmathError:
        return False


def captured_values(
    classes: list[ClassInfo], timeout: float, jobs: int
) -> tuple[dict[str, dict[int, tuple[str, ...]]], list[Problem]]:
    """Each class's holes written as the literal values they compute at the defaults (by class
    id, then hole: the body's lines), and the classes whose values could not be captured."""
    import tempfile

    from compmath.course.tree import load_course
    from compmath.judging.batched import judge_batched
    from compmath.judging.case import Broken, Explore, prepare, variant

    classes = [c for c in classes if _has_holes(c)]
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory(prefix="compmath-mutantes-") as folder:
        cases = []
        for cls in classes:
            base = prepare(load_course(cls.root), cls, timeout=timeout)
            if isinstance(base, Broken):
                continue  # lint reports the broken file on its own
            try:
                source = capturing_source(cls)
            except (HoleError, SyntaxError):
                continue  # regions that make no exercise: lint reports them on their own
            lab = Path(folder) / cls.id / "lab.py"
            lab.parent.mkdir()
            lab.write_text(source, encoding="utf-8")
            key = f"captura/{cls.id}"  # unique in lint's process (see runs._cases)
            cases.append(variant(base, key=key, lab=lab, expected=Explore()))
        # the instrumented lab returns text, not its outputs: the schema refuses it, the text
        # is in the report all the same
        reports = judge_batched(cases, jobs=jobs).by_key()
    captured: dict[str, dict[int, tuple[str, ...]]] = {}
    for cls in classes:
        report = reports.get(f"captura/{cls.id}")
        if report is None:
            continue
        if report.outputs is None:
            what = f"no se pudieron capturar los valores de sus huecos ({report.full_message})"
            shown_lab = str(cls.lab.relative_to(cls.root))
            problems.append(Problem(shown_lab, what, "revisa que el laboratorio corra"))
            continue
        captured[cls.id] = by_hole(report.outputs)
    return captured, problems


def by_hole(captures: dict[str, object]) -> dict[int, tuple[str, ...]]:
    """What a capturing run returned (`hueco_N`: the text of hole N's values), by hole: the
    lines of each body."""
    return {
        int(key.removeprefix("hueco_")): tuple(str(text).splitlines())
        for key, text in captures.items()
        if str(text)
    }
