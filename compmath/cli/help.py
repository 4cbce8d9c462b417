"""Spanish help screens, built from the commands' own parameters and laid out by the screen layer.

Click's formatter writes English headings (`Usage:`, `Options:`, `[required]`, `x>=0.1`) and cuts
command descriptions with `...`; these classes replace it for every command of the app, so help
goes through `present.output.emit` like any other screen: Spanish, fitted to the width, coloured
only where colour is on.
"""

from __future__ import annotations

import inspect
from typing import Any

from compmath.present.layout import (
    BLANK,
    Block,
    Cell,
    Column,
    Table,
    lay_out,
    line,
    para,
    plain_text,
)
from compmath.wording import short

HELP_TEXT = "Muestra esta ayuda y sale."
# A value's placeholder by the parser's type name, when the option names none of its own.
TYPE_METAVARS = {
    "integer": "ENTERO",
    "int range": "ENTERO",
    "float": "NÚMERO",
    "float range": "NÚMERO",
    "path": "RUTA",
    "text": "TEXTO",
}


def _number(x: float) -> str:
    return short(x) if isinstance(x, float) else str(x)


def range_text(kind: Any) -> str:
    """The bounds of a numeric range type in words (`al menos 0,1`), or "" for none."""
    low, high = getattr(kind, "min", None), getattr(kind, "max", None)
    above = "mayor que" if getattr(kind, "min_open", False) else "al menos"
    below = "menor que" if getattr(kind, "max_open", False) else "como mucho"
    if low is not None and high is not None:
        if above == "al menos" and below == "como mucho":
            return f"de {_number(low)} a {_number(high)}"  # as --timeout says its range
        return f"{above} {_number(low)} y {below} {_number(high)}"
    if low is not None:
        return f"{above} {_number(low)}"
    if high is not None:
        return f"{below} {_number(high)}"
    return ""


def param_label(param: Any) -> str:
    """How a parameter is named on the command line: `--timeout` or `CLASE`."""
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.metavar or (param.name or "").upper())
    return str(max(param.opts, key=len)) if param.opts else str(param.name)


def _metavar(param: Any) -> str:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    return str(param.metavar or TYPE_METAVARS.get(param.type.name, "VALOR"))


def _names(param: Any) -> str:
    names = ", ".join(sorted(param.opts, key=len))
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    metavar = _metavar(param)
    return f"{names} {metavar}" if metavar else names


def _default(param: Any) -> str:
    value = param.default
    shown = param.show_default
    if isinstance(shown, str) and shown:  # said in words: `uno por núcleo`, `notas/`
        return shown
    if not shown or callable(value) or value is None or value is False or value == ():
        return ""
    if getattr(param, "is_flag", False) and param.secondary_opts:
        return str(param.opts[0] if value else param.secondary_opts[0])
    return _number(value) if isinstance(value, (int, float)) else str(value)


def _description(param: Any) -> str:
    """The parameter's help plus what the parser enforces: required, default, bounds, repeats."""
    notes = []
    if param.required:
        notes.append("obligatorio")
    if default := _default(param):
        notes.append(f"por defecto: {default}")
    if bounds := range_text(param.type):
        notes.append(bounds)
    if getattr(param, "multiple", False):
        notes.append("se puede repetir")
    text = (param.help or "").strip().rstrip(".")
    if not notes:
        return f"{text}." if text else text
    if text.endswith(")"):  # one parenthesis, not two: `(por defecto: todas; se puede repetir)`
        return f"{text[:-1]}; {'; '.join(notes)})."
    return f"{text} ({'; '.join(notes)})."


def _rows(pairs: list[tuple[str, str]], style: str) -> Table:
    return Table(
        (Column("", 10), Column("", 24)),
        tuple((Cell(name, style), Cell(text)) for name, text in pairs),
        indent=2,
        head=False,
    )


def usage(ctx: Any) -> str:
    """The usage line: `compmath run [OPCIONES] CLASE`."""
    command = ctx.command
    pieces = [ctx.command_path, "[OPCIONES]"]
    pieces += [
        str(p.metavar or p.name.upper())
        for p in command.get_params(ctx)
        if getattr(p, "param_type_name", "") == "argument" and not getattr(p, "hidden", False)
    ]
    if hasattr(command, "commands"):
        pieces.append("ORDEN [ARGUMENTOS]...")
    return " ".join(pieces)


def help_blocks(ctx: Any) -> list[Block]:
    """The whole help of a command (or of the app): usage, description, arguments, options and,
    for the app, every command with its full first sentence."""
    command = ctx.command
    blocks: list[Block] = [line(("uso: ", "bold"), (usage(ctx), "bold")), BLANK]
    for paragraph in inspect.cleandoc(command.help or "").split("\n\n"):
        if paragraph.strip():
            blocks += [para(" ".join(paragraph.split())), BLANK]
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [p for p in params if getattr(p, "param_type_name", "") == "argument"]
    options = [p for p in params if p not in arguments]
    if arguments:
        rows = [(param_label(p), _description(p)) for p in arguments]
        blocks += [line(("Argumentos:", "bold")), _rows(rows, "cyan"), BLANK]
    if hasattr(command, "commands"):
        rows = [
            (name, inspect.cleandoc(sub.help or "").split("\n\n")[0].replace("\n", " "))
            for name, sub in command.commands.items()
            if not sub.hidden
        ]
        blocks += [line(("Órdenes:", "bold")), _rows(rows, "bold cyan"), BLANK]
    if options:
        rows = [(_names(p), _description(p)) for p in options]
        blocks += [line(("Opciones:", "bold")), _rows(rows, "cyan"), BLANK]
    if hasattr(command, "commands"):
        blocks.append(para(f"Ayuda de cada orden: {ctx.command_path} ORDEN --help"))
    else:
        blocks.append(para(f"Todas las órdenes: {ctx.find_root().command_path} --help"))
    return blocks


def show_help(ctx: Any) -> None:
    """Print the help of `ctx`'s command on stdout."""
    from compmath.present.output import emit

    emit(help_blocks(ctx))


def _help_callback(ctx: Any, _param: Any, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        show_help(ctx)
        ctx.exit()


class SpanishHelp:
    """What both the app and its commands change in Click: the help option and the help text."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = HELP_TEXT
            option.callback = _help_callback
        return option

    def get_help(self, ctx: Any) -> str:
        return plain_text(lay_out(help_blocks(ctx), None)).rstrip("\n")
