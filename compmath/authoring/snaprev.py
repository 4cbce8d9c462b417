"""Snapshots at a git revision: find the repository, resolve the revision, list and parse them."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from compmath.course.tree import CLASS_DIR, PART_DIR
from compmath.errors import CompmathError
from compmath.judging.snapshot import parse_snapshot

REVISION_HINT = "comprueba el nombre con git log --oneline; en CI, haz checkout con fetch-depth: 0"


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise CompmathError(
            "git no está instalado (compmath diff lo necesita)",
            "instálalo y vuelve a ejecutar compmath diff",
        ) from None


def git_toplevel(root: Path) -> Path:
    """The top folder of the git repository holding the course root."""
    proc = _git(root, "rev-parse", "--show-toplevel")
    if proc.returncode != 0:
        raise CompmathError(
            f"la raíz del curso {root} no está en un repositorio git",
            "compmath diff compara con git: haz del curso un repositorio (git init) "
            "o indica otro: compmath diff --root RUTA",
        )
    return Path(proc.stdout.decode("utf-8").strip()).resolve()


def resolve_revision(top: Path, rev: str) -> str:
    """The full commit id that `rev` names; CompmathError if it names none."""
    proc = (
        None
        if rev.startswith("-")
        else _git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    )
    if proc is None or proc.returncode != 0:
        raise CompmathError(f"la revisión «{rev}» no existe en el repositorio {top}", REVISION_HINT)
    return proc.stdout.decode("ascii").strip()


def snapshots_at(top: Path, commit: str, classes_dir: str) -> dict[int, tuple[str, str]]:
    """Number -> (class id, path) of every `classes/part-*/NNN-*/expected.json` at commit."""
    proc = _git(top, "ls-tree", "-r", "-z", "--name-only", commit, "--", classes_dir)
    found: dict[int, tuple[str, str]] = {}
    for name in proc.stdout.decode("utf-8", "replace").split("\0"):
        pieces = name.split("/")
        if (
            len(pieces) >= 3
            and pieces[-1] == "expected.json"
            and PART_DIR.match(pieces[-3])
            and (match := CLASS_DIR.match(pieces[-2]))
        ):
            found.setdefault(int(match.group(1)), (pieces[-2], name))
    return found


def at_revision(top: Path, commit: str, path: str, where: str) -> dict[str, Any]:
    """The parsed snapshot `path` (relative to `top`) as committed in `commit`."""
    raw = _git(top, "cat-file", "blob", f"{commit}:{path}").stdout
    hint = "corrígela en esa revisión o compara con otra: compmath diff --base REV"
    return parse_snapshot(raw, f"{path} {where}", hint)[1]
