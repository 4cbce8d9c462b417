"""The Spanish for what tomllib, json and Python's parser write: exact messages and patterns.

Each pattern's groups are put into its Spanish in order, translated through THINGS and BASES
when they name a kind of expression or of number (errors_es does that).
"""

from __future__ import annotations

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

# What Python and numpy say when a lab raises (the exception's class name stays as it is: it is
# what a student looks up); a message not listed here is shown as Python wrote it.
RUNTIME_CAUSES = {
    "division by zero": "división entre cero",
    "float division by zero": "división entre cero",
    "integer division or modulo by zero": "división entera o resto entre cero",
    "integer modulo by zero": "resto de una división entre cero",
    "list index out of range": "índice fuera de la lista",
    "tuple index out of range": "índice fuera de la tupla",
    "string index out of range": "índice fuera del texto",
    "math domain error": "valor fuera del dominio de la función (¿la raíz o el logaritmo de un "
    "número negativo?)",
    "Singular matrix": "la matriz es singular (no tiene inversa)",
    "Matrix is not positive definite": "la matriz no es definida positiva",
    "negative dimensions are not allowed": "un array no puede tener dimensiones negativas",
}
RUNTIME_PATTERNS = (
    (
        r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)",
        "el índice {0} se sale del eje {1}, de tamaño {2}",
    ),
    (
        r"name '(\w+)' is not defined\. Did you mean: '(\w+)'\?",
        "«{0}» no está definido: ¿querías decir «{1}»?",
    ),
    (r"name '(\w+)' is not defined", "«{0}» no está definido"),
    (
        r"operands could not be broadcast together with shapes (\S+) (\S+) ?",
        "no se pueden operar arrays de formas {0} y {1} (no son compatibles para broadcasting)",
    ),
    (
        r"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
        r"\S+ \(size (\d+) is different from (\d+)\)",
        "matmul: la dimensión interior no coincide ({1} columnas frente a {0} filas)",
    ),
    (
        r"shapes (\S+) and (\S+) not aligned: (\d+) \(dim \d+\) != (\d+) \(dim \d+\)",
        "formas {0} y {1} incompatibles para el producto: {2} ≠ {3}",
    ),
    (
        r"could not broadcast input array from shape (\S+) into shape (\S+)",
        "no se puede copiar un array de forma {0} en uno de forma {1}",
    ),
    (
        r"cannot reshape array of size (\d+) into shape (\S+)",
        "un array de {0} elementos no cabe en la forma {1}",
    ),
    (r"'(\w+)' object is not subscriptable", "un objeto «{0}» no admite índices [ ]"),
    (r"'(\w+)' object is not iterable", "un objeto «{0}» no se puede recorrer"),
    (r"'(\w+)' object is not callable", "un objeto «{0}» no se puede llamar"),
    (r"object of type '(\w+)' has no len\(\)", "un objeto «{0}» no tiene longitud"),
    (
        r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'",
        "no se puede aplicar {0} a «{1}» y «{2}»",
    ),
    (
        r"'([\w.]+)' object has no attribute '(\w+)'\. Did you mean: '(\w+)'\?",
        "un objeto «{0}» no tiene el atributo «{1}»: ¿querías decir «{2}»?",
    ),
    (r"'([\w.]+)' object has no attribute '(\w+)'", "un objeto «{0}» no tiene el atributo «{1}»"),
    (
        r"not enough values to unpack \(expected (\d+), got (\d+)\)",
        "faltan valores para desempaquetar: se esperaban {0} y hay {1}",
    ),
    (
        r"too many values to unpack \(expected (\d+)\)",
        "sobran valores para desempaquetar: se esperaban {0}",
    ),
    (
        r"(\S+)\(\) takes (\d+) positional arguments? but (\d+) (?:was|were) given",
        "a {0}() se le dieron {2} argumentos posicionales y admite {1}",
    ),
    (r"invalid literal for int\(\) with base 10: (.+)", "{0} no es un número entero"),
    (r"could not convert string to float: (.+)", "{0} no es un número real"),
)
