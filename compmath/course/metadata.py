"""class.toml and part.toml: read, validated against their schemas and checked, in one place.

`class_problems` and `part_problems` list everything wrong with a file (what `lint` prints);
course.tree turns a file without fatal problems into its record (course.records) and raises the
first problem of a broken one as a CompmathError (what `run` stops with). Validation verdicts are
remembered by content (base.validate), so an unchanged file costs a TOML parse and a hash,
not a jsonschema import. Kept free of dataclasses: `python lab.py` reads its decimals here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from compmath.base.encode import DEFAULT_DECIMALS
from compmath.errors import CompmathError, Problem, os_reason
from compmath.errors_es import toml_problem
from compmath.wording import quoted

DOI = re.compile(r"^10\.\d{4,9}/\S+$")
PLACEHOLDER = "Por escribir"


# --- reading -------------------------------------------------------------------------------


def read_toml(path: Path, shown: str) -> dict[str, Any]:
    """Parse a TOML file; CompmathError naming it (as `shown`) and the line when it is broken."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CompmathError(
            f"no se puede leer {shown}: {os_reason(exc)}", "revisa el archivo"
        ) from None
    except UnicodeDecodeError:
        raise CompmathError(f"{shown} no está en UTF-8", "guárdalo como UTF-8") from None
    if not text.strip():
        raise CompmathError(
            f"{shown} está vacío", "compara con el de otra clase; compmath lint lo revisa"
        )
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        located = toml_problem(exc, text)
        raise CompmathError(
            f"{shown} no es TOML válido: {located.sentence()}",
            "corrige la línea indicada",
            located=located,
        ) from None


def _schema_problems(
    root: Path, data: dict[str, Any], kind: str, shown: str, base: str
) -> list[Problem]:
    """Violations of the contract `kind` (class, part, course) that the package carries."""
    from compmath import contracts

    return schema_problems_of(contracts.path(kind), data, shown, base)


def schema_problems_of(schema_file: Path, data: Any, shown: str, base: str) -> list[Problem]:
    """Violations of `schema_file` by `data` (read from `shown`), one problem each; none when
    a course's own schema is absent (a contract of compmath's that is missing is an error)."""
    from compmath import contracts
    from compmath.base.validate import load_schema, validate

    contract = schema_file.parent == contracts.FOLDER
    if not contract and not schema_file.exists():
        return []
    schema_text, schema = load_schema(schema_file)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    issues = validate(schema_text, schema, data, text, schema_file, base=base)
    where = (
        f"{schema_file.name}, el contrato que trae compmath"
        if contract
        else f"schemas/{schema_file.name}"
    )
    hint = f"corrígelo según {where}; compmath lint lista todos los problemas"
    return [Problem(shown, f"no cumple su esquema: {i.path}: {i.message}", hint) for i in issues]


def _number_problem(shown: str, written: Any, number: int, folder: str) -> list[Problem]:
    """A `numero` that is not the folder's."""
    if written == number:
        return []
    return [
        Problem(
            shown,
            f"dice numero = {written!r}, pero su carpeta es {folder}",
            "corrige el número o renombra la carpeta; luego: compmath lint",
        )
    ]


def _read_checked(
    root: Path, path: Path, kind: str
) -> tuple[str, dict[str, Any] | None, list[Problem]]:
    """(the file as shown, its data or None when unreadable, its problems so far): read and
    validated against the contract `kind` (compmath.contracts)."""
    shown = _relative(root, path)
    try:
        data = read_toml(path, shown)
    except CompmathError as exc:
        what = exc.message.removeprefix(f"{shown} ")
        return shown, None, [Problem(shown, what, exc.hint, exc.located)]
    return shown, data, _schema_problems(root, data, kind, shown, path.name)


