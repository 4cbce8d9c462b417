"""Check the course's integrity and return the problems found, as data (docs/autores.md).

class.toml and part.toml are checked by the metadata module (the same checks `run` applies);
this module adds what spans files: the class's files, its outputs list against its schema and
its snapshot, the part's plan against the folders, numbering, unfinished scaffolds and strays.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compmath import contracts
from compmath.atomic import TEMP_SUFFIX
from compmath.authoring.beside import Beside
from compmath.authoring.content_checks import class_content_problems, part_content_problems
from compmath.authoring.contract_checks import allowed_modules, course_copies, lab_import_problems
from compmath.authoring.lab_checks import Round
from compmath.authoring.labsource import returned_outputs
from compmath.authoring.mutant_check import HoleScore, declaration_problems
from compmath.authoring.static_checks import Static, remember, remembered, static_key
from compmath.base.encode import DEFAULT_DECIMALS, EncodeError, canonical_json
from compmath.course import metadata
from compmath.course.tree import CLASS_DIR, PART_DIR, ClassInfo, Course, PartInfo
from compmath.errors import CompmathError, Problem
from compmath.errors_es import Located, json_problem
from compmath.site.apart import Apart
from compmath.wording import quoted

if TYPE_CHECKING:
    from compmath.judging.report import LabReport

Recorded = dict[str, "LabReport"]  # the notebooks' instrumented runs, by recording.run_key

README_SECTIONS = ("## Desarrollo", "## Ejemplo trabajado")
META_SCHEMAS = tuple(contracts.file_name(name) for name in contracts.NAMES)
DEFAULT_PART_TITLE = re.compile(r"^Parte \d+$")


class Findings(list[Problem]):
    """The problems found so far; paths are made relative to the course root."""

    def __init__(self, course: Course) -> None:
        super().__init__()
        self.course = course

    def add(self, path: Path, what: str, hint: str, located: Located | None = None) -> None:
        self.append(Problem(self.course.rel(path), what, hint, located))


def _read_json(path: Path, found: Findings, hint: str) -> tuple[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
        return text, json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        found.add(path, f"no se puede leer ({exc})", hint)
    except json.JSONDecodeError as exc:
        located = json_problem(exc)
        found.add(path, f"no es JSON válido: {located.sentence()}", hint, located)
    return None


@lru_cache(maxsize=1)
def _jsonschema_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("jsonschema")
    except metadata.PackageNotFoundError:
        return "-"


def _check_schema(body: Any) -> None:
    """Check `body` against the metaschema (raise SchemaError); a text found valid is
    remembered in lint's cache by its content and jsonschema's version (some 40 ms each, for
    every class on every lint)."""
    import hashlib

    import jsonschema

    from compmath.cache import read_json, write_json

    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    key = hashlib.sha256(f"{_jsonschema_version()}\0{text}".encode()).hexdigest()
    where = f"lint/esquema-{key}.json"  # emptied with the rest after an unconfined lab
    if read_json(where) is True:
        return
    jsonschema.Draft202012Validator.check_schema(body)
    write_json(where, True)


def _output_schema(path: Path, body: Any, found: Findings) -> bool:
    """An outputs schema is a valid JSON Schema describing a closed object; True if usable."""
    import jsonschema

    try:
        _check_schema(body)
    except jsonschema.SchemaError as exc:
        found.add(
            path, f"no es un JSON Schema válido: {exc.message}", "corrígelo según la Draft 2020-12"
        )
        return False
    props = body.get("properties") if isinstance(body, dict) else None
    if not isinstance(props, dict) or body.get("type") != "object":
        found.add(
            path,
            "debe describir un objeto con properties",
            "un objeto cerrado: type object, properties, required y additionalProperties: false",
        )
        return False
    if body.get("additionalProperties") is not False:
        found.add(path, "falta additionalProperties: false", "sin él, una salida de más pasaría")
    if set(body.get("required", [])) != set(props):
        found.add(path, "required no lista todas las salidas", "cada salida es obligatoria")
    return True


def lint_part(part: PartInfo, found: Findings) -> None:
    """part.toml: present, valid, its number matching the folder, a plan without repeats, and
    no scaffold text left."""
    if not part.meta_path.exists():
        found.add(
            part.meta_path,
            "falta part.toml (datos y plan de la parte)",
            "créalo como el de otra parte, o: "
            f"compmath new NUMERO SLUG --title T --part {part.number}",
        )
        return
    data, problems = metadata.part_problems(part.root, part.meta_path, part.number, part.path.name)
    found += problems
    if data is None or problems:
        return
    if DEFAULT_PART_TITLE.match(data["titulo"]):
        found.add(
            part.meta_path,
            f"el título «{data['titulo']}» es el de la plantilla",
            "dale a la parte su título",
        )
    texts = [
        k
        for k in ("idea_rectora", "error_a_evitar", "conexion_con_ia")
        if metadata.PLACEHOLDER in data[k]
    ]
    if texts:
        found.add(
            part.meta_path,
            f"quedan textos «{metadata.PLACEHOLDER}…» de la plantilla en: {quoted(texts)}",
            "escríbelos con las palabras del curso",
        )


def lint_numbers(course: Course, found: Findings) -> None:
    """No two class folders, and no two parts' plans, share a number."""
    for first, second in course.duplicates:
        found.add(
            second.path,
            f"el número {second.number} ya lo usa {course.rel(first.path)}",
            "renombra una de las carpetas con un número libre",
        )
    owners: dict[int, list[PartInfo]] = {}
    for part in course.parts:
        try:
            plan = part.meta.plan
        except CompmathError:
            continue
        for entry in plan:
            owners.setdefault(entry.number, []).append(part)
    for number, parts in owners.items():
        if len({p.number for p in parts}) > 1:
            found.add(
                parts[-1].meta_path,
                f"el plan incluye la clase {number}, que ya planifica la parte {parts[0].number}",
                "deja cada número en un solo plan",
            )


