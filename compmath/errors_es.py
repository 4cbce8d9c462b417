"""What tomllib, json and Python's parser report, in Spanish: the cause, where, and the line.

Translated from the exception's fields (`msg`, `lineno`, `colno`, `offset`, `text`); tomllib
before Python 3.14 has no fields, so its message is split into cause and position as tomllib
writes it. A cause with no known translation keeps Python's words after a Spanish lead-in.
Kept free of heavy imports: the lab's process uses it for a syntax error.
"""

from __future__ import annotations

import re
from typing import NamedTuple

TOML_CAUSES = {
    "Invalid statement": "la línea no es ni «clave = valor» ni una cabecera [tabla]",
    "Expected '=' after a key in a key/value pair": "falta «=» después de la clave",
    "Invalid value": "valor no válido (¿un texto sin comillas?)",
    "Unterminated string": "texto sin cerrar: falta la comilla de cierre",
    "Cannot overwrite a value": "la clave ya tiene un valor: está repetida",
    "Expected ']' at the end of a table declaration": "falta «]» al final de la cabecera [tabla]",
    "Expected ']]' at the end of an array declaration": (
        "falta «]]» al final de la cabecera [[lista]]"
    ),
    "Invalid initial character for a key part": "una clave no puede empezar con este carácter",
    "Unclosed array": "lista sin cerrar: falta «]»",
    "Unclosed inline table": "tabla en línea sin cerrar: falta «}»",
    "Unescaped '\\' in a string": "barra invertida sin escapar en un texto (escribe \\\\)",
    "Escaped character is not a Unicode scalar value": "el carácter escapado no existe en Unicode",
    "Invalid hex value": "valor hexadecimal no válido",
    "Invalid date or datetime": "fecha u hora no válida",
    "Expected newline or end of document after a statement": (
        "después de un valor solo puede venir el fin de la línea (¿dos valores en una línea?)"
    ),
}
TOML_PATTERNS = (
    (r"Illegal character '\\n'", "salto de línea dentro de un texto: falta la comilla de cierre"),
    (r"Illegal character (.+)", "carácter no permitido {0}"),
    (r"Found invalid character (.+)", "carácter no válido {0}"),
    (r"Cannot declare (.+) twice", "{0} está declarada dos veces"),
    (r"Cannot mutate immutable namespace (.+)", "la tabla {0} ya está cerrada: no se amplía"),
    (r"Cannot redefine namespace (.+)", "la tabla {0} ya está definida"),
    (r"Duplicate inline table key (.+)", "clave repetida en la tabla en línea: {0}"),
    (r"Expected (.+)", "se esperaba {0}"),
)
JSON_CAUSES = {
    "Expecting value": "se esperaba un valor (un número, un texto entre comillas, [ o {)",
    "Expecting property name enclosed in double quotes": (
        "se esperaba el nombre de una clave entre comillas dobles"
    ),
    "Expecting ',' delimiter": "falta una coma «,» entre dos elementos",
    "Expecting ':' delimiter": "falta «:» entre la clave y su valor",
    "Extra data": "sobra texto después del valor JSON",
    "Unterminated string starting at": "texto sin cerrar: falta la comilla de cierre",
    "Invalid control character at": "carácter de control dentro de un texto (escríbelo escapado)",
    "Invalid \\escape": "secuencia de escape no válida",
    "Invalid \\uXXXX escape": "escape \\uXXXX no válido",
    "Illegal trailing comma before end of object": "coma sobrante antes de «}»",
    "Illegal trailing comma before end of array": "coma sobrante antes de «]»",
}
SYNTAX_CAUSES = {
    "invalid syntax": "sintaxis no válida",
    "invalid syntax. Perhaps you forgot a comma?": "sintaxis no válida: ¿falta una coma?",
    "invalid syntax. Maybe you meant '==' or ':=' instead of '='?": (
        "sintaxis no válida: ¿querías escribir «==» o «:=» en vez de «=»?"
    ),
    "unexpected indent": "sangría inesperada: la línea está más adentro que su bloque",
    "unindent does not match any outer indentation level": (
        "la sangría no coincide con la de ningún bloque exterior"
    ),
    "expected an indented block": "falta el bloque sangrado",
    "inconsistent use of tabs and spaces in indentation": (
        "la sangría mezcla tabuladores y espacios"
    ),
    "invalid decimal literal": "número mal escrito",
    "unexpected EOF while parsing": "el archivo termina antes de cerrar la instrucción",
    "EOL while scanning string literal": "texto sin cerrar: falta la comilla de cierre",
    "EOF while scanning triple-quoted string literal": "texto entre comillas triples sin cerrar",
    "expected 'except' or 'finally' block": "al «try» le falta su bloque «except» o «finally»",
    "expected 'else' after 'if' expression": "a la expresión «if» le falta su «else»",
    "positional argument follows keyword argument": (
        "un argumento sin nombre va después de uno con nombre"
    ),
    "unexpected character after line continuation character": (
        "carácter inesperado después de la barra invertida de continuación"
    ),
    "leading zeros in decimal integer literals are not permitted; "
    "use an 0o prefix for octal integers": (
        "un entero no empieza con ceros (para un octal, usa el prefijo 0o)"
    ),
    "'return' outside function": "«return» fuera de una función",
    "'yield' outside function": "«yield» fuera de una función",
    "'break' outside loop": "«break» fuera de un bucle",
    "'continue' not properly in loop": "«continue» fuera de un bucle",
    "Missing parentheses in call to 'print'. Did you mean print(...)?": (
        "faltan los paréntesis de print: ¿querías escribir print(...)?"
    ),
}
THINGS = {
    "function call": "una llamada a función",
    "literal": "un literal",
    "expression": "una expresión",
    "comparison": "una comparación",
    "conditional expression": "una expresión condicional",
    "lambda": "una lambda",
    "attribute": "un atributo",
    "subscript": "un índice",
    "True": "True",
    "False": "False",
    "None": "None",
    "function definition": "la definición de la función",
    "class definition": "la definición de la clase",
}
SAME_EQUALS = " here. Maybe you meant '==' instead of '='?"
SYNTAX_PATTERNS = (
    (r"'(.)' was never closed", "«{0}» se abrió y no se cerró nunca"),
    (r"unmatched '(.)'", "«{0}» cierra algo que no se abrió"),
    (
        r"closing parenthesis '(.)' does not match opening parenthesis '(.)' on line (\d+)",
        "«{0}» no cierra el «{1}» abierto en la línea {2}",
    ),
    (
        r"closing parenthesis '(.)' does not match opening parenthesis '(.)'",
        "«{0}» no cierra el «{1}» abierto",
    ),
    (r"expected '(.+)'", "falta «{0}»"),
    (
        r"expected an indented block after '(\w+)' statement on line (\d+)",
        "falta el bloque sangrado después del «{0}» de la línea {1}",
    ),
    (
        r"expected an indented block after (function definition|class definition) on line (\d+)",
        "falta el bloque sangrado después de {0} de la línea {1}",
    ),
    (
        r"unterminated string literal \(detected at line (\d+)\)",
        "texto sin cerrar: falta la comilla de cierre",
    ),
    (
        r"unterminated triple-quoted string literal \(detected at line (\d+)\)",
        "texto entre comillas triples sin cerrar",
    ),
    (r"cannot assign to (.+)", "no se puede asignar a {0}"),
    (r"cannot delete (.+)", "no se puede borrar {0}"),
    (r"invalid character '(.)' \((U\+[0-9A-F]+)\)", "carácter no válido «{0}» ({1})"),
    (r"invalid non-printable character (U\+[0-9A-F]+)", "carácter invisible no válido ({0})"),
    (r"invalid (hexadecimal|octal|binary) literal", "número {0} mal escrito"),
    (r"duplicate argument '(.+)' in function definition", "el argumento «{0}» está repetido"),
)
BASES = {"hexadecimal": "hexadecimal", "octal": "octal", "binary": "binario"}


