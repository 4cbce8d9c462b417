"""Load the real course's labs for the per-class tests (import by path, no runner involved)."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from compmath.base.encode import canonical_json

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ROOT / "classes"


def class_dir(number: int) -> Path:
    """Return the folder of class `number` in the real course."""
    (found,) = CLASSES.glob(f"part-*/{number}-*")
    return found


@cache
def lab_module(number: int) -> ModuleType:
    """Import the lab.py of class `number` as a module (its __main__ block does not run)."""
    path = class_dir(number) / "lab.py"
    spec = importlib.util.spec_from_file_location(f"lab_{number}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def emitted(number: int, **params: Any) -> dict[str, Any]:
    """Return run(**params) of class `number` as the canonical JSON a student sees, parsed
    afresh on each call (a test may change what it gets)."""
    return json.loads(_emitted_text(number, tuple(sorted(params.items()))))


@cache
def _emitted_text(number: int, params: tuple[tuple[str, Any], ...]) -> str:
    """The labs are deterministic: each (class, parameters) is run once a process."""
    return canonical_json(lab_module(number).run(**dict(params)))


def snapshot(number: int) -> dict[str, Any]:
    """Return the parsed expected.json of class `number`."""
    return json.loads((class_dir(number) / "expected.json").read_text(encoding="utf-8"))