def _of(label: str) -> str:
    """`de class.toml`, `del esquema`: Spanish contracts «de el» into «del»."""
    return "del " + label.removeprefix("el ") if label.startswith("el ") else f"de {label}"


def _outputs_match(cls: ClassInfo, lists: dict[str, list[str] | None], found: Findings) -> None:
    named = [(label, names) for label, names in lists.items() if names is not None]
    for (label_a, a), (label_b, b) in pairwise(named):
        if a == b:
            continue
        missing, extra = [n for n in a if n not in b], [n for n in b if n not in a]
        what = (
            f"las salidas {_of(label_a)} y {label_b} difieren"
            + (f"; faltan en {label_b}: {quoted(missing)}" if missing else "")
            + (f"; sobran en {label_b}: {quoted(extra)}" if extra else "")
            + ("" if missing or extra else f" en el orden ({quoted(a)} frente a {quoted(b)})")
        )
        found.add(
            cls.path,
            what,
            "la misma lista y el mismo orden en run(), class.toml, el esquema y expected.json; "
            f"tras cambiar el laboratorio: compmath update {cls.number}",
        )


def lint_meta(cls: ClassInfo, found: Findings) -> dict[str, Any] | None:
    """class.toml: its own checks, and its agreement with the part's plan."""
    if not cls.meta_path.exists():
        found.add(
            cls.meta_path,
            "falta class.toml (la ficha de la página)",
            "escríbelo según class.schema.json, que trae compmath (compmath new crea uno)",
        )
        return None
    data, problems = metadata.class_problems(
        cls.root, cls.meta_path, cls.number, cls.id, cls.schema_path, content=True
    )
    found += problems
    if data is None:
        return None
    try:
        entry = cls.part.meta.planned(cls.number)
    except CompmathError:
        return data  # the broken part.toml is reported on its own
    if entry is None:
        found.add(
            cls.path,
            f"la clase {cls.number} no está en el plan de la parte {cls.part.number}",
            f"añade un [[plan]] con numero = {cls.number} a {found.course.rel(cls.part.meta_path)}",
        )
        return data
    for value, key, label in ((entry.title, "titulo", "título"), (entry.demo, "demo", "demo")):
        if value and key in data and data[key] != value:
            found.add(
                cls.meta_path,
                f"el {label} «{data[key]}» no es el del plan de la parte («{value}»)",
                f"usa el mismo en class.toml y en {found.course.rel(cls.part.meta_path)}",
            )
    if entry.slug != cls.slug:
        found.add(
            cls.path,
            f"el plan de la parte llama a la clase {cls.number} «{entry.slug}»",
            "renombra la carpeta o corrige el slug del plan",
        )
    return data


def lint_readme(cls: ClassInfo, found: Findings) -> None:
    if not cls.readme.exists():
        found.add(
            cls.readme,
            "falta README.md (la prosa de la página)",
            "escribe ## Desarrollo y ## Ejemplo trabajado",
        )
        return
    text = cls.readme.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    for heading in README_SECTIONS:
        if heading not in lines:
            found.add(
                cls.readme, f"falta la sección «{heading}»", "añádela: compmath show la muestra"
            )
    if metadata.PLACEHOLDER in text:
        found.add(
            cls.readme,
            f"quedan textos «{metadata.PLACEHOLDER}…» de la plantilla",
            "escribe la prosa de la clase",
        )


