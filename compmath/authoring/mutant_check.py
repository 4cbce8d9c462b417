"""Lint's mutants: every declared mistake and most standard ones must fail at some variant.

Each mutant (practice.mutants) is grafted into the course's lab as a student's hole would be
(the other holes keep the solution) and judged by the practice verdict's own runs: against the
course's lab at the same parameters, at the defaults and at every `[practica] variantes`. The
course's lab runs once per class and variant, and those outputs are the oracle of every mutant;
each mutant runs first where the course's lab was quickest, and only one that passes there runs
at the other variants (one rejection is enough). Reported: a declared mutant no run rejects, a
variant whose reference outputs break the schema or contradict a claim the class makes (a
boolean output its snapshot has true), and a claim no variant and no mutant turns false (it
tests nothing: for such a claim every mutant runs at every variant before it is said). Each hole
gets a score: the share of its standard mutants rejected or marked equivalent in class.toml.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError, Problem
from compmath.holes.graft import Program, course_lab, course_tag
from compmath.holes.mutants import (
    DeclarationError,
    Mutant,
    code_lines,
    declared,
    dedented,
    diff_lines,
    grafted,
    standard,
    without_comment,
)
from compmath.holes.runs import Results, reference_key
from compmath.holes.variants import Variant, variants_of
from compmath.judging.report import LabReport, Outcome

SCORE_GOAL = 0.90  # share of a hole's standard mutants rejected (or marked equivalent)
REFERENCE_TIMEOUT = 20.0  # seconds for the course's lab at a variant (as the exercise checks)
MUTANT_TIMEOUT = 5.0  # seconds at most for a mutant: one that loops is rejected, not waited on
MUTANT_FLOOR = 0.3  # seconds at least (see _limits)
CLAIM_ROUND = 12  # a class's runs per round for a claim no run has turned false yet
CHEAPER = 1.5  # a variant this many times quicker than the defaults is where mutants run first
SHORT_LINE = 12  # a solution line with fewer characters (spaces aside) may appear in a hint
SHORT_EXPRESSION = 16  # and the right-hand side of an assignment, with fewer than this


@dataclass
class HoleScore:
    """A hole's standard mutants: how many, how many rejected, and the survivors (id, diff,
    marked equivalent)."""

    cls: str
    hole: int
    total: int = 0
    rejected: int = 0
    survivors: list[tuple[str, list[str], bool]] = field(default_factory=list)

    @property
    def counted(self) -> int:
        """Rejected or marked equivalent."""
        return self.rejected + sum(1 for _, _, equivalent in self.survivors if equivalent)

    @property
    def share(self) -> float:
        return self.counted / self.total if self.total else 1.0

    def data(self) -> dict[str, Any]:
        return {
            "clase": self.cls,
            "hueco": self.hole,
            "total": self.total,
            "rechazados": self.rejected,
            "supervivientes": [[i, d, e] for i, d, e in self.survivors],
        }

    @classmethod
    def of(cls, data: dict[str, Any]) -> HoleScore:
        survivors = [(str(i), [str(x) for x in d], bool(e)) for i, d, e in data["supervivientes"]]
        return cls(
            data["clase"],
            int(data["hueco"]),
            int(data["total"]),
            int(data["rechazados"]),
            survivors,
        )


@dataclass
class Checked:
    """What the mutants said of one class: problems, scores, and whether every run reached a
    verdict (only then is it worth remembering)."""

    problems: list[Problem] = field(default_factory=list)
    scores: list[HoleScore] = field(default_factory=list)
    complete: bool = True


def _toml(cls: ClassInfo) -> str:
    return str(cls.meta_path.relative_to(cls.root))


def _lab(cls: ClassInfo) -> str:
    return str(cls.lab.relative_to(cls.root))


def _squeezed(text: str) -> str:
    return "".join(text.split())


def declaration_problems(cls: ClassInfo) -> list[Problem]:
    """What is wrong with the mutants a class declares, read without running anything: an
    `error` out of range, a `cambia` not found exactly once, a common error with no mutant and
    no `sin_mutante`, and a hint that holds a line of its hole's solution."""
    try:
        meta, lab = cls.meta, course_lab(cls)
    except (CompmathError, OSError, SyntaxError, ValueError):
        return []  # reported by the checks of the class's files
    if not meta.holes or len(lab.regions) != len(meta.holes):
        return []
    problems: list[Problem] = []
    errors = len(meta.common_errors)
    covered: set[int] = set()
    out_of_range = "no hay entrada {n} en errores_comunes (tiene {errors})"
    for number, (hole, region) in enumerate(zip(meta.holes, lab.regions), 1):
        for index, spec in enumerate(hole.mutants, 1):
            where = f"el mutante {index} del hueco {number}"
            if not 1 <= spec.error <= errors:
                what = out_of_range.format(n=spec.error, errors=errors)
                problems.append(Problem(_toml(cls), f"{where}: {what}", "corrige su error = N"))
            covered.add(spec.error)
            try:
                declared(number, index, spec, region.body)
            except DeclarationError as exc:
                problems.append(
                    Problem(
                        _toml(cls),
                        f"{where}: {exc}",
                        "copia en cambia un trozo exacto (y único) del código entre "
                        "### BEGIN SOLUTION y ### END SOLUTION, o escribe el cuerpo en codigo",
                    )
                )
        problems += _hint_problems(cls, number, hole.hints, region.body)
    for error, _ in meta.without_mutant:
        if not 1 <= error <= errors:
            what = out_of_range.format(n=error, errors=errors)
            problems.append(Problem(_toml(cls), f"[practica] sin_mutante: {what}", "corrígelo"))
        covered.add(error)
    missing = [str(e) for e in range(1, errors + 1) if e not in covered]
    if missing:
        which = (
            f"el error común {missing[0]} no tiene"
            if len(missing) == 1
            else (f"los errores comunes {', '.join(missing[:-1])} y {missing[-1]} no tienen")
        )
        problems.append(
            Problem(
                _toml(cls),
                f"{which} mutante ni están en [practica] sin_mutante".replace(
                    "tiene mutante ni están", "tiene mutante ni está"
                ),
                "escribe cada uno en el hueco que lo comete: mutantes = [{ error = N, cambia = "
                '"…", por = "…" }], o di en [practica] sin_mutante por qué no cabe en ninguno',
            )
        )
    return problems


