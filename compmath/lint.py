"""Check the course's integrity (DESIGN §8) and return the problems found, as data."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from typing import Any

from compmath.course import CLASS_DIR, PART_DIR, ClassInfo, Course, PartInfo
from compmath.encode import DEFAULT_DECIMALS, EncodeError, canonical_json
from compmath.errors import CompmathError
from compmath.findings import (
    Findings,
    Problem,
    Schema,
    conforms,
    isbn_ok,
    meta_schema,
    output_schema,
    read_json_into,
    read_toml_into,
    written_plan,
)

__all__ = ["Problem", "lint_course", "written_plan"]

DOI = re.compile(r"^10\.\d{4,9}/\S+$")
TEMP_GLOB = ".*.compmath-tmp"
README_SECTIONS = ("## Desarrollo", "## Ejemplo trabajado")
META_SCHEMAS = ("class.schema.json", "part.schema.json", "report.schema.json")


def lint_part(course: Course, part: PartInfo, schema: Schema | None, found: Findings) -> None:
    """part.toml: present, TOML, valid, its number matching the folder, a plan without repeats."""
    if not part.meta_path.exists():
        found.add(
            part.meta_path,
            "falta part.toml (datos y plan de la parte)",
            "créalo como el de la parte 16, o: "
            f"compmath new NUMERO SLUG --title T --part {part.number}",
        )
        return
    meta = read_toml_into(part.meta_path, found, "revisa el archivo")
    if meta is None:
        return
    conforms(
        schema, meta, part.meta_path, "part.toml", found, "corrígelo según schemas/part.schema.json"
    )
    if meta.get("numero") not in (None, part.number):
        found.add(
            part.meta_path,
            f"numero = {meta['numero']} pero la carpeta es de la parte {part.number}",
            "haz que coincidan",
        )
    plan: list[Any] = meta["plan"] if isinstance(meta.get("plan"), list) else []
    for key in ("numero", "slug"):
        values = [e.get(key) for e in plan if isinstance(e, dict)]
        for value in sorted({v for v in values if values.count(v) > 1}, key=str):
            found.add(part.meta_path, f"el plan repite {key} {value}", "cada clase aparece una vez")


def lint_numbers(course: Course, found: Findings) -> None:
    """No two class folders, and no two parts' plans, share a number."""
    for first, second in course.duplicates:
        found.add(
            second.path,
            f"el número {second.number} ya lo usa {course.rel(first.path)}",
            "renombra una de las carpetas con un número libre",
        )
    owners: dict[Any, list[PartInfo]] = {}
    for part in course.parts:
        for entry in written_plan(part):
            owners.setdefault(entry.get("numero"), []).append(part)
    for number, parts in owners.items():
        if len({p.number for p in parts}) > 1:
            found.add(
                parts[-1].meta_path,
                f"el plan incluye la clase {number}, que ya planifica la parte {parts[0].number}",
                "deja cada número en un solo plan",
            )


def _outputs_match(cls: ClassInfo, lists: dict[str, list[str] | None], found: Findings) -> None:
    named = [(label, names) for label, names in lists.items() if names is not None]
    for (label_a, a), (label_b, b) in pairwise(named):
        if a == b:
            continue
        missing, extra = [n for n in a if n not in b], [n for n in b if n not in a]
        what = (
            f"las salidas de {label_a} y {label_b} difieren"
            + (f"; faltan en {label_b}: {', '.join(missing)}" if missing else "")
            + (f"; sobran en {label_b}: {', '.join(extra)}" if extra else "")
            + ("" if missing or extra else f" en el orden ({', '.join(a)} frente a {', '.join(b)})")
        )
        found.add(
            cls.path,
            what,
            f"la misma lista y el mismo orden en los tres; "
            f"tras cambiar el laboratorio: compmath update {cls.number}",
        )


def lint_meta(cls: ClassInfo, schema: Schema | None, found: Findings) -> dict[str, Any] | None:
    """class.toml: present, TOML, valid, and agreeing with the folder and the part's plan."""
    path = cls.meta_path
    if not path.exists():
        found.add(
            path,
            "falta class.toml (la ficha de la página)",
            "escríbelo según schemas/class.schema.json (compmath new crea uno en cada clase nueva)",
        )
        return None
    meta = read_toml_into(path, found, "revisa el archivo")
    if meta is None:
        return None
    conforms(schema, meta, path, "class.toml", found, "corrígelo según schemas/class.schema.json")
    if meta.get("numero") not in (None, cls.number):
        found.add(
            path, f"numero = {meta['numero']} pero la carpeta es {cls.id}", "haz que coincidan"
        )
    planned = [e for e in written_plan(cls.part) if e.get("numero") == cls.number]
    if not planned:
        found.add(
            cls.path,
            f"la clase {cls.number} no está en el plan de la parte {cls.part.number}",
            f"añade un [[plan]] con numero = {cls.number} a {found.course.rel(cls.part.meta_path)}",
        )
    for entry in planned[:1]:
        for key, label in (("titulo", "título"), ("demo", "demo")):
            if key in entry and key in meta and entry[key] != meta[key]:
                found.add(
                    path,
                    f"el {label} «{meta[key]}» no es el del plan de la parte («{entry[key]}»)",
                    f"usa el mismo en class.toml y en {found.course.rel(cls.part.meta_path)}",
                )
        if entry.get("slug") != cls.slug:
            found.add(
                cls.path,
                f"el plan de la parte llama a la clase {cls.number} «{entry.get('slug')}»",
                "renombra la carpeta o corrige el slug del plan",
            )
    for ref in meta.get("bibliografia", []) if isinstance(meta.get("bibliografia"), list) else []:
        doi, isbn = (ref.get("doi"), ref.get("isbn")) if isinstance(ref, dict) else (None, None)
        if isinstance(doi, str) and not DOI.match(doi):
            found.add(
                path, f"DOI mal formado «{doi}»", "un DOI es 10.NNNN/sufijo, sin https://doi.org/"
            )
        if isinstance(isbn, str) and not isbn_ok(isbn):
            found.add(
                path,
                f"ISBN no válido «{isbn}» (dígito de control)",
                "cópialo de la ficha del libro",
            )
    return meta


