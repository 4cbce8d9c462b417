"""Judge many quick labs of the same classes several to a lab process, with the verdicts each
would get in a process of its own (lint's checks: the exercise's variants, the mutants).

A lab alone pays a process and its sandbox, most of its time when the lab is quick. Here the
ready cases of one class (same memory limit and decimals, none private) go to the judging
pipeline as batches: one lab (execution.batch) that runs each case's lab with its parameters
and time limit in its own fork of the batch's process, and returns how each ended. Each case
is then judged by `judge` as its own reply would be, against its own oracle. Cases judged
against another case's outputs (`Reference`) are run once that one is judged. What runs again
alone, through `judge_cases`: a case whose lab did not end cleanly in its batch (it ran out of
time, died, wrote no result, ran out of memory or of stack), every case of a batch that reached
no verdict of its own (it ran out of time, or changed the course), a private case, a broken
one. So a batch's verdict stands only where a lab of its own would have said the same.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from compmath.execution.protocol import ChildResult, LabReply, ReplyState
from compmath.judging.case import Case, Explore, Ready, Reference, Snapshot, variant
from compmath.judging.judge import judge
from compmath.judging.pipeline import Judged, _check_keys, judge_cases
from compmath.judging.report import LabReport, Outcome

BATCH = 24  # labs at most in one batch (its process's start shared), the cores busy to the end
MARGIN = 10.0  # seconds a batch gets beyond its labs' limits (forks, imports)
# how a lab's process ended that depends on its code alone
CLEAN = (ReplyState.OK, ReplyState.EXCEPTION, ReplyState.EXIT, ReplyState.UNREPRESENTABLE)
DEPTH = ("RecursionError", "MemoryError")  # a fork's stack is a few frames deeper
ANY_OBJECT = ('{"type": "object"}', {"type": "object"})  # a batch's outputs: its labs' ends
DRIVER = """from compmath.execution.batch import run_each


def run():
    return run_each({labs!r}, {decimals!r})
