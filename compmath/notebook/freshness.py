"""Whether a committed notebook is the one `compmath notebook` makes today.

Byte for byte, except in the practice notebook's recordings (tools.reference_source packs them,
tools.read_reference reads them back): they keep every real exactly as the course's lab
computed it, and NumPy's vectorised `exp`, `power` or `sum` can differ in the last bits from one
processor to another. A notebook recorded on one
machine is as good on another (its check compares with a tolerance far above that noise), so a
recorded real that differs from today's by no more than FLOAT_NOISE does not make the notebook
stale; any other difference does (a value beyond it, a key, a length, a type, a word).
"""

from __future__ import annotations

import json
import math
from typing import Any

from compmath.notebook.tools import read_reference

FLOAT_NOISE = 1e-9  # relative difference of a recorded real from today's allowed
TINY = 1e-300  # and an absolute one, for reals at zero


def up_to_date(committed: bytes, made: bytes, *, recordings: bool = True) -> bool:
    """True when `committed` is `made`, up to the float noise of the recordings; without
    `recordings`, whatever the recordings hold (`made` was built without them: the site)."""
    if committed == made:
        return True
    try:
        old, new = json.loads(committed), json.loads(made)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return False
    old_cells, new_cells = old.get("cells"), new.get("cells")
    if not (isinstance(old_cells, list) and isinstance(new_cells, list)):
        return False
    if {**old, "cells": None} != {**new, "cells": None} or len(old_cells) != len(new_cells):
        return False
    return all(a == b or _same_cell(a, b, recordings) for a, b in zip(old_cells, new_cells))


def _same_cell(old: Any, new: Any, recordings: bool) -> bool:
    """Two cells that differ only in the recordings they hold (by float noise, or in anything
    without `recordings`)."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return False
    if {**old, "source": None} != {**new, "source": None}:
        return False
    old_found, new_found = read_reference(_source(old)), read_reference(_source(new))
    if old_found is None or new_found is None:
        return False
    (old_data, old_rest), (new_data, new_rest) = old_found, new_found
    if old_rest != new_rest:
        return False  # the rest of the cell, word for word
    return _close(old_data, new_data) if recordings else True


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _close(old: Any, new: Any, scale: float = 0.0) -> bool:
    """The same structure and values, reals within FLOAT_NOISE of each other, or of the largest
    real of the array they are in: an entry that is zero up to rounding (1e-16 beside entries
    near 1, as an eigenvector's) is as noisy as its neighbours."""
    if isinstance(old, float) and isinstance(new, float):
        noise = max(TINY, FLOAT_NOISE * scale)
        return math.isclose(old, new, rel_tol=FLOAT_NOISE, abs_tol=noise) or (
            math.isnan(old) and math.isnan(new)
        )
    if type(old) is not type(new):
        return False
    if isinstance(old, dict):
        return old.keys() == new.keys() and all(_close(old[k], new[k]) for k in old)
    if isinstance(old, list):
        if len(old) != len(new):
            return False
        scale = scale or max(_largest(old), _largest(new))  # the outermost array's
        return all(_close(a, b, scale) for a, b in zip(old, new))
    return bool(old == new)


def _largest(value: Any) -> float:
    """The largest finite magnitude among the reals of a nested list (0 when it holds none)."""
    if isinstance(value, float):
        return abs(value) if math.isfinite(value) else 0.0
    if isinstance(value, list):
        return max((_largest(v) for v in value), default=0.0)
    return 0.0
