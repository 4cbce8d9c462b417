"""`compmath lint`: one test per kind of problem, on a minimal valid course built from the fake one."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from compmath.authoring.lint import lint_course
from compmath.course.metadata import isbn_ok
from compmath.course.tree import load_course
from compmath.errors import Problem
from tests.conftest import FAKE_PART, REPO


@pytest.fixture
def course(course_901: Path) -> Path:
    """The fake course cut down to 901-pasa with a README: a course that lint passes."""
    return course_901


class Here:
    """lint's checks that run no lab, in this process (lint forks them: site.apart.Apart), for
    a test that counts, in its own process, what they call."""

    def __init__(self, first, then) -> None:  # type: ignore[no-untyped-def]
        self.done, self.then = first(), then

    def send(self, argument) -> None:  # type: ignore[no-untyped-def]
        pass  # finish gives it

    def finish(self, argument):  # type: ignore[no-untyped-def]
        return self.then(self.done, argument)

    def close(self) -> None:
        pass  # nothing runs elsewhere


def cls_dir(root: Path, name: str = "901-pasa") -> Path:
    return root / "classes" / FAKE_PART / name


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} no está en {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_minimal_course_passes(cli, course: Path) -> None:
    result = cli("lint", "--root", str(course))
    assert result.code == 0, result.out
    assert "el curso está en orden · 1 clase revisada" in result.out


@pytest.mark.lento
def test_real_course_passes_without_running_labs(cli) -> None:
    """What lint reads of the course; the labs' checks, class by class, below."""
    result = cli("lint", "--no-run", "--root", str(REPO))
    assert result.code == 0, result.out
    assert "20 clases revisadas" in result.out


@pytest.mark.lento  # runs the class's exercises, solution and mutants
@pytest.mark.parametrize("number", range(321, 341))
def test_real_course_class_passes(number: int) -> None:
    """One class per test, so the workers of pytest-xdist share the course."""
    from compmath.authoring.lab_checks import lab_problems

    course = load_course(REPO)
    found = lab_problems(course, 1, classes=[course.resolve(str(number))])
    assert [p.line() for p in found.problems] == []


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_fake_course_reports_its_missing_pages(cli, fake_course: Path) -> None:
    result = cli("lint", "--root", str(fake_course))
    assert result.code == 1
    assert f"classes/{FAKE_PART}/902-lanza/class.toml: falta class.toml" in result.out


def test_problems_are_data(course: Path) -> None:
    (cls_dir(course) / "lab.py").unlink()
    problems = lint_course(load_course(course))
    assert problems == [
        Problem(
            f"classes/{FAKE_PART}/901-pasa/lab.py",
            "falta lab.py",
            "créalo, o: compmath new 901 SLUG --title T",
        )
    ]


def _drop(name: str) -> Callable[[Path], None]:
    return lambda root: (cls_dir(root) / name).unlink()


def _snapshot(data: dict) -> Callable[[Path], None]:
    return lambda root: (cls_dir(root) / "expected.json").write_text(
        json.dumps(data, indent=2) + "\n", encoding="utf-8"
    )


def _append(relative: str, text: str) -> Callable[[Path], None]:
    def write(root: Path) -> None:
        path = root / relative
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")

    return write


def _replace(relative: str, old: str, new: str) -> Callable[[Path], None]:
    return lambda root: edit(root / relative, old, new)


def _copy_class(name: str) -> Callable[[Path], None]:
    return lambda root: shutil.copytree(cls_dir(root), cls_dir(root, name))


def _touch(relative: str, text: str = "") -> Callable[[Path], None]:
    def write(root: Path) -> None:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")

    return write


