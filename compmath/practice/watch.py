"""`compmath practice`: rerun the current class on every save, and answer single keys.

File events come from watchfiles (which handles editors' atomic saves, and polls where events
do not arrive, as on WSL); `--manual` skips the watcher and rechecks on Enter. Keys are read one
at a time on a terminal (cbreak mode, restored on exit) and a line at a time from a pipe.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from compmath.practice.session import Session

Event = tuple[str, str]  # ("guardado", path) | ("tecla", key) | ("fin", "")


@contextmanager
def single_keys(stream: TextIO) -> Iterator[None]:
    """Read a terminal key by key (no Enter, no echo) for the block's duration."""
    if not stream.isatty():
        yield
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _keys(stream: TextIO, events: queue.Queue[Event]) -> None:
    terminal = stream.isatty()
    while True:
        text = stream.read(1) if terminal else stream.readline()
        if not text:
            events.put(("fin", ""))
            return
        events.put(("tecla", text if terminal else text.rstrip("\n")))


def _saves(folder: Path, stop: threading.Event, events: queue.Queue[Event]) -> None:
    from watchfiles import Change, watch

    for changes in watch(folder, debounce=40, step=10, stop_event=stop, raise_interrupt=False):
        for change, path in changes:
            if change != Change.deleted and path.endswith(".py"):
                events.put(("guardado", os.path.realpath(path)))


def run(session: Session, manual: bool = False, keys: TextIO | None = None) -> None:
    """The loop: judge now, then on every save of the current lab and on every key, until q."""
    stream = keys or sys.stdin
    events: queue.Queue[Event] = queue.Queue()
    stop = threading.Event()
    session.show(session.welcome(), True)
    session.check()
    if not manual:
        folder = session.workspace.root / "classes"
        threading.Thread(target=_saves, args=(folder, stop, events), daemon=True).start()
    threading.Thread(target=_keys, args=(stream, events), daemon=True).start()
    try:
        with single_keys(stream):
            while True:
                kind, value = events.get()
                if kind == "fin" or (kind == "tecla" and not session.key(value)):
                    break
                if kind == "guardado":
                    session.saved(value)
    finally:
        stop.set()
