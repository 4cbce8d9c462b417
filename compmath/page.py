"""Assemble a class page (the seed page's sections, in order) as Markdown text; no Rich here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from compmath.course import ClassInfo, Course, position_in_part
from compmath.params import SPANISH_TYPES, ParamSpec, specs_from_source
from compmath.snapshot import read_snapshot

FILE_ROLES = {
    "lab.py": "el laboratorio",
    "class.toml": "la ficha de la página",
    "README.md": "la prosa: Desarrollo y Ejemplo trabajado",
    "expected.json": "la instantánea de la salida",
}
MAX_ITEMS, SHOWN_ITEMS, MAX_TEXT = 8, 6, 80
Link = dict[str, Any] | None


def escape(text: str) -> str:
    """Escape Markdown's inline markup in course data, so a `*` stays a `*`."""
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", str(text))


def readme_sections(path: Path) -> dict[str, str]:
    """The `## Heading` sections of a class README.md, by heading (empty if there is no file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        elif line.startswith("# "):
            current = None
        elif current is not None:
            current.append(line)
    return {name: "\n".join(lines).strip() for name, lines in sections.items()}


def _scalar(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 2] + '…"'


def abridge(value: Any, indent: int = 0) -> str:
    """A value as indented JSON, with long lists and dicts cut (`… (N en total)`)."""
    pad = "  " * (indent + 1)
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        items = [_scalar(v) for v in value[: SHOWN_ITEMS if len(value) > MAX_ITEMS else None]]
        if len(value) > MAX_ITEMS:
            items.append(f"… ({len(value)} en total)")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, list):
        cut = len(value) > MAX_ITEMS
        lines = [pad + abridge(v, indent + 1) for v in value[: SHOWN_ITEMS if cut else None]]
        if cut:
            lines.append(f"{pad}… ({len(value)} elementos en total)")
        return "[\n" + ",\n".join(lines) + "\n" + "  " * indent + "]"
    if isinstance(value, dict) and value:
        keys = list(value)
        cut = indent > 0 and len(keys) > MAX_ITEMS
        lines = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {abridge(value[k], indent + 1)}"
            for k in keys[: SHOWN_ITEMS if cut else None]
        ]
        if cut:
            lines.append(f"{pad}… ({len(keys)} claves en total)")
        return "{\n" + ",\n".join(lines) + "\n" + "  " * indent + "}"
    return _scalar(value)


def example_value(spec: ParamSpec) -> str:
    """A value worth trying with `--set` for one parameter."""
    default = spec.default
    if spec.type_name == "bool":
        return "false" if default else "true"
    if spec.type_name == "int" and isinstance(default, int):
        return str(default * 2 if default else 1)
    if spec.type_name == "float" and isinstance(default, (int, float)):
        return repr(float(default) * 2 if default else 1.0)
    return str(default) if default is not None else "VALOR"


def _adjacent(course: Course, part_number: int, last: bool) -> dict[str, Any] | None:
    """The last (or first) planned class of another part of the course, if it has a plan."""
    for part in course.parts:
        if part.number == part_number and isinstance(part.meta.get("plan"), list) and part.plan:
            return part.plan[-1 if last else 0]
    return None


def neighbours(course: Course, cls: ClassInfo) -> tuple[Link, Link]:
    """The previous and next class ({numero, titulo}) from the part's plan and its ends.

    At a part's ends, the neighbouring part's plan wins when that part is in the course;
    otherwise part.toml's `anterior` / `siguiente` name the classes beyond it.
    """
    plan = cls.part.plan
    numbers = [entry.get("numero") for entry in plan]
    meta = cls.part.meta
    before = _adjacent(course, cls.part.number - 1, last=True) or meta.get("anterior")
    after = _adjacent(course, cls.part.number + 1, last=False) or meta.get("siguiente")
    if cls.number in numbers:
        i = numbers.index(cls.number)
        before = plan[i - 1] if i > 0 else before
        after = plan[i + 1] if i + 1 < len(plan) else after
    return (
        before if isinstance(before, dict) else None,
        after if isinstance(after, dict) else None,
    )


def _link(entry: dict[str, Any] | None, arrow: str) -> str:
    if entry is None:
        return "Inicio" if arrow == "←" else "fin del curso"
    label = f"{entry.get('numero')} {escape(entry.get('titulo', ''))}".strip()
    return f"← {label}" if arrow == "←" else f"{label} →"


def as_list(value: Any) -> list[Any]:
    """A metadata field that should be a list, as one even when a hand edit broke it."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _bullets(items: list[Any]) -> list[str]:
    return [f"- {escape(item)}" for item in items] or ["(por escribir)"]