def lint_class(course: Course, cls: ClassInfo, found: Findings) -> None:
    """Every file of a class, and the agreement between its outputs list, schema and snapshot."""
    if not cls.lab.exists():
        found.add(cls.lab, "falta lab.py", f"créalo, o: compmath new {cls.number} SLUG --title T")
    lint_readme(cls, found)
    data = lint_meta(cls, found)
    lists: dict[str, list[str] | None] = {
        "run() en lab.py": returned_outputs(cls.lab) if cls.lab.exists() else None,
        "class.toml": None,
        "el esquema": None,
        "expected.json": None,
    }
    if data is not None and isinstance(data.get("salidas"), list):
        lists["class.toml"] = [str(o.get("nombre")) for o in data["salidas"] if isinstance(o, dict)]
    schema: tuple[str, Any] | None = None
    if not cls.schema_path.exists():
        found.add(
            cls.schema_path,
            f"falta el esquema de salidas de {cls.id}",
            "escríbelo con las salidas de run() (compmath new crea uno en cada clase nueva)",
        )
    elif (loaded := _read_json(cls.schema_path, found, "corrige el esquema")) is not None and (
        _output_schema(cls.schema_path, loaded[1], found)
    ):
        schema = loaded
        lists["el esquema"] = list(loaded[1].get("properties", {}))
    regenerate = f"regenérala: compmath update {cls.number}"
    if not cls.snapshot.exists():
        found.add(cls.snapshot, "falta la instantánea", f"escríbela: compmath update {cls.number}")
    elif (snap := _read_json(cls.snapshot, found, regenerate)) is not None:
        text, body = snap
        if not isinstance(body, dict):
            found.add(cls.snapshot, "no es un objeto JSON", regenerate)
            return
        lists["expected.json"] = list(body)
        decimals = data.get("decimales", DEFAULT_DECIMALS) if data else DEFAULT_DECIMALS
        try:
            canonical = canonical_json(body, decimals if isinstance(decimals, int) else 6)
        except EncodeError:
            canonical = ""
        if canonical != text:
            found.add(cls.snapshot, "no está en forma canónica (¿editada a mano?)", regenerate)
        if schema is not None:
            _snapshot_conforms(cls, schema, body, text, found)
    _outputs_match(cls, lists, found)


def _snapshot_conforms(
    cls: ClassInfo, schema: tuple[str, Any], body: dict[str, Any], text: str, found: Findings
) -> None:
    from compmath.base.validate import validate

    try:
        issues = validate(schema[0], schema[1], body, text, cls.schema_path.name)
    except CompmathError as exc:
        found.add(cls.schema_path, exc.message, exc.hint)
        return
    for issue in issues:
        found.add(
            cls.snapshot,
            f"no cumple {cls.schema_path.name}: {issue.path}: {issue.message}",
            f"corrige el laboratorio o el esquema y luego: compmath update {cls.number}",
        )


def _stray(folder: Path, pattern: re.Pattern[str]) -> bool:
    hidden = folder.name.startswith((".", "_"))
    return folder.is_dir() and not hidden and not pattern.match(folder.name)


def lint_tree(course: Course, found: Findings) -> None:
    """Leftover temporary files, misnamed folders and schemas of classes that do not exist."""
    for folder in (course.root / "classes", course.root / "schemas"):
        for tmp in sorted(folder.rglob(f".*{TEMP_SUFFIX}")) if folder.is_dir() else []:
            found.add(tmp, "archivo temporal de una escritura interrumpida", "bórralo")
    for part_dir in sorted((course.root / "classes").iterdir()):
        if _stray(part_dir, PART_DIR):
            found.add(
                part_dir, "carpeta con nombre que no es part-NN-slug: se ignora", "renómbrala"
            )
    for part in course.parts:
        for sub in sorted(part.path.iterdir()):
            if _stray(sub, CLASS_DIR):
                found.add(
                    sub,
                    "carpeta con nombre que no es NNN-slug: se ignora",
                    "renómbrala (tres cifras, minúsculas y guiones)",
                )
    ids = {c.id for c in course.classes}
    for schema in sorted((course.root / "schemas").glob("*.schema.json")):
        stem = schema.name.removesuffix(".schema.json")
        if schema.name not in META_SCHEMAS and stem not in ids and CLASS_DIR.match(stem):
            found.add(schema, f"no hay carpeta de clase {stem}", "bórralo o crea la clase")


