"""Read snapshots: a UTF-8 JSON object of finite numbers, or a Spanish error naming the file."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError, not_a_file, os_reason


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
        from compmath.errors_es import json_problem

        located = json_problem(exc)
        problem = "el archivo está vacío" if not text.strip() else located.sentence()
        raise CompmathError(
            f"la instantánea {label} está corrupta: no es JSON válido: {problem}",
            hint,
            located=located if text.strip() else None,
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


def read_snapshot(path: Path, shown: str, number: int) -> tuple[str, dict[str, Any]] | None:
    """Return (text, data) of class `number`'s snapshot, None if absent; CompmathError if it is
    corrupt (named `shown` in the message)."""
    regenerate = f"regenéralo: compmath update {number}"
    try:
        if why := not_a_file(os.stat(path).st_mode):  # a folder, or a FIFO that would hang
            raise CompmathError(f"no se puede leer {shown}: {why}", f"bórralo y {regenerate}")
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CompmathError(f"no se puede leer {shown}: {os_reason(exc)}", regenerate) from None
    return parse_snapshot(raw, shown, f"revísalo con git diff o {regenerate}")
