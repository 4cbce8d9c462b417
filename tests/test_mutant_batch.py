"""lint's mutants several to a lab process (authoring.mutant_batch, execution.batch): every
verdict is the one the mutant gets in a lab process of its own, whatever the other mutants of
its batch do (loop, crash, kill the batch, seed numpy, patch numpy, leave files behind)."""

from __future__ import annotations

from pathlib import Path

import pytest

import compmath.judging.pipeline as pipeline
from compmath.authoring.mutant_batch import run_mutants
from compmath.course.tree import ClassInfo, load_course
from compmath.holes.graft import Program, course_lab, course_tag
from compmath.holes.mutants import grafted
from compmath.holes.runs import Results, reference_key, run_batch
from compmath.holes.variants import variants_of
from compmath.judging.report import LabReport, Outcome

RIGHT = "mitad = n * escala"
WRONG = "mitad = n + escala"
LOOPS = "while True:\n    pass\nmitad = n * escala"
# state a batch's process would carry to the next mutant if they shared one: a seed, numpy
# patched, a module global of numpy's, a file in the temporary folder, an environment variable
SEEDS = "np.random.seed(7)\nmitad = n * escala + 0 * np.random.rand()"
RANDOM = "mitad = n * escala + float(np.random.rand() < 2) - 1.0"  # right whatever the seed
PATCHES = "np.arange = lambda k: np.zeros(k)\nnp.pi = 3.0\nmitad = n * escala"
LEAVES = (
    "import os, tempfile\n"
    "open(os.path.join(tempfile.gettempdir(), 'huella'), 'w').write('x')\n"
    "os.environ['HUELLA'] = '1'\n"
    "mitad = n * escala"
)
READS = (
    "import os, tempfile\n"
    "seen = os.path.exists(os.path.join(tempfile.gettempdir(), 'huella')) or 'HUELLA' in os.environ\n"
    "mitad = n * escala + (1.0 if seen or np.pi != np.float64(3.141592653589793) else 0.0)"
)
KILLS = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nmitad = n * escala"
EXITS = "import os\nos._exit(0)"
RAISES = "mitad = n * escala / 0 if n else 1\nmitad = undefined_name"


def _programs(cls: ClassInfo, bodies: list[str]) -> list[Program]:
    lab = course_lab(cls)
    region, tag = lab.regions[0], course_tag(cls)
    return [
        Program(
            1,
            grafted(lab.lines, region.begin, region.end, region.indent, tuple(b.splitlines())),
            {},
            tag,
        )
        for b in bodies
    ]


