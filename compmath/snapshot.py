"""Read snapshots, and write them atomically: never a half-written expected.json."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError


def parse_snapshot(raw: bytes, label: str, hint: str) -> tuple[str, dict[str, Any]]:
    """Parse snapshot bytes into (text, data); CompmathError naming `label` if they are not a
    UTF-8 JSON object of finite numbers (Python's json reads NaN and Infinity; JSON has none)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CompmathError(f"la instantánea {label} no está en UTF-8", hint) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problem = (
            "el archivo está vacío"
            if not text.strip()
            else f"línea {exc.lineno}, columna {exc.colno}: {exc.msg}"
        )
        raise CompmathError(
            f"la instantánea {label} está corrupta: no es JSON válido ({problem})", hint
        ) from None
    if not isinstance(data, dict):
        raise CompmathError(f"la instantánea {label} no es un objeto JSON", hint)
    if "NaN" in text or "Infinity" in text:
        _refuse_non_finite(data, label, hint)
    return text, data


def _refuse_non_finite(data: Any, label: str, hint: str, path: str = "salida") -> None:
    if isinstance(data, float) and not math.isfinite(data):
        raise CompmathError(
            f"la instantánea {label} tiene {data} en {path}, que JSON no admite", hint
        )
    if isinstance(data, dict):
        for key, value in data.items():
            _refuse_non_finite(value, label, hint, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _refuse_non_finite(value, label, hint, f"{path}[{index}]")


def read_snapshot(path: Path, hint_class: str) -> tuple[str, dict[str, Any]] | None:
    """Return (text, data) of a snapshot, None if absent; CompmathError if it is corrupt."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CompmathError(f"no se puede leer {path}: {exc}", "revisa el archivo") from None
    hint = f"revísalo con git diff o regénéralo: compmath update {hint_class}"
    return parse_snapshot(raw, str(path), hint)


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