def _solution_pieces(body: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(what, shown, squeezed) of each line of the solution's code and of each assignment's
    right-hand side long enough to be the answer rather than a word of it."""
    import ast

    pieces = []
    for line in code_lines(body):
        code = without_comment(line)
        if len(_squeezed(code)) >= SHORT_LINE:
            pieces.append(("una línea", code, _squeezed(code)))
    text = dedented(body)
    try:
        tree = parse(text)
    except SyntaxError:
        return pieces
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            value = ast.get_source_segment(text, node.value) or ""
            if len(_squeezed(value)) >= SHORT_EXPRESSION:
                shown = " ".join(value.split())
                pieces.append(("la expresión de una línea", shown, _squeezed(value)))
    return pieces


def _hint_problems(
    cls: ClassInfo, number: int, hints: tuple[str, ...], body: tuple[str, ...]
) -> list[Problem]:
    """Hints that contain a line of the hole's solution, or the expression it assigns (spaces
    aside): they give the answer."""
    pieces = _solution_pieces(body)
    problems = []
    for index, hint in enumerate(hints, 1):
        squeezed = _squeezed(hint)
        found = next((p for p in pieces if p[2] in squeezed), None)
        if found is not None:
            what, shown, _ = found
            problems.append(
                Problem(
                    _toml(cls),
                    f"la pista {index} del hueco {number} contiene {what} de su solución "
                    f"(«{shown}»)",
                    "termina en la fórmula o en la idea, no en el código que la resuelve",
                )
            )
    return problems


def _claims(outputs: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every boolean in an outputs object, nested ones included."""
    if isinstance(outputs, bool):
        yield path, outputs
    elif isinstance(outputs, dict):
        for key, value in outputs.items():
            yield from _claims(value, f"{path}.{key}" if path else str(key))
    elif isinstance(outputs, list):
        for i, value in enumerate(outputs):
            yield from _claims(value, f"{path}[{i}]")


def asserted(snapshot: dict[str, Any] | None) -> list[str]:
    """The claims a class makes: the boolean outputs its snapshot has true."""
    return [path for path, value in _claims(snapshot or {}) if value is True]


