"""Wait for an event, never for a fixed time: tests must hold on a busy 2-core machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE = (
    60.0  # seconds: generous, since a loaded machine can be ten times slower than an idle one
)
POLL = 0.02


def wait_until(event: Callable[[], T], what: str, patience: float = PATIENCE) -> T:
    """Return `event()` as soon as it is truthy; fail naming `what` after `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        found = event()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"no llegó a pasar en {patience:.0f} s: {what}")
        time.sleep(POLL)
