"""Spanish usage errors of the command-line parser, built from what the parser knows as data.

The command classes (cli/spanish.py) catch Click's errors where they are raised and raise a
`SpanishUsage` instead, worded here from the parameter, its type and the value typed; Click's
own error classes that already carry their facts (an unknown option and the close names, a
missing parameter) are worded from those fields. No English text of Click's is read.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any, NamedTuple

import compmath.cli.clicklib as click
from compmath.cli.help import param_label, range_text
from compmath.wording import decimal_point

# Options of the app itself, which go before the command (`compmath --no-color run 323`).
APP_OPTIONS = ("--color", "--no-color", "--version", "--install-completion", "--show-completion")


class UsageText(NamedTuple):
    """A usage error in Spanish: the message, the closest names, the next command."""

    message: str
    suggestions: list[str]
    hint: str


# click.UsageError is Any to the checker with a Typer before 0.28 (see clicklib)
class SpanishUsage(click.UsageError):  # type: ignore[misc, unused-ignore]
    """A usage error already worded in Spanish (raised by the command classes' hooks)."""

    def __init__(self, text: UsageText, ctx: click.Context | None = None) -> None:
        super().__init__(text.message, ctx)
        self.text = text


def help_hint(ctx: click.Context | None, command: str = "") -> str:
    path = ctx.command_path if ctx is not None else f"compmath {command}".strip()
    return f"prueba: {path} --help"


NUMBERS = {
    "int": (int, "un número entero"),
    "integer": (int, "un número entero"),
    "int range": (int, "un número entero"),
    "integer range": (int, "un número entero"),
    "float": (float, "un número real"),
    "float range": (float, "un número real"),
}


def conversion_problem(kind: Any, value: Any) -> str:
    """Why `value` is not of the parameter's type, in Spanish, from the type's own fields
    (its name, its choices, its bounds)."""
    shown = str(value)
    number = NUMBERS.get(str(getattr(kind, "name", "")))
    if number is not None:
        cast, what = number
        try:
            cast(shown)
        except ValueError:
            dotted = decimal_point(shown) if cast is float else None
            if dotted is not None:
                return f"«{shown}» no es {what}: escribe el decimal con punto ({dotted})"
            return f"«{shown}» no es {what}"
        bounds = range_text(kind)
        return f"{shown} (debe ser {bounds})" if bounds else f"«{shown}» no vale"
    if getattr(kind, "name", "") == "boolean":
        return f"«{shown}» no es un sí o un no"
    if choices := getattr(kind, "choices", None):
        return f"«{shown}» no es ninguno de {', '.join(map(str, choices))}"
    if getattr(kind, "exists", False):
        return f"no existe «{shown}»"
    return f"«{shown}» no vale"


def bad_value(exc: click.BadParameter, raw: dict[str, Any], ctx: click.Context) -> click.UsageError:
    """The Spanish error for a value the parser refused: a conversion (worded from the type and
    the typed value) or a check of ours (its message is already Spanish)."""
    param = exc.param
    if param is None or isinstance(exc, click.MissingParameter):
        return exc
    typed = raw.get(param.name or "")
    values: Iterable[Any] = typed if isinstance(typed, (list, tuple)) else [typed]
    problem = exc.message  # a callback of ours: Spanish already
    for value in values:
        if value is None:
            continue
        try:
            param.type.convert(value, param, ctx)
        except click.BadParameter:
            problem = conversion_problem(param.type, value)
            break
    return SpanishUsage(
        UsageText(f"valor no válido para {param_label(param)}: {problem}", [], help_hint(ctx)),
        ctx,
    )


def option_usage(exc: click.BadOptionUsage, ctx: click.Context) -> SpanishUsage:
    """An option given a value it does not take, or none when it needs one."""
    name = exc.option_name
    option = next(
        (p for p in ctx.command.get_params(ctx) if name in (*p.opts, *p.secondary_opts)), None
    )
    takes_value = option is not None and not getattr(option, "is_flag", False)
    what = "necesita un valor" if takes_value else "no lleva valor"
    return SpanishUsage(UsageText(f"la opción {name} {what}", [], help_hint(ctx)), ctx)


def extra_arguments(args: list[str], ctx: click.Context) -> SpanishUsage:
    """Arguments a command does not take; `run 323 324` (numbers) is pointed to `check`."""
    hint = help_hint(ctx)
    first = ctx.params.get("name")
    if ctx.info_name == "run" and isinstance(first, str) and all(a.isdigit() for a in args):
        hint = f"run ejecuta una sola clase; para varias: compmath check {first} {' '.join(args)}"
    return SpanishUsage(UsageText(f"argumentos de más: {' '.join(args)}", [], hint), ctx)


def unknown_command(name: str, ctx: click.Context, commands: Iterable[str]) -> SpanishUsage:
    close = difflib.get_close_matches(name, list(commands), n=3, cutoff=0.5)
    return SpanishUsage(UsageText(f"no existe la orden «{name}»", close, help_hint(ctx)), ctx)


def missing_command(ctx: click.Context) -> SpanishUsage:
    return SpanishUsage(UsageText("falta la orden", [], help_hint(ctx)), ctx)


def _option_message(exc: click.NoSuchOption, ctx: click.Context | None, hint: str) -> UsageText:
    name = str(exc.option_name)
    if name in APP_OPTIONS and ctx is not None and ctx.parent is not None:
        return UsageText(
            f"la opción {name} es de compmath, no de la orden {ctx.info_name}",
            [],
            f"ponla antes de la orden: compmath {name} {ctx.info_name} …",
        )
    owners = _commands_taking(name, ctx) if ctx is not None and ctx.parent is None else []
    if owners:
        return UsageText(
            f"la opción {name} es de las órdenes, no de compmath",
            [],
            f"ponla después de la orden: compmath {owners[0]} {name} …",
        )
    close = sorted(exc.possibilities or [])
    return UsageText(f"opción desconocida {name}", close, hint)


def _commands_taking(name: str, ctx: click.Context) -> list[str]:
    """The app's commands that take the option `name` (`--root` typed before the command)."""
    commands: dict[str, Any] = getattr(ctx.command, "commands", {})
    return [
        label
        for label, command in commands.items()
        if any(name in (*p.opts, *p.secondary_opts) for p in command.params)
    ]


def spanish_usage_error(exc: click.UsageError, command: str = "") -> UsageText:
    """Return the Spanish message, suggestions and hint for a parser usage error; `command` is
    the command typed, for the errors the parser raises without its context."""
    if isinstance(exc, SpanishUsage):
        return exc.text
    ctx = exc.ctx
    hint = help_hint(ctx, command)
    if isinstance(exc, click.NoSuchOption):
        return _option_message(exc, ctx, hint)
    if isinstance(exc, click.MissingParameter) and exc.param is not None:
        what = "el argumento" if exc.param.param_type_name == "argument" else "la opción"
        return UsageText(f"falta {what} {param_label(exc.param)}", [], hint)
    return UsageText("uso incorrecto de la orden", [], hint)  # no English shown, ever
