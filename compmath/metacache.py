"""Parsed metadata remembered between runs, keyed by each file's size and modification time.

`compmath list` on a course of a thousand classes would otherwise parse a thousand TOML files
on every call. The cache lives in the user's cache folder, never in the repository; a stale or
unreadable cache is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compmath.cache import read_json, write_json
from compmath.course import read_toml

Projection = Callable[[dict[str, Any]], dict[str, Any]]


class MetaCache:
    """TOML files parsed once, then served from a JSON file while they do not change."""

    def __init__(self, root: Path, kind: str = "indice") -> None:
        digest = hashlib.sha256(str(root.resolve()).encode("utf-8")).hexdigest()[:24]
        self.name = f"metadatos/{kind}-{digest}.json"
        self.root = root
        self.dirty = False
        loaded = read_json(self.name)
        self.entries: dict[str, Any] = loaded if isinstance(loaded, dict) else {}

    def get(self, path: Path, project: Projection = lambda data: data) -> dict[str, Any]:
        """The projected contents of a TOML file, parsing it only when it changed."""
        try:
            stat = path.stat()
        except FileNotFoundError:
            return {}
        key = str(path.relative_to(self.root))
        stamp = [stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino]
        cached = self.entries.get(key)
        if isinstance(cached, list) and len(cached) == 2 and cached[0] == stamp:
            return dict(cached[1])
        value = project(read_toml(path))
        if json.loads(json.dumps(value, default=str)) == value:  # e.g. no TOML dates
            self.entries[key] = [stamp, value]
            self.dirty = True
        return value

    def save(self) -> None:
        """Write the cache back if anything was parsed."""
        if self.dirty:
            write_json(self.name, self.entries)


_full: dict[Path, MetaCache] = {}


def full_metadata(root: Path, path: Path) -> dict[str, Any]:
    """A class.toml or part.toml of the course at `root`, whole, parsed only when it changed."""
    cache = _full.get(root)
    if cache is None:
        cache = _full[root] = MetaCache(root, "completos")
    value = cache.get(path)
    cache.save()
    cache.dirty = False
    return value
