"""Which classes `run` would refuse, for one listing: remembered by content.

A class found sound is remembered by what its verdict rests on (class.toml, its outputs schema,
the class schema, the runner's version) in one cache file per course, read once and written
once: a warm listing costs two reads and a hash per class. A class not remembered is checked as
`run` checks it (tomllib, jsonschema, then metadata's checks past the schema); with many of them
(a cold cache), a forked child checks half while this process checks the other half. A child
that fails in any way only leaves its classes to be checked again here, which also gives the
reason of a broken one.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from compmath import __version__
from compmath.atomic import write_atomic
from compmath.cache import cache_dir
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError

SPLIT_FROM = 128  # classes to vouch for before a second process pays its fork


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


class Soundness:
    """The verdicts of one listing of one course: `prepare` them all, then ask per class."""

    def __init__(self, root: Path) -> None:
        self.root = root
        from compmath import contracts

        self.schema_raw = _read(contracts.path("class"))
        self.file = cache_dir() / "index" / hashlib.sha256(str(root).encode()).hexdigest()[:32]
        try:
            self.known = set(self.file.read_text(encoding="ascii").split())
        except (OSError, ValueError):
            self.known = set()
        self.sound: set[str] = set()
        self.read: dict[str, tuple[str, bytes | None]] = {}  # class id -> (key, class.toml)

    def prepare(self, classes: list[ClassInfo]) -> None:
        """Read and hash every class; vouch for those not remembered."""
        pending = []
        for cls in classes:
            raw = _read(cls.meta_path)
            digest = hashlib.sha256(f"{__version__}\0{cls.id}".encode())
            for part in (raw, _read(cls.schema_path), self.schema_raw):
                digest.update(b"\0-" if part is None else b"\0" + part)
            key = digest.hexdigest()
            self.read[cls.id] = (key, raw)
            if key in self.known:
                self.sound.add(key)
            elif raw is not None:
                pending.append((cls, key))
        self.sound |= self._vouch_all(pending)

    def raw(self, cls: ClassInfo) -> bytes | None:
        """The class.toml's bytes as prepared (None when unreadable or missing)."""
        return self._entry(cls)[1]

    def broken_reason(self, cls: ClassInfo) -> str:
        """Why `run` would refuse the class's metadata ("" when it would not)."""
        key = self._entry(cls)[0]
        if key in self.sound:
            return ""
        why = _refusal(cls)
        if not why:
            self.sound.add(key)
        return why

    def save(self, *, whole: bool) -> None:
        """Remember the sound classes: this listing's, when it covered the whole course (so
        the file holds the course as it is now), else those added to the ones remembered."""
        sound = self.sound if whole else self.sound | self.known
        if sound == self.known:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.file, "\n".join(sorted(sound)) + "\n", durable=False)
        except (OSError, CompmathError):
            pass  # an unwritable cache only costs time

    def _entry(self, cls: ClassInfo) -> tuple[str, bytes | None]:
        if cls.id not in self.read:
            self.prepare([cls])
        return self.read[cls.id]

    def _vouch_all(self, pending: list[tuple[ClassInfo, str]]) -> set[str]:
        """The keys of the pending classes `run` would accept: in two processes (this one and
        a forked child) when there are many and the machine has the cores."""
        if len(pending) < SPLIT_FROM or (os.cpu_count() or 1) < 2:
            return {key for cls, key in pending if not _refusal(cls)}
        half = len(pending) // 2
        _refusal(pending[0][0])  # tomllib and jsonschema imported before forking
        reader, writer = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe and leaves
            code = 1
            try:
                os.close(reader)
                mine = "\n".join(key for cls, key in pending[half:] if not _refusal(cls))
                with os.fdopen(writer, "w", encoding="ascii") as out:
                    out.write(mine)
                code = 0
            finally:
                os._exit(code)
        os.close(writer)
        sound = {key for cls, key in pending[:half] if not _refusal(cls)}
        with os.fdopen(reader, encoding="ascii") as report:
            theirs = report.read().split()
        _, status = os.waitpid(child, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            sound |= set(theirs) & {key for _, key in pending[half:]}
        return sound


def _refusal(cls: ClassInfo) -> str:
    """Why `run` would refuse the class's metadata, checked as `run` checks it ("" if not)."""
    try:
        cls.meta  # noqa: B018 - the check is the reading
    except CompmathError as exc:
        return exc.message
    return ""
