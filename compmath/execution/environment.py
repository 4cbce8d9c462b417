"""The environment labs run with: minimal, documented, with nothing of the runner's secrets.

The runner starts its workers with it, so that no token, socket path or session variable is in
a worker's memory or /proc/<pid>/environ for a lab (a fork of the worker) to read. Kept light:
the console script imports it before anything else.
"""

from __future__ import annotations

import os

# Variables a lab sees besides the ones set here (compmath's own, and what Python itself needs
# to start where it is installed); everything else of the runner's environment stays out.
KEPT = ("PATH", "TZ", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "TMPDIR")
THREAD_CAPS = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)


def named_off(source: dict[str, str] | os._Environ[str]) -> frozenset[str]:
    """The names COMPMATH_SIN lists, as written (facilities.switched_off keeps the known ones);
    here so that the console script can read it before importing anything else."""
    names = source.get("COMPMATH_SIN", "").replace(" ", "").lower().split(",")
    return frozenset(name for name in names if name)


def minimal_environment(source: dict[str, str], import_path: str) -> dict[str, str]:
    """The worker's (and so every lab's) environment: no token, socket or session variable of
    the runner's reaches a lab (docs/integridad.md)."""
    env = {name: source[name] for name in KEPT if name in source}
    env |= {name: value for name, value in source.items() if name.startswith("COMPMATH_")}
    env |= dict.fromkeys(THREAD_CAPS, "1")
    env |= {
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": import_path,
        "HOME": source.get("TMPDIR", "/tmp"),
    }
    env.setdefault("PATH", os.defpath)
    return env
