"""A student's own numbers in practice: their parameters, and the exercise that defaults to them.

The parameters come from course.per_student (a stable hash of course, class and student id).
The exercise a student with numbers of their own receives is the class's exercise with run()'s
defaults set to those numbers: where a default is a module constant used nowhere else
(`DIMENSION = 8` … `dimension: int = DIMENSION`), the constant's value changes, else the default
in run()'s signature does. So `python lab.py` and `compmath run` in the workspace use them, and
the grafted program (the course's lab run with these parameters) computes the same thing.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from compmath.course.params import assignments, specs_from_source
from compmath.course.per_student import declaration_problems, student_params
from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError
from compmath.judging.report import LabReport


def course_name(cls: ClassInfo) -> str:
    """The course's part of the derivation: its title in curso.toml («compmath» without one)."""
    from compmath.course.tree import load_course

    try:
        return load_course(cls.root).meta.title
    except CompmathError:
        return "compmath"


def own_params(cls: ClassInfo, student: str, course: str | None = None) -> dict[str, Any]:
    """The student's own parameters in `cls` ({} when the class declares none, or no student);
    raise CompmathError when the declaration does not fit run()'s typed parameters."""
    declared = cls.meta.per_student
    if not declared or not student:
        return {}
    specs = specs_from_source(cls.lab) or []
    types = {s.name: s.type_name for s in specs}
    wrong = declaration_problems(declared, types)
    if wrong:
        raise CompmathError(
            f"{cls.id}: [practica.por_alumno]: {wrong[0]}",
            "corrígelo en su class.toml; compmath lint lo detalla",
        )
    name = course if course is not None else course_name(cls)
    return student_params(name, cls.number, student, declared, types)


def defaults_values(cls: ClassInfo, own: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of run() with the value the student's lab uses: theirs, else the lab's."""
    specs = specs_from_source(cls.lab) or []
    return {s.name: own.get(s.name, s.default) for s in specs}


def _run_node(tree: ast.Module) -> ast.FunctionDef | None:
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run"), None)


def _defaults(run: ast.FunctionDef) -> dict[str, ast.expr]:
    args = run.args
    positional = args.posonlyargs + args.args
    found = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    found.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return found


def _constant_value(tree: ast.Module, name: str) -> ast.expr | None:
    """The value of `NAME = literal` at module level, when NAME is read nowhere but once."""
    uses = sum(
        1
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    )
    if uses != 1:
        return None
    for found, value in assignments(tree):
        if found == name:
            try:
                ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
            return value
    return None


def _replace(lines: list[str], node: ast.expr, text: str) -> None:
    """Put `text` where `node` is (one line), keeping a trailing comment's column if it can."""
    if node.end_lineno != node.lineno or node.end_col_offset is None:
        return
    raw = lines[node.lineno - 1].encode("utf-8")
    before, old, after = (
        raw[: node.col_offset],
        raw[node.col_offset : node.end_col_offset],
        raw[node.end_col_offset :],
    )
    new = text.encode("utf-8")
    spaces = len(after) - len(after.lstrip(b" "))
    if after.lstrip(b" ").startswith(b"#") and spaces > 1:
        keep = max(1, spaces - (len(new) - len(old)))
        after = b" " * keep + after.lstrip(b" ")
    lines[node.lineno - 1] = (before + new + after).decode("utf-8")


def with_defaults(source: str, params: Mapping[str, Any]) -> str:
    """`source` (an exercise or a lab) with run()'s defaults set to `params`."""
    if not params:
        return source
    tree = parse(source)
    run = _run_node(tree)
    if run is None:
        return source
    defaults = _defaults(run)
    edits: list[tuple[ast.expr, str]] = []
    for name, value in params.items():
        node = defaults.get(name)
        if node is None:
            continue
        if isinstance(node, ast.Name):
            node = _constant_value(tree, node.id) or node
        edits.append((node, repr(value)))
    lines = source.splitlines()
    for node, text in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        _replace(lines, node, text)
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def run_at(
    points: list[tuple[ClassInfo, dict[str, Any]]], *, timeout: float = 60.0, jobs: int = 0
) -> list[LabReport]:
    """The course's lab of each class run with the given parameters, through the one judging
    pipeline (validated against the class's schema, the canonical text kept), in order."""
    import os
    import secrets
    from dataclasses import replace

    from compmath.course.tree import load_course
    from compmath.judging.case import Broken, Case, prepare, variant
    from compmath.judging.pipeline import judge_cases

    call = secrets.token_hex(6)  # a key never repeats across calls (see practice.runs)
    cases: list[Case] = []
    for k, (cls, params) in enumerate(points):
        base = prepare(load_course(cls.root), cls, params, timeout=timeout, record=True)
        key = f"punto-{call}-{k}"
        if isinstance(base, Broken):
            cases.append(replace(base, request=replace(base.request, key=key)))
        else:
            cases.append(variant(base, key=key))
    if not cases:
        return []
    reports = judge_cases(cases, jobs=jobs or os.cpu_count() or 1).result().by_key()
    return [reports[case.key] for case in cases]


def own_snapshots(points: list[tuple[ClassInfo, dict[str, Any]]]) -> dict[str, str]:
    """Each class's snapshot at the student's parameters (class id -> canonical text); raise
    CompmathError when the course's lab gives no valid outputs with them."""
    from compmath.judging.report import Outcome

    found = {}
    for (cls, params), report in zip(points, run_at(points)):
        if report.outcome != Outcome.VALID:
            shown = ", ".join(f"{k} = {v!r}" for k, v in params.items())
            raise CompmathError(
                f"el laboratorio de {cls.id} no da salidas válidas con tus números ({shown}): "
                f"{report.full_message}",
                "avisa al profesor; compmath lint lo comprueba en el curso",
            )
        found[cls.id] = report.output_text
    return found
