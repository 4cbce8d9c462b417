"""`compmath new`: scaffold a class (lab, metadata, page, schema) and add it to its part's plan."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from compmath.atomic import WriteError, write_atomic
from compmath.course.records import Link
from compmath.course.tree import Course, PartInfo
from compmath.errors import CompmathError, os_reason
from compmath.errors_es import toml_problem

NUMBER = re.compile(r"^\d{3}$")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PLAN_HEADER = re.compile(r"^\s*\[\[\s*plan\s*\]\]\s*(#.*)?$")
# The placeholder lab's outputs, in its order: (name, description, JSON Schema).
OUTPUTS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "n",
        "El tamaño del ejemplo: se suman los cuadrados de 1 a $n$.",
        {"type": "integer", "minimum": 1},
    ),
    (
        "suma_de_cuadrados",
        "$\\sum_{k=1}^{n} k^2$, calculada sumando.",
        {"type": "number", "minimum": 1},
    ),
    (
        "coincide_con_la_formula_cerrada",
        "Verdadero si la suma coincide con $n(n+1)(2n+1)/6$.",
        {"type": "boolean"},
    ),
]
LAB = '''"""{title}.

    s(n) = Σ_{{k=1}}^{{n}} k² = n(n+1)(2n+1)/6

Plantilla: sustituye este cálculo de ejemplo por el de la clase y deja aquí su fórmula.

Referencia: autores, «título», publicación, año (DOI).
"""

import numpy as np

N = 4  # tamaño del ejemplo fijo, pequeño para verlo entero


def suma_de_cuadrados(n: int) -> float:
    """Σ k² para k = 1..n."""
    # La región marcada es el hueco que el modo práctica deja al estudiante (ver [[huecos]]).
    ### BEGIN SOLUTION
    k = np.arange(1, n + 1)  # (n,)
    s = float(np.sum(k**2))
    ### END SOLUTION
    return s


def run(n: int = N) -> dict:
    # Las salidas, en el orden de class.toml y del esquema.
    s = suma_de_cuadrados(n)
    cerrada = n * (n + 1) * (2 * n + 1) / 6  # la fórmula cerrada, para la afirmación
    return {{
        "n": n,
        "suma_de_cuadrados": s,
        "coincide_con_la_formula_cerrada": bool(np.isclose(s, cerrada)),
    }}


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo{install}"
        raise SystemExit(aviso) from None

    main(run)
'''
README = """# {number} — {title}

## Desarrollo

Por escribir: la idea de la clase con las palabras del curso, de la intuición a la fórmula.

## Ejemplo trabajado

Por escribir: el ejemplo fijo del laboratorio, paso a paso, con los números que imprime.
"""


def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes)."""
    return json.dumps(text, ensure_ascii=False)


def class_toml(number: int, title: str, demo: str, part_meta: dict[str, Any]) -> str:
    """A class.toml that validates against the class contract (compmath/contracts)."""
    lines = [
        (
            f"# Ficha de la clase {number}: los campos estructurados de su página "
            "(ver class.schema.json de compmath)."
        ),
        f"numero = {number}",
        f"titulo = {toml_string(title)}",
    ]
    for key in ("nivel", "duracion"):
        if isinstance(part_meta.get(key), str):
            lines.append(f"{key} = {toml_string(part_meta[key])}")
    lines += [
        f'demo = "{demo}"',
        'lema = "Por escribir: la idea de la clase en una frase."',
        'que_calcula = "Por escribir: qué calcula el laboratorio y con qué ejemplo fijo."',
        'errores_comunes = ["Por escribir: un error frecuente y cómo evitarlo."]',
        'donde_se_usa = "Por escribir: dónde aparece esta idea en la práctica."',
        "# Sustituye la lista vacía por bloques [[bibliografia]] (autores, titulo,",
        "# publicacion, anio, doi) al final del archivo.",
        "bibliografia = []",
    ]
    lines += [
        "",
        "[[formulas]]",
        'texto = "s(n) = Σ_{k=1}^{n} k² = n(n+1)(2n+1)/6"',
        "latex = 's(n) = \\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}'",
    ]
    lines += [
        "",
        "# El hueco del modo práctica: la región ### BEGIN/END SOLUTION de lab.py.",
        "[[huecos]]",
        'tarea = "Calcula en `s` la suma de los cuadrados de 1 a $n$, como número real."',
        'salidas = ["suma_de_cuadrados", "coincide_con_la_formula_cerrada"]',
        "pistas = [",
        '  "Los sumandos son $k^2$ para $k$ de 1 a $n$.",',
        '  "Los $k$ son los enteros de 1 a $n$ (`np.arange`): elévalos al cuadrado y súmalos.",',
        "]",
        "# Los errores_comunes que se cometen en este hueco, escritos en su solución (lint",
        "# comprueba que alguna variante los rechaza); los que no caben en ningún hueco van en",
        "# [practica] sin_mutante, con la razón.",
        'mutantes = [{ error = 1, codigo = "s = float(np.sum(np.arange(1, n + 1)))" }]',
        "",
        "# Las variantes ocultas del modo práctica: cada hueco se comprueba también con estos",
        "# parámetros de run(), para que un hueco con los números copiados no pase.",
        "[practica]",
        "variantes = [{ n = 7 }, { n = 2 }]",
    ]
    for name, description, _ in OUTPUTS:
        lines += [
            "",
            "[[salidas]]",
            f'nombre = "{name}"',
            f"descripcion = {toml_string(description)}",
        ]
    return "\n".join(lines) + "\n"


