"""The user's cache folder for compmath (never inside the repository) and JSON files in it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """$COMPMATH_CACHE, else $XDG_CACHE_HOME/compmath, else ~/.cache/compmath."""
    explicit = os.environ.get("COMPMATH_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "compmath"


def read_json(relative: str) -> Any:
    """A cached JSON document, or None when absent or unreadable."""
    try:
        return json.loads((cache_dir() / relative).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(relative: str, data: Any) -> None:
    """Replace a cached JSON document atomically; an unwritable cache only costs speed."""
    from compmath.atomic import WriteError, write_atomic

    target = cache_dir() / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, json.dumps(data, ensure_ascii=False, default=str), durable=False)
    except (OSError, WriteError):
        pass


def purge(folders: tuple[str, ...]) -> None:
    """Empty these folders of the cache (what a lab could have written there is not kept; however
    deep it nested its folders: no recursion)."""
    from compmath.cleanup import remove_tree

    for folder in folders:
        remove_tree(str(cache_dir() / folder))
