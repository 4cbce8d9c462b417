"""The labs' bytecode: compiled from the source's content, cached only where no lab can write.

A cached entry is a PEP 552 checked-hash .pyc: its header carries a hash of the source it was
compiled from, so an edit that keeps the file's size and modification second (`sed -i`,
`git checkout`) still compiles the new code. Entries are read and written only by the lab's own
process before its sandbox closes, and only when Landlock keeps every lab out of the cache
folder; without Landlock the lab is compiled from its source every time (the whole course
costs about 0.1 s more), because a lab could otherwise leave bytecode for another.
"""

from __future__ import annotations

import marshal
import os
from importlib.util import MAGIC_NUMBER, source_hash
from pathlib import Path
from types import CodeType

CHECKED_HASH = (0b11).to_bytes(4, "little")  # PEP 552 flags: hash-based, checked


def entry(folder: str, lab: str) -> str:
    """Where the bytecode of `lab` (an absolute path) is cached inside `folder`."""
    name = source_hash(os.path.realpath(lab).encode("utf-8", "surrogateescape")).hex()
    return os.path.join(folder, f"{name}.pyc")


def _cached(path: str, key: bytes) -> CodeType | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if data[:4] == MAGIC_NUMBER and data[4:8] == CHECKED_HASH and data[8:16] == key:
            code = marshal.loads(data[16:])
            return code if isinstance(code, CodeType) else None
    except (OSError, ValueError, EOFError, TypeError):
        pass  # absent, unreadable or foreign: compile again
    return None


def _store(path: str, key: bytes, code: CodeType) -> None:
    from compmath.atomic import WriteError, write_atomic

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = MAGIC_NUMBER + CHECKED_HASH + key + marshal.dumps(code)
        write_atomic(Path(path), data, durable=False)
    except (OSError, WriteError):
        pass  # an unwritable cache only costs speed


def load(lab: str, cache: str | None) -> CodeType:
    """The code of `lab`: from the cache when `cache` is a trusted folder, else compiled."""
    with open(lab, "rb") as handle:
        source = handle.read()
    if cache is None:
        return compile(source, lab, "exec", dont_inherit=True)
    key = source_hash(source)
    path = entry(cache, lab)
    code = _cached(path, key)
    if code is None or code.co_filename != lab:
        code = compile(source, lab, "exec", dont_inherit=True)
        _store(path, key, code)
    return code
