"""Each student's record carries a seal: an HMAC of its content under a key no student's code sees.

A record is reused by a later run (a killed run resumes) only if its seal matches its content
under the key of the run that reads it. With every layer that keeps students apart, the key lives
in compmath's cache, which Landlock leaves out of a hole's reach (not in its list of roots) and the
mount namespace covers: a hole can neither read it nor plant another. A run that goes without some
of those layers (`--sin-aislamiento-completo`) removes that key before any student's code runs
and again when it ends, and seals its own records with a key that is no secret (a plain digest:
its records are checked for damage, not for forgery). So a record written, or forged, during a
degraded run never matches the key of a protected one, and is judged again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from compmath.cache import cache_dir

KEY_NAME = "clave-de-las-notas"
KEY_BYTES = 32
OPEN_KEY = b"compmath: corregido sin todas las protecciones"  # no secret, on purpose
SEAL_FIELD = "sello"


def key_path() -> Path:
    return cache_dir() / KEY_NAME


def _create(path: Path) -> bytes:
    """A new random key, written readable by its owner only (O_EXCL: one writer wins)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, key.hex().encode("ascii"))
    finally:
        os.close(fd)
    return key


def protected_key() -> bytes:
    """The key of runs with every required layer: read from the cache, or made there once."""
    path = key_path()
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            try:
                return _create(path)
            except FileExistsError:
                continue  # another run made it first: read that one
        try:
            text = os.read(fd, 2 * KEY_BYTES + 1).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        try:
            key = bytes.fromhex(text)
        except ValueError:
            key = b""
        if len(key) == KEY_BYTES:
            return key
        path.unlink(missing_ok=True)  # damaged: every record sealed with it is judged again
    return _create(path)


def forget_protected_key() -> None:
    """Remove the protected key (a degraded run, before and after its labs run)."""
    try:
        key_path().unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        import shutil

        shutil.rmtree(key_path(), ignore_errors=True)


def seal(data: dict[str, Any], key: bytes) -> str:
    """The seal of a record's JSON content (every field but the seal itself)."""
    content = {k: v for k, v in data.items() if k != SEAL_FIELD}
    text = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def sealed(data: dict[str, Any], key: bytes) -> bool:
    """True when the record's seal matches its content under `key`."""
    found = data.get(SEAL_FIELD)
    return isinstance(found, str) and hmac.compare_digest(found, seal(data, key))
