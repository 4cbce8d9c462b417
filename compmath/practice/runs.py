"""Run a practice verdict's labs in one batch on the warm worker, and judge one hole from them.

Every call that runs labs for the practice verdict is in `run_batch`: the grafted programs
(written to a private temporary folder, one folder each) and the course's own labs as the
reference, all at once, with the course's files checked before and after.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compmath.course.records import Hole
from compmath.course.tree import ClassInfo
from compmath.execution.protocol import DEFAULT_MEMORY, LabReply, LabRequest, ReplyState
from compmath.judging.compare import Difference, compare
from compmath.judging.report import crash_message, describe_difference
from compmath.practice.graft import HoleStatus, Program
from compmath.practice.variants import Variant

if TYPE_CHECKING:
    from compmath.practice.verdict import HoleVerdict

FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


def reference_key(cls: ClassInfo, variant: Variant) -> str:
    """The request key of the course's lab of `cls` at `variant`."""
    return f"{cls.id}@curso@{variant.key}"


@dataclass
class Results:
    """The replies of one batch, by request key, and what they mean."""

    replies: dict[str, LabReply] = field(default_factory=dict)
    tampered: dict[str, str] = field(default_factory=dict)  # key -> the course files it changed
    timeout: float = 10.0

    def failure(self, key: str) -> str:
        """Why the run under `key` gave no outputs (Spanish), or "" when it gave them."""
        if key in self.tampered:
            return f"modificó archivos del curso ({self.tampered[key]})"
        reply = self.replies.get(key)
        if reply is None:
            return "no llegó a ejecutarse"
        if reply.state != ReplyState.OK:
            return crash_message(reply, self.timeout, DEFAULT_MEMORY)[1]
        if self.outputs(key) is None:
            return "el resultado no es un objeto JSON"
        return ""

    def outputs(self, key: str) -> dict[str, Any] | None:
        reply = self.replies.get(key)
        if reply is None or reply.state != ReplyState.OK:
            return None
        try:
            found = json.loads(reply.output)
        except (ValueError, RecursionError):
            return None
        return found if isinstance(found, dict) else None


Wanted = Mapping[str, tuple[ClassInfo, "Program | None", Variant]]


def run_batch(
    wanted: Wanted,
    *,
    timeout: float,
    jobs: int,
    on_landed: Callable[[str, set[str]], None] | None = None,
    into: Results | None = None,
) -> Results:
    """Run every (class, program or None for the course's lab, variant) by key, in one batch;
    the replies go `into` the given Results as they land (so `on_landed` can judge)."""
    from compmath.execution.scheduler import run_labs
    from compmath.judging.integrity import changes, course_state, culprits

    results = into if into is not None else Results(timeout=timeout)
    if not wanted:
        return results
    folder = Path(tempfile.mkdtemp(prefix="compmath-practica-"))
    try:
        requests = []
        for key, (cls, program, variant) in wanted.items():
            lab = cls.lab
            if program is not None:
                lab = folder / program.digest / "lab.py"
                if not lab.exists():
                    lab.parent.mkdir()
                    lab.write_text(program.source, encoding="utf-8")
            params = dict(variant.params)
            decimals = cls.meta.decimals
            requests.append(LabRequest(key, str(lab), params, timeout, DEFAULT_MEMORY, decimals))
        root = next(iter(wanted.values()))[0].root
        before = course_state(root)
        landed: set[str] = set()

        def done(request: LabRequest, reply: LabReply) -> None:
            results.replies[request.key] = reply
            landed.add(request.key)
            if on_landed is not None:
                on_landed(request.key, landed)

        run_labs(requests, jobs, on_done=done)
        found = changes(before, course_state(root))
        if found:
            for key, paths in culprits(found, results.replies).items():
                results.tampered[key] = ", ".join(paths[:5])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def student_traceback(text: str, program: Program, lab_name: str = "lab.py") -> str:
    """A grafted program's traceback with the hole's lines named in the student's lab.py."""

    def mapped(match: re.Match[str]) -> str:
        if not match.group("file").endswith(f"{os.sep}lab.py") or "compmath-practica-" not in (
            match.group("file")
        ):
            return match.group(0)
        line = program.line_map.get(int(match.group("line")))
        if line is None:
            return f'File "{lab_name} (código del curso)", line {match.group("line")}'
        return f'File "{lab_name}", line {line}'

    return FRAME.sub(mapped, text)


def _first(differences: list[Difference], order: list[str]) -> Difference:
    def position(d: Difference) -> int:
        name = d.path.split(".")[1].split("[")[0] if "." in d.path else ""
        return order.index(name) if name in order else len(order)

    return min(differences, key=position)


def _value(outputs: dict[str, Any] | None, path: str) -> Any:
    """The top-level output a difference path starts in (`salida.codificaciones.pos_0[2]`)."""
    name = path.split(".")[1].split("[")[0] if "." in path else ""
    return (outputs or {}).get(name)


def judge_hole(
    cls: ClassInfo,
    number: int,
    hole: Hole,
    program: Program,
    variants: tuple[Variant, ...],
    results: Results,
) -> HoleVerdict:
    """The verdict on one written hole: right at every variant, or the first one it fails."""
    from compmath.practice.verdict import HoleVerdict

    first_stdout = ""
    for variant in variants:
        key = program.key(variant)
        reply = results.replies.get(key)
        stdout = reply.stdout if reply is not None else ""
        first_stdout = first_stdout or stdout
        failure = results.failure(key)
        if failure:
            trace = student_traceback(reply.traceback, program) if reply is not None else ""
            reason = f"{variant.label}: {failure}"
            return HoleVerdict(
                number, hole, HoleStatus.FAILS, reason, variant, traceback=trace, stdout=stdout
            )
        expected = results.outputs(reference_key(cls, variant)) or {}
        obtained = results.outputs(key) or {}
        differences = compare(expected, obtained, *cls.meta.tolerances())
        if differences:
            wrong = _first(differences, list(expected))
            reason = f"{variant.label}: {describe_difference(wrong)}"
            return HoleVerdict(
                number,
                hole,
                HoleStatus.WRONG,
                reason,
                variant,
                wrong,
                _value(expected, wrong.path),
                _value(obtained, wrong.path),
                stdout=stdout,
            )
    return HoleVerdict(number, hole, HoleStatus.RIGHT, stdout=first_stdout)
