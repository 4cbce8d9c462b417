"""The command line: parse, call the library, print through the screen layer, pick the exit code."""

from compmath.cli import authoring, diff, labs, toplevel  # noqa: F401  (each registers its own)
from compmath.cli.common import app

__all__ = ["app"]
