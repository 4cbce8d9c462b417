"""Mechanical checks of what a student reads: numbers that cannot be copied, integer tuples that
read as decimals, capitalised common nouns in titles and claims returned as literals."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

from compmath.authoring.literal_claims import literal_claims
from compmath.course.tree import ClassInfo, Course, PartInfo
from compmath.errors import Problem

# Characters that look like a hyphen, a comma, a point or a digit but are not the ASCII one: inside
# a number they stop it being copied, searched or parsed («1e‑12» with U+2011 is not 1e-12).
LOOKALIKES = (
    "\u00ad\u2010\u2011\u2012\u2043\ufe63\uff0d"  # soft hyphen and hyphen look-alikes
    "\u200b\u200c\u200d\u2060\ufeff"  # zero-width characters
    "\u201a\uff0c\u060c\u2024\uff0e"  # comma and point look-alikes
    "\u041e\u043e\u039f\u03bf"  # Cyrillic and Greek O
)
INSIDE_NUMBER = re.compile(
    rf"\d+(?:[{LOOKALIKES}]+\d+)+|\d+[eE][{LOOKALIKES}\u2212\u2013\u2014]\d+"
)
SPANISH_NAMES = {
    "\u00ad": "guion blando",
    "\u2010": "guion tipográfico",
    "\u2011": "guion no separable",
    "\u2012": "guion de cifra",
    "\u2013": "semirraya",
    "\u2014": "raya",
    "\u2212": "signo menos tipográfico",
    "\u200b": "espacio de ancho cero",
    "\u201a": "comilla baja",
    "\u041e": "O cirílica",
}
FULLWIDTH_DIGIT = re.compile(r"[\uff10-\uff19]")

# With the decimal comma, «(1,1)» reads as the number 1,1 and «[[1,0],[0,1]]» as decimals.
_INT = r"[−-]?\d+"
THREE_OR_MORE = re.compile(rf"[\[(]{_INT}(?:,{_INT}){{2,}}[\])]")
SQUARE_PAIR = re.compile(rf"\[{_INT},{_INT}\]")
ROUND_PAIR = re.compile(rf"\({_INT},{_INT}\)")
VECTOR_NEIGHBOUR = re.compile(r"[·×)\]]")  # what before a pair makes it a vector: 0,5·(2,0)
SEPARATOR = re.compile(r"\s*(?:[,;]|y|e)\s*")  # between pairs of a sequence: (0,1), (2,3)
# Code and TeX are not prose: in TeX «(1,1)» is a pair and a decimal is written 0{,}5.
CODE_AND_MATH = re.compile(r"`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)

# A numeric tuple or matrix in prose: «(0,3; 0,2)», «[[2, 0], [1, 2]]», «(1, −1)».
_ITEM = r"[\s\d,;.−+\-]"
NUMERIC_TUPLE = re.compile(rf"[\[(](?:{_ITEM}|[\[(]{_ITEM}*[\])])*[\])]")
COMMA_SEPARATED = re.compile(r"\d[\])]*\s*,\s+[\[(]*[−+\-]?\d")
DECIMAL_COMMA = re.compile(r"\d,\d")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[¿¡«(A-ZÁÉÍÓÚÑ])")

# Common nouns of the course's titles: lowercase unless they open the title.
COMMON_NOUNS = frozenset(
    """laplaciano laplaciana jacobiano hessiano gradiente atención política políticas grafo grafos
    red redes flujo flujos difusión cota ecuación iteración matriz vector vectores espectro
    autovalor autovalores autovector autovectores máscara máscaras caché cabeza cabezas
    temperatura entropía divergencia tokenización similitud coseno codificación posición
    posiciones muestreo normalización regularización aprendizaje valor juego proceso bloque
    residuales transformada agrupamiento clustering modelo modelos distribución""".split()  # noqa: SIM905
)
TITLE_WORD = re.compile(r"\w+")

TOML_SKIP = {"latex"}  # LaTeX writes decimals as 0{,}5 and tuples its own way


def _lookalikes(text: str) -> Iterator[tuple[int, str]]:
    """(line, message) for each number with a look-alike character inside it."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in INSIDE_NUMBER.finditer(line):
            odd = next(c for c in match.group() if not c.isascii() and not c.isdigit())
            name = SPANISH_NAMES.get(odd, unicodedata.name(odd, "?").lower())
            yield number, f"«{match.group()}» lleva U+{ord(odd):04X} ({name}) dentro de un número"
        for match in FULLWIDTH_DIGIT.finditer(line):
            yield number, f"cifra de ancho completo «{match.group()}» (U+{ord(match.group()):04X})"


def _decimal_tuples(text: str) -> Iterator[str]:
    """Each integer tuple or list written without spaces, which reads as a decimal."""
    text = CODE_AND_MATH.sub(" ", text)
    for match in THREE_OR_MORE.finditer(text):
        yield match.group()
    for match in SQUARE_PAIR.finditer(text):
        yield match.group()
    pairs = list(ROUND_PAIR.finditer(text))
    in_sequence = {
        m.start()
        for a, b in pairwise(pairs)
        if SEPARATOR.fullmatch(text[a.end() : b.start()])
        for m in (a, b)
    }
    for match in pairs:
        previous = text[match.start() - 1 : match.start()]
        if (
            match.start() in in_sequence
            or VECTOR_NEIGHBOUR.fullmatch(previous)
            or text[match.end() :].startswith("·")
        ):
            yield match.group()


