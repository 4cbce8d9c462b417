"""Compare each class's snapshot at a git revision with the working tree, as data (no printing)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from compmath.authoring.snapchanges import (
    ChangeKind,
    ClassDiff,
    ClassStatus,
    OutputChange,
    SnapshotDiff,
    short,
)
from compmath.authoring.snaprev import at_revision, git_toplevel, resolve_revision, snapshots_at
from compmath.course.records import Tolerance
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.judging.compare import (
    Difference,
    DifferenceKind,
    Step,
    compare,
    key_order_differs,
)
from compmath.judging.snapshot import read_snapshot
from compmath.wording import count


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    return 1


def _severity(d: Difference) -> tuple[bool, float, float]:
    ratio = math.inf if d.abs_error is None or not d.tolerance else d.abs_error / d.tolerance
    return (not d.within, ratio, d.abs_error or 0.0)


def _at(value: Any, steps: tuple[Step, ...]) -> Any:
    """The element a difference's `steps` lead to within the output `value`."""
    for step in steps:
        value = value[step]
    return value


def _values_within_lengths(
    diffs: list[Difference], before: Any, after: Any, tol: Tolerance
) -> list[Difference]:
    """The value changes hidden behind a change of length: compare() stops at a list that grew
    or shrank; here its common elements are compared too, so a list that gains an element AND
    moves its values reports both."""
    found: list[Difference] = []
    for d in diffs:
        if d.kind != DifferenceKind.LENGTH:
            continue
        try:
            old, new = _at(before, d.steps), _at(after, d.steps)
        except (KeyError, IndexError, TypeError):
            continue
        common = min(len(old), len(new))
        for inner in compare({"x": old[:common]}, {"x": new[:common]}, tol, include_within=True):
            found.append(replace(inner, output=d.output, steps=d.steps + inner.steps))
    return found


def _shape_change(name: str, before: Any, after: Any, structural: list[Difference]) -> OutputChange:
    """One entry for the changes of type or shape of an output (a type change first)."""
    worst = next((d for d in structural if d.kind == DifferenceKind.TYPE), structural[0])
    detail = {
        DifferenceKind.TYPE: "cambia el tipo",
        DifferenceKind.LENGTH: f"longitud {worst.expected} → {worst.obtained}",
        DifferenceKind.MISSING: "desaparece una clave",
        DifferenceKind.EXTRA: "aparece una clave",
    }[worst.kind]
    if len(structural) > 1:
        detail += f" (y {count(len(structural) - 1, 'cambio', 'cambios')} de forma más)"
    old, new = worst.expected, worst.obtained
    if worst.kind == DifferenceKind.LENGTH:  # compare() reports the lengths; show the lists
        try:
            old, new = _at(before, worst.steps), _at(after, worst.steps)
        except (KeyError, IndexError, TypeError):
            pass
    kind = ChangeKind.TYPE if worst.kind == DifferenceKind.TYPE else ChangeKind.SHAPE
    return OutputChange(
        name,
        kind,
        worst.path,
        old,
        new,
        changed=len(structural),
        beyond=len(structural),
        detail=detail,
        elements=tuple(structural),
    )


def _value_change(name: str, before: Any, values: list[Difference]) -> OutputChange:
    """One entry for the numbers and texts of an output that moved, told by its worst element."""
    beyond = sum(not d.within for d in values)
    worst = max(values, key=_severity)
    leaves = _leaves(before)
    change = "cambia" if len(values) == 1 else "cambian"
    detail = f"{len(values)} de {leaves} elementos {change}" if leaves > 1 else ""
    if leaves > 1 and 0 < beyond < len(values):
        detail += f", {beyond} fuera de tolerancia"
    return OutputChange(
        name,
        ChangeKind.VALUE,
        worst.path,
        worst.expected,
        worst.obtained,
        short(worst.abs_error),
        short(worst.relative),
        short(worst.tolerance),
        len(values),
        beyond,
        detail,
        tuple(values),
    )


def _output_changes(
    name: str, before: Any, after: Any, diffs: list[Difference], tol: Tolerance
) -> list[OutputChange]:
    """How one output moved: its change of type or shape, its change of values, or both."""
    structural = [d for d in diffs if d.kind != DifferenceKind.VALUE]
    values = [d for d in diffs if d.kind == DifferenceKind.VALUE]
    values += _values_within_lengths(structural, before, after, tol)
    changes = [_shape_change(name, before, after, structural)] if structural else []
    return changes + ([_value_change(name, before, values)] if values else [])


def diff_outputs(
    course: Course, cls: ClassInfo, base: dict[str, Any], work: dict[str, Any]
) -> list[OutputChange]:
    """Every output that moved, in snapshot order (new ones last), with `run`'s tolerances."""
    default, per_output = cls.meta.tolerances()
    changes = []
    for name in dict.fromkeys([*base, *work]):
        path = f"salida.{name}"
        if name not in work:
            changes.append(OutputChange(name, ChangeKind.DELETED, path, base[name], None))
        elif name not in base:
            changes.append(OutputChange(name, ChangeKind.NEW, path, None, work[name]))
        elif diffs := compare(
            {name: base[name]}, {name: work[name]}, default, per_output, include_within=True
        ):
            tol = per_output.get(name, default)
            changes += _output_changes(name, base[name], work[name], diffs, tol)
    return changes


def _pick(course: Course, names: list[str], at_base: dict[int, tuple[str, str]]) -> list[int]:
    """The numbers of the classes named (a deleted class by its old name too), or all of them."""
    if not names:
        return sorted({c.number for c in course.select([])} | set(at_base))
    picked = []
    for name in names:
        try:
            picked.append(course.resolve(name).number)
        except CompmathError:
            text = name.strip()
            gone = [n for n, (cid, _) in at_base.items() if text in (str(n), cid, cid[4:])]
            if not gone:
                raise
            picked.append(gone[0])
    return list(dict.fromkeys(picked))


def diff_snapshots(course: Course, names: list[str], base: str = "HEAD") -> SnapshotDiff:
    """Compare the selected classes' snapshots at revision `base` with the working tree."""
    top = git_toplevel(course.root)
    commit = resolve_revision(top, base)
    at_base = snapshots_at(top, commit, (course.root / "classes").relative_to(top).as_posix())
    here = {c.number: c for c in course.classes}
    where_base = f"en la revisión {base} ({commit[:7]})"
    result = []
    for number in _pick(course, names, at_base):
        cls = here.get(number)
        old = at_base.get(number)
        rel = cls.snapshot.relative_to(top).as_posix() if cls else ""
        found = read_snapshot(cls.snapshot, f"{rel} del árbol de trabajo", number) if cls else None
        if cls is None or found is None:
            if old is not None:
                data = at_revision(top, commit, old[1], where_base)
                title = cls.title if cls else old[0][4:].replace("-", " ").capitalize()
                result.append(
                    ClassDiff(number, old[0], title, ClassStatus.DELETED, old[1], count=len(data))
                )
            continue
        work = found[1]
        if old is None:
            result.append(
                ClassDiff(number, cls.id, cls.title, ClassStatus.NEW, rel, count=len(work))
            )
            continue
        before = at_revision(top, commit, old[1], where_base)
        outputs = diff_outputs(course, cls, before, work)
        order = key_order_differs(before, work)
        status = ClassStatus.CHANGED if outputs or order else ClassStatus.UNCHANGED
        result.append(ClassDiff(number, cls.id, cls.title, status, rel, outputs, order, len(work)))
    return SnapshotDiff(base, commit, result)