@dataclass
class _Class:
    """One class being checked: its mutants as programs, its variants, what was run."""

    cls: ClassInfo
    tag: str
    variants: tuple[Variant, ...]
    mutants: list[tuple[Mutant, Program]]
    solution: dict[int, tuple[str, ...]]
    claims: list[str]
    usable: list[Variant] = field(default_factory=list)  # variants whose reference ran

    def reference(self, variant: Variant) -> str:
        return reference_key(self.cls, variant, self.tag)

    def runs(self, mutant: Mutant) -> list[Variant]:
        """Where a mutant is judged, cheapest first: every usable variant; a hole holding the
        defaults' values only at the others (it matches at the defaults by construction), if
        there are any."""
        others = [v for v in self.usable if not v.default]
        if mutant.literal and others:
            return others
        return self.usable


def _prepare(cls: ClassInfo) -> _Class | None:
    from compmath.judging.snapshot import read_snapshot

    try:
        meta, lab = cls.meta, course_lab(cls)
        snapshot = read_snapshot(cls.snapshot, cls.snapshot.name, cls.number)
    except (CompmathError, OSError, SyntaxError, ValueError):
        return None
    if not meta.holes or len(lab.regions) != len(meta.holes) or snapshot is None:
        return None
    tag = course_tag(cls)
    made: list[tuple[Mutant, Program]] = []
    solution = {}
    for number, (hole, region) in enumerate(zip(meta.holes, lab.regions), 1):
        solution[number] = tuple(dedented(region.body).splitlines())
        mutants: list[Mutant] = []
        for index, spec in enumerate(hole.mutants, 1):
            try:
                mutants.append(declared(number, index, spec, region.body))
            except DeclarationError:
                continue  # declaration_problems says why
        mutants += standard(number, region.body)
        for mutant in mutants:
            source = grafted(lab.lines, region.begin, region.end, region.indent, mutant.body)
            made.append((mutant, Program(number, source, {}, tag)))
    return _Class(cls, tag, variants_of(cls), made, solution, asserted(snapshot[1]))


def _literal(number: int, body: tuple[str, ...]) -> Mutant:
    """Hole `number` written as the values it computes at the defaults (`body`)."""
    ident = f"hueco {number} · valores por defecto escritos a mano"
    return Mutant(number, ident, body, literal=True)


def _with_literal(one: _Class, literal: dict[int, tuple[str, ...]]) -> None:
    """`one`'s mutants with each hole's literal one (its values at the defaults, `literal`)
    after that hole's others."""
    if not literal:
        return
    lab = course_lab(one.cls)
    made: list[tuple[Mutant, Program]] = []
    for index, pair in enumerate(one.mutants):
        made.append(pair)
        number = pair[0].hole
        last = index + 1 == len(one.mutants) or one.mutants[index + 1][0].hole != number
        if last and literal.get(number):
            region = lab.regions[number - 1]
            mutant = _literal(number, literal[number])
            source = grafted(lab.lines, region.begin, region.end, region.indent, mutant.body)
            made.append((mutant, Program(number, source, {}, one.tag)))
    one.mutants = made


def _limits(prepared: list[_Class], results: Results) -> dict[str, float]:
    """Each class's limit for a mutant: 40 times its slowest reference run, within
    [MUTANT_FLOOR, MUTANT_TIMEOUT] (a mutant that loops costs little; the load slows the
    references as much as the mutants)."""
    limits = {}
    for one in prepared:
        slowest = max(
            (results.reports[k].duration for k in map(one.reference, one.usable)), default=0.0
        )
        limits[one.cls.id] = min(MUTANT_TIMEOUT, max(MUTANT_FLOOR, 40 * slowest))
    return limits