def lint_course(
    course: Course, *, run_labs: bool = True, jobs: int = 2, private: Path | None = None
) -> list[Problem]:
    """Every problem of the course, in file order; an empty list means it is in order.

    With `run_labs`, the practice exercises are checked too (their labs run: see
    authoring.exercises and authoring.mutant_check), and each class's numbers of their own at
    their sample points. With `private`, the instructor's private variants file too
    (authoring.own_checks) and, running labs, every hole written as a table of its values at
    the defaults and the public variants, which the private ones must reject
    (authoring.lookup_check)."""
    return lint_findings(course, run_labs=run_labs, jobs=jobs, private=private)[0]


def _web_problems(course: Course, cls: ClassInfo) -> list[Problem]:
    """The website's checks of one class's prose, fields and formulas (no lab runs)."""
    from compmath.site.checks import class_site_problems

    found = Findings(course)
    for path, what, hint in class_site_problems(cls):
        found.add(path, what, hint)
    return list(found)


def _notebook_problems(
    course: Course, classes: list[ClassInfo]
) -> tuple[dict[str, list[Problem]], set[str]]:
    """The committed notebooks' problems of `classes` (by class id), and the ids of those whose
    notebooks could not be made."""
    from compmath.site.checks import notebook_problems

    stale, unmade = notebook_problems(course, classes)
    found: dict[str, list[Problem]] = {}
    for cls in classes:
        rows = Findings(course)
        for path, what, hint in stale.get(cls.id, []):
            rows.add(path, what, hint)
        found[cls.id] = list(rows)
    return found, unmade


def _no_labs(
    course: Course, static: dict[str, Static | None], pending: list[ClassInfo]
) -> tuple[dict[str, Static], list[Problem]]:
    """What lint finds without running a lab: the checks of the classes in `pending` (by class
    id, the website's included) and the course's problems those and the remembered ones
    (`static`) give, in the order lint prints them."""
    made = _static_checks(course, pending)
    for cls in pending:
        made[cls.id].web = _web_problems(course, cls)
    checked = {cls.id: static[cls.id] or made[cls.id] for cls in course.classes}
    found = Findings(course)
    _static_findings(course, checked, found)
    return made, list(found)


NoLabs = tuple[dict[str, Static], list[Problem], dict[str, list[Problem]], set[str]]


def _with_notebooks(
    course: Course, pending: list[ClassInfo], done: tuple[dict[str, Static], list[Problem]]
) -> NoLabs:
    """`_no_labs`' findings, and the committed notebooks' (`_notebook_problems`)."""
    return (*done, *_notebook_problems(course, pending))


def _when_recorded(recorded: Beside[Recorded] | None, apart: Apart[Any, NoLabs]) -> None:
    """Tell the process of the checks that run no lab that the recordings are in the cache:
    it checks the committed notebooks then, with nothing left to record."""
    if recorded is not None:
        _reports(recorded)
    apart.send(None)


def _recordings(course: Course, classes: list[ClassInfo]) -> Beside[Recorded] | None:
    """The notebooks' recordings of `classes` started beside, when lint checks the committed
    notebooks: their instrumented runs of each course's lab give the notebooks what they
    compare with, and the mutants their oracles (authoring.mutant_check) in the same run."""
    from compmath.site.checks import notebooks_committed, record_practising

    if not classes or not notebooks_committed(course):
        return None
    return Beside(lambda: record_practising(classes), name="compmath-lint-grabaciones")


def _reports(recorded: Beside[Recorded]) -> Recorded:
    """The recordings' reports; none when making them failed (the notebooks' check, which
    records again, then says why)."""
    try:
        return recorded.result()
    except (CompmathError, OSError):
        return {}


def _class_files(course: Course, cls: ClassInfo) -> list[Problem]:
    found = Findings(course)
    try:
        lint_class(course, cls, found)
    except CompmathError as exc:
        found.add(cls.path, exc.message, exc.hint)
    return list(found) + declaration_problems(cls)


def _static_checks(course: Course, classes: list[ClassInfo]) -> dict[str, Static]:
    """The checks that run no lab of `classes` but the website's, by class id."""
    made = {cls.id: Static(files=_class_files(course, cls)) for cls in classes}
    allowed = allowed_modules(course)
    for cls in classes:
        made[cls.id].imports = lab_import_problems(course, cls.lab, allowed)
        made[cls.id].content = class_content_problems(course, cls)
    return made