TOML = f"classes/{FAKE_PART}/901-pasa/class.toml"
PART = f"classes/{FAKE_PART}/part.toml"
SCHEMA = "schemas/901-pasa.schema.json"
SNAP = f"classes/{FAKE_PART}/901-pasa/expected.json"
LAB = f"classes/{FAKE_PART}/901-pasa/lab.py"
CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "sin_lab": (_drop("lab.py"), "901-pasa/lab.py: falta lab.py"),
    "sin_esquema": (
        lambda r: (r / SCHEMA).unlink(),
        "schemas/901-pasa.schema.json: falta el esquema",
    ),
    "sin_instantanea": (
        _drop("expected.json"),
        "expected.json: falta la instantánea — escríbela: compmath update 901",
    ),
    "sin_readme": (_drop("README.md"), "README.md: falta README.md"),
    "readme_sin_seccion": (
        _replace(f"classes/{FAKE_PART}/901-pasa/README.md", "## Ejemplo trabajado", "## Ejemplo"),
        "falta la sección «## Ejemplo trabajado»",
    ),
    "instantanea_no_valida": (
        _snapshot({"n": -1, "mitad": 2.0, "vector": []}),
        "no cumple 901-pasa.schema.json: salida.n: -1 es menor que el mínimo 0",
    ),
    "instantanea_no_json": (_touch(SNAP, "{"), "expected.json: no es JSON válido"),
    "instantanea_no_canonica": (
        _replace(SNAP, "0.333333", "0.3333333"),
        "no está en forma canónica",
    ),
    "toml_roto": (_append(TOML, "\nlema = = 1\n"), "class.toml: no es TOML válido"),
    "toml_fuera_de_esquema": (
        _replace(TOML, 'lema = "Todo cuadra."\n', ""),
        "class.toml: no cumple su esquema: class.toml: falta la clave requerida «lema»",
    ),
    "part_roto": (_append(PART, "\n[[plan\n"), "part.toml: no es TOML válido"),
    "part_fuera_de_esquema": (
        _replace(PART, 'idea_rectora = "', 'idea = "'),
        "part.toml: no cumple su esquema",
    ),
    "salidas_distintas": (
        _replace(TOML, 'nombre = "vector"', 'nombre = "vectores"'),
        "las salidas de class.toml y el esquema difieren; faltan en el esquema: «vectores»; "
        "sobran en el esquema: «vector»",
    ),
    "salidas_en_otro_orden": (
        _snapshot({"mitad": 2.0, "n": 4, "vector": [0.0, 0.333333, 0.666667, 1.0]}),
        "las salidas del esquema y expected.json difieren en el orden («n», «mitad», «vector» "
        "frente a «mitad», «n», «vector»)",
    ),
    "plan_que_repite": (
        _replace(PART, 'slug = "lanza"', 'slug = "pasa"'),
        'part.toml: el plan repite slug = "pasa" — cada clase aparece una vez',
    ),
    "fuera_del_plan": (
        _replace(PART, "numero = 901\n", "numero = 911\n"),
        "la clase 901 no está en el plan de la parte 90",
    ),
    "titulo_distinto": (
        _replace(TOML, 'titulo = "Un laboratorio que pasa"', 'titulo = "Otro"'),
        "el título «Otro» no es el del plan de la parte («Un laboratorio que pasa»)",
    ),
    "numero_repetido": (_copy_class("901-copia"), "901-pasa: el número 901 ya lo usa classes/"),
    "doi_mal_formado": (
        _append(TOML, 'doi = "https://doi.org/10.1/x"\n'),
        "DOI mal formado «https://doi.org/10.1/x»",
    ),
    "isbn_erroneo": (
        _append(TOML, 'isbn = "978-0-262-03924-7"\n'),
        "ISBN no válido «978-0-262-03924-7»",
    ),
    "temporal": (
        _touch(f"classes/{FAKE_PART}/901-pasa/.expected.json.x1.compmath-tmp"),
        ".expected.json.x1.compmath-tmp: archivo temporal de una escritura interrumpida",
    ),
    "esquema_abierto": (
        _replace(SCHEMA, '"additionalProperties": false', '"additionalProperties": true'),
        "falta additionalProperties: false",
    ),
    "carpeta_mal_nombrada": (
        _touch(f"classes/{FAKE_PART}/91-corto/lab.py"),
        "91-corto: carpeta con nombre que no es NNN-slug",
    ),
    "esquema_huerfano": (
        _touch("schemas/977-nadie.schema.json", "{}"),
        "977-nadie.schema.json: no hay carpeta de clase",
    ),
    "salida_sin_declarar": (
        _replace(
            f"classes/{FAKE_PART}/901-pasa/lab.py",
            '"vector": np.arange(n) / 3}',
            '"vector": np.arange(n) / 3, "media": 0.5}',
        ),
        "901-pasa: las salidas de run() en lab.py y class.toml difieren; faltan en "
        "class.toml: «media» — la misma lista y el mismo orden en run(), class.toml",
    ),
    "numero_distinto": (
        _replace(TOML, "numero = 901", "numero = 902"),
        "dice numero = 902, pero su carpeta es 901-pasa",
    ),
    "hueco_que_no_lista_su_salida": (
        _replace(TOML, 'salidas = ["mitad"]', 'salidas = ["vector"]'),
        "el código del hueco 1 alimenta también «mitad», que su [[huecos]] no lista",
    ),
    "hueco_que_nadie_vigila": (
        _replace(
            LAB,
            "    ### BEGIN SOLUTION\n    mitad = n * escala\n    ### END SOLUTION\n",
            "    mitad = n * escala\n    _nadie()\n",
        ),
        "tiene 0 regiones de solución y class.toml 1 [[huecos]]",
    ),
    "huecos_de_mas": (_append(TOML.replace("class.toml", "class.toml"), ""), None),
    "hueco_en_codigo_muerto": (
        _replace(
            LAB,
            "if __name__",
            "def _muerta() -> float:\n    ### BEGIN SOLUTION\n"
            "    return 1.0\n    ### END SOLUTION\n\n\nif __name__",
        ),
        "tiene 2 regiones de solución y class.toml 1 [[huecos]]",
    ),
    "hueco_sin_region": (
        _append(TOML, '\n[[huecos]]\ntarea = "x"\nsalidas = ["n"]\npistas = ["y"]\n'),
        "tiene 1 región de solución y class.toml 2 [[huecos]]",
    ),
    "pista_de_una_salida_que_no_existe": (
        _replace(TOML, 'salidas = ["mitad"]', 'salidas = ["media"]'),
        "nombra en el hueco 1 la salida «media», que no está en [[salidas]]",
    ),
}
CASES = {k: v for k, v in CASES.items() if v[1] is not None}


