"""The command classes of the app: Spanish help and Spanish usage errors, for every command.

Click's hooks are overridden where its English is made: the help option and the help text
(cli/help.py), the parsing of a command's arguments, the lookup of a command by name and the
call of a group without one (cli/usage.py words the errors). The app's group gives these
classes to every command and group registered under it, as Click's `command_class` would, so a
command cannot be registered in English.
"""

from __future__ import annotations

from typing import Any

import typer.core

import compmath.cli.clicklib as click
from compmath.cli.help import SpanishHelp
from compmath.cli.usage import (
    bad_value,
    extra_arguments,
    missing_command,
    option_usage,
    unknown_command,
)


class SpanishParsing:
    """Parse a command's arguments, raising Spanish usage errors made from the parser's data."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        raw = _typed_values(self, ctx, args)
        allow = ctx.allow_extra_args
        ctx.allow_extra_args = True  # extra arguments are refused below, in Spanish
        try:
            rest: list[str] = super().parse_args(ctx, args)  # type: ignore[misc]
        except click.BadParameter as exc:
            raise bad_value(exc, raw, ctx) from None
        except click.BadOptionUsage as exc:
            raise option_usage(exc, ctx) from None
        finally:
            ctx.allow_extra_args = allow
        if rest and not allow and not ctx.resilient_parsing:
            raise extra_arguments(rest, ctx)
        return rest


def _typed_values(command: Any, ctx: click.Context, args: list[str]) -> dict[str, Any]:
    """What was typed for each parameter, by name, before conversion ({} if it does not parse:
    then the parse proper raises the parser's own error)."""
    try:
        opts, _, _ = command.make_parser(ctx).parse_args(args=list(args))
    except click.UsageError:
        return {}
    return dict(opts)


class SpanishCommand(SpanishParsing, SpanishHelp, typer.core.TyperCommand):
    """A command whose help and usage errors are Spanish."""


class SpanishGroup(SpanishParsing, SpanishHelp, typer.core.TyperGroup):
    """A group: Spanish help, commands listed with their whole first sentence, Spanish errors
    for an unknown or a missing command, and every command under it made Spanish too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, sub in list(self.commands.items()):
            self.commands[name] = spanish(sub)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if (
            self.get_command(ctx, name) is None
            and not ctx.resilient_parsing
            and not name.startswith("-")
        ):
            raise unknown_command(name, ctx, self.list_commands(ctx))
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        waiting = getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", [])
        if not waiting and not ctx.args and not self.invoke_without_command:
            raise missing_command(ctx)
        return super().invoke(ctx)


def _spanish_class(kind: type[Any]) -> type[Any]:
    """The Spanish class for a command of class `kind` (Typer's two have theirs already)."""
    if kind is typer.core.TyperCommand:
        return SpanishCommand
    if kind is typer.core.TyperGroup:
        return SpanishGroup
    group = issubclass(kind, typer.core.TyperGroup)
    bases = (SpanishGroup,) if group else (SpanishParsing, SpanishHelp)
    return type(f"Spanish{kind.__name__}", (*bases, kind), {})


def spanish(command: Any) -> Any:
    """The command with a Spanish class (itself when it has one), its subcommands too.

    Typer builds each command with the class it was registered with; one registered without
    ours is rebuilt here as an instance of the Spanish subclass of its class, with its state.
    """
    group = isinstance(getattr(command, "commands", None), dict)
    if not isinstance(command, SpanishGroup if group else SpanishParsing):
        rebuilt: Any = object.__new__(_spanish_class(type(command)))
        rebuilt.__dict__.update(vars(command))
        command = rebuilt
    if group:
        for name, sub in list(command.commands.items()):
            command.commands[name] = spanish(sub)
    return command
