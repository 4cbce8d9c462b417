"""`compmath practice`: rerun the current class on every save, and answer single keys.

The loop consumes typed events (rustlings' `WatchEvent` is the model): a file saved, a key, the
end of input, the watcher failing, a check finished, a tick of the clock. File events come from
watchfiles (which handles editors' atomic saves, and polls where events do not arrive, as on
WSL); if it fails, one Spanish line says so and the session goes on in manual mode (Enter
checks). A check runs in a thread of its own, with a live line while it lasts; a save during a
check starts a new one at once and cancels the old one: its labs are ended (a hole that hangs
does not pile up running labs save after save), and nothing of it is shown.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from compmath.execution.pool import prestart
from compmath.execution.scheduler import Cancel, Cancelled, cancelling
from compmath.holes.verdict import Attempt
from compmath.practice.session import Session
from compmath.present.layout import line

TICK = 0.25  # seconds between updates of the live line
LIVE_AFTER = 0.3  # a check shorter than this shows no live line


@dataclass(frozen=True)
class Saved:
    path: str


@dataclass(frozen=True)
class Key:
    key: str


@dataclass(frozen=True)
class InputEnded:
    pass


@dataclass(frozen=True)
class WatcherFailed:
    reason: str


@dataclass(frozen=True)
class Checked:
    generation: int
    attempt: Attempt | None
    error: str = ""


WatchEvent = Saved | Key | InputEnded | WatcherFailed | Checked


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


def _keys(stream: TextIO, events: queue.Queue[WatchEvent]) -> None:
    terminal = stream.isatty()
    while True:
        text = stream.read(1) if terminal else stream.readline()
        if not text:
            events.put(InputEnded())
            return
        events.put(Key(text if terminal else text.rstrip("\n")))


def _saves(folder: Path, stop: threading.Event, events: queue.Queue[WatchEvent]) -> None:
    try:
        from watchfiles import Change, watch

        for changes in watch(folder, debounce=40, step=10, stop_event=stop, raise_interrupt=False):
            for change, path in changes:
                if change != Change.deleted and path.endswith(".py"):
                    events.put(Saved(os.path.realpath(path)))
    except Exception as exc:  # any failure of the watcher becomes an event, never a traceback
        events.put(WatcherFailed(str(exc) or type(exc).__name__))


def _judge(
    session: Session, generation: int, source: str, events: queue.Queue[WatchEvent], cancel: Cancel
) -> None:
    try:
        with cancelling(cancel):
            attempt = session.judge(source=source)
        events.put(Checked(generation, attempt))
    except Cancelled:  # a newer check took its place: its labs are gone, nothing to show
        pass
    except Exception as exc:  # shown as one line; the loop goes on
        message = getattr(exc, "message", "") or str(exc) or type(exc).__name__
        events.put(Checked(generation, None, message))


class Loop:
    """The loop's state: which check is the latest, and when it started."""

    def __init__(self, session: Session, events: queue.Queue[WatchEvent], live: TextIO) -> None:
        self.session, self.events, self.live = session, events, live
        self.generation = 0
        self.started: float | None = None
        self.judging: str | None = None  # the text the latest check judges
        self.cancel = Cancel()  # ends the labs of the latest check

    def start_check(self, *, unless_same: bool = False) -> None:
        """Judge the current lab in a thread; with `unless_same`, not when the check in
        progress already judges this very text (an editor's save can fire twice)."""
        source = self.session.source()
        if unless_same and self.started is not None and source == self.judging:
            return
        self.cancel.cancel()  # the check in progress, if any: its verdict would be stale
        self.cancel = Cancel()
        prestart(1)  # its worker ended with it: a warm one for this check, from this thread
        self.generation += 1
        self.started, self.judging = time.monotonic(), source
        args = (self.session, self.generation, source, self.events, self.cancel)
        threading.Thread(target=_judge, args=args, daemon=True).start()

    def tick(self) -> None:
        if self.started is None or not self.live.isatty():
            return
        seconds = time.monotonic() - self.started
        if seconds >= LIVE_AFTER:
            shown = f"{seconds:.1f}".replace(".", ",")
            self.live.write(f"\r\x1b[2Kcomprobando… {shown} s (guarda de nuevo para relanzar)")
            self.live.flush()

    def handle(self, event: WatchEvent) -> bool:
        """Act on one event; False to end the session."""
        session = self.session
        if isinstance(event, InputEnded):
            return False
        if isinstance(event, Key):
            if event.key.strip().lower()[:1] in ("", "c"):  # Enter (or c): check now
                self.start_check()
                return True
            return session.key(event.key)
        if isinstance(event, Saved):
            if event.path == str(session.current.lab):
                session.confirm_reset = False
                # a check in progress is dropped (its verdict is stale) unless it judges this text
                self.start_check(unless_same=True)
            return True
        if isinstance(event, WatcherFailed):
            session.show(
                [
                    line(
                        ("aviso: ", "bold yellow"),
                        f"no se pueden vigilar los archivos ({event.reason}); sigo en modo "
                        "manual: pulsa Intro para comprobar · prueba: compmath practice --manual",
                    )
                ],
                False,
            )
            return True
        if event.generation == self.generation:  # Checked: only the latest is shown
            self.started = None
            prestart(1)  # started by this thread: a check's own worker dies with its thread
            if self.live.isatty():
                self.live.write("\r\x1b[2K")
            if event.attempt is not None:
                session.shown(event.attempt)
            else:
                session.show([line(("error: ", "bold red"), event.error)], False)
        return True


def run(session: Session, *, manual: bool = False, keys: TextIO | None = None) -> None:
    """The loop: judge now, then on every save of the current lab and on every key, until q."""
    stream = keys or sys.stdin
    events: queue.Queue[WatchEvent] = queue.Queue()
    stop = threading.Event()
    session.show(session.welcome(), True)
    # The warm worker is started here, by the thread that lives as long as the session: a
    # worker dies with the thread that started it (PDEATHSIG), and checks run in short threads.
    prestart(1)
    loop = Loop(session, events, sys.stdout)
    loop.start_check()
    if not manual:
        folder = session.workspace.root / "classes"
        threading.Thread(target=_saves, args=(folder, stop, events), daemon=True).start()
    threading.Thread(target=_keys, args=(stream, events), daemon=True).start()
    try:
        with single_keys(stream):
            while True:
                try:
                    event = events.get(timeout=TICK)
                except queue.Empty:
                    loop.tick()
                    continue
                if not loop.handle(event):
                    break
    finally:
        stop.set()
        loop.cancel.cancel()  # no lab of a check in progress outlives the session