@pytest.mark.parametrize("kind", list(CASES))
@pytest.mark.lento  # seconds: out of the quick loop
def test_each_kind_of_problem_is_reported(cli, course: Path, kind: str) -> None:
    breaks, phrase = CASES[kind]
    breaks(course)
    result = cli("lint", "--root", str(course))
    assert result.code == 1, result.out
    assert phrase in result.out, result.out
    lines = result.out.strip().splitlines()  # one line per problem on a pipe: nothing wraps
    problems = [line for line in lines[:-1] if " │ " not in line]  # but a parse error's excerpt
    assert all(": " in line and " — " in line for line in problems)
    assert "problema" in lines[-1]


def test_duplicate_number_across_plans(cli, course: Path) -> None:
    other = course / "classes" / "part-91-otra"
    other.mkdir()
    shutil.copy(course / PART, other / "part.toml")
    edit(other / "part.toml", "numero = 90\n", "numero = 91\n")
    result = cli("lint", "--root", str(course))
    assert result.code == 1
    assert "el plan incluye la clase 901, que ya planifica la parte 90" in result.out


@pytest.mark.parametrize(
    ("isbn", "ok"),
    [
        ("978-0-8218-0315-8", True),
        ("978-0-262-03924-6", True),
        ("0-262-19398-1", True),
        ("978-0-262-03924-5", False),
        ("12345", False),
    ],
)
def test_isbn_check_digit(isbn: str, ok: bool) -> None:
    assert isbn_ok(isbn) is ok


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_hole_that_no_output_checks_is_reported(cli, course: Path) -> None:
    """The region sits in a function run() never calls: the exercise would pass untouched."""
    lab = cls_dir(course) / "lab.py"
    text = lab.read_text(encoding="utf-8")
    text = text.replace(
        "    ### BEGIN SOLUTION\n    mitad = n * escala\n    ### END SOLUTION\n",
        "    mitad = n * escala\n",
    )
    text = text.replace(
        "if __name__",
        "def _sin_usar() -> float:\n    ### BEGIN SOLUTION\n    x = 1.0\n"
        "    ### END SOLUTION\n    return x\n\n\nif __name__",
    )
    lab.write_text(text, encoding="utf-8")
    result = cli("lint", "--root", str(course))
    assert result.code == 1
    assert "el ejercicio entero pasa la comprobación: ninguna salida lo vigila" in result.out
    assert "--no-run" not in result.out
    quick = cli("lint", "--no-run", "--root", str(course))
    assert quick.code == 0, quick.out