def lint_class(
    course: Course, cls: ClassInfo, class_schema: Schema | None, found: Findings
) -> None:
    """Every file of a class, and the agreement between its outputs list, schema and snapshot."""
    if not cls.lab.exists():
        found.add(cls.lab, "falta lab.py", f"créalo, o: compmath new {cls.number} SLUG --title T")
    readme = cls.path / "README.md"
    if not readme.exists():
        found.add(
            readme,
            "falta README.md (la prosa de la página)",
            "escribe ## Desarrollo y ## Ejemplo trabajado",
        )
    else:
        lines = readme.read_text(encoding="utf-8", errors="replace").splitlines()
        for heading in README_SECTIONS:
            if heading not in lines:
                found.add(
                    readme, f"falta la sección «{heading}»", "añádela: compmath show la muestra"
                )
    meta = lint_meta(cls, class_schema, found)
    outputs = meta.get("salidas") if meta else None
    lists: dict[str, Any] = {"class.toml": None, "el esquema": None, "expected.json": None}
    if isinstance(outputs, list):
        lists["class.toml"] = [o.get("nombre") for o in outputs if isinstance(o, dict)]
    schema_path = cls.schema_path(course.root)
    schema = None
    if not schema_path.exists():
        found.add(
            schema_path,
            f"falta el esquema de salidas de {cls.id}",
            "escríbelo como el de la clase 323 (compmath new crea uno en cada clase nueva)",
        )
    elif (loaded := read_json_into(schema_path, found, "corrige el esquema")) is not None:
        schema = output_schema(schema_path, loaded, found)
        if schema is not None:
            lists["el esquema"] = list(schema[1].get("properties", {}))
    regenerate = f"regénérala: compmath update {cls.number}"
    if not cls.snapshot.exists():
        found.add(cls.snapshot, "falta la instantánea", f"escríbela: compmath update {cls.number}")
    elif (snap := read_json_into(cls.snapshot, found, regenerate)) is not None:
        text, data = snap
        if not isinstance(data, dict):
            found.add(cls.snapshot, "no es un objeto JSON", regenerate)
            return
        lists["expected.json"] = list(data)
        decimals = meta.get("decimales", DEFAULT_DECIMALS) if meta else DEFAULT_DECIMALS
        decimals = decimals if isinstance(decimals, int) else DEFAULT_DECIMALS
        try:
            canonical = canonical_json(data, decimals)
        except EncodeError:
            canonical = ""
        if canonical != text:
            found.add(cls.snapshot, "no está en forma canónica (¿editada a mano?)", regenerate)
        conforms(
            schema,
            data,
            cls.snapshot,
            "salida",
            found,
            f"corrige el laboratorio o el esquema y luego: compmath update {cls.number}",
        )
    _outputs_match(cls, lists, found)


def _stray(folder: Path, pattern: re.Pattern[str]) -> bool:
    hidden = folder.name.startswith((".", "_"))
    return folder.is_dir() and not hidden and not pattern.match(folder.name)


def lint_tree(course: Course, found: Findings) -> None:
    """Leftover temporary files, misnamed folders and schemas of classes that do not exist."""
    for folder in (course.root / "classes", course.root / "schemas"):
        for tmp in sorted(folder.rglob(TEMP_GLOB)) if folder.is_dir() else []:
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


def lint_course(course: Course) -> list[Problem]:
    """Every problem of the course, in file order; an empty list means it is in order."""
    found = Findings(course)
    class_schema = meta_schema(course, "class.schema.json", found)
    part_schema = meta_schema(course, "part.schema.json", found)
    for part in course.parts:
        lint_part(course, part, part_schema, found)
    lint_numbers(course, found)
    for part in course.parts:
        for cls in part.classes:
            try:
                lint_class(course, cls, class_schema, found)
            except CompmathError as exc:
                found.add(cls.path, exc.message, exc.hint)
    lint_tree(course, found)
    return list(found)
