"""Turn a lab's outputs into canonical JSON: the one encoder every command shares."""

from __future__ import annotations

import json
import math
from typing import Any

DEFAULT_DECIMALS = 6
NOISE_FLOOR = 1e-12


class EncodeError(ValueError):
    """An output value that canonical JSON cannot hold, with the path where it sits."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def unrepresentable(path: str, problem: str) -> str:
    """What cannot be encoded, in one sentence: `salida.v[1] es NaN, …`; the whole output
    (`salida`) or no path: the problem alone (`run() devolvió list, no un dict`)."""
    return f"{path} {problem}" if path and path != "salida" else problem


def canonical_float(x: float, decimals: int = DEFAULT_DECIMALS) -> float:
    """Round a float the course's way: fixed decimals, significant digits when tiny, noise to 0."""
    magnitude = abs(x)
    if magnitude < NOISE_FLOOR:
        return 0.0
    if magnitude < 10.0 ** -(decimals // 2):
        value = float(f"{x:.{decimals}g}")
    else:
        value = round(x, decimals)
    return value + 0.0  # folds -0.0 into 0.0


def _is_numpy(value: object) -> bool:
    return type(value).__module__ == "numpy"


def normalize(value: Any, decimals: int = DEFAULT_DECIMALS, path: str = "salida") -> Any:
    """Return `value` as plain JSON data (dict, list, str, int, float, bool, None), rounded."""
    if _is_numpy(value):
        if hasattr(value, "tolist"):
            value = value.tolist()  # arrays to nested lists, numpy scalars to Python scalars
        else:
            raise EncodeError(path, f"tipo {type(value).__name__} no representable en JSON")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise EncodeError(path, "es NaN, que JSON no puede representar")
        if math.isinf(value):
            raise EncodeError(path, "es infinito, que JSON no puede representar")
        return canonical_float(value, decimals)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise EncodeError(path, f"tiene una clave no textual ({key!r}); use cadenas")
            out[key] = normalize(item, decimals, f"{path}.{key}")
        return out
    if isinstance(value, (list, tuple)):
        return [normalize(item, decimals, f"{path}[{i}]") for i, item in enumerate(value)]
    raise EncodeError(path, f"tipo {type(value).__name__} no representable en JSON")


def dumps(data: Any) -> str:
    """Serialize already-normalized data as canonical text: indent 2, UTF-8, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def one_line(value: Any) -> str:
    """A value as in the canonical JSON, on one line."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def compact(value: Any, limit: int, *, count: bool = True) -> str:
    """A value on one line, as in the canonical JSON; past `limit` characters a list or dict is
    cut between its items, never inside a number (`[0.841471, 0.540302, … (8)`)."""
    text = one_line(value)
    if len(text) <= limit:
        return text
    if not isinstance(value, (list, dict)):
        return text[: max(1, limit - 1)] + "…"
    items = (
        [one_line(v) for v in value]
        if isinstance(value, list)
        else [f"{one_line(k)}: {one_line(v)}" for k, v in value.items()]
    )
    tail = f"… ({len(value)})" if count else "…"
    shown = "[" if isinstance(value, list) else "{"
    for item in items:
        if len(shown) + len(item) + 2 + len(tail) > limit and len(shown) > 1:
            break
        shown += item + ", "
    return shown + tail


def canonical_json(outputs: Any, decimals: int = DEFAULT_DECIMALS) -> str:
    """Normalize and serialize a lab's outputs; raise EncodeError naming the bad path."""
    if not isinstance(outputs, dict):
        raise EncodeError("salida", f"run() devolvió {type(outputs).__name__}, no un dict")
    return dumps(normalize(outputs, decimals))