def output_schema(class_id: str, number: int, title: str) -> str:
    """The outputs contract of the placeholder lab."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://compmath.example/schemas/{class_id}.schema.json",
        "title": f"Salidas del laboratorio {number} — {title}",
        "type": "object",
        "additionalProperties": False,
        "required": [name for name, _, _ in OUTPUTS],
        "properties": {name: rule for name, _, rule in OUTPUTS},
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def plan_entry(number: int, slug: str, title: str, demo: str) -> str:
    return (
        f"[[plan]]\nnumero = {number}\nslug = {toml_string(slug)}\n"
        f"titulo = {toml_string(title)}\ndemo = {toml_string(demo)}\n"
    )


def _inserted(text: str, plan: list[Any], number: int, entry: str) -> str:
    """The text with `entry` before the first plan entry of a higher number, else at the end."""
    later = [
        i for i, e in enumerate(plan) if isinstance(e.get("numero"), int) and e["numero"] > number
    ]
    lines = text.splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if PLAN_HEADER.match(line)]
    if not later or len(headers) != len(plan):
        return text.rstrip("\n") + "\n\n" + entry
    at = headers[later[0]]
    while at > 0 and lines[at - 1].lstrip().startswith("#"):
        at -= 1  # keep the comments above the next entry with that entry
    return "".join(lines[:at]) + entry + "\n" + "".join(lines[at:])


def with_plan_entry(text: str, number: int, entry: str) -> str:
    """part.toml's text with a [[plan]] entry added in number order, comments kept."""
    old = tomllib.loads(text)
    plan = old.get("plan", [])
    new = _inserted(text, plan, number, entry)
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        parsed = {}
    numbers = [e.get("numero") for e in parsed.get("plan", [])]
    rest_kept = {k: v for k, v in parsed.items() if k != "plan"} == {
        k: v for k, v in old.items() if k != "plan"
    }
    plan_kept = [n for n in numbers if n != number] == [e.get("numero") for e in plan]
    if not (rest_kept and plan_kept and number in numbers):
        raise CompmathError(
            "no se puede añadir la clase al plan de part.toml sin alterarlo",
            f"añade a mano al final de part.toml:\n{entry}",
        )
    return new


def written_plan(part: PartInfo) -> tuple[Link, ...]:
    """The part's plan as part.toml writes it (nothing when the file is missing or broken)."""
    try:
        return part.meta.plan
    except CompmathError:
        return ()


def choose_part(course: Course, number: int, wanted: int | None) -> PartInfo:
    """The part the class goes into (a new one when part `wanted` does not exist yet)."""
    if wanted is not None:
        found = next((p for p in course.parts if p.number == wanted), None)
        folder = course.root / "classes" / f"part-{wanted:02d}-parte-{wanted}"
        return found or PartInfo(wanted, folder)
    for part in course.parts:
        if number in [e.number for e in written_plan(part)]:
            return part
    spans = {
        p: [e.number for e in written_plan(p)] + [c.number for c in p.classes] for p in course.parts
    }
    for part, numbers in spans.items():
        if numbers and min(numbers) <= number <= max(numbers):
            return part
    following = [
        p
        for p, numbers in spans.items()
        if numbers and number == max(numbers) + 1 and _after(p) != number
    ]
    if len(following) == 1:
        return following[0]
    raise CompmathError(
        f"no se sabe a qué parte pertenece la clase {number}",
        f"indícala: compmath new {number} SLUG --title T --part N",
    )


def _after(part: PartInfo) -> int | None:
    try:
        after = part.meta.after
    except CompmathError:
        return None
    return after.number if after else None


def _check_free(course: Course, number: int, slug: str, title: str, part: PartInfo) -> None:
    for cls in course.classes:
        if cls.number == number:
            raise CompmathError(
                f"el número {number} ya lo usa {course.rel(cls.path)}",
                "elige un número libre (compmath list muestra los usados)",
            )
    for other in course.parts:
        for entry in written_plan(other):
            if entry.number != number:
                continue
            if other is not part:
                raise CompmathError(
                    f"la clase {number} está en el plan de la parte {other.number}",
                    f"usa --part {other.number} o elige otro número",
                )
            if entry.slug != slug or entry.title != title:
                raise CompmathError(
                    f"el plan de la parte {other.number} ya reserva la clase {number} como "
                    f"«{entry.slug}» ({entry.title})",
                    f"usa esos datos: compmath new {number} {entry.slug} "
                    f"--title {toml_string(entry.title)}",
                )


