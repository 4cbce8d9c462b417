"""Parsed metadata remembered between runs, keyed by each file's size and modification time.

`compmath list` on a course of a thousand classes would otherwise parse a thousand TOML files
on every call. The cache lives in the user's cache folder, never in the repository; a stale or
unreadable cache is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compmath.course import read_toml
from compmath.validate import cache_dir

Projection = Callable[[dict[str, Any]], dict[str, Any]]


class MetaCache:
    """TOML files parsed once, then served from a JSON file while they do not change."""

    def __init__(self, root: Path) -> None:
        digest = hashlib.sha256(str(root.resolve()).encode("utf-8")).hexdigest()[:24]
        self.path = cache_dir() / "metadatos" / f"{digest}.json"
        self.root = root
        self.dirty = False
        try:
            self.entries: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.entries = {}

    def get(self, path: Path, project: Projection = lambda data: data) -> dict[str, Any]:
        """The projected contents of a TOML file, parsing it only when it changed."""
        try:
            stat = path.stat()
        except FileNotFoundError:
            return {}
        key = str(path.relative_to(self.root))
        stamp = [stat.st_mtime_ns, stat.st_size]
        cached = self.entries.get(key)
        if isinstance(cached, list) and len(cached) == 2 and cached[0] == stamp:
            return dict(cached[1])
        value = project(read_toml(path))
        self.entries[key] = [stamp, value]
        self.dirty = True
        return value

    def save(self) -> None:
        """Write the cache back if anything was parsed (atomically; failures only cost speed)."""
        if not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.entries, handle, ensure_ascii=False, default=str)
            os.replace(tmp, self.path)
        except OSError:
            pass
