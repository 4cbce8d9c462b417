"""The command line: parse, call the library, print through the screen layer, pick the exit code."""

from compmath.cli import (  # noqa: F401  (each registers its commands)
    authoring,
    diff,
    labs,
    notebook,
    practice,
    site,
)
from compmath.cli.common import app

__all__ = ["app"]
