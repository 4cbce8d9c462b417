"""Click as Typer runs it: Typer's own vendored copy when it has one, else the click package.

Only the error classes and the context are named here; parameter types and groups are told
apart by their fields (`name`, `choices`, `commands`), which every version has.
"""

from __future__ import annotations

try:
    from typer._click.core import Command, Context
    from typer._click.exceptions import (
        BadOptionUsage,
        BadParameter,
        MissingParameter,
        NoSuchOption,
        UsageError,
    )
except ImportError:  # a Typer that runs the click package itself
    from click.core import Command, Context  # type: ignore[assignment]
    from click.exceptions import (  # type: ignore[assignment]
        BadOptionUsage,
        BadParameter,
        MissingParameter,
        NoSuchOption,
        UsageError,
    )

__all__ = [
    "BadOptionUsage",
    "BadParameter",
    "Command",
    "Context",
    "MissingParameter",
    "NoSuchOption",
    "UsageError",
]
