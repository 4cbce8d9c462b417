"""Shares of the students for `--shard K/N`: by a hash of the student id, stable as students join.

A student's shard depends on their id alone, so adding a student never moves another, and any
engine that runs N copies with an index (a CI matrix, a Slurm array, a Kubernetes indexed Job)
grades every student exactly once. `--shard auto` reads the index from the batch system.
A shard's folder also says which share it holds and every student its submissions folder had
(`fragmento.json`), so that `grade merge` can name a shard, and the students, it is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from compmath.atomic import write_atomic
from compmath.errors import CompmathError
from compmath.grading.written import Written
from compmath.wording import count

HINT = "escribe --shard K/N con 1 ≤ K ≤ N, p. ej. --shard 1/4, o --shard auto"
SHARE_NAME = "fragmento.json"
NAMES_SHOWN = 5  # students named in an error, at most


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


@dataclass(frozen=True)
class Share:
    """What a shard's folder holds: its shard, and every student of the submissions it saw."""

    shard: Shard
    roster: tuple[str, ...]


def write_share(out: Path, shard: Shard | None, roster: Sequence[str]) -> Written | None:
    """Record the share a grading into `out` holds (a whole run removes any earlier record);
    the file, as written."""
    path = out / SHARE_NAME
    if shard is None:
        path.unlink(missing_ok=True)
        return None
    data = {"fragmento": str(shard), "entregas": sorted(roster)}
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return Written(path, f"qué fragmento es ({shard})")


def read_share(folder: Path) -> Share | None:
    """The share a folder holds; None when it was graded whole (no --shard)."""
    path = folder / SHARE_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        match = re.fullmatch(r"(\d+)/(\d+)", data["fragmento"])
        roster = data["entregas"]
        if match is None or not all(isinstance(s, str) for s in roster):
            raise ValueError("fragmento o entregas con otra forma")
        return Share(_checked(int(match.group(1)), int(match.group(2))), tuple(roster))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, CompmathError) as exc:
        raise CompmathError(
            f"{path} no es el registro de un fragmento de compmath grade ({exc})",
            "vuelve a lanzar ese fragmento con el mismo --out",
        ) from None


def _names(students: Sequence[str]) -> str:
    shown = ", ".join(students[:NAMES_SHOWN])
    more = len(students) - NAMES_SHOWN
    return shown + (f" y {more} más" if more > 0 else "")


def check_coverage(shares: Sequence[Share], graded: set[str]) -> None:
    """Refuse shards that do not cover every student once: a shard missing (naming it, and
    the students it would have graded), or students none of them graded."""
    counts = sorted({s.shard.count for s in shares})
    if len(counts) > 1:
        raise CompmathError(
            "los fragmentos son de repartos distintos: "
            + ", ".join(sorted({str(s.shard) for s in shares})),
            "junta los fragmentos K/N de un mismo N",
        )
    total = counts[0]
    lacking = sorted(set(range(1, total + 1)) - {s.shard.index for s in shares})
    absent = sorted({name for s in shares for name in s.roster} - graded)
    if lacking:
        which = ", ".join(f"{k}/{total}" for k in lacking)
        owed = [n for n in absent if any(Shard(k, total).holds(n) for k in lacking)]
        whom = f": sin las notas de {_names(owed)}" if owed else ""
        k = lacking[0]
        raise CompmathError(
            f"falta{'n los fragmentos' if len(lacking) > 1 else ' el fragmento'} {which}{whom}",
            f"corrígelo con compmath grade ENTREGAS --shard {k}/{total} --out notas-{k} "
            "y vuelve a juntarlos todos",
        )
    if absent:
        raise CompmathError(
            f"ningún fragmento corrigió a {count(len(absent), 'alumno', 'alumnos')} de las "
            f"entregas: {_names(absent)}",
            "¿se corrigieron con carpetas de entregas distintas? vuelve a lanzarlos sobre la misma",
        )


def check_distinct(folders: Sequence[Path], shares: Sequence[Share | None]) -> None:
    """Refuse a shard given twice: the same folder twice, or two folders holding one share."""
    seen: dict[Path, Path] = {}
    held: dict[str, Path] = {}
    for folder, share in zip(folders, shares):
        where = folder.resolve()
        if where in seen:
            raise CompmathError(
                f"la carpeta {folder} se dio dos veces",
                "nombra cada fragmento una sola vez: compmath grade merge notas-1 notas-2 …",
            )
        seen[where] = folder
        if share is None:
            continue
        other = held.setdefault(str(share.shard), folder)
        if other is not folder:
            raise CompmathError(
                f"el fragmento {share.shard} se dio dos veces: {other} y {folder}",
                "junta cada fragmento K/N una sola vez (¿una copia, o dos pasadas del mismo?)",
            )