class Located(NamedTuple):
    """A parse error as data: the cause in Spanish, its line and column (1-based, in
    characters; None when unknown) and the text of that line ("" when unknown)."""

    what: str
    line: int | None = None
    column: int | None = None
    text: str = ""

    def where(self) -> str:
        """`línea 3, columna 5`, `línea 3`, or "" when the position is unknown."""
        if self.line is None:
            return ""
        return f"línea {self.line}" + (f", columna {self.column}" if self.column else "")

    def sentence(self) -> str:
        """The cause and where, on one line: `falta «:» (línea 3, columna 5)`."""
        where = self.where()
        return f"{self.what} ({where})" if where else self.what


def _translate(
    message: str, exact: dict[str, str], patterns: tuple[tuple[str, str], ...], lead: str
) -> str:
    if message in exact:
        return exact[message]
    for pattern, spanish in patterns:
        found = re.fullmatch(pattern, message)
        if found:
            groups = [THINGS.get(g, BASES.get(g, g)) for g in found.groups()]
            return spanish.format(*groups)
    return f"{lead} (Python dice: «{message}»)"


def _line_of(text: str, line: int | None) -> str:
    lines = text.splitlines()
    return lines[line - 1] if line is not None and 0 < line <= len(lines) else ""


def toml_problem(exc: ValueError, text: str) -> Located:
    """A tomllib.TOMLDecodeError of `text` in Spanish."""
    message = getattr(exc, "msg", None)
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    if message is None:  # before Python 3.14: "<cause> (at line L, column C)"
        found = re.fullmatch(r"(.*) \(at (?:line (\d+), column (\d+)|end of document)\)", str(exc))
        message = found.group(1) if found else str(exc)
        if found and found.group(2):
            line, column = int(found.group(2)), int(found.group(3))
        elif found:
            line = max(text.count("\n") + (0 if text.endswith("\n") else 1), 1)
            column = len(_line_of(text, line)) + 1
    what = _translate(message, TOML_CAUSES, TOML_PATTERNS, "no es TOML válido")
    return Located(what, line, column, _line_of(text, line))


