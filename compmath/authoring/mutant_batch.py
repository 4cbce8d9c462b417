"""Lint's runs of the practice verdict several to a lab process: the mutants, and the course's
lab at each variant (their oracle), judged as holes.runs.run_batch judges them.

The same cases run_batch hands the pipeline (`holes.runs._cases`: the course's lab at each
variant first, every mutant grafted into it and judged against it) go to
`judging.batched.judge_batched`, which runs the cases of a class several to a lab process, each
in its own fork, and gives each the verdict a lab of its own would get (what may depend on the
batch runs again alone). Same keys, same memo as run_batch.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from compmath.holes.runs import FOLDER_PREFIX, MEMO_OK, Results, Wanted, _cases
from compmath.judging.batched import judge_batched
from compmath.judging.report import LabReport


def run_mutants(
    wanted: Wanted,
    *,
    timeout: float,
    jobs: int,
    memo: dict[str, LabReport],
    into: Results,
    limits: Mapping[str, float] | None = None,
) -> None:
    """Judge every (class, mutant's program or None for the course's lab, variant) of
    `wanted` into `into`, as holes.runs.run_batch would (same keys, same memo)."""
    for key in wanted.keys() & memo.keys():
        into.reports[key] = memo[key]
    if not wanted.keys() - memo.keys():
        return
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    try:
        call = folder.name.removeprefix(FOLDER_PREFIX)  # unique to this call
        cases = _cases(wanted, folder, timeout, memo, call, None, limits)
        judged = judge_batched(cases, jobs=jobs)
        into.missing = judged.missing
        for full, report in judged.by_key().items():
            key = full.removeprefix(f"{call}/")
            into.reports[key] = report
            if report.outcome in MEMO_OK and not report.worker_lost:
                memo[key] = report
    finally:
        shutil.rmtree(folder, ignore_errors=True)
