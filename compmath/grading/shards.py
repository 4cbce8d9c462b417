"""Shares of the students for `--shard K/N`: by a hash of the student id, stable as students join.

A student's shard depends on their id alone, so adding a student never moves another, and any
engine that runs N copies with an index (a CI matrix, a Slurm array, a Kubernetes indexed Job)
grades every student exactly once. `--shard auto` reads the index from the batch system.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

from compmath.errors import CompmathError

HINT = "escribe --shard K/N con 1 ≤ K ≤ N, p. ej. --shard 1/4, o --shard auto"


@dataclass(frozen=True)
class Shard:
    """The K-th of N shares (1-based)."""

    index: int
    count: int

    def holds(self, student: str) -> bool:
        digest = hashlib.sha256(student.encode("utf-8", "replace")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def _int(name: str, env: dict[str, str]) -> int | None:
    value = env.get(name, "").strip()
    return int(value) if re.fullmatch(r"\d+", value) else None


def _auto(count: int | None, env: dict[str, str]) -> Shard:
    """The share a batch system's array index names: Slurm, or a Kubernetes indexed Job."""
    slurm = _int("SLURM_ARRAY_TASK_ID", env)
    if slurm is not None:
        first = _int("SLURM_ARRAY_TASK_MIN", env) or 0
        total = count or _int("SLURM_ARRAY_TASK_COUNT", env)
        if total is None:
            raise CompmathError(
                "--shard auto no sabe cuántos fragmentos hay (falta SLURM_ARRAY_TASK_COUNT)",
                "dilo tú: --shard auto/N",
            )
        return _checked(slurm - first + 1, total)
    k8s = _int("JOB_COMPLETION_INDEX", env)
    if k8s is not None:
        if count is None:
            raise CompmathError(
                "--shard auto no sabe cuántos fragmentos hay en un Job indexado de Kubernetes",
                "usa --shard auto/N con N = spec.completions",
            )
        return _checked(k8s + 1, count)
    raise CompmathError(
        "--shard auto necesita SLURM_ARRAY_TASK_ID o JOB_COMPLETION_INDEX, y no hay ninguna",
        "fuera de Slurm o Kubernetes, escribe el fragmento: --shard K/N",
    )


def _checked(index: int, count: int) -> Shard:
    if not 1 <= index <= count:
        raise CompmathError(f"el fragmento {index}/{count} no existe", HINT)
    return Shard(index, count)


def parse_shard(text: str, env: dict[str, str] | None = None) -> Shard:
    """`K/N`, `auto` or `auto/N` as a Shard; a CompmathError names what is wrong."""
    env = dict(os.environ) if env is None else env
    text = text.strip()
    if match := re.fullmatch(r"auto(?:/(\d+))?", text):
        count = int(match.group(1)) if match.group(1) else None
        if count == 0:
            raise CompmathError("no puede haber 0 fragmentos", HINT)
        return _auto(count, env)
    match = re.fullmatch(r"(\d+)/(\d+)", text)
    if not match:
        raise CompmathError(f"--shard {text}: no es K/N", HINT)
    return _checked(int(match.group(1)), int(match.group(2)))