def _static_findings(course: Course, classes: dict[str, Static], found: Findings) -> None:
    """The course's own checks that run no lab, with what those found in each class, in the
    order lint prints them."""
    if course.meta_path.exists():
        found += metadata.course_problems(course.root, course.meta_path)[1]
    found += course_copies(course)
    for part in course.parts:
        lint_part(part, found)
    lint_numbers(course, found)
    for part in course.parts:
        for cls in part.classes:
            found += classes[cls.id].files
    lint_tree(course, found)
    for cls in course.classes:
        found += classes[cls.id].imports
    for part in course.parts:
        found += part_content_problems(course, part)
        for cls in part.classes:
            found += classes[cls.id].content


def _lab_findings(
    course: Course, jobs: int, mutants: bool, recorded: Beside[Recorded] | None
) -> tuple[list[Problem], list[HoleScore]]:
    """The problems of the checks that run labs, and every hole's standard-mutant score."""
    from compmath.authoring.lab_checks import lab_problems, score_problems
    from compmath.authoring.mutant_check import SCORE_GOAL
    from compmath.authoring.own_checks import own_problems

    ran = lab_problems(course, jobs, recorded=(lambda: _reports(recorded)) if recorded else None)
    problems = list(ran.problems)
    if mutants:
        problems += score_problems(course, ran.scores, SCORE_GOAL)
    return problems + own_problems(course, jobs), ran.scores


def _private_findings(course: Course, private: Path, jobs: int, run_labs: bool) -> list[Problem]:
    """The instructor's private variants file, and (running labs) each hole written as a table
    of the public values, which the private variants must reject."""
    from compmath.authoring.own_checks import private_problems

    found = private_problems(course, private, jobs, run_labs=run_labs)
    if run_labs:
        from compmath.authoring.lookup_check import lookup_problems

        found += lookup_problems(course, private, jobs)
    return found


def lint_findings(
    course: Course,
    *,
    run_labs: bool = True,
    jobs: int = 2,
    mutants: bool = False,
    private: Path | None = None,
) -> tuple[list[Problem], list[HoleScore]]:
    """lint_course's problems and every hole's standard-mutant score; with `mutants`, a hole
    scoring below mutant_check.SCORE_GOAL is a problem too."""
    # the checks of a class that run no lab are remembered by what they read
    keys = {cls.id: static_key(course, cls) for cls in course.classes}
    static = {cls.id: remembered(keys[cls.id]) for cls in course.classes}
    pending = [cls for cls in course.classes if static[cls.id] is None]
    # those checks (the files, the prose, the formulas; the committed notebooks once they are
    # recorded) in a forked process: in a thread they would hold the interpreter's lock the
    # labs' judging needs, and the cores would idle
    apart: Apart[Any, NoLabs] = Apart(
        lambda: _no_labs(course, static, pending),
        lambda done, _: _with_notebooks(course, pending, done),
    )
    try:
        round_ = Round()  # the notebooks' recordings run labs: remembered only if confined
        recorded = None
        if run_labs:  # for the notebooks and for the mutants of the classes lint runs again
            from compmath.authoring.lab_checks import unremembered

            again = {c.id for c in [*pending, *unremembered(course.classes)]}
            recorded = _recordings(course, [c for c in course.classes if c.id in again])
        told = Beside(lambda: _when_recorded(recorded, apart), name="compmath-lint-cuadernos")
        labs, scores = _lab_findings(course, jobs, mutants, recorded) if run_labs else ([], [])
        told.result()
        done = apart.finish(None)
    finally:
        apart.close()  # ended, whatever the lab checks raised
    made, found_static, notebooks, unmade = done or _with_notebooks(
        course, pending, _no_labs(course, static, pending)
    )
    confined = round_.confined()
    for cls in pending:
        made[cls.id].notebooks = notebooks[cls.id]
        if confined and cls.id not in unmade:
            remember(keys[cls.id], made[cls.id])
    checked = [static[cls.id] or made[cls.id] for cls in course.classes]
    # the website's problems after the static ones, before the labs'
    found = found_static + _web_part(checked) + labs
    if private is not None:
        found += _private_findings(course, private, jobs, run_labs)
    return found, scores


def _web_part(checked: list[Static]) -> list[Problem]:
    """The website's problems of every class, the prose's first, then the notebooks'."""
    return [p for one in checked for p in one.web] + [p for one in checked for p in one.notebooks]