def mutant_check(
    classes: list[ClassInfo],
    jobs: int,
    recorded: Callable[[], Mapping[str, LabReport]] | None = None,
) -> dict[str, Checked]:
    """Run every class's mutants; what each class's say, by class id. `recorded` waits for
    the notebooks' instrumented runs of the course's labs (notebook.recording.record_all, by
    run_key), whose outputs and captured values serve the classes they cover: the mutants are
    made while they run."""
    from compmath.authoring.beside import Beside
    from compmath.authoring.mutant_batch import run_mutants
    from compmath.holes.mutation import captured_values

    prepared = [p for p in (_prepare(c) for c in classes) if p is not None]
    memo: dict[str, LabReport] = {}
    results = Results()
    runs = recorded() if recorded is not None else {}
    literal = _recorded_references(prepared, runs, results, memo)
    unserved = [c for c in classes if c.id not in literal]
    # the values captured for the hand-written holes (only their mutants need them) beside
    # the course's lab at every variant
    captures = Beside(lambda: captured_values(unserved, REFERENCE_TIMEOUT, jobs))
    references = {
        one.reference(v): (one.cls, None, v)
        for one in prepared
        if one.cls.id not in literal
        for v in one.variants
    }
    run_mutants(references, timeout=REFERENCE_TIMEOUT, jobs=jobs, memo=memo, into=results)
    more, failed = captures.result()
    literal |= more
    for one in prepared:
        _with_literal(one, literal.get(one.cls.id, {}))
    checked = {one.cls.id: _references(one, results, memo) for one in prepared}
    limits = _limits(prepared, results)
    first = _first_runs(prepared)
    run_mutants(first, timeout=MUTANT_TIMEOUT, jobs=jobs, memo=memo, into=results, limits=limits)
    later = _later_runs(prepared, results)
    run_mutants(later, timeout=MUTANT_TIMEOUT, jobs=jobs, memo=memo, into=results, limits=limits)
    tried: set[str] = set()
    for defaults in (True, False):  # the claims' last runs, where one turns them false first
        while rest := _claim_runs(prepared, results, tried, defaults=defaults):
            tried.update(rest)
            run_mutants(
                rest, timeout=MUTANT_TIMEOUT, jobs=jobs, memo=memo, into=results, limits=limits
            )
    for one in prepared:
        _verdicts(one, results, checked[one.cls.id])
    for problem in failed:
        owner = next((c for c in classes if problem.file == _lab(c)), None)
        if owner is not None:
            checked.setdefault(owner.id, Checked()).problems.append(problem)
    return checked


def _recorded_references(
    early: list[_Class],
    recorded: Mapping[str, LabReport],
    results: Results,
    memo: dict[str, LabReport],
) -> dict[str, dict[int, tuple[str, ...]]]:
    """The course's lab of each class at each variant judged, into `results` and `memo`, as
    run_mutants judges it, from what its instrumented run (`recorded`) gave: the outputs its own
    process would have written, run() and its time. Only for a class whose every variant gave
    outputs there (the others run as before). Returns, for those classes, each hole's values
    captured at the defaults."""
    from compmath.course.tree import Course, load_course
    from compmath.holes.runs import MEMO_OK, reference_case
    from compmath.judging.case import Ready, prepare
    from compmath.notebook.recording import captured, judged_as, run_key
    from compmath.notebook.tools import variants

    served: dict[str, dict[int, tuple[str, ...]]] = {}
    courses: dict[Path, Course] = {}
    for one in early if recorded else []:
        if one.cls.root not in courses:
            courses[one.cls.root] = load_course(one.cls.root)
        base = prepare(courses[one.cls.root], one.cls, timeout=REFERENCE_TIMEOUT)
        if not isinstance(base, Ready):
            continue
        params = variants(one.cls)
        judged: dict[str, LabReport] = {}
        for var in one.variants:
            index = params.index(var.params) if var.params in params else -1
            key = one.reference(var)
            run = recorded.get(run_key(one.cls, index))
            report = judged_as(reference_case(base, key, var), run)
            if report is None:
                break
            judged[key] = report
        else:
            for key, report in judged.items():
                results.reports[key] = report
                if report.outcome in MEMO_OK:
                    memo[key] = report
            served[one.cls.id] = captured(recorded[run_key(one.cls, 0)])
    return served


def _first_runs(prepared: list[_Class]) -> dict[str, tuple[ClassInfo, Program, Variant]]:
    """Every mutant at the first variant it is judged at."""
    return {
        program.key(v): (one.cls, program, v)
        for one in prepared
        for mutant, program in one.mutants
        for v in one.runs(mutant)[:1]
    }


def _later_runs(
    prepared: list[_Class], results: Results
) -> dict[str, tuple[ClassInfo, Program, Variant]]:
    """The mutants that passed there, at the rest of their variants (one rejection is enough)."""
    return {
        program.key(v): (one.cls, program, v)
        for one in prepared
        for mutant, program in one.mutants
        if one.runs(mutant) and _passes(results.reports.get(program.key(one.runs(mutant)[0])))
        for v in one.runs(mutant)[1:]
    }