def reference(entry: dict[str, Any]) -> str:
    """One bibliography line: authors, *title*, venue, year — note · DOI / ISBN."""
    line = f"{escape(entry.get('autores', ''))} *{escape(entry.get('titulo', ''))}*"
    for key in ("publicacion", "anio"):
        if entry.get(key):
            line += f", {escape(entry[key])}"
    if entry.get("nota"):
        line += f" — {escape(entry['nota'])}"
    if entry.get("doi"):
        line += f" · DOI {escape(entry['doi'])}"
    if entry.get("isbn"):
        line += f" · ISBN {escape(entry['isbn'])}"
    if entry.get("sin_confirmar"):
        line += " · **sin confirmar**"
    return line


def _parameters(course: Course, cls: ClassInfo) -> list[str]:
    specs = specs_from_source(cls.lab) if cls.lab.exists() else None
    if specs is None:
        return ["No se pueden leer los parámetros de run() (¿falta lab.py?)."]
    if not specs:
        return ["run() no tiene parámetros: cada ejecución es la de la instantánea."]
    lines = ["Parámetros de run() (cámbialos con `--set NOMBRE=VALOR`):", ""]
    for spec in specs:
        kind = SPANISH_TYPES.get(spec.type_name, "sin tipo")
        lines.append(
            f"- `{spec.name}` ({spec.type_name or '?'}, {kind}) = "
            f"`{json.dumps(spec.default, ensure_ascii=False)}`"
        )
    first = next((s for s in specs if s.type_name in ("int", "float")), specs[0])
    lines += ["", f"Ejemplo: `compmath run {cls.number} --set {first.name}={example_value(first)}`"]
    return lines


def _outputs(cls: ClassInfo, snapshot: dict[str, Any] | None) -> list[tuple[str, str]]:
    listed = [o for o in as_list(cls.meta.get("salidas")) if isinstance(o, dict)]
    if listed:
        return [(str(o.get("nombre", "?")), str(o.get("descripcion", ""))) for o in listed]
    return [(key, "") for key in (snapshot or {})]


def _files(course: Course, cls: ClassInfo) -> list[str]:
    lines = [f"En `{course.rel(cls.path)}/`:", ""]
    for path in sorted(
        p for p in cls.path.iterdir() if not p.name.startswith(".") and p.name != "__pycache__"
    ):
        role = FILE_ROLES.get(path.name)
        lines.append(f"- `{path.name}`" + (f": {role}" if role else ""))
    schema = cls.schema_path(course.root)
    state = "el contrato de las salidas" if schema.exists() else "falta (compmath lint lo señala)"
    lines.append(f"- `{course.rel(schema)}`: {state}")
    return lines


