"""lint's mutants: declared mistakes and standard mutants of each hole, claims that cannot fail,
hints that give the answer and mixed list separators; honest and hostile cases for each rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compmath.authoring.content_checks import mixed_separators
from compmath.authoring.mutant_check import declaration_problems, mutant_check
from compmath.course.tree import load_course
from compmath.holes.mutants import standard
from tests.test_lint import cls_dir, edit

HOLE = "    ### BEGIN SOLUTION\n    mitad = n * escala\n    ### END SOLUTION\n"
MUTANT = 'mutantes = [{ error = 1, codigo = "mitad = n + escala" }]'
folder = cls_dir


def checked(root: Path):
    cls = load_course(root).resolve("901")
    return mutant_check([cls], 2)[cls.id]


def declared_problems(root: Path) -> list[str]:
    return [p.what for p in declaration_problems(load_course(root).resolve("901"))]


# --- standard mutants: derived from the solution's text, stable ids ---------------------------


def test_standard_mutants_cover_the_operators_with_stable_ids() -> None:
    body = (
        "    y = (a + b) * c[1:n] @ M.T  # comentario con + y *",
        "    for i in range(k):",
        "        s += x.sum(axis=-1) / 2.0",
        "    z = y < t",
    )
    made = standard(2, body)
    ids = [m.ident for m in made]
    assert ids == [m.ident for m in standard(2, body)]  # deterministic
    for expected in (
        "hueco 2 · línea 1 · + → -",
        "hueco 2 · línea 1 · * → /",
        "hueco 2 · línea 1 · corte: n → n - 1",
        "hueco 2 · línea 1 · corte: 1 → 1 + 1",
        "hueco 2 · línea 1 · M.T → M",
        "hueco 2 · línea 1 · @ con los operandos al revés",
        "hueco 2 · línea 2 · range: k → k + 1",
        "hueco 2 · línea 3 · += → -=",
        "hueco 2 · línea 3 · axis=-1 → axis=0",
        "hueco 2 · línea 3 · 2.0 → 3.0",
        "hueco 2 · línea 3 · / → *",
        "hueco 2 · línea 4 · < → <=",
        "hueco 2 · línea 4 · sentencia quitada",
    ):
        assert expected in ids, (expected, ids)
    swapped = next(m for m in made if m.ident == "hueco 2 · línea 1 · + → -")
    assert swapped.body[0] == "y = (a - b) * c[1:n] @ M.T  # comentario con + y *"  # comment kept
    assert len(set(ids)) == len(ids)


def test_a_solution_that_does_not_parse_alone_has_no_standard_mutants() -> None:
    assert standard(1, ("    return x +",)) == []


# --- declarations, read without running ------------------------------------------------------


def test_declarations_honest_and_broken(course_901: Path) -> None:
    toml = folder(course_901) / "class.toml"
    assert declared_problems(course_901) == []
    edit(toml, MUTANT, 'mutantes = [{ error = 1, cambia = "n * escala", por = "n + escala" }]')
    assert declared_problems(course_901) == []  # found exactly once
    edit(toml, 'cambia = "n * escala"', 'cambia = "n / escala"')
    assert declared_problems(course_901) == [
        "el mutante 1 del hueco 1: el texto de cambia «n / escala» no aparece en la solución del hueco"
    ]
    edit(toml, 'cambia = "n / escala"', 'cambia = "a"')  # in «mitad» twice… and in «escala»
    assert "aparece 3 veces" in declared_problems(course_901)[0]
    edit(toml, 'error = 1, cambia = "a"', 'error = 3, cambia = "n * escala"')
    whats = declared_problems(course_901)
    assert "el mutante 1 del hueco 1: no hay entrada 3 en errores_comunes (tiene 1)" in whats
    assert "el error común 1 no tiene mutante ni está en [practica] sin_mutante" in whats


def test_a_common_error_without_a_mutant_needs_a_reason(course_901: Path) -> None:
    toml = folder(course_901) / "class.toml"
    edit(toml, MUTANT + "\n", "")
    assert declared_problems(course_901) == [
        "el error común 1 no tiene mutante ni está en [practica] sin_mutante"
    ]
    edit(
        toml,
        "variantes = [{ escala = 2.0 }]",
        'variantes = [{ escala = 2.0 }]\nsin_mutante = [{ error = 1, razon = "Lo comete quien lee." }]',
    )
    assert declared_problems(course_901) == []


@pytest.mark.parametrize(
    ("hint", "flagged"),
    [
        ("mitad = n * escala", True),
        ("Al final: `mitad=n*escala`.", True),  # spaces changed: still the line
        ("mitad es el producto de n por la escala.", False),
        ("mitad = n · escala", False),  # the formula, not the assignment
    ],
)
def test_a_hint_holding_the_solution_line_is_flagged(
    course_901: Path, hint: str, flagged: bool
) -> None:
    edit(
        folder(course_901) / "class.toml",
        "'mitad es el producto de $n$ por la escala.'",
        json.dumps(hint),
    )
    whats = declared_problems(course_901)
    assert bool(whats) is flagged, whats
    if flagged:
        assert whats == [
            "la pista 2 del hueco 1 contiene una línea de su solución («mitad = n * escala»)"
        ]


def test_a_trivially_short_solution_line_in_a_hint_is_not_flagged(course_901: Path) -> None:
    edit(
        folder(course_901) / "lab.py",
        HOLE,
        "    ### BEGIN SOLUTION\n    m = n\n    mitad = m * escala\n    ### END SOLUTION\n",
    )
    edit(
        folder(course_901) / "class.toml",
        "'mitad es el producto de $n$ por la escala.'",
        '"Empieza con m = n."',
    )
    edit(
        folder(course_901) / "class.toml",
        MUTANT,
        'mutantes = [{ error = 1, codigo = "mitad = n + escala" }]',
    )
    assert declared_problems(course_901) == []


# --- mixed separators ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "El flujo A = [[2, 0], [1, 2]] lleva x = (0,3; 0,2) a otra parte.",
            [("(0,3; 0,2)", "[[2, 0], [1, 2]]")],
        ),
        ("El flujo A = [[2; 0]; [1; 2]] lleva x = (0,3; 0,2) a otra parte.", []),
        ("Con enteros, (1, 0) y (2, 3) se leen bien.", []),
        ("La pareja (1, 0) gira. Queda (−0,99; 0,14).", []),  # two sentences
        ("Sin decimales: (1; 2) y (3, 4).", []),
        ("En código `x = (0,3; 0,2)` y (1, 2).", []),
    ],
)
def test_mixed_list_separators_in_a_sentence(text: str, found: list) -> None:
    assert list(mixed_separators(text)) == found


# --- running the mutants (the fake course_901's lab runs in milliseconds) ------------------------


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_declared_mutant_that_survives_is_reported_and_a_killed_one_is_not(
    course_901: Path,
) -> None:
    """Hostile beside honest: «escala * n» is what the solution computes, so no variant can reject
    it; «n + escala» differs at the defaults already."""
    assert checked(course_901).problems == []
    edit(
        folder(course_901) / "class.toml",
        MUTANT,
        'mutantes = [{ error = 1, codigo = "mitad = escala * n" }]',
    )
    problems = checked(course_901).problems
    assert [p.what for p in problems] == [
        "hueco 1 · mutante 1 (error común 1: «Sumar n y la escala en lugar de multiplicarlos.») "
        "pasa con los parámetros por defecto y con la variante"
    ]
    assert "añade en [practica] una variante" in problems[0].hint
    assert problems[0].file.endswith("901-pasa/class.toml")


def _with_claim(root: Path, claim: str) -> None:
    """901 with one boolean output more, «afirma», computed as `claim`, and its snapshot."""
    base = folder(root)
    edit(
        base / "lab.py",
        '"vector": np.arange(n) / 3}',
        f'"vector": np.arange(n) / 3, "afirma": bool({claim})}}',
    )
    schema = root / "schemas" / "901-pasa.schema.json"
    body = json.loads(schema.read_text(encoding="utf-8"))
    body["required"].append("afirma")
    body["properties"]["afirma"] = {"type": "boolean"}
    schema.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    edit(
        base / "class.toml",
        "[[huecos]]",
        '[[salidas]]\nnombre = "afirma"\ndescripcion = "Verdadero si algo."\n\n[[huecos]]',
    )
    snapshot = json.loads((base / "expected.json").read_text(encoding="utf-8"))
    snapshot["afirma"] = True
    (base / "expected.json").write_text(json.dumps(snapshot, indent=2) + "\n", encoding="utf-8")


def test_a_claim_no_run_can_turn_false_is_flagged(course_901: Path) -> None:
    """Hostile: «n > 0» holds whatever the hole computes and at every variant."""
    _with_claim(course_901, "n > 0")
    whats = [p.what for p in checked(course_901).problems]
    assert whats == [
        "la afirmación «afirma» sale verdadera con todas las variantes y con todos los mutantes: "
        "no comprueba nada"
    ]


def test_a_claim_a_mutant_turns_false_is_not_flagged(course_901: Path) -> None:
    """Honest: «mitad == n * escala» is false for the mutant «n + escala»."""
    _with_claim(course_901, "mitad == n * escala")
    assert checked(course_901).problems == []


@pytest.fixture
def variant_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutants' first run at the variant, never at the defaults (as where it is quicker)."""
    import compmath.authoring.mutant_check as mutant_module

    monkeypatch.setattr(mutant_module, "CHEAPER", 1e-9)


