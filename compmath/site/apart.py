"""Make the site's files in forked processes, on the other core, while this one judges the labs.

A thread would share the interpreter's lock with the judge: on two cores, making the pages in
a thread slowed the labs' verification from 0.7 s to 1.5 s. A child is a fork of the build
(same course, same code): it does its first part at once, then waits for what only the judge
knows (the verdicts), which it is sent only when the site is to be written; a build stopped by
a stale lab kills it before it writes anything. Whatever goes wrong in a child (an error in a
page, a signal), the caller does the work itself, so an error is reported as without it.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

First = TypeVar("First")
Then = TypeVar("Then")


# The ends of every child's pipes this process holds: a child forked after another closes
# them, or that other child would never see the end of what it is sent.
_held: set[int] = set()


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other side closed its pipe")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _send(fd: int, value: Any) -> None:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(8, "big") + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int) -> Any:
    return pickle.loads(_read_exactly(fd, int.from_bytes(_read_exactly(fd, 8), "big")))


class Apart(Generic[First, Then]):
    """`first()` started at once elsewhere; `finish(x)` gives then(first(), x), or None when
    the other side failed (the caller then does both itself)."""

    def __init__(self, first: Callable[[], First], then: Callable[[First, Any], Then]) -> None:
        self.then = then
        self.ask = self.answer = -1  # this side's ends of the two pipes, while open
        self.pid = 0
        self.thread: ThreadPoolExecutor | None = None
        self.early: Future[First] | None = None
        if sys.platform != "linux":  # fork is safe where the build's libraries allow it
            self.thread = ThreadPoolExecutor(1)
            self.early = self.thread.submit(first)
            return
        ask_r, self.ask = os.pipe()  # the verdicts, to the child
        self.answer, answer_w = os.pipe()  # its answer, from it
        gc.freeze()  # the child's collections then leave the parent's objects (its pages) shared
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            for fd in (self.ask, self.answer, *_held):
                os.close(fd)
            _held.clear()
            _child(first, then, ask_r, answer_w)
        gc.unfreeze()
        os.close(ask_r)
        os.close(answer_w)
        _held.update((self.ask, self.answer))

    def send(self, argument: Any) -> None:
        """Give the child the argument of `then` (finish() waits for its answer)."""
        if self.ask < 0:
            return
        try:
            _send(self.ask, argument)
        except OSError:
            pass  # the child is gone: finish() says so
        self._close_fd("ask")

    def finish(self, argument: Any) -> Then | None:
        """then(first(), argument) (unless send() gave the argument); None if the child failed."""
        if self.early is not None:
            try:
                return self.then(self.early.result(), argument)
            finally:
                self.close()
        self.send(argument)
        try:
            answer: tuple[Then] = _receive(self.answer)
            return answer[0]
        except (OSError, EOFError, pickle.UnpicklingError):
            return None
        finally:
            self.close()

    def close(self) -> None:
        """End the child (or the thread) whatever it is doing, and reap it."""
        if self.thread is not None:
            self.thread.shutdown(wait=True)
            self.thread = None
            return
        self._close_fd("ask")
        self._close_fd("answer")
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.pid = 0

    def _close_fd(self, name: str) -> None:
        fd = getattr(self, name)
        if fd >= 0:
            os.close(fd)
            _held.discard(fd)
            setattr(self, name, -1)


def _child(
    first: Callable[[], Any], then: Callable[[Any, Any], Any], ask: int, answer: int
) -> None:
    """Do `first()`, wait for the argument of `then`, answer with `then`'s result; exit without
    running the parent's exit handlers (they would end its lab worker)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C is the parent's to report
        made = first()
        argument = _receive(ask)  # EOFError when the parent needs nothing more (a stale lab)
        _send(answer, (then(made, argument),))
    except BaseException:  # the parent makes the files itself and reports what failed
        code = 1
    finally:
        os._exit(code)