@pytest.mark.parametrize(
    ("source", "outputs"),
    [
        ("def run(n: int = 2) -> dict:\n    return {'a': n, 'b': 2}\n", ["a", "b"]),
        ("def run() -> dict:\n    if True:\n        return {'a': 1}\n    return {'a': 2}\n", ["a"]),
        (
            "def run() -> dict:\n    def g():\n        return {'x': 1}\n    return {'a': g()}\n",
            ["a"],
        ),
        ("def run() -> dict:\n    out = {'a': 1}\n    return out\n", None),
        ("def run() -> dict:\n    return {'a': 1, **extra}\n", None),
        ("def run() -> dict:\n    if x:\n        return {'a': 1}\n    return {'b': 2}\n", None),
        ("def otra() -> dict:\n    return {'a': 1}\n", None),
        ("def run(:\n", None),
    ],
)
def test_outputs_are_read_from_the_source(
    tmp_path: Path, source: str, outputs: list[str] | None
) -> None:
    from compmath.authoring.labsource import returned_outputs

    lab = tmp_path / "lab.py"
    lab.write_text(source, encoding="utf-8")
    assert returned_outputs(lab) == outputs


@pytest.mark.lento  # seconds: out of the quick loop
def test_a_hole_check_that_could_not_run_is_a_problem_not_silence(course: Path) -> None:
    """A solution that sleeps past the limit: lint says the check could not run (and why),
    never that the course is in order; the same course without the sleep is in order."""
    from compmath.authoring.exercises import exercise_problems

    assert exercise_problems(load_course(course), jobs=2, timeout=5.0) == []  # the honest one
    lab = cls_dir(course) / "lab.py"
    edit(
        lab,
        "    mitad = n * escala\n",
        "    import time\n    time.sleep(60)\n    mitad = n * escala\n",
    )
    problems = exercise_problems(load_course(course), jobs=2, timeout=1.0)
    whats = [p.what for p in problems]
    assert (
        "no se pudo comprobar la variante «solución»: el laboratorio superó el límite de 1 s"
        in " ".join(whats)
    )
    assert not any("la solución no coincide" in w for w in whats), whats


def test_ctrl_c_during_the_hole_checks_says_what_it_stopped(
    cli, course: Path, monkeypatch, tmp_path: Path
) -> None:
    """Lint's labs go through the one pipeline: Ctrl-C there is told as for `check`."""
    from compmath.judging import pipeline

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # nothing remembered

    def interrupt(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "run_labs", interrupt)
    result = cli("lint", "--root", str(course))
    assert result.code == 130
    assert "interrumpido: la comprobación del curso (a los " in result.err, result.err
    assert "Traceback" not in result.err


