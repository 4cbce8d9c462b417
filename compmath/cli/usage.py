"""Spanish wording for the command-line parser's own usage errors."""

from __future__ import annotations

import re
from typing import Any

PATTERNS = [
    (r"No such command '(.+?)'", "no existe la orden «{0}»", "prueba: compmath --help"),
    (r"No such option: (\S+)", "opción desconocida {0}", "prueba: compmath {cmd} --help"),
    (
        r"Missing (?:argument|parameter):? '?([^'.]+)'?",
        "falta el argumento {0}",
        "prueba: compmath {cmd} --help",
    ),
    (
        r"Option '(.+?)' requires an argument",
        "la opción {0} necesita un valor",
        "prueba: compmath {cmd} --help",
    ),
    (
        r"Invalid value for (.+?): (.+)",
        "valor no válido para {0}: {1}",
        "prueba: compmath {cmd} --help",
    ),
    (
        r"Got unexpected extra arguments? \((.+)\)",
        "argumentos de más: {0}",
        "prueba: compmath {cmd} --help",
    ),
]
TRANSLATIONS = [
    (r"'(.*)' is not a valid (?:integer|int)(?: range)?\.", r"«\1» no es un número entero"),
    (r"'(.*)' is not a valid float(?: range)?\.", r"«\1» no es un número real"),
    (r"(.*) is not in the range (.*)\.", r"\1 está fuera del rango \2"),
    (r"'", ""),
]


def spanish_usage_error(exc: Any) -> tuple[str, str]:
    """Return (message, hint) in Spanish for a click usage error."""
    text = str(exc.format_message() if hasattr(exc, "format_message") else exc)
    ctx = getattr(exc, "ctx", None)
    cmd = ctx.info_name if ctx is not None and ctx.parent is not None else ""
    for pattern, message, hint in PATTERNS:
        match = re.search(pattern, text)
        if match:
            groups = list(match.groups())
            for english, spanish in TRANSLATIONS:
                groups = [re.sub(english, spanish, g) for g in groups]
            return message.format(*groups), hint.format(cmd=cmd).replace("compmath  ", "compmath ")
    return f"uso incorrecto: {text}", "prueba: compmath --help"
