"""The command line: parse, call the library, print through the screen layer, pick the exit code."""

# The order of registration is the order of the help: list, run, check and update first.
# isort: off
from compmath.cli import labs  # noqa: F401
from compmath.cli import authoring, diff, grade, practice, notebook, site, toplevel  # noqa: F401
from compmath.cli.common import app

# isort: on

__all__ = ["app"]