def _references(one: _Class, results: Results, memo: dict[str, LabReport]) -> Checked:
    """The problems of the course's lab at each variant; the variants with outputs become the
    mutants' oracles (`one.usable`)."""
    found = Checked()
    for variant in one.variants:
        report = results.reports.get(one.reference(variant))
        problem = _reference_problem(one, variant, report)
        if problem is not None:
            found.problems.append(problem)
            found.complete = found.complete and _judged(report)
        if one.reference(variant) in memo:  # its outputs: the mutants' oracle there
            one.usable.append(variant)

    # the mutants run first where the course's lab was quickest (the defaults unless a variant
    # is CHEAPER times quicker): most are rejected by their first run, and a slow class's
    # variants differ several times in cost. Which runs first changes what runs, never a
    # verdict: _claim_runs runs the rest for a claim no run has turned false yet
    def cost(variant: Variant) -> float:
        took = results.reports[one.reference(variant)].duration
        return took / CHEAPER if variant.default else took

    one.usable.sort(key=cost)
    return found


def _judged(report: LabReport | None) -> bool:
    """The run reached a verdict that depends on the code only, not on the machine's load."""
    from compmath.authoring.exercises import NOT_JUDGED

    return report is not None and not report.worker_lost and report.outcome not in NOT_JUDGED


def _decided(one: _Class, mutant: Mutant, program: Program, results: Results) -> bool:
    """Every run of the mutant reached a verdict of its code: a timeout counts when the
    course's lab took less than a twentieth of the time the mutant was given (it loops)."""
    for variant in one.runs(mutant):
        report = results.reports.get(program.key(variant))
        if report is None or _judged(report):
            continue
        reference = results.reports.get(one.reference(variant))
        quick = reference is not None and reference.duration * 20 < report.duration
        if report.worker_lost or report.outcome != Outcome.TIMEOUT or not quick:
            return False
    return True


def _passes(report: LabReport | None) -> bool:
    return report is not None and report.outcome == Outcome.MATCHES


def _reference_problem(one: _Class, variant: Variant, report: LabReport | None) -> Problem | None:
    """A variant at which the course's lab gives no usable outputs, outputs that break the
    schema, or outputs that contradict a claim of the class."""
    cls = one.cls
    if report is None or report.outcome not in (Outcome.MATCHES, Outcome.EXPLORATION):
        if variant.default and report is not None and report.outcome == Outcome.DIFFERS:
            return None  # the solution against its snapshot: the exercise checks report it
        why = report.full_message if report is not None else "no llegó a ejecutarse"
        what = f"el laboratorio del curso {variant.label}: {why}"
        return Problem(
            _toml(cls), what, f"corrige esa variante de [practica] ({variant.command(cls.number)})"
        )
    outputs = dict(_claims(report.outputs or {}))
    false = [c for c in one.claims if outputs.get(c) is False]
    if false and not variant.default:
        from compmath.wording import quoted

        return Problem(
            _toml(cls),
            f"{variant.label}, el laboratorio del curso da falso en {quoted(false)}, que la "
            "clase afirma",
            "una variante no debe contradecir lo que la clase enseña: cámbiala, o acota la "
            "afirmación en su descripción y en lab.py",
        )
    return None


def _killed(one: _Class, mutant: Mutant, program: Program, results: Results) -> bool:
    """Some run of the mutant did not match the course's lab (a difference, an error, a
    timeout: a student's hole doing that would not pass)."""
    for variant in one.runs(mutant):
        report = results.reports.get(program.key(variant))
        if report is None:
            return False  # not run at this variant: it passed the ones before
        if report.outcome != Outcome.MATCHES:
            return True
    return False


def _verdicts(one: _Class, results: Results, found: Checked) -> None:
    cls = one.cls
    meta = cls.meta
    scores = {n: HoleScore(cls.id, n) for n in one.solution}
    for mutant, program in one.mutants:
        killed = _killed(one, mutant, program, results)
        if not _decided(one, mutant, program, results):
            found.complete = False  # rejected by a limit the load may have decided
        if mutant.literal:
            if not killed:
                found.problems.append(_literal_survivor(one, mutant))
            continue
        if mutant.declared:
            if not killed:
                found.problems.append(_survivor(one, mutant))
            continue
        score = scores[mutant.hole]
        score.total += 1
        if killed:
            score.rejected += 1
        else:
            equivalent = mutant.ident in dict(meta.holes[mutant.hole - 1].equivalents)
            diff = list(diff_lines(one.solution[mutant.hole], mutant.body))
            score.survivors.append((mutant.ident, diff, equivalent))
    for number, hole in enumerate(meta.holes, 1):
        ids = {
            m.ident: _killed(one, m, p, results)
            for m, p in one.mutants
            if m.hole == number and not m.declared and not m.literal
        }
        for ident, _ in hole.equivalents:
            if ident not in ids:
                what = f"equivalentes del hueco {number}: no hay mutante «{ident}»"
                hint = "copia el identificador de compmath lint --mutantes"
                found.problems.append(Problem(_toml(cls), what, hint))
            elif ids[ident]:
                what = (
                    f"el mutante «{ident}» está marcado equivalente, pero una variante lo rechaza"
                )
                found.problems.append(Problem(_toml(cls), what, "quítalo de equivalentes"))
    found.scores = [scores[n] for n in sorted(scores)]
    found.problems += _idle_claims(one, results)


