"""Commands for reading and authoring the course: show, new, lint."""

from __future__ import annotations

from compmath.cli import app  # noqa: F401
