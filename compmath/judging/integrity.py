"""The course's files before and after labs run: a lab that changed one fails, naming it.

Landlock keeps labs from writing the course at all; this is the check that holds everywhere.
Every file and folder under classes/ and schemas/ (but `__pycache__`), and curso.toml, is
recorded by (inode, size, modification and change time). The change time cannot be set by a
user, so a file rewritten with its old contents and dates still shows, and its change time says
when: the labs running at that moment are the ones that changed it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from compmath.execution.protocol import LabReply
from compmath.judging.report import LabReport, Outcome

Stamp = tuple[int, int, int, int]
TREES = ("classes", "schemas")
FILES = ("curso.toml",)
SLACK = 0.05  # the kernel stamps change times from a clock that lags by up to a tick


@dataclass(frozen=True)
class Change:
    """A file of the course that appeared, vanished or changed, and when (epoch seconds)."""

    path: str  # relative to the course's root
    when: float


def _stamp(path: str) -> tuple[Stamp, float] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns), st.st_ctime


def course_state(root: Path) -> dict[str, tuple[Stamp, float]]:
    """Every file and folder of the course that a verdict or a page depends on, stamped."""
    state: dict[str, tuple[Stamp, float]] = {}
    base = str(root)
    pending = [os.path.join(base, tree) for tree in TREES]
    cut = len(base) + 1  # every path below is base + "/" + its relative part (no relpath: fast)
    for name in FILES:
        found = _stamp(os.path.join(base, name))
        if found:
            state[name] = found
    while pending:
        folder = pending.pop()
        found = _stamp(folder)
        if found is None:
            continue
        state[folder[cut:]] = found
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":  # Python's own, written by any import
                    pending.append(entry.path)
            elif (stamped := _stamp(entry.path)) is not None:
                state[entry.path[cut:]] = stamped
    return state


def changes(
    before: dict[str, tuple[Stamp, float]], after: dict[str, tuple[Stamp, float]]
) -> list[Change]:
    """What differs between two states; a vanished file is dated by its folder's change."""
    found = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old is not None and new is not None and old[0] == new[0]:
            continue
        folder = path
        while new is None and folder:  # vanished: dated by the nearest folder still there
            folder = os.path.dirname(folder)
            new = after.get(folder)
        found.append(Change(path, new[1] if new else 0.0))
    # a folder whose entries changed is not news once its entries are named
    named = {os.path.dirname(c.path) for c in found}
    return [c for c in found if c.path not in named]


def culprits(found: list[Change], replies: dict[str, LabReply]) -> dict[str, list[str]]:
    """For each lab (by key) the changed files it was running for, dated by their change time."""
    blamed: dict[str, list[str]] = {}
    for change in found:
        for key, reply in replies.items():
            slack = SLACK if change.when % 1 else 2.0  # whole seconds: a coarse file system
            if reply.started_at - slack <= change.when <= reply.ended_at + slack:
                blamed.setdefault(key, []).append(change.path)
    return blamed


def tampered(report: LabReport, paths: list[str], others: list[str]) -> LabReport:
    """The report of a lab that changed the course's files while it ran (it fails)."""
    shown = ", ".join(paths[:10]) + (f" y {len(paths) - 10} más" if len(paths) > 10 else "")
    message = f"el laboratorio modificó {shown}"
    if others:
        message += f" (o lo hizo {', '.join(others)}, que corría a la vez)"
    return replace(
        report,
        outcome=Outcome.TAMPERED,
        message=message,
        hint="un laboratorio no escribe en el curso; restaura esos archivos (git checkout)",
    )


def blame(
    reports: dict[str, LabReport],
    replies: dict[str, LabReply],
    before: dict[str, tuple[Stamp, float]],
    root: Path,
) -> None:
    """Fail, in `reports`, every lab that was running when a file of the course changed."""
    found = changes(before, course_state(root))
    if not found:
        return
    blamed = culprits(found, replies)
    for key, paths in blamed.items():
        others = sorted(k for k, theirs in blamed.items() if k != key and set(theirs) & set(paths))
        reports[key] = tampered(reports[key], paths, others)