"""
Unpacked = dict[str, "LabReport | None"]  # a case's report from its batch; None: run it alone


def judge_batched(cases: Sequence[Case], *, jobs: int) -> Judged:
    """What `judge_cases(cases, jobs=jobs)` gives (reports in the cases' order, the
    protections missing), with the cases of each class batched where that is safe."""
    _check_keys(cases)  # the same refusals as judge_cases: a key twice, a missing oracle
    order = [c.key for c in cases]
    by_key = {c.key: c for c in cases}
    linked = [c for c in cases if isinstance(c, Ready) and isinstance(c.expected, Reference)]
    direct = [c for c in cases if c not in linked]
    reports: dict[str, LabReport] = {}
    missing: set[str] = set()
    folder = Path(tempfile.mkdtemp(prefix="compmath-lotes-"))
    try:
        _round(direct, {}, folder, "a", jobs, reports, missing)
        references = {
            c.key: reports.get(c.expected.key)
            for c in linked
            if isinstance(c, Ready) and isinstance(c.expected, Reference)
        }
        _round(linked, references, folder, "b", jobs, reports, missing, by_key)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    keys = [k for k in order if k in reports]
    return Judged([reports[k] for k in keys], keys, tuple(sorted(missing)))


def _round(
    cases: Sequence[Case],
    references: dict[str, LabReport | None],
    folder: Path,
    name: str,
    jobs: int,
    reports: dict[str, LabReport],
    missing: set[str],
    by_key: dict[str, Case] | None = None,
) -> None:
    """Judge `cases` into `reports`: batched, then what the batches gave back, alone."""
    batches, alone = _batches(cases, references, by_key)
    # the costliest first, by their labs' time limits (lint's mutants get 40 times their class's
    # slowest reference): no core idles at the end while one long batch runs on the other
    batches.sort(key=lambda batch: -sum(c.request.timeout for c in batch))
    runs = [_batch_case(m, folder / f"{name}{n}") for n, m in enumerate(batches)]
    members = {run.key: batch for run, batch in zip(runs, batches)}
    found: Unpacked = {}
    if runs or alone:
        with judge_cases([*runs, *alone], jobs=jobs) as judging:
            for landed in judging:
                key = landed.case.key
                if key in members:
                    found.update(_unpack(members[key], landed.report, references))
                else:
                    reports.setdefault(key, landed.report)  # a reference run again keeps its first
            missing.update(judging.result().missing)
    again: list[Case] = []
    for batch in batches:
        for case in batch:
            report = found.get(case.key)
            if report is not None:
                reports[case.key] = report
            else:
                again.append(case)
    if again:
        judged = judge_cases(_alone(again, references, by_key), jobs=jobs).result()
        missing.update(judged.missing)
        wanted = {c.key for c in again}
        reports.update({k: r for k, r in judged.by_key().items() if k in wanted})


def _batchable(case: Case, references: dict[str, LabReport | None]) -> bool:
    if not isinstance(case, Ready) or case.request.hidden:
        return False
    return not isinstance(case.expected, Reference) or references.get(case.key) is not None


def _batches(
    cases: Sequence[Case], references: dict[str, LabReport | None], by_key: dict[str, Case] | None
) -> tuple[list[list[Ready]], list[Case]]:
    """The batchable cases by class, memory limit and decimals, BATCH at most to a batch;
    the others (and a batch of one) to run alone."""
    groups: dict[tuple[str, int, int], list[Ready]] = {}
    alone: list[Case] = []
    for case in cases:
        if isinstance(case, Ready) and _batchable(case, references):
            group = (case.cls.id, case.request.memory, case.request.decimals)
            groups.setdefault(group, []).append(case)
        else:
            alone.append(case)
    batches: list[list[Ready]] = []
    for members in groups.values():
        for i in range(0, len(members), BATCH):
            batch = members[i : i + BATCH]
            if len(batch) > 1:
                batches.append(batch)
            else:
                alone += batch
    return batches, _alone(alone, references, by_key)


def _alone(
    cases: Sequence[Case], references: dict[str, LabReport | None], by_key: dict[str, Case] | None
) -> list[Case]:
    """`cases` to run alone: one judged against another case's outputs is judged against
    those outputs as a snapshot; when that case gave none, it runs again beside them."""
    made: list[Case] = []
    again: dict[str, Case] = {}
    for case in cases:
        if not (isinstance(case, Ready) and isinstance(case.expected, Reference)):
            made.append(case)
            continue
        reference = references.get(case.key)
        if reference is not None and reference.outputs is not None:
            made.append(replace(case, expected=Snapshot(reference.outputs)))
        elif by_key is not None and case.expected.key in by_key:
            again[case.expected.key] = by_key[case.expected.key]
            made.append(case)
        else:
            made.append(case)
    return [*again.values(), *made]


def _batch_case(members: list[Ready], folder: Path) -> Ready:
    """One lab that runs each of `members` (one class) with its parameters in its own fork."""
    first = members[0]
    labs = [(c.request.lab, c.request.timeout, c.request.params) for c in members]
    lab = folder / "lab.py"
    folder.mkdir()
    lab.write_text(DRIVER.format(labs=labs, decimals=first.request.decimals), encoding="utf-8")
    limit = sum(c.request.timeout for c in members) + MARGIN
    key = f"{folder.parent.name}/lote-{folder.name}"  # unique to this call
    made = variant(first, key=key, lab=lab, params={}, expected=Explore(), timeout=limit)
    return replace(made, schema=ANY_OBJECT, loose=False)


def _unpack(
    members: list[Ready], report: LabReport, references: dict[str, LabReport | None]
) -> Unpacked:
    """Each member's report from its batch's; None for one to run alone."""
    ends = report.outputs if report.outcome == Outcome.EXPLORATION else None
    found: Unpacked = {}
    for index, case in enumerate(members):
        end = ends.get(str(index)) if isinstance(ends, dict) else None
        reply = _reply(case.key, end)
        reference = references.get(case.key)
        found[case.key] = judge(case, reply, reference=reference) if reply is not None else None
    return found


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