def _output_names(schema_file: Path) -> list[str] | None:
    """The outputs an outputs schema declares (its properties), or None if it cannot say."""
    try:
        body = json.loads(schema_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    props = body.get("properties") if isinstance(body, dict) else None
    return list(props) if isinstance(props, dict) else None


def require(found: tuple[dict[str, Any] | None, list[Problem]]) -> dict[str, Any]:
    """The data of a file read by a `*_problems` function; its first problem, as the error,
    when it has any (a file whose data could not be read always has one)."""
    data, problems = found
    if problems:
        raise problems[0].error()
    if data is None:
        raise CompmathError("un archivo del curso no se pudo leer", "compmath lint dice cuál")
    return data


# --- class.toml ----------------------------------------------------------------------------


def class_problems(
    root: Path, path: Path, number: int, folder: str, schema_file: Path, *, content: bool = False
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The parsed class.toml and its problems: fatal ones, plus content ones with `content`.

    Fatal: unreadable, not TOML, against the class contract (compmath.contracts), a `numero`
    that is not the folder's, a tolerance or a hole for an output the outputs schema does not
    declare. Content (for lint): malformed DOIs and ISBNs, formulas without LaTeX, unfinished
    placeholders.
    """
    _, data, problems = _read_checked(root, path, "class")
    if data is None or problems:
        return data, problems
    return data, class_checks(root, path, data, number, folder, schema_file, content=content)


def class_checks(
    root: Path,
    path: Path,
    data: dict[str, Any],
    number: int,
    folder: str,
    schema_file: Path,
    *,
    content: bool = False,
) -> list[Problem]:
    """The problems of a class.toml whose data satisfies the class contract: what
    class_problems adds to the schema's (`list` calls it on data it read and judged itself)."""
    shown = _relative(root, path)
    problems = _number_problem(shown, data["numero"], number, folder)
    declared = [o["nombre"] for o in data["salidas"]]
    names = _output_names(schema_file)
    if names is not None:
        for entry in data["salidas"]:
            if "tolerancia" in entry and entry["nombre"] not in names:
                problems.append(
                    Problem(
                        shown,
                        f"declara tolerancia para «{entry['nombre']}», que no es una salida",
                        "corrige el nombre en [[salidas]]",
                    )
                )
    for entry in data["salidas"]:
        chart = entry.get("grafica")
        if isinstance(chart, dict) and chart.get("escala") not in (None, *declared):
            problems.append(
                Problem(
                    shown,
                    f"la gráfica de «{entry['nombre']}» comparte la escala de «{chart['escala']}»,"
                    " que no está en [[salidas]]",
                    "nombra en escala otra salida de la clase",
                )
            )
    for k, hole in enumerate(data.get("huecos", []), 1):
        for name in hole["salidas"]:
            if name not in declared:
                problems.append(
                    Problem(
                        shown,
                        f"nombra en el hueco {k} la salida «{name}», que no está en [[salidas]]",
                        "usa el nombre de una salida del laboratorio",
                    )
                )
    if content:  # a stale variant is lint's to report: run and check do not use variants
        problems += _variant_problems(shown, path.parent / "lab.py", data)
        problems += _content_problems(shown, data)
    return problems


_PYTHON_TYPES = {"int": (int,), "float": (int, float), "bool": (bool,), "str": (str,)}


def _variant_problems(shown: str, lab: Path, data: dict[str, Any]) -> list[Problem]:
    """[practica] variantes: each names parameters of run(), with values of their types;
    [practica.por_alumno]: choices and ranges of run()'s parameters, of their types."""
    practice = data.get("practica", {})
    variants = practice.get("variantes", [])
    declared = practice.get("por_alumno", {})
    holes = data.get("huecos", [])
    if not (variants or declared or holes) or not lab.exists():
        return []
    from compmath.course.params import specs_from_source

    specs = {s.name: s.type_name for s in specs_from_source(lab) or []}
    found = variants_problems(shown, specs, variants, "de [practica]")
    found += _placeholder_problems(shown, specs, data)
    if declared:
        from compmath.course.per_student import declaration_problems
        from compmath.course.records import class_record

        for what in declaration_problems(class_record(data).per_student, specs):
            found.append(
                Problem(
                    shown,
                    f"[practica.por_alumno]: {what}",
                    "declara opciones o un rango de un parámetro de run(), con valores de su tipo",
                )
            )
    return found


def _placeholder_problems(shown: str, specs: dict[str, str], data: dict[str, Any]) -> list[Problem]:
    """A task or hint's `{{nombre}}` names a parameter of run() (the student reads its value)."""
    from compmath.course.per_student import placeholders

    found = []
    for k, hole in enumerate(data.get("huecos", []), 1):
        texts = [("la tarea", hole["tarea"])]
        texts += [(f"la pista {i}", hint) for i, hint in enumerate(hole["pistas"], 1)]
        for where, text in texts:
            for name in placeholders(text):
                if name not in specs:
                    found.append(
                        Problem(
                            shown,
                            f"{where} del hueco {k} escribe {{{{{name}}}}}, que no es parámetro "
                            "de run()",
                            f"usa uno de: {quoted(list(specs)) or '(run() no tiene parámetros)'}",
                        )
                    )
    return found


def variants_problems(
    shown: str, specs: dict[str, str], variants: list[dict[str, Any]], where: str
) -> list[Problem]:
    """Each variant names parameters of run() (`specs`: their type names), with values of their
    types; `where` says whose variants they are in the message («de [practica]»)."""
    found = []
    for k, variant in enumerate(variants, 1):
        for name, value in variant.items():
            kinds = _PYTHON_TYPES.get(specs.get(name, ""), ())
            if name not in specs:
                found.append(
                    Problem(
                        shown,
                        f"la variante {k} {where} da «{name}», que no es parámetro de run()",
                        f"usa uno de: {quoted(list(specs)) or '(run() no tiene parámetros)'}",
                    )
                )
            elif not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                found.append(
                    Problem(
                        shown,
                        f"la variante {k} {where} da a «{name}» un valor que no es {specs[name]}",
                        "escribe el valor con el tipo que declara run()",
                    )
                )
    return found


def isbn_ok(text: str) -> bool:
    """True when an ISBN-10 or ISBN-13 (hyphens allowed) has a correct check digit."""
    digits = re.sub(r"[- ]", "", text).upper()
    if re.fullmatch(r"\d{13}", digits):
        return sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0
    if re.fullmatch(r"\d{9}[\dX]", digits):
        values = [10 if d == "X" else int(d) for d in digits]
        return sum((10 - i) * v for i, v in enumerate(values)) % 11 == 0
    return False


def _content_problems(shown: str, data: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    for ref in data.get("bibliografia", []):
        doi, isbn = ref.get("doi"), ref.get("isbn")
        if doi is not None and not DOI.match(doi):
            found.append(
                Problem(
                    shown,
                    f"DOI mal formado «{doi}»",
                    "un DOI es 10.NNNN/sufijo, sin https://doi.org/",
                )
            )
        if isbn is not None and not isbn_ok(isbn):
            found.append(
                Problem(
                    shown,
                    f"ISBN no válido «{isbn}» (dígito de control)",
                    "cópialo de la ficha del libro",
                )
            )
    if not data.get("bibliografia"):
        found.append(
            Problem(
                shown,
                "la bibliografía está vacía",
                "añade al menos una referencia [[bibliografia]]",
            )
        )
    for k, formula in enumerate(data.get("formulas", []), 1):
        if "latex" not in formula:
            found.append(
                Problem(
                    shown,
                    f"la fórmula {k} no tiene forma LaTeX («{formula['texto'][:40]}»)",
                    "añade latex = '…' a su [[formulas]] (la web la muestra como MathML)",
                )
            )
    unfinished = sorted({key for key, text in _strings(data) if PLACEHOLDER in text})
    if unfinished:
        found.append(
            Problem(
                shown,
                f"quedan textos «{PLACEHOLDER}…» de la plantilla en: {quoted(unfinished)}",
                "escríbelos con las palabras del curso",
            )
        )
    return found


def _strings(data: Any, key: str = "") -> list[tuple[str, str]]:
    """Every string in a parsed TOML document, with the top-level key it sits under."""
    if isinstance(data, str):
        return [(key, data)]
    if isinstance(data, dict):
        return [pair for k, v in data.items() for pair in _strings(v, key or k)]
    if isinstance(data, list):
        return [pair for v in data for pair in _strings(v, key)]
    return []


# --- part.toml -----------------------------------------------------------------------------


def part_problems(
    root: Path, path: Path, number: int, folder: str
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The parsed part.toml and its problems: unreadable, against its schema, another number,
    a plan that repeats a number or a slug."""
    shown, data, problems = _read_checked(root, path, "part")
    if data is None or problems:
        return data, problems
    problems += _number_problem(shown, data["numero"], number, folder)
    for key in ("numero", "slug"):
        values = [entry[key] for entry in data["plan"]]
        for value in sorted({v for v in values if values.count(v) > 1}, key=str):
            repeated = f"el plan repite {key} = {json.dumps(value, ensure_ascii=False)}"
            problems.append(Problem(shown, repeated, "cada clase aparece una vez"))
    return data, problems


def course_problems(root: Path, path: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The parsed curso.toml and its problems (unreadable, against its schema)."""
    _, data, problems = _read_checked(root, path, "course")
    return data, problems


def _relative(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


TABLE_HEADER = re.compile(r"^\[\[?\s*[A-Za-z_\"']", re.M)
INDEX_KEYS = ("titulo", "nivel", "duracion")
SIMPLE_STRING = re.compile(
    r'^(titulo|nivel|duracion)[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*")[ \t]*$', re.M
)


def _index_prefix(text: str) -> dict[str, Any] | None:
    """The top-level keys before the first table; None when that prefix is not TOML alone."""
    import tomllib

    header = TABLE_HEADER.search(text)
    prefix = text[: header.start()] if header else text
    if '"""' not in prefix and "'''" not in prefix:
        lines = SIMPLE_STRING.findall(prefix)
        if len({key for key, _ in lines}) == len(INDEX_KEYS) == len(lines):
            # the three keys as one-line basic strings: parse just those lines
            return tomllib.loads("\n".join(f"{key} = {value}" for key, value in lines))
    try:
        return tomllib.loads(prefix)
    except tomllib.TOMLDecodeError:
        return None


def index_fields(path: Path, raw: bytes | None = None) -> dict[str, str] | None:
    """Title, level and duration of a class.toml or part.toml for the index: no validation.

    Only the top-level keys before the first table are read (where these three live), so a
    course of a thousand classes lists quickly; the whole file is parsed when that prefix does
    not stand alone. {} when the file does not exist; None when it is broken. `raw` is the
    file's bytes when the caller has read them already.
    """
    try:
        text = (path.read_bytes() if raw is None else raw).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError):
        return None
    data = _index_prefix(text)
    if data is None:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
    return {k: data[k] for k in INDEX_KEYS if isinstance(data.get(k), str) and data[k].strip()}


def index_plan(path: Path) -> list[tuple[int, str]] | None:
    """The plan of a part.toml for the index, as (number, title) of its well-formed entries,
    without validation; None when the file is missing or broken."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    plan = data.get("plan")
    if not isinstance(plan, list):
        return None
    return [
        (e["numero"], str(e.get("titulo", "")))
        for e in plan
        if isinstance(e, dict) and isinstance(e.get("numero"), int)
    ]


def lab_decimals(lab_dir: Path) -> int:
    """The `decimales` of the class beside a lab (for `python lab.py`), its class.toml checked as
    `run` checks it; the default for a lab outside a course folder or without class.toml."""
    meta = lab_dir / "class.toml"
    number = lab_dir.name[:3]
    if not (number.isdigit() and lab_dir.name[3:4] == "-" and meta.exists()):
        return DEFAULT_DECIMALS
    root = lab_dir.parent.parent.parent
    schema_file = root / "schemas" / f"{lab_dir.name}.schema.json"
    data = require(class_problems(root, meta, int(number), lab_dir.name, schema_file))
    return int(data.get("decimales", DEFAULT_DECIMALS))
