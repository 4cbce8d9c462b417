"""Work run in a thread of its own beside the caller's: lint's phases that run labs, each
filling the cores the others' rounds leave idle as they end."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Beside(Generic[T]):
    """`work()` started now in a thread of its own; `result()` waits for what it returned,
    or raises what it raised, in the caller's thread."""

    def __init__(self, work: Callable[[], T], name: str = "compmath-lint") -> None:
        self.work = work
        self.value: T | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.value = self.work()
        except BaseException as exc:  # raised again in the caller's thread
            self.error = exc

    def result(self) -> T:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]
