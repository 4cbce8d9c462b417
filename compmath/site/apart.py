"""Make the site's files in a forked process, on the other core, while this one judges the labs.

A thread would share the interpreter's lock with the judge: on two cores, making the pages in
a thread slowed the labs' verification from 0.7 s to 1.5 s. The child is a fork of the build
(same course, same code, nothing to send but the verdicts), and it only returns bytes: this
process writes every file, so a build stopped by a stale lab still writes nothing. Whatever
goes wrong in the child (an error in a page, a signal), the caller makes the files itself, so
an error is reported exactly as without the child.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

First = TypeVar("First")
Then = TypeVar("Then")


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class Apart(Generic[First, Then]):
    """`first()` started at once elsewhere; `finish(x)` gives (first(), then(x)), or None when
    the other side failed (the caller then makes both itself)."""

    def __init__(self, first: Callable[[], First], then: Callable[[Any], Then]) -> None:
        self.then = then
        self.pid = 0
        self.thread: ThreadPoolExecutor | None = None
        self.early: Future[First] | None = None
        if sys.platform != "linux":  # fork is safe where the build's libraries allow it
            self.thread = ThreadPoolExecutor(1)
            self.early = self.thread.submit(first)
            return
        ask_r, self.ask = os.pipe()  # the verdicts, to the child
        self.answer, answer_w = os.pipe()  # the files, from it
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(self.ask)
            os.close(self.answer)
            _child(first, then, ask_r, answer_w)
        os.close(ask_r)
        os.close(answer_w)

    def finish(self, argument: Any) -> tuple[First, Then] | None:
        """Both results, `then` given `argument`; None if the child failed."""
        if self.early is not None:
            try:
                return self.early.result(), self.then(argument)
            finally:
                self.close()
        try:
            _write_all(self.ask, pickle.dumps(argument, pickle.HIGHEST_PROTOCOL))
            os.close(self.ask)
            self.ask = -1
            found = pickle.loads(_read_all(self.answer))
        except (OSError, EOFError, pickle.UnpicklingError):
            found = None
        finally:
            self.close()
        return found if isinstance(found, tuple) else None

    def close(self) -> None:
        """End the child (or the thread) whatever it is doing, and reap it."""
        if self.thread is not None:
            self.thread.shutdown(wait=True)
            self.thread = None
            return
        for fd in (self.ask, self.answer):
            if fd >= 0:
                os.close(fd)
        self.ask = self.answer = -1
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.pid = 0


def _child(first: Callable[[], Any], then: Callable[[Any], Any], ask: int, answer: int) -> None:
    """Make `first()`, wait for the argument of `then`, answer with both; exit without running
    the parent's exit handlers (they would end its lab worker)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C is the parent's to report
        made = first()
        data = _read_all(ask)
        if data:  # empty: the parent needs nothing more (a stale lab, an error)
            _write_all(answer, pickle.dumps((made, then(pickle.loads(data))), -1))
    except BaseException:  # the parent makes the files itself and reports what failed
        code = 1
    finally:
        os._exit(code)