def _literal_survivor(one: _Class, mutant: Mutant) -> Problem:
    return Problem(
        _toml(one.cls),
        f"el hueco {mutant.hole} pasa escribiendo a mano sus valores de los parámetros por "
        "defecto: ninguna variante lo cambia",
        "añade en [practica] una variante que cambie lo que calcula ese hueco (o un parámetro "
        "de run() del que dependa)",
    )


def _survivor(one: _Class, mutant: Mutant) -> Problem:
    from compmath.mathtext import plain_prose

    cls = one.cls
    error = (
        plain_prose(cls.meta.common_errors[mutant.error - 1])  # as the terminal shows it
        if mutant.error <= len(cls.meta.common_errors)
        else ""
    )
    shown = error if len(error) <= 90 else error[:89].rstrip() + "…"
    count = len(one.usable)
    runs = "con los parámetros por defecto" + (
        f" y con las {count - 1} variantes"
        if count > 2
        else " y con la variante"
        if count == 2
        else ""
    )
    return Problem(
        _toml(cls),
        f"{mutant.ident}{f' ({mutant.note})' if mutant.note else ''} (error común "
        f"{mutant.error}: «{shown}») pasa {runs}",
        "añade en [practica] una variante con parámetros en los que ese error cambie una salida "
        "del hueco (un caso que lo haga visible: otro tamaño, un valor no nulo, una semilla), "
        "o haz que una salida lo recoja",
    )


def _seen_false(one: _Class, results: Results) -> set[str]:
    """The claims some run made so far turned false (the course's lab or a mutant)."""
    seen: set[str] = set()
    keys = [one.reference(v) for v in one.usable]
    keys += [p.key(v) for m, p in one.mutants for v in one.runs(m)]
    for key in keys:
        report = results.reports.get(key)
        if report is not None and report.outputs is not None:
            seen.update(path for path, value in _claims(report.outputs) if value is False)
    return seen


def _claim_runs(
    prepared: list[_Class], results: Results, tried: set[str], *, defaults: bool
) -> dict[str, tuple[ClassInfo, Program, Variant]]:
    """For a class with a claim no run has turned false yet: the next CLAIM_ROUND mutants at the
    defaults (with `defaults`), else at every variant, not run or tried so far (a claim tests
    nothing only if no run of the course's lab or of a mutant turns it false). The mutants of a
    hole that declares the claim's output come first: one of them usually turns it false, and
    the rounds stop there."""
    wanted: dict[str, tuple[ClassInfo, Program, Variant]] = {}
    for one in prepared:
        unseen = set(one.claims) - _seen_false(one, results)
        if not unseen:
            continue
        roots = {claim.split(".")[0].split("[")[0] for claim in unseen}
        feeding = {n for n, hole in enumerate(one.cls.meta.holes, 1) if roots & set(hole.outputs)}
        runs = [
            (program.key(v), (one.cls, program, v))
            for mutant, program in sorted(one.mutants, key=lambda m: m[0].hole not in feeding)
            for v in one.runs(mutant)
            if program.key(v) not in results.reports
            and program.key(v) not in tried
            and (v.default or not defaults)
        ]
        wanted.update(runs[:CLAIM_ROUND])
    return wanted


def _idle_claims(one: _Class, results: Results) -> list[Problem]:
    """Claims true in every run: every variant of the course's lab and every mutant at each."""
    if not one.claims:
        return []
    seen_false = _seen_false(one, results)
    return [
        Problem(
            _lab(one.cls),
            f"la afirmación «{claim}» sale verdadera con todas las variantes y con todos los "
            "mutantes: no comprueba nada",
            "derívala de algo que pueda fallar (un cálculo del hueco, un parámetro), o "
            "preséntala en la prosa como una demostración, no como una afirmación",
        )
        for claim in one.claims
        if claim not in seen_false
    ]