def json_problem(exc: ValueError) -> Located:
    """A json.JSONDecodeError in Spanish; at the end of the text, the position is just after
    its last character (where the missing part should have been)."""
    message = getattr(exc, "msg", str(exc))
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    doc: str = getattr(exc, "doc", "") or ""
    body = doc.rstrip()
    if body and getattr(exc, "pos", 0) >= len(body):
        line = body.count("\n") + 1
        column = len(_line_of(body, line)) + 1
    what = _translate(message, JSON_CAUSES, (), "no es JSON válido")
    pos = getattr(exc, "pos", 0)
    if message.startswith("Expecting property name") and doc[pos : pos + 1] == "}":
        what = "coma sobrante antes de «}»"  # what json says of a trailing comma before 3.13
    return Located(what, line, column, _line_of(doc, line))


def syntax_problem(exc: SyntaxError, source: str = "") -> Located:
    """A SyntaxError (IndentationError, TabError) in Spanish; `source` supplies the line
    when the exception carries none."""
    message = exc.msg or ""
    if message.endswith(SAME_EQUALS):
        thing = message.removesuffix(SAME_EQUALS).removeprefix("cannot assign to ")
        what = f"no se puede asignar a {THINGS.get(thing, thing)}: ¿querías escribir «==»?"
    else:
        what = _translate(message, SYNTAX_CAUSES, SYNTAX_PATTERNS, "error de sintaxis")
    text = (exc.text or _line_of(source, exc.lineno)).rstrip("\n")
    column = exc.offset if exc.offset and exc.offset > 0 else None
    return Located(what, exc.lineno, column, text)


GUTTER = re.compile(r" *(\d+) │ (.*)\n *│ ( *)\^")


def from_excerpt(text: str) -> Located | None:
    """The line and column an `excerpt` drawn at full width shows (a lab's process sends its
    syntax error so), to draw it again at the screen's width; None if `text` is not one."""
    found = GUTTER.fullmatch(text.rstrip())
    if found is None:
        return None
    return Located("", int(found.group(1)), len(found.group(3)) + 1, found.group(2))


def _pieces(text: str, room: int) -> list[tuple[int, str]]:
    """`text` cut into pieces of at most `room` characters, after a space when there is one:
    (where each piece starts, the piece)."""
    out: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > room:
        cut = text.rfind(" ", start, start + room) + 1
        cut = cut if cut > start + room // 3 else start + room
        out.append((start, text[start:cut]))
        start = cut
    out.append((start, text[start:]))
    return out


def excerpt(located: Located, width: int | None = None) -> list[str]:
    """The offending line under a numbered gutter and a caret under the column; too wide for
    `width`, the line wraps and the caret goes under the piece that holds the column."""
    if located.line is None or not located.text.strip():
        return []
    gutter = f"{located.line:>5} │ "
    blank = " " * (len(gutter) - 2) + "│ "
    text = located.text.replace("\t", "    ")
    column = located.column or 0
    caret = len(located.text[: max(column - 1, 0)].replace("\t", "    "))
    room = len(text) + 1 if width is None else max(width - len(gutter), 20)
    lines: list[str] = []
    pieces = _pieces(text, room)
    for k, (start, piece) in enumerate(pieces):
        lines.append((gutter if k == 0 else blank) + piece.rstrip())
        last = k == len(pieces) - 1
        if column and start <= caret and (caret < start + len(piece) or last):
            lines.append(blank + " " * (caret - start) + "^")
    return lines
