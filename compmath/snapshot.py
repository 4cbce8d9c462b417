"""Read snapshots, and write them atomically: never a half-written expected.json."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError


def read_snapshot(path: Path, hint_class: str) -> tuple[str, dict[str, Any]] | None:
    """Return (text, data) of a snapshot, None if absent; CompmathError if it is corrupt."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CompmathError(f"no se puede leer {path}: {exc}", "revisa el archivo") from None
    hint = f"revísalo con git diff o regénéralo: compmath update {hint_class}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"línea {exc.lineno}, columna {exc.colno}: {exc.msg}"
        if not text.strip():
            where = "está vacío"
        raise CompmathError(f"la instantánea {path} está corrupta ({where})", hint) from None
    if not isinstance(data, dict):
        raise CompmathError(f"la instantánea {path} no es un objeto JSON", hint)
    return text, data


def write_atomic(path: Path, text: str) -> bool:
    """Write `text` to `path` atomically; return False (and touch nothing) if already equal."""
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".compmath-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return True


def stale_temporaries(folder: Path) -> list[Path]:
    """Temporary files an interrupted write left in a class folder."""
    return sorted(folder.glob(".*.compmath-tmp"))
