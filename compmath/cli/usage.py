"""Spanish wording for the command-line parser's own usage errors.

Click's errors carry what they are about (the parameter, the unknown option, the close names);
the message is built here from those, and only the few texts with no structure behind them
(type conversions, extra arguments) are recognised by their English words.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, NamedTuple

from compmath.cli.help import param_label, range_text

# Options of the app itself, which go before the command (`compmath --no-color run 323`).
APP_OPTIONS = ("--color", "--no-color", "--version", "--install-completion", "--show-completion")
CONVERSIONS = [
    (r"^'?(.*?)'? is not a valid (?:integer|int)(?: range)?\.?$", "«{0}» no es un número entero"),
    (r"^'?(.*?)'? is not a valid float(?: range)?\.?$", "«{0}» no es un número real"),
    (r"^'?(.*?)'? is not a valid boolean\.?$", "«{0}» no es un sí o un no"),
    (r"^'?(.*?)'? is not one of (.*?)\.?$", "«{0}» no es ninguno de {1}"),
    (r"^'?(.*?)'? is not '(.*?)'\.?$", "«{0}» no es {1}"),
    (r"^(?:File|Directory|Path) '(.*?)' does not exist\.?$", "no existe «{0}»"),
]


class UsageText(NamedTuple):
    """A usage error in Spanish: the message, the closest names, the next command."""

    message: str
    suggestions: list[str]
    hint: str


def _kind(exc: Any) -> str:
    """The name of the parser's error class (Click's, vendored by Typer or not)."""
    names = [cls.__name__ for cls in type(exc).__mro__]
    for name in ("MissingParameter", "NoSuchOption", "BadOptionUsage", "BadParameter"):
        if name in names:
            return name
    return names[0]


def _value_problem(exc: Any) -> str:
    """What was wrong with a value, in Spanish (a range in words, a type by its name)."""
    text = str(getattr(exc, "message", "") or "").strip()
    param = getattr(exc, "param", None)
    match = re.match(r"^(.*?) is not in the range .*$", text)
    if match and param is not None:
        return f"{match.group(1)} (debe ser {range_text(param.type)})"
    for pattern, spanish in CONVERSIONS:
        match = re.match(pattern, text)
        if match:
            return spanish.format(*(g.replace("'", "") for g in match.groups()))
    return text


def _option_message(exc: Any, ctx: Any, help_hint: str) -> UsageText:
    name = str(exc.option_name)
    if name in APP_OPTIONS and ctx is not None and ctx.parent is not None:
        return UsageText(
            f"la opción {name} es de compmath, no de la orden {ctx.info_name}",
            [],
            f"ponla antes de la orden: compmath {name} {ctx.info_name} …",
        )
    close = sorted(getattr(exc, "possibilities", None) or [])
    return UsageText(f"opción desconocida {name}", close, help_hint)


def spanish_usage_error(exc: Any, command: str = "") -> UsageText:
    """Return the Spanish message, suggestions and hint for a parser usage error; `command` is
    the command typed, for the errors the parser raises without its context."""
    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path if ctx is not None else f"compmath {command}".strip()
    help_hint = f"prueba: {path} --help"
    kind = _kind(exc)
    param = getattr(exc, "param", None)
    if kind == "NoSuchOption":
        return _option_message(exc, ctx, help_hint)
    if kind == "MissingParameter" and param is not None:
        what = "el argumento" if param.param_type_name == "argument" else "la opción"
        return UsageText(f"falta {what} {param_label(param)}", [], help_hint)
    if kind == "BadParameter" and param is not None:
        problem = _value_problem(exc)
        return UsageText(f"valor no válido para {param_label(param)}: {problem}", [], help_hint)
    text = str(exc.format_message() if hasattr(exc, "format_message") else exc)
    if match := re.search(r"No such command '(.+?)'", text):
        name = match.group(1)
        commands = list(getattr(ctx.command, "commands", {})) if ctx is not None else []
        close = difflib.get_close_matches(name, commands, n=3, cutoff=0.5)
        return UsageText(f"no existe la orden «{name}»", close, help_hint)
    if match := re.search(r"Got unexpected extra argument(?:s|\(s\))? \((.+)\)", text):
        return UsageText(f"argumentos de más: {match.group(1)}", [], help_hint)
    if match := re.search(r"Option '(.+?)' requires an? (?:argument|value)", text):
        return UsageText(f"la opción {match.group(1)} necesita un valor", [], help_hint)
    if match := re.search(r"Option '(.+?)' does not take a value", text):
        return UsageText(f"la opción {match.group(1)} no lleva valor", [], help_hint)
    if "Missing command" in text:
        return UsageText("falta la orden", [], help_hint)
    return UsageText(f"uso incorrecto: {text}", [], help_hint)