def mixed_separators(text: str) -> Iterator[tuple[str, str]]:
    """(tuple with «;», tuple with «, ») for each sentence that writes numeric tuples both ways:
    with the decimal comma, entries are separated by «;» throughout a sentence."""
    for sentence in SENTENCE_END.split(CODE_AND_MATH.sub(" ", text)):
        found = (m.group() for m in NUMERIC_TUPLE.finditer(sentence))
        tuples = [t for t in found if re.search(r"\d", t)]
        semicolon = [t for t in tuples if ";" in t]
        comma = [t for t in tuples if ";" not in t and COMMA_SEPARATED.search(t)]
        if semicolon and comma and any(DECIMAL_COMMA.search(t) for t in semicolon):
            yield semicolon[0], comma[0]


def _readme_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) of a README's prose: fenced code and display math left out."""
    fenced = display = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.count("$$") % 2 == 1:
            display = not display
        elif not (fenced or display):
            yield number, line


def _toml_strings(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(key path, text) of every string in a parsed TOML file, LaTeX fields left out."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in TOML_SKIP:
                yield from _toml_strings(value, f"{path}.{key}" if path else key)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _toml_strings(item, f"{path}[{i}]")
    elif isinstance(data, str):
        yield path, data


def capitalised_nouns(title: str) -> list[str]:
    """The common nouns of a title written with a capital, the opening word apart."""
    words = TITLE_WORD.findall(title)[1:]
    return [w for w in words if w[:1].isupper() and w[1:].islower() and w.lower() in COMMON_NOUNS]


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}  # reported by the metadata checks


class _Report:
    def __init__(self, course: Course) -> None:
        self.course = course
        self.problems: list[Problem] = []

    def add(self, path: Path, what: str, hint: str) -> None:
        self.problems.append(Problem(self.course.rel(path), what, hint))

    def lookalikes(self, path: Path) -> None:
        if path.exists():
            for line, message in _lookalikes(path.read_text(encoding="utf-8", errors="replace")):
                self.add(
                    path,
                    f"línea {line}: {message}",
                    "escríbelo con el carácter ASCII (-, ',', '.' o la cifra)",
                )

    def tuples(self, path: Path, where: str, text: str) -> None:
        found = list(dict.fromkeys(_decimal_tuples(text)))
        if found:
            self.add(
                path,
                f"{where}: {', '.join(f'«{f}»' for f in found)} "
                + ("se lee como un decimal" if len(found) == 1 else "se leen como decimales")
                + " con la coma decimal del curso",
                "separa los elementos con «; » o con coma y espacio: (1; 1), [[1, 0], [0, 1]]",
            )

    def separators(self, path: Path, where: str, text: str) -> None:
        for semicolon, comma in mixed_separators(text):
            self.add(
                path,
                f"{where}: una misma frase separa con «;» ({semicolon}) y con «,» ({comma})",
                "con la coma decimal, separa con «; » los elementos de todas: "
                + comma.replace(", ", "; "),
            )

    def title(self, path: Path, where: str, title: str) -> None:
        for word in capitalised_nouns(title):
            self.add(
                path,
                f"{where}: el título «{title}» escribe «{word}» con mayúscula",
                f"es un nombre común: «{word.lower()}» (y el mismo título en part.toml, "
                "class.toml y README.md)",
            )


def _check_class(cls: ClassInfo, report: _Report) -> None:
    for path in (cls.readme, cls.meta_path, cls.lab):
        report.lookalikes(path)
    if cls.readme.exists():
        for row, line in _readme_lines(cls.readme):
            report.tuples(cls.readme, f"línea {row}", line)
            report.separators(cls.readme, f"línea {row}", line)
            if row == 1 and line.startswith("# "):
                report.title(cls.readme, "línea 1", line.split("—", 1)[-1].strip())
    if cls.meta_path.exists():
        data = _read_toml(cls.meta_path)
        for key, text in _toml_strings(data):
            report.tuples(cls.meta_path, key, text)
            report.separators(cls.meta_path, key, text)
        if isinstance(data.get("titulo"), str):
            report.title(cls.meta_path, "titulo", data["titulo"])
    if cls.lab.exists():
        for output, row, source in literal_claims(cls.lab):
            report.add(
                cls.lab,
                f"línea {row}: la afirmación «{output}» es un valor fijo ({source})",
                "calcúlala a partir de los números del laboratorio: una afirmación se comprueba, "
                "no se escribe",
            )


def content_problems(course: Course) -> list[Problem]:
    """The mechanical content problems of every part and class, in file order."""
    found: list[Problem] = []
    for part in course.parts:
        found += part_content_problems(course, part)
        for cls in part.classes:
            found += class_content_problems(course, cls)
    return found


def part_content_problems(course: Course, part: PartInfo) -> list[Problem]:
    """The mechanical content problems of a part's part.toml."""
    report = _Report(course)
    if part.meta_path.exists():
        report.lookalikes(part.meta_path)
        data = _read_toml(part.meta_path)
        for key, text in _toml_strings(data):
            report.tuples(part.meta_path, key, text)
        for i, entry in enumerate(data.get("plan", [])):
            if isinstance(entry, dict) and isinstance(entry.get("titulo"), str):
                report.title(part.meta_path, f"plan[{i}].titulo", entry["titulo"])
    return report.problems


def class_content_problems(course: Course, cls: ClassInfo) -> list[Problem]:
    """The mechanical content problems of one class's files."""
    report = _Report(course)
    _check_class(cls, report)
    return report.problems
