"""What a private lab may read (a student's hole in `compmath grade`): Python, its lab, its folder.

A request with `hidden` paths is private: another student's code, the submissions, the grades
and the course's own labs must stay out of its sight. Landlock then lets it read only beneath
the roots named here: the interpreter's own files (its prefixes, standard library and
site-packages), compmath's package, the system's shared libraries and time zones, a few
devices, /proc, and its own lab's folder (plus its temporary folder, read and written). A root
that holds a hidden path is replaced by its other entries, down to the hidden one, so that a
course or a submissions folder inside one of those roots stays out all the same.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# Outside Python's prefixes, what the interpreter and numpy may still open once the lab runs:
# shared libraries (dlopen of an extension module imported late), the loader's cache, time
# zones, and the devices a program expects.
SYSTEM = (
    "/lib",
    "/lib32",
    "/lib64",
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/local/lib",
    "/usr/share/zoneinfo",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/proc",
)
PACKAGES = ("site-packages", "dist-packages")


def _inside(path: str, folder: str) -> bool:
    """`path` is `folder` or lies beneath it (both real, absolute paths)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _python_roots() -> list[str]:
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots = [*prefixes, os.path.dirname(os.__file__), PACKAGE_DIR]
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue
        real = os.path.realpath(entry)
        parts = real.split(os.sep)
        if any(_inside(real, os.path.realpath(p)) for p in prefixes) or any(
            name in parts for name in PACKAGES
        ):
            roots.append(real)
    return roots


def carve(roots: Iterable[str], hidden: Sequence[str]) -> list[str]:
    """`roots` without what lies beneath a hidden path: a root inside one is dropped, and a
    root holding one is replaced by its entries, recursively, all but the way to it."""
    kept: list[str] = []
    for root in dict.fromkeys(roots):
        if any(_inside(root, h) for h in hidden):
            continue
        inner = [h for h in hidden if _inside(h, root)]
        if not inner:
            kept.append(root)
            continue
        try:
            names = sorted(os.listdir(root))
        except OSError:
            continue
        kept += carve([os.path.join(root, name) for name in names], inner)
    return kept


def readable_roots(lab: str, hidden: Sequence[str]) -> list[str]:
    """Where a private lab may read, `hidden` carved out; its own lab's folder comes last and
    always (it is only that lab.py). The lab's temporary folder is added by Landlock itself."""
    real_hidden = [os.path.realpath(h) for h in hidden]
    roots = [os.path.realpath(r) for r in (*_python_roots(), *SYSTEM) if os.path.exists(r)]
    return [*carve(roots, real_hidden), os.path.dirname(os.path.realpath(lab))]
