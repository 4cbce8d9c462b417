"""What a command is doing, so that Ctrl-C can say what it interrupted and how far it got."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from compmath.wording import seconds


@dataclass
class Activity:
    """The work under way: what it is, how many labs it has and how many have ended."""

    what: str
    note: str = ""  # what the reader may want to know: nothing was written
    labs: int = 0
    ended: int = 0
    started: float = field(default_factory=time.monotonic)

    def advance(self) -> None:
        """Count one more lab ended."""
        self.ended += 1


# The work under way in this call of the command line (entry.main runs each call in a context
# of its own): innermost last.
CURRENT: ContextVar[tuple[Activity, ...]] = ContextVar("compmath_activity", default=())


@contextmanager
def activity(what: str, note: str = "", labs: int = 0) -> Iterator[Activity]:
    """Record `what` as the work under way while the block runs; an interruption leaves it
    recorded for `interrupted` to tell."""
    doing = Activity(what, note, labs)
    outer = CURRENT.get()
    CURRENT.set((*outer, doing))
    try:
        yield doing
    except KeyboardInterrupt:
        raise  # left recorded: `interrupted` tells it
    except BaseException:
        CURRENT.set(outer)
        raise
    CURRENT.set(outer)


def interrupted(args: list[str]) -> tuple[str, str]:
    """What Ctrl-C stopped (after how long, how far it got) and the command that starts it over."""
    typed = " ".join(["compmath", *args])
    under_way = CURRENT.get()
    if not under_way:
        return typed, f"vuelve a lanzarla: {typed}"
    doing = under_way[-1]
    CURRENT.set(())
    detail = f"a los {seconds(time.monotonic() - doing.started)}"
    if doing.labs > 1:
        detail += f", con {doing.ended} de {doing.labs} laboratorios terminados"
    note = f"; {doing.note}" if doing.note else ""
    return f"{doing.what} ({detail}){note}", f"vuelve a lanzarla: {typed}"