def scaffold_class(
    course: Course, number_text: str, slug: str, title: str, part_number: int | None
) -> list[Path]:
    """Create the class's files (and its part if needed) and plan it; return what was written."""
    if not NUMBER.match(number_text):
        raise CompmathError(
            f"el número «{number_text}» no tiene tres cifras",
            'ejemplo: compmath new 341 mi-clase --title "Mi clase"',
        )
    if not SLUG.match(slug):
        raise CompmathError(
            f"el slug «{slug}» solo admite minúsculas a-z, cifras y guiones",
            'ejemplo: compmath new 341 mi-clase --title "Mi clase"',
        )
    title = title.strip()
    if not title or "\n" in title:
        raise CompmathError(
            "el título está vacío o tiene saltos de línea", 'ejemplo: --title "Mi clase"'
        )
    number = int(number_text)
    part = choose_part(course, number, part_number)
    _check_free(course, number, slug, title, part)
    class_id = f"{number}-{slug}"
    demo = slug.replace("-", "_") if slug[0].isalpha() else "demo_" + slug.replace("-", "_")
    schema = course.root / "schemas" / f"{class_id}.schema.json"
    if schema.exists():
        raise CompmathError(f"ya existe {course.rel(schema)}", "bórralo o elige otro número")
    folder = part.path / class_id
    if folder.exists():
        raise CompmathError(f"ya existe {course.rel(folder)}", "no se sobrescribe una clase")
    try:
        part_text = (
            part.meta_path.read_text(encoding="utf-8")
            if part.meta_path.exists()
            else new_part_toml(part.number)
        )
        part_meta = tomllib.loads(part_text)
    except (OSError, UnicodeDecodeError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else "no está en UTF-8"
        raise CompmathError(
            f"no se puede leer {course.rel(part.meta_path)}: {why}",
            "corrígelo antes de añadir clases (compmath lint)",
        ) from None
    except tomllib.TOMLDecodeError as exc:
        located = toml_problem(exc, part_text)
        raise CompmathError(
            f"{course.rel(part.meta_path)} no es TOML válido: {located.sentence()}",
            "corrígelo antes de añadir clases (compmath lint)",
            located=located,
        ) from None
    if number not in [e.get("numero") for e in part_meta.get("plan", []) if isinstance(e, dict)]:
        part_text = with_plan_entry(part_text, number, plan_entry(number, slug, title, demo))
    files = {
        folder / "lab.py": LAB.format(title=title, install=_install_hint(course)),
        folder / "class.toml": class_toml(number, title, demo, part_meta),
        folder / "README.md": README.format(number=number, title=title),
        schema: output_schema(class_id, number, title),
        part.meta_path: part_text,
    }
    again = f"compmath new {number} {slug} --title {toml_string(title)} --part {part.number}"
    return _create(course, files, [folder, schema.parent], again)


def _create(course: Course, files: dict[Path, str], folders: list[Path], again: str) -> list[Path]:
    """Make the folders and write the files in order (the part's plan last); return what was
    written. On a failure, remove what this call made, so the course is as it was, and raise."""
    made: list[Path] = []
    new: list[Path] = []
    changed: list[Path] = []
    try:
        for folder in folders:
            for missing in [*reversed(folder.parents), folder]:
                if not missing.exists():
                    missing.mkdir()
                    made.append(missing)
        for path, text in files.items():
            existed = path.exists()
            if write_atomic(path, text):
                changed.append(path)
                if not existed:
                    new.append(path)
    except (OSError, WriteError) as exc:
        for undo in [*new, *reversed(made)]:
            try:
                undo.rmdir() if undo.is_dir() else undo.unlink()
            except OSError:
                pass
        if isinstance(exc, WriteError):
            where, reason = exc.path, exc.reason
        else:
            where, reason = Path(exc.filename or folders[0]), os_reason(exc)
        raise CompmathError(
            f"no se puede crear {course.rel(where)}: {reason}",
            f"haz que se pueda escribir ahí y repite: {again}",
        ) from None
    return changed


def _install_hint(course: Course) -> str:
    """How the course installs compmath, as its labs say it: a course made by init pins it in
    requirements.txt; this repository is the package itself."""
    if (course.root / "requirements.txt").exists():
        return ": pip install -r requirements.txt"
    return " en la raíz del curso: pip install ."


def new_part_toml(number: int) -> str:
    """A part.toml for a new part: valid, with its prose still to write."""
    return (
        f"# Parte {number}: sus datos y su plan de clases "
        "(el índice y los enlaces se derivan de aquí).\n"
        f"numero = {number}\n"
        f'titulo = "Parte {number}"\n'
        'idea_rectora = "Por escribir: la idea que recorre la parte."\n'
        'error_a_evitar = "Por escribir: el error que la parte enseña a evitar."\n'
        'conexion_con_ia = "Por escribir: cómo se conecta la parte con la IA."\n'
    )
