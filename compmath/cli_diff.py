"""`compmath diff`: review snapshot changes against a git revision."""

from __future__ import annotations

from compmath.cli import app  # noqa: F401