def test_an_exercise_that_hides_its_hole_behind_an_exit_is_not_in_order(cli, course: Path) -> None:
    """Hostile: the lab catches its hole's NotImplementedError and leaves with os._exit, so
    the exercise never reaches a verdict; lint says the check could not run, and why."""
    lab = cls_dir(course) / "lab.py"
    edit(
        lab,
        "    ### BEGIN SOLUTION\n    mitad = n * escala\n    ### END SOLUTION\n",
        "    try:\n        ### BEGIN SOLUTION\n        mitad = n * escala\n        ### END SOLUTION\n"
        "    except NotImplementedError:\n        import os\n        os._exit(3)\n",
    )
    result = cli("lint", "--root", str(course))
    assert result.code == 1, result.out
    assert (
        "no se pudo comprobar la variante «ejercicio»: el proceso del laboratorio terminó"
        in result.out
    )
    assert "en orden" not in result.out


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_region_that_writes_an_attribute_is_nudged_by_its_own_names(cli, course: Path) -> None:
    """Honest beside it: a region that also writes into a module-level object nudges only the
    names it binds (nudging the object would make it local and break the lab)."""
    lab = cls_dir(course) / "lab.py"
    edit(lab, "N = 4\n", "N = 4\nESTADO = type('Estado', (), {})()\n")
    edit(
        lab, "    mitad = n * escala\n", "    ESTADO.mitad = n * escala\n    mitad = ESTADO.mitad\n"
    )
    assert cli("lint", "--root", str(course)).code == 0
    edit(cls_dir(course) / "class.toml", 'salidas = ["mitad"]', 'salidas = ["vector"]')
    result = cli("lint", "--root", str(course))
    assert (
        "el código del hueco 1 alimenta también «mitad», que su [[huecos]] no lista" in result.out
    )


def test_a_region_in_a_loop_is_nudged_on_its_first_pass_only() -> None:
    """The nudge moves what a region computes the first time it ends, never again: a loop that
    runs until its change falls under a threshold still stops, and every later pass costs one
    lookup, not a call (339's Q-learning passes its region 129 000 times)."""
    from compmath.authoring.exercises import nudged
    from compmath.holes.regions import solution_regions

    source = (
        "def run():\n"
        "    total, pasos = 0.0, []\n"
        "    for k in range(5):\n"
        "        ### BEGIN SOLUTION\n"
        "        paso = 1.0 + k\n"
        "        ### END SOLUTION\n"
        "        pasos.append(paso)\n"
        "    return {'pasos': pasos}\n"
    )
    made = nudged(source, solution_regions(source)[0])
    assert made is not None
    scope: dict[str, object] = {"__name__": "lab"}
    exec(compile(made, "lab.py", "exec"), scope)
    assert scope["run"]() == {"pasos": [1.0 * (1 - 1e-3), 2.0, 3.0, 4.0, 5.0]}  # type: ignore[operator]
    assert made.count("_compmath_nudge_all(paso)") == 1


def test_the_lab_checks_are_remembered_only_for_the_same_files(fake_course: Path) -> None:
    """lint remembers what a class's lab checks found, keyed by every file of the class, its
    part.toml, the class schema and compmath's source: an edit to any of them checks the class
    again; an unconfined run empties the memory with the other caches a lab could poison."""
    from compmath.authoring.lab_checks import CACHE, class_key
    from compmath.course.tree import load_course
    from compmath.execution.scheduler import LAB_CACHES

    cls = load_course(fake_course).resolve("901")
    first = class_key(cls)
    assert class_key(cls) == first
    for path in (cls.lab, cls.meta_path, cls.schema_path, cls.snapshot, cls.part.meta_path):
        kept = path.read_bytes()
        path.write_bytes(kept + b"\n")
        assert class_key(cls) != first, path.name
        path.write_bytes(kept)
    assert class_key(cls) == first
    other = load_course(fake_course).resolve("902")
    assert class_key(other) != first
    assert CACHE in LAB_CACHES


