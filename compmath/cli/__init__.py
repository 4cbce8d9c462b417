"""The command line: parse, call the library, print through the screen layer, pick the exit code."""

from compmath.cli import authoring, diff, labs, site  # noqa: F401  (each registers its commands)
from compmath.cli.common import app

__all__ = ["app"]
