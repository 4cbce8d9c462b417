"""Lint's mutants several to a lab process: one batch per class and variant, judged one by one.

A mutant alone pays a lab process and its sandbox, most of its time when the lab is quick. So
the mutants of a class at one variant (whose oracle, the course's lab there, ran before) go to
the judging pipeline as batches: one lab (execution.batch) that runs each mutant's program in
its own fork, with the mutant's time limit, and returns how each ended. Each mutant is then
judged by the judge a lab of its own meets (judging.judge, against the same oracle). A mutant
that did not end cleanly in its batch (it ran out of time, died, wrote no result, ran out of
memory or of stack), the mutants of a batch that reached no verdict of its own, and those
whose oracle is not known yet run again alone (holes.runs.run_batch): what the batch says is
kept only where a lab of its own would have said the same.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from compmath.execution.protocol import ChildResult, LabReply, ReplyState
from compmath.holes.runs import FOLDER_PREFIX, MEMO_OK, Results, Wanted, _cases, run_batch
from compmath.judging.case import Case, Explore, Ready, Snapshot, variant
from compmath.judging.judge import judge
from compmath.judging.report import LabReport, Outcome

BATCH = 12  # mutants at most in one batch: the cores stay busy until the end
MARGIN = 10.0  # seconds a batch gets beyond its mutants' limits (forks, imports)
# how a mutant's process ended that depends on its code alone
CLEAN = (ReplyState.OK, ReplyState.EXCEPTION, ReplyState.EXIT, ReplyState.UNREPRESENTABLE)
DEPTH = ("RecursionError", "MemoryError")  # a fork's stack is a few frames deeper
ANY_OBJECT = ('{"type": "object"}', {"type": "object"})  # a batch's outputs: its mutants' ends
DRIVER = """from compmath.execution.batch import run_each


def run(**params):
    return run_each({labs!r}, params, {decimals!r})
"""


def run_mutants(
    wanted: Wanted,
    *,
    timeout: float,
    jobs: int,
    memo: dict[str, LabReport],
    into: Results,
    limits: Mapping[str, float] | None = None,
) -> None:
    """Judge every (class, mutant's program, variant) of `wanted` into `into`, as
    holes.runs.run_batch would (same keys, same memo), batched where that is safe."""
    for key in wanted.keys() & memo.keys():
        into.reports[key] = memo[key]
    todo = {k: v for k, v in wanted.items() if k not in memo and v[1] is not None}
    alone = {k: v for k, v in wanted.items() if k not in memo and v[1] is None}
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    try:
        call = folder.name.removeprefix(FOLDER_PREFIX)
        cases = _cases(todo, folder, timeout, memo, call, None, limits)
        batches = _batches(cases, call, todo, alone)
        for full, report in _judged(batches, folder, call, jobs, into).items():
            key = full.removeprefix(f"{call}/")
            if report is None:
                alone[key] = todo[key]
                continue
            into.reports[key] = report
            if report.outcome in MEMO_OK and not report.worker_lost:
                memo[key] = report
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if alone:
        run_batch(alone, timeout=timeout, jobs=jobs, memo=memo, into=into, limits=limits)


def _batches(
    cases: list[Case], call: str, todo: Wanted, alone: dict[str, Any]
) -> list[list[Ready]]:
    """The mutants' cases by class and parameters, BATCH at most to a batch; a case with no
    oracle run before, or alone in its group, goes to `alone` (by key) instead."""
    groups: dict[str, list[Ready]] = {}
    for case in cases:
        key = case.key.removeprefix(f"{call}/")
        if isinstance(case, Ready) and isinstance(case.expected, Snapshot):
            group = f"{case.cls.id}\0{json.dumps(case.request.params, sort_keys=True)}"
            groups.setdefault(group, []).append(case)
        else:
            alone[key] = todo[key]  # a broken class, say: run_batch reports it
    batches = []
    for members in groups.values():
        for i in range(0, len(members), BATCH):
            batch = members[i : i + BATCH]
            if len(batch) == 1:
                key = batch[0].key.removeprefix(f"{call}/")
                alone[key] = todo[key]
            else:
                batches.append(batch)
    return batches


def _judged(
    batches: list[list[Ready]], folder: Path, call: str, jobs: int, into: Results
) -> dict[str, LabReport | None]:
    """Each batched mutant's report, by its case's key; None: to run again alone."""
    from compmath.judging.pipeline import judge_cases

    runs = [_batch_case(members, folder, f"{call}/lote-{n}") for n, members in enumerate(batches)]
    if not runs:
        return {}
    members_of = {run.key: members for run, members in zip(runs, batches)}
    found: dict[str, LabReport | None] = {}

    def landed(run: Case, report: LabReport) -> None:  # judged as each batch lands
        ends = report.outputs if report.outcome == Outcome.EXPLORATION else None
        for index, case in enumerate(members_of[run.key]):
            end = ends.get(str(index)) if isinstance(ends, dict) else None
            reply = _reply(case.key, end)
            found[case.key] = judge(case, reply) if reply is not None else None

    judged = judge_cases(runs, jobs=jobs, consumer=landed)
    into.missing = judged.missing
    return {case.key: found.get(case.key) for members in batches for case in members}


def _batch_case(members: list[Ready], folder: Path, key: str) -> Ready:
    """One lab that runs `members` (same class and parameters) each in its own fork."""
    first = members[0]
    labs = [(case.request.lab, case.request.timeout) for case in members]
    lab = folder / key.rsplit("/", 1)[-1] / "lab.py"
    lab.parent.mkdir()
    lab.write_text(DRIVER.format(labs=labs, decimals=first.request.decimals), encoding="utf-8")
    limit = sum(case.request.timeout for case in members) + MARGIN
    made = variant(first, key=key, lab=lab, expected=Explore(), timeout=limit)
    return replace(made, schema=ANY_OBJECT, loose=False)


def _reply(key: str, end: Any) -> LabReply | None:
    """The reply a lab of its own would have given, from how its fork ended; None when that
    end may depend on the batch (a timeout, a crash, no result, memory or stack)."""
    if not isinstance(end, dict) or end.get("estado") != "ok":
        return None
    text, seconds = end.get("resultado"), end.get("segundos")
    if not isinstance(text, str) or not isinstance(seconds, (int, float)):
        return None
    result = ChildResult.from_json(text)
    if result is None or result.state not in CLEAN or result.error_type in DEPTH:
        return None
    return LabReply.from_child(key, result, total_seconds=float(seconds))