def test_the_website_checks_run_beside_the_lab_checks_in_their_place(
    course: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """lint's website checks run (in a process of their own) while the lab checks do, and
    their problems keep their place: after the static ones, before the labs'."""
    import os
    import select

    import compmath.authoring.lab_checks as lab_checks
    import compmath.authoring.own_checks as own_checks
    import compmath.site.checks as site_checks

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # nothing remembered
    # the website's checks run in a forked process: a pipe tells it the lab checks began
    began, tell = os.pipe()

    def site(cls):  # waits for the lab checks to be under way, then says whether they were
        ready, _, _ = select.select([began], [], [], 60)
        return [(cls.root / "web.md", "de la web" if ready else "sin laboratorios", "")]

    def labs(found_course, jobs, classes=None, recorded=None):
        os.write(tell, b"x")
        return lab_checks.LabFindings(problems=[Problem("labs.py", "de los labs", "")])

    monkeypatch.setattr(site_checks, "class_site_problems", site)
    monkeypatch.setattr(lab_checks, "lab_problems", labs)
    monkeypatch.setattr(own_checks, "own_problems", lambda course, jobs: [])
    monkeypatch.setattr(
        "compmath.authoring.lint.lab_import_problems",
        lambda course, lab, allowed: [Problem("a.py", "estática", "")],
    )
    try:
        found = [p.what for p in lint_course(load_course(course))]
    finally:
        os.close(began)
        os.close(tell)
    # the site checks were still running when the lab checks began; their place is kept
    assert found == ["estática", "de la web", "de los labs"]


def test_what_the_website_checks_raise_lint_raises(
    course: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import compmath.site.checks as site_checks
    from compmath.errors import CompmathError

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))  # nothing remembered

    def site(cls):
        raise CompmathError("roto", "arréglalo")

    monkeypatch.setattr(site_checks, "class_site_problems", site)
    with pytest.raises(CompmathError, match="roto"):
        lint_course(load_course(course), run_labs=False)