def _judge_both(
    root: Path, bodies: list[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[list, list, list[int]]:
    """The outcome of each body (in order, at every variant) batched and alone, and how many
    labs each batched call handed to the scheduler."""
    cls = load_course(root).resolve("901")
    variants = variants_of(cls)
    memo: dict[str, LabReport] = {}
    references = {reference_key(cls, v, course_tag(cls)): (cls, None, v) for v in variants}
    run_batch(references, timeout=20.0, jobs=2, memo=memo)
    assert all(k in memo for k in references)  # the oracles, run once, reused by every mutant
    programs = _programs(cls, bodies)
    wanted = {p.key(v): (cls, p, v) for p in programs for v in variants}
    limits = {cls.id: 1.5}
    handed: list[int] = []
    real = pipeline.run_labs

    def counting(requests, *args, **kwargs):  # type: ignore[no-untyped-def]
        handed.append(len(requests))
        return real(requests, *args, **kwargs)

    monkeypatch.setattr(pipeline, "run_labs", counting)
    batched = Results()
    run_mutants(wanted, timeout=5.0, jobs=2, memo=dict(memo), into=batched, limits=limits)
    monkeypatch.setattr(pipeline, "run_labs", real)
    alone = Results()
    run_batch(wanted, timeout=5.0, jobs=2, memo=dict(memo), into=alone, limits=limits)
    keys = [p.key(v) for p in programs for v in variants]
    return (
        [batched.reports[k].outcome for k in keys],
        [alone.reports[k].outcome for k in keys],
        handed,
    )


def test_an_honest_batch_runs_in_one_process_per_variant_with_the_verdicts_of_one_each(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bodies = [RIGHT, WRONG, "mitad = escala * n", "mitad = n * escala * 2", RAISES]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    assert batched[:2] == [Outcome.MATCHES] * 2 and Outcome.DIFFERS in batched[2:4]
    assert batched[-2:] == [Outcome.EXCEPTION] * 2
    assert handed == [1]  # both variants' in one batch of the class, nothing run again alone


@pytest.mark.lento
def test_a_looping_mutant_costs_its_batch_one_timeout_and_is_judged_alone(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: the loop is killed at its limit inside the batch, the mutants after it still run
    there, and only the looping one runs again alone (where it times out as it would have)."""
    bodies = [RIGHT, LOOPS, WRONG, RIGHT + "  # otra vez"]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    assert batched[2:4] == [Outcome.TIMEOUT] * 2
    assert batched[0:2] == [Outcome.MATCHES] * 2 and batched[-2:] == [Outcome.MATCHES] * 2
    assert handed == [1, 2]  # the batch, then the looping mutant alone at each variant


def test_state_a_mutant_corrupts_never_reaches_the_next(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: a seed, numpy patched, a file and an environment variable left behind; the
    mutants after them read all of it, and pass only if none of it is there."""
    bodies = [SEEDS, RANDOM, PATCHES, READS, LEAVES, READS + "  # tras LEAVES", RIGHT]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    right, differs = [Outcome.MATCHES] * 2, [Outcome.DIFFERS] * 2  # at both variants
    assert batched == [*right, *right, *differs, *right, *right, *right, *right]
    assert handed == [1]  # 14 runs: one batch, each mutant after the others in its process


def test_mutants_the_compiler_refuses_are_judged_as_alone(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: the batch compiles each mutant before its fork; a syntax error, a nesting that
    exhausts the compiler (its memory, as alone) and a source whose compiling warns (it still
    matches) are each the mutant's own verdict, and the mutants after them in the batch are
    judged as ever."""
    deep = "mitad = " + "-" * 60_000 + "n * escala"
    warns = 'aviso = "\\d es una secuencia inválida"\nmitad = n * escala'
    bodies = [RIGHT, "mitad = n *", deep, warns, WRONG, RIGHT + "  # tras ellos"]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    each = batched[::2]  # every body at both variants, the same outcome
    assert batched[1::2] == each
    assert each == [
        Outcome.MATCHES, Outcome.EXCEPTION, Outcome.MEMORY, Outcome.MATCHES, Outcome.DIFFERS,
        Outcome.MATCHES,
    ]  # fmt: skip
    assert handed[0] == 1  # one batch; the compiler's stack, a depth, runs again alone


def test_a_mutant_that_signals_its_batch_or_exits_is_judged_as_alone(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: a mutant that signals the batch's process (its parent) and one that leaves
    without a result; the one without a result runs again alone."""
    bodies = [RIGHT, KILLS, WRONG, EXITS, RIGHT + "  # tras la salida"]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    assert batched[6:8] == [Outcome.EARLY_EXIT] * 2
    assert handed[0] == 1 and sum(handed[1:]) in (2, len(bodies) * 2)  # a batch killed: all


@pytest.mark.lento
def test_a_batch_that_reaches_no_verdict_runs_every_mutant_alone(
    course_901: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: the batch itself runs out of time (its margin taken away, a mutant loops):
    none of its mutants is judged by it, each runs alone."""
    import compmath.judging.batched as batched

    monkeypatch.setattr(batched, "MARGIN", -8.0)  # six runs of 1.5 s: 1 s in all
    bodies = [RIGHT, LOOPS, WRONG]
    batched, alone, handed = _judge_both(course_901, bodies, monkeypatch)
    assert batched == alone
    assert handed == [1, len(bodies) * 2]


def test_cases_judged_against_another_case_get_the_verdicts_of_judge_cases(
    course_901: Path, tmp_path: Path
) -> None:
    """judging.batched beside judging.pipeline on the same cases: oracles that are other cases
    of the call (one that runs, one that raises: its follower has no outputs to meet), the
    snapshot, only the schema, other parameters."""
    from compmath.judging.batched import judge_batched
    from compmath.judging.case import Explore, Ready, Reference, prepare, variant
    from compmath.judging.pipeline import judge_cases

    course = load_course(course_901)
    cls = course.resolve("901")
    base = prepare(course, cls)
    assert isinstance(base, Ready)
    labs = {}
    source = cls.lab.read_text(encoding="utf-8")
    for name, body in {"bien": RIGHT, "mal": WRONG, "lanza": RAISES, "cambia": SEEDS}.items():
        lab = tmp_path / name / "lab.py"
        lab.parent.mkdir()
        lab.write_text(
            source.replace(
                "    mitad = n * escala\n", "".join(f"    {line}\n" for line in body.splitlines())
            ),
            encoding="utf-8",
        )
        labs[name] = lab

    def cases(call: str) -> list:  # type: ignore[type-arg]
        made = [
            variant(base, key=f"{call}-curso"),
            variant(base, key=f"{call}-lanza", lab=labs["lanza"], expected=Explore()),
            variant(
                base, key=f"{call}-bien", lab=labs["bien"], expected=Reference(f"{call}-curso")
            ),
            variant(base, key=f"{call}-mal", lab=labs["mal"], expected=Reference(f"{call}-curso")),
            variant(base, key=f"{call}-cambia", lab=labs["cambia"], params={"escala": 2.0}),
            variant(base, key=f"{call}-sin", lab=labs["bien"], expected=Reference(f"{call}-lanza")),
        ]
        return [
            *made,
            variant(base, key=f"{call}-otra", params={"escala": 2.0}, expected=Explore()),
        ]

    batched = judge_batched(cases("lote"), jobs=2)
    alone = judge_cases(cases("solo"), jobs=2).result()
    assert [r.outcome for r in batched.reports] == [r.outcome for r in alone.reports]
    assert [r.message for r in batched.reports][-2] == [r.message for r in alone.reports][
        -2
    ].replace("solo", "lote")
    assert [r.outcome for r in batched.reports][:4] == [
        Outcome.MATCHES,
        Outcome.EXCEPTION,
        Outcome.MATCHES,
        Outcome.DIFFERS,
    ]