def class_page(course: Course, cls: ClassInfo) -> str:
    """The page of a class as Markdown, with the seed page's sections in its order."""
    meta, part = cls.meta, cls.part
    pmeta = part.meta
    k, n = position_in_part(cls)
    found = read_snapshot(cls.snapshot, str(cls.number))
    snapshot = found[1] if found else None
    prose = readme_sections(cls.path / "README.md")
    pending = "(por escribir en README.md)"
    level = meta.get("nivel", pmeta.get("nivel"))
    duration = meta.get("duracion", pmeta.get("duracion"))
    facts = [
        str(level) if level else "",
        f"clase {k} de {n}",
        str(duration) if duration else "",
        f"demostración `{meta['demo']}`" if meta.get("demo") else "",
    ]
    outputs = _outputs(cls, snapshot)
    lines = [
        f"Inicio · Parte {part.number} — {escape(part.title)}",
        "",
        f"# {cls.number} — {escape(cls.title)}",
        "",
        " · ".join(f for f in facts if f),
        "",
    ]
    if meta.get("lema"):
        lines += [f"*{escape(meta['lema'])}*", ""]
    formulas = [
        str(f.get("texto", "")) if isinstance(f, dict) else str(f)
        for f in as_list(meta.get("formulas"))
    ] or ["(por escribir)"]
    lines += [
        "## Fórmulas",
        "",
        "```",
        *formulas,
        "```",
        "",
        "## Desarrollo",
        "",
        prose.get("Desarrollo") or pending,
        "",
        "## Ejemplo trabajado",
        "",
        prose.get("Ejemplo trabajado") or pending,
        "",
        "## Qué calcula el laboratorio",
        "",
        escape(meta.get("que_calcula", pending)),
        "",
        "```",
        f"python {course.rel(cls.lab)}",
        f"compmath run {cls.number}",
        "```",
        "",
        *_parameters(course, cls),
        "",
        f"## Salidas del laboratorio ({len(outputs)})",
        "",
    ]
    lines += [
        f"- **{escape(name)}**" + (f": {escape(text)}" if text else "") for name, text in outputs
    ] + [""]
    lines += ["## Muestra de la ejecución", ""]
    if snapshot is None:
        lines += [f"Aún no hay instantánea: `compmath update {cls.number}` la escribe.", ""]
    else:
        lines += [
            "Instantánea `expected.json`, abreviada:",
            "",
            "```json",
            abridge(snapshot),
            "```",
            "",
        ]
    lines += [
        "## Errores comunes",
        "",
        *_bullets(as_list(meta.get("errores_comunes"))),
        "",
        "## Dónde se usa",
        "",
        escape(meta.get("donde_se_usa", "(por escribir)")),
        "",
        "## Idea rectora de la parte",
        "",
        escape(pmeta.get("idea_rectora", "—")),
        "",
        "## Error a evitar",
        "",
        escape(pmeta.get("error_a_evitar", "—")),
        "",
        "## Conexión con IA",
        "",
        escape(pmeta.get("conexion_con_ia", "—")),
        "",
        "## Bibliografía de la clase",
        "",
    ]
    references = [e for e in as_list(meta.get("bibliografia")) if isinstance(e, dict)]
    lines += [f"- {reference(e)}" for e in references]
    lines += [
        "" if references else "(sin referencias)",
        "",
        "## Archivos de la clase",
        "",
        *_files(course, cls),
        "",
    ]
    prev, nxt = neighbours(course, cls)
    lines += ["---", "", f"{_link(prev, '←')} · {_link(nxt, '→')}"]
    return "\n".join(lines) + "\n"


def markdown_to_plain(markdown: str) -> str:
    """Plain text for pipes and NO_COLOR: the page's Markdown without its markup."""
    out: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            out.append("    " + line if line else "")
            continue
        if line == "---":
            continue
        line = re.sub(r"^#{1,6} ", "", line)
        line = re.sub(r"\*\*(.+?)\*\*", r"\1", line)
        line = re.sub(r"(?<![\\\w])\*(?!\s)(.+?)(?<![\s\\])\*", r"\1", line)
        line = re.sub(r"`([^`]*)`", r"\1", line)
        line = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1 (\2)", line)
        out.append(re.sub(r"\\([\\`*_\[\]<>#])", r"\1", line))
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return text + "\n"