def test_the_exercise_checks_run_beside_the_mutants(
    fake_course: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The exercise checks and the mutants run at once; a class is still remembered only
    when its runs were complete, and what the exercise checks raise, lint raises."""
    import threading

    import compmath.authoring.exercises as exercises
    import compmath.authoring.mutant_check as mutant_check
    from compmath.authoring.lab_checks import lab_problems
    from compmath.authoring.mutant_check import Checked
    from compmath.errors import CompmathError

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    loaded = load_course(fake_course)
    cls = loaded.resolve("901")
    mutants_running = threading.Event()
    seen: list[bool] = []

    def checks(found_course, jobs, classes, recorded=None):
        seen.append(mutants_running.wait(timeout=60))
        return [Problem(str(cls.lab.relative_to(cls.root)), "ejercicio", "")]

    def mutants(classes, jobs, recorded=None):
        mutants_running.set()
        return {c.id: Checked(complete=c.id != cls.id) for c in classes}

    monkeypatch.setattr(exercises, "exercise_problems", checks)
    monkeypatch.setattr(mutant_check, "mutant_check", mutants)
    found = lab_problems(loaded, 2, [cls])
    assert seen == [True]  # the exercise checks still ran when the mutants began
    assert [p.what for p in found.problems] == ["ejercicio"]
    assert lab_problems(loaded, 2, [cls]).checked == 1  # incomplete: not remembered

    def broken(found_course, jobs, classes, recorded=None):
        raise CompmathError("roto", "arréglalo")

    monkeypatch.setattr(exercises, "exercise_problems", broken)
    with pytest.raises(CompmathError, match="roto"):
        lab_problems(loaded, 2, [cls])


def test_a_schema_found_valid_is_remembered_and_an_invalid_one_reported_every_time(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jsonschema

    from compmath.authoring import lint as lint_module

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    checked: list[object] = []
    real = jsonschema.Draft202012Validator.check_schema

    def counting(schema: object) -> None:
        if isinstance(schema, dict) and "mitad" in schema.get("properties", {}):
            checked.append(schema)  # 901's outputs schema (not class.toml's)
        real(schema)

    def forget_the_classes() -> None:  # what a class's checks found: the schema is read again
        for entry in (tmp_path / "cache" / "lint").glob("estatico-*.json"):
            entry.unlink()

    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", counting)
    monkeypatch.setattr(lint_module, "Apart", Here)
    assert lint_module.lint_course(load_course(course), run_labs=False) == []
    first = len(checked)
    forget_the_classes()
    assert lint_module.lint_course(load_course(course), run_labs=False) == []
    assert first >= 1 and len(checked) == first  # the second lint remembered it
    schema = course / "schemas" / "901-pasa.schema.json"
    body = json.loads(schema.read_text(encoding="utf-8"))
    body["properties"]["n"] = {"type": "entero"}  # not a type the metaschema knows
    schema.write_text(json.dumps(body), encoding="utf-8")
    for _ in range(2):
        found = [p.what for p in lint_module.lint_course(load_course(course), run_labs=False)]
        assert any("no es un JSON Schema válido" in w for w in found), found  # each time
        forget_the_classes()


def test_what_a_class_s_checks_without_labs_found_is_remembered_until_what_they_read_changes(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lint that remembers a class's checks that run no lab reports the same problems, in the
    same order and with the same lines, without reading the class again; an edit to the class,
    to curso.toml or to its committed notebook checks it again, and a class whose notebook
    could not be made is not remembered."""
    from compmath.authoring import lint as lint_module
    from compmath.authoring.static_checks import static_key

    monkeypatch.setenv("COMPMATH_CACHE", str(tmp_path / "cache"))
    lab = cls_dir(course) / "lab.py"
    edit(lab, "import numpy as np", "import numpy as np\nimport requests")
    readme = cls_dir(course) / "README.md"
    edit(readme, "## Ejemplo trabajado", "## Ejemplo")
    edit(cls_dir(course) / "class.toml", 'lema = "', 'lema = "Con 1e\u20115 de error. ')
    read: list[str] = []
    real = lint_module.lint_class

    def reading(found_course, cls, found):
        read.append(cls.id)
        real(found_course, cls, found)

    monkeypatch.setattr(lint_module, "lint_class", reading)
    monkeypatch.setattr(lint_module, "Apart", Here)
    first = lint_module.lint_course(load_course(course), run_labs=False)
    assert read == ["901-pasa"]
    whats = [p.what for p in first]
    assert any("importa requests" in w for w in whats), whats
    assert any("«## Ejemplo trabajado»" in w for w in whats), whats
    assert any("guion no separable" in w for w in whats), whats
    located = next(p for p in first if "importa requests" in p.what).located
    assert located is not None and located.line is not None and "requests" in located.text
    assert lint_module.lint_course(load_course(course), run_labs=False) == first
    assert read == ["901-pasa"]  # remembered: the class was not read again
    edit(readme, "## Ejemplo\n", "## Ejemplo trabajado\n")
    again = lint_module.lint_course(load_course(course), run_labs=False)
    assert read == ["901-pasa"] * 2
    assert [p for p in first if "«## Ejemplo trabajado»" not in p.what] == again
    loaded = load_course(course)
    cls = loaded.resolve("901")
    before = static_key(loaded, cls)
    (course / "curso.toml").write_text('importaciones_permitidas = ["requests"]\n', "utf-8")
    assert static_key(loaded, cls) != before  # curso.toml is read (test_init: the import)
    (course / "curso.toml").unlink()
    assert static_key(loaded, cls) == before
    notebooks = course / "cuadernos"
    notebooks.mkdir(exist_ok=True)
    (notebooks / f"{cls.id}.ipynb").write_text("{}", encoding="utf-8")
    assert static_key(loaded, cls) != before  # and its committed notebook
    shutil.rmtree(notebooks)

    import compmath.site.checks as site_checks

    monkeypatch.setattr(site_checks, "notebook_problems", lambda c, classes: ({}, {cls.id}))
    edit(readme, "## Ejemplo trabajado\n", "## Ejemplo trabajado \n")  # a new key
    lint_module.lint_course(load_course(course), run_labs=False)
    lint_module.lint_course(load_course(course), run_labs=False)
    assert read == ["901-pasa"] * 4  # a class whose notebook was not made: checked each time