def test_a_claim_only_the_defaults_turn_false_is_not_flagged_when_mutants_start_elsewhere(
    course_901: Path, variant_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim holds at the variant (escala 2) whatever the hole computes; at the defaults the
    mutant «n + escala» turns it false. That mutant is rejected by its first run, at the
    variant, so only the claims' last runs (every mutant at the defaults) see it false; without
    them the claim would be said to test nothing."""
    import compmath.authoring.mutant_check as mutant_module

    _with_claim(course_901, "mitad == n * escala or escala == 2.0")
    assert checked(course_901).problems == []
    monkeypatch.setattr(mutant_module, "_claim_runs", lambda *a, **k: {})
    whats = [p.what for p in checked(course_901).problems]
    assert whats == [
        "la afirmación «afirma» sale verdadera con todas las variantes y con todos los mutantes: "
        "no comprueba nada"
    ]


def test_a_mutant_right_at_the_quicker_variant_is_still_judged_at_the_defaults(
    course_901: Path, variant_first: None
) -> None:
    """Hostile: a mistake that gives the right number at the variant it meets first and the
    wrong one at the defaults; one that is right at both is reported."""
    toml = folder(course_901) / "class.toml"
    edit(
        toml,
        MUTANT,
        """mutantes = [{ error = 1, codigo = "mitad = n * escala if escala == 2.0 else n + escala" }]""",
    )
    assert checked(course_901).problems == []
    edit(toml, "else n + escala", "else escala * n")
    whats = [p.what for p in checked(course_901).problems]
    assert len(whats) == 1 and whats[0].startswith("hueco 1 · mutante 1 ("), whats


def test_a_variant_that_contradicts_a_claim_is_a_problem(course_901: Path) -> None:
    _with_claim(course_901, "mitad > 0")
    edit(
        folder(course_901) / "class.toml",
        "variantes = [{ escala = 2.0 }]",
        "variantes = [{ escala = -1.0 }]",
    )
    whats = [p.what for p in checked(course_901).problems]
    assert (
        "con escala = -1.0, el laboratorio del curso da falso en «afirma», que la clase afirma"
        in whats
    ), whats


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_standard_survivors_are_scored_and_equivalents_count(cli, course_901: Path) -> None:
    """`* 1 ** 2` hides two mutants no variant can see (÷ 1 and 1 ** 3); marked equivalent, they
    count as rejected; an equivalence that names no mutant is a problem."""
    edit(
        folder(course_901) / "lab.py",
        "    mitad = n * escala\n",
        "    mitad = n * escala * 1 ** 2\n",
    )
    found = checked(course_901)
    (score,) = found.scores
    survivors = [ident for ident, _, _ in score.survivors]
    assert survivors == ["hueco 1 · línea 1 · * → / (2)", "hueco 1 · línea 1 · 2 → 3"]
    assert score.counted < score.total
    result = cli("lint", "--mutantes", "--root", str(course_901))
    assert result.code == 1
    assert (
        "hueco 1 · línea 1 · 2 → 3" in result.out
        and "    + mitad = n * escala * 1 ** 3" in result.out
    )
    assert "hueco 1: las variantes rechazan" in result.out
    assert (
        cli("lint", "--root", str(course_901)).code == 0
    )  # without --mutantes the score is shown only
    toml = folder(course_901) / "class.toml"
    edit(
        toml,
        MUTANT,
        MUTANT + '\nequivalentes = [{ mutante = "hueco 1 · línea 1 · * → / (2)", razon = "÷ 1" }, '
        '{ mutante = "hueco 1 · línea 1 · 2 → 3", razon = "1 ** 3 = 1" }, { mutante = "hueco 1 · no existe", razon = "x" }]',
    )
    found = checked(course_901)
    assert found.scores[0].share == 1.0
    assert [p.what for p in found.problems] == [
        "equivalentes del hueco 1: no hay mutante «hueco 1 · no existe»"
    ]


def test_the_cache_does_not_hide_a_changed_class(
    cli, course_901: Path, tmp_path: Path, monkeypatch
) -> None:
    """A lint in order is remembered; editing the class (its mutant now survives) checks it again."""
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    assert cli("lint", "--root", str(course_901)).code == 0
    assert list((tmp_path / "cache" / "lint").glob("*.json"))  # remembered
    assert cli("lint", "--root", str(course_901)).code == 0
    edit(
        folder(course_901) / "class.toml",
        MUTANT,
        'mutantes = [{ error = 1, codigo = "mitad = escala * n" }]',
    )
    result = cli("lint", "--root", str(course_901))
    assert result.code == 1 and "hueco 1 · mutante 1" in result.out, result.out


def test_a_bad_cache_entry_costs_only_time(
    cli, course_901: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    edit(
        folder(course_901) / "class.toml",
        MUTANT,
        'mutantes = [{ error = 1, codigo = "mitad = escala * n" }]',
    )
    assert cli("lint", "--root", str(course_901)).code == 1  # remembered, its problem with it
    for entry in (tmp_path / "cache" / "lint").glob("*.json"):
        entry.write_text('{"problemas": 3}', encoding="utf-8")  # damaged
    result = cli("lint", "--root", str(course_901))
    assert result.code == 1 and "hueco 1 · mutante 1" in result.out


def test_a_variant_whose_reference_breaks_the_schema_is_a_problem(course_901: Path) -> None:
    """n = 20 gives a «vector» of 20 numbers, more than the schema's 10."""
    edit(
        folder(course_901) / "class.toml",
        "variantes = [{ escala = 2.0 }]",
        "variantes = [{ n = 20 }]",
    )
    whats = [p.what for p in checked(course_901).problems]
    assert len(whats) == 1 and whats[0].startswith("el laboratorio del curso con n = 20: "), whats


def test_a_hint_holding_the_expression_a_line_assigns_is_flagged(course_901: Path) -> None:
    """The right-hand side of the solution's assignment is the answer too, once long enough."""
    edit(
        folder(course_901) / "lab.py",
        "    mitad = n * escala\n",
        "    mitad = (n * escala) / (1 + 0 * n)\n",
    )
    toml = folder(course_901) / "class.toml"
    edit(
        toml,
        "'mitad es el producto de $n$ por la escala.'",
        '"Calcula (n*escala) / (1 + 0*n) y asígnalo."',
    )
    assert declared_problems(course_901) == [
        "la pista 2 del hueco 1 contiene la expresión de una línea de su solución "
        "(«(n * escala) / (1 + 0 * n)»)"
    ]


def test_a_hole_written_as_its_defaults_values_is_rejected_by_a_variant_that_changes_it(
    course_901: Path,
) -> None:
    """Hostile beside honest: the hole written as the value it computes at the defaults
    (captured while the course's lab runs at every variant) passes when the only variant
    changes nothing it computes («nombre»), and is rejected by «escala = 2.0»."""
    literal = "pasa escribiendo a mano sus valores de los parámetros por defecto"
    assert not any(literal in p.what for p in checked(course_901).problems)
    edit(folder(course_901) / "class.toml", "{ escala = 2.0 }", '{ nombre = "y" }')
    problems = [p for p in checked(course_901).problems if literal in p.what]
    assert [p.what.split(":")[0] for p in problems] == [f"el hueco 1 {literal}"]


# --- the oracles from the notebooks' recordings: one run of the course's lab per variant ----


def _served(root: Path):
    """The mutants' oracles of 901 from its instrumented runs (the notebooks' recordings), the
    plain runs of the course's lab beside them, and the values each way captured."""
    from compmath.authoring.mutant_batch import run_mutants
    from compmath.authoring.mutant_check import REFERENCE_TIMEOUT, _prepare, _recorded_references
    from compmath.holes.mutation import captured_values
    from compmath.holes.runs import Results
    from compmath.notebook.recording import record_all
    from compmath.notebook.tools import variants

    cls = load_course(root).resolve("901")
    one = _prepare(cls)
    assert one is not None
    served, plain = Results(), Results()
    memo: dict = {}
    recorded = record_all([(cls, variants(cls))])
    literal = _recorded_references([one], recorded, served, memo)
    wanted = {one.reference(v): (cls, None, v) for v in one.variants}
    run_mutants(wanted, timeout=REFERENCE_TIMEOUT, jobs=2, memo={}, into=plain)
    captured, _ = captured_values([cls], REFERENCE_TIMEOUT, 2)
    return cls, wanted, served, plain, literal, captured


def _same(a, b) -> bool:
    return (a.outcome, a.output_text, a.outputs) == (b.outcome, b.output_text, b.outputs)


def test_the_oracles_the_recordings_give_are_the_course_labs_own(
    course_901: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Honest: at the defaults (held to the snapshot) and at the variant, the reference the
    instrumented run gives is the one a plain run of the course's lab gets, to the byte; the
    values captured for the hand-written holes are the capturing run's."""
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # recorded now, not found
    cls, wanted, served, plain, literal, captured = _served(course_901)
    assert set(served.reports) == set(wanted)
    assert all(_same(served.reports[k], plain.reports[k]) for k in wanted)
    assert [served.reports[k].outcome.name for k in wanted] == ["MATCHES", "EXPLORATION"]
    assert literal[cls.id] == captured[cls.id] == {1: ("mitad = 2.0",)}


def test_a_replay_that_changes_the_outputs_after_run_does_not_reach_the_oracle(
    course_901: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Hostile: run() returns a module-level dict and writes into it on every call, so the
    recorder's replay of run() (it holds the hole) changes what the first call returned. The
    oracle is the outputs as the first call left them, the plain run's."""
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # recorded now, not found
    edit(
        folder(course_901) / "lab.py",
        "def run(",
        "_SALIDA = {}\n_VECES = [0]\n\n\ndef run(",
    )
    edit(
        folder(course_901) / "lab.py",
        '    return {"n": n, "mitad": mitad, "vector": np.arange(n) / 3}',
        "    _VECES[0] += 1\n"
        '    _SALIDA.update({"n": n * _VECES[0], "mitad": mitad, "vector": np.arange(n) / 3})\n'
        "    return _SALIDA",
    )
    _, wanted, served, plain, _, _ = _served(course_901)
    assert all(_same(served.reports[k], plain.reports[k]) for k in wanted)
    assert next(iter(served.reports.values())).outcome.name == "MATCHES"  # n = 4, not 8


def test_a_class_whose_lab_gives_no_outputs_at_a_variant_runs_its_oracles_as_before(
    course_901: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Hostile: at «nombre = "y"» run() returns a set, which no lab's process can write. The
    recording gives no outputs there, so the class is not served: its references run plain,
    and lint says what it said without recordings."""
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # recorded now, not found
    edit(folder(course_901) / "class.toml", "{ escala = 2.0 }", '{ nombre = "y" }')
    edit(
        folder(course_901) / "lab.py",
        '    return {"n": n, "mitad": mitad,',
        '    if nombre == "y":\n        return {"n": {n}}\n    return {"n": n, "mitad": mitad,',
    )
    cls, _, served, _, literal, _ = _served(course_901)
    assert literal == {} and served.reports == {}
    from compmath.notebook.recording import record_all
    from compmath.notebook.tools import variants

    recorded = record_all([(cls, variants(cls))])
    with_recordings = mutant_check([cls], 2, lambda: recorded)[cls.id]
    alone = mutant_check([cls], 2)[cls.id]
    assert [p.what for p in with_recordings.problems] == [p.what for p in alone.problems]
    assert any("nombre = y" in p.what for p in alone.problems)


def test_a_cold_lint_runs_the_course_lab_once_per_variant_for_notebooks_and_mutants(
    course_901: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With committed notebooks, the recordings run once (beside the other checks), and the
    mutants take their oracles and captured values from them: no plain run of the course's
    lab, no capturing run; the notebooks' check finds the recordings in the cache."""
    import compmath.authoring.mutant_batch as mutant_batch
    import compmath.holes.mutation as mutation
    import compmath.notebook.recording as recording
    from compmath.authoring.lint import lint_findings
    from compmath.holes.graft import course_tag
    from compmath.holes.runs import reference_key
    from compmath.holes.variants import variants_of

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    (course_901 / "cuadernos").mkdir()
    course = load_course(course_901)
    cls = course.resolve("901")
    runs = tmp_path / "grabaciones"
    captured: list[list[str]] = []
    wanted: list[str] = []
    real_record, real_capture, real_run = (
        recording.record_all,
        mutation.captured_values,
        mutant_batch.run_mutants,
    )

    def record(wanted_classes):  # type: ignore[no-untyped-def]
        made = real_record(wanted_classes)
        with open(runs, "a", encoding="utf-8") as handle:  # the notebooks' check is a fork
            handle.write(f"{len(made)}\n")
        return made

    def capture(classes, *args):  # type: ignore[no-untyped-def]
        captured.append([c.id for c in classes])
        return real_capture(classes, *args)

    def run(found, **kwargs):  # type: ignore[no-untyped-def]
        wanted.extend(found)
        return real_run(found, **kwargs)

    monkeypatch.setattr(recording, "record_all", record)
    monkeypatch.setattr(mutation, "captured_values", capture)
    monkeypatch.setattr(mutant_batch, "run_mutants", run)
    problems, scores = lint_findings(course)
    # defaults and the variant, once; the notebooks' check (in lint's other process): cached
    assert runs.read_text(encoding="utf-8").split() == ["2", "0"]
    assert captured == [[]]
    references = {reference_key(cls, v, course_tag(cls)) for v in variants_of(cls)}
    assert wanted and not references & set(wanted)
    assert scores and all(s.cls == cls.id for s in scores)
    assert any("falta el cuaderno" in p.what for p in problems)  # the folder is empty


def _exercises_both_ways(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[str]]:
    """901's exercise checks judged with the solution from its recording (which then does not
    run), and alone."""
    import compmath.authoring.exercises as exercises
    from compmath.notebook.recording import record_all
    from compmath.notebook.tools import variants

    course = load_course(root)
    cls = course.resolve("901")
    recorded = record_all([(cls, variants(cls))])
    ran: list[list[str]] = []
    real = exercises.judge_batched

    def judging(cases, **kwargs):  # type: ignore[no-untyped-def]
        ran.append([c.key for c in cases])
        return real(cases, **kwargs)

    monkeypatch.setattr(exercises, "judge_batched", judging)
    served = exercises.exercise_problems(course, jobs=2, classes=[cls], recorded=lambda: recorded)
    alone = exercises.exercise_problems(course, jobs=2, classes=[cls])
    solution = f"{cls.id}#solución"
    assert solution not in ran[0] and solution in ran[1]
    return [p.what for p in served], [p.what for p in alone]


def test_the_exercise_checks_judge_the_recorded_solution_as_the_solution_run(
    course_901: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Honest: the solution judged from the recording at the defaults, and the nudged region
    held to its outputs, say what the runs say: nothing, then the output the region feeds that
    its [[huecos]] does not list. Hostile: a snapshot the solution no longer matches is
    reported the same way both ways."""
    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # recorded now, not found
    assert _exercises_both_ways(course_901, monkeypatch) == ([], [])
    edit(folder(course_901) / "class.toml", 'salidas = ["mitad"]', 'salidas = ["vector"]')
    served, alone = _exercises_both_ways(course_901, monkeypatch)
    assert served == alone and any("alimenta también «mitad»" in w for w in served), served
    snapshot = folder(course_901) / "expected.json"
    body = json.loads(snapshot.read_text(encoding="utf-8"))
    body["mitad"] = 3.0
    snapshot.write_text(json.dumps(body), encoding="utf-8")
    served, alone = _exercises_both_ways(course_901, monkeypatch)
    assert served == alone and any("la solución no coincide" in w for w in served), served
