"""Click as Typer runs it: Typer's own vendored copy when it has one, else the click package.

Only the error classes, the context and the running context are named here; parameter types
and groups are told apart by their fields (`name`, `choices`, `commands`), which every version has.
"""

from __future__ import annotations

# The ignores hold for every Typer the pin allows: with 0.24-0.27 there is no typer._click (the
# names come from click), with 0.28 the except branch never runs; `unused-ignore` keeps each
# version's checker quiet about the other's.
try:
    from typer._click.core import Command, Context  # type: ignore[import-not-found, unused-ignore]
    from typer._click.exceptions import (  # type: ignore[import-not-found, unused-ignore]
        BadOptionUsage,
        BadParameter,
        MissingParameter,
        NoSuchOption,
        UsageError,
    )
    from typer._click.globals import (  # type: ignore[import-not-found, unused-ignore]
        get_current_context,
    )
except ImportError:  # a Typer that runs the click package itself
    from click.core import Command, Context  # type: ignore[assignment, unused-ignore]
    from click.exceptions import (  # type: ignore[assignment, unused-ignore]
        BadOptionUsage,
        BadParameter,
        MissingParameter,
        NoSuchOption,
        UsageError,
    )
    from click.globals import get_current_context  # type: ignore[no-redef, unused-ignore]

__all__ = [
    "BadOptionUsage",
    "BadParameter",
    "Command",
    "Context",
    "MissingParameter",
    "NoSuchOption",
    "UsageError",
    "get_current_context",
]
