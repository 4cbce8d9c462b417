"""A committed practice notebook stays current on another processor: its recordings keep every
real exactly, and NumPy's vectorised functions may differ in the last bits between machines
(the notebook's own check compares with a tolerance far above that). Only that noise is
forgiven: a real that moved more, a key, a type or a word makes the notebook stale, and lint
and `compmath notebook --check` say so."""

from __future__ import annotations

import base64
import json
import re
import shutil
import zlib
from pathlib import Path
from typing import Any

import pytest

from compmath.notebook.freshness import FLOAT_NOISE, up_to_date
from compmath.notebook.tools import REFERENCE_NAME
from tests.conftest import REPO

COMMITTED = REPO / "cuadernos" / "practica" / "323-positional-encoding.ipynb"
PACKED = re.compile(rf"({REFERENCE_NAME} = \(\n)(.*?)(\n\))", re.S)


def _cell(notebook: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in notebook["cells"] if REFERENCE_NAME in "".join(c["source"]))


def _recorded(notebook: dict[str, Any]) -> Any:
    found = PACKED.search("".join(_cell(notebook)["source"]))
    assert found is not None
    packed = "".join(re.findall(r'"([^"]*)"', found.group(2)))
    return json.loads(zlib.decompress(base64.b64decode(packed)))


def _repacked(data: bytes, change: Any) -> bytes:
    """The notebook with its recordings passed through `change` and packed as compmath packs
    them (tools.reference_source), the rest as it was."""
    notebook = json.loads(data)
    recorded = change(_recorded(notebook))
    text = json.dumps(recorded, sort_keys=True, separators=(",", ":"))
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    rows = "\n".join(f'    "{packed[i : i + 80]}"' for i in range(0, len(packed), 80))
    cell = _cell(notebook)
    source = PACKED.sub(lambda m: m.group(1) + rows + m.group(3), "".join(cell["source"]))
    cell["source"] = source.splitlines(keepends=True)
    return (json.dumps(notebook, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _reals(value: Any, move: Any) -> Any:
    """Every real of `value` through `move` (ints, bools and texts kept)."""
    if isinstance(value, float):
        return move(value)
    if isinstance(value, dict):
        return {k: _reals(v, move) for k, v in value.items()}
    if isinstance(value, list):
        return [_reals(v, move) for v in value]
    return value


def _first_real(value: Any, move: Any) -> tuple[Any, bool]:
    """`value` with only its first real moved."""
    if isinstance(value, float):
        return move(value), True
    if isinstance(value, (dict, list)):
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        out = dict(value) if isinstance(value, dict) else list(value)
        for key, item in items:
            out[key], done = _first_real(item, move)
            if done:
                return out, True
        return out, False
    return value, False


def _ulps(x: float) -> float:
    import math

    return math.nextafter(math.nextafter(x, math.inf), math.inf) if x else x


@pytest.fixture(scope="module")
def committed() -> bytes:
    data = COMMITTED.read_bytes()
    assert json.loads(_repacked(data, lambda r: r)) == json.loads(data)  # the packing is compmath's
    return data


def test_the_same_bytes_and_the_same_recordings_repacked_are_current(committed: bytes) -> None:
    assert up_to_date(committed, committed)
    assert up_to_date(committed, _repacked(committed, lambda r: r))


def test_recordings_two_ulps_away_everywhere_are_current(committed: bytes) -> None:
    """What another processor's exp and power give: every real a couple of ulps away."""
    other = _repacked(committed, lambda r: _reals(r, _ulps))
    assert other != committed
    assert up_to_date(committed, other) and up_to_date(other, committed)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda r: _first_real(r, lambda x: x * (1 + 100 * FLOAT_NOISE))[0], id="real"),
        pytest.param(lambda r: _first_real(r, lambda x: -x if x else 1.0)[0], id="signo"),
        pytest.param(lambda r: _reals(r, lambda x: int(x) if x.is_integer() else x), id="tipo"),
        pytest.param(lambda r: r[:-1], id="una-variante-menos"),
        pytest.param(lambda r: [{**r[0], "otra": []}, *r[1:]], id="una-clave-mas"),
    ],
)
def test_a_recording_that_changed_beyond_the_noise_is_stale(committed: bytes, change: Any) -> None:
    other = _repacked(committed, change)
    assert json.loads(other) != json.loads(committed)
    assert not up_to_date(committed, other)


def test_a_word_changed_anywhere_is_stale_even_beside_noisy_recordings(committed: bytes) -> None:
    noisy = _repacked(committed, lambda r: _reals(r, _ulps))
    for old, new in (
        ("#@title Lo que da", "#@title Lo que daba"),
        ("Comprobacion(", "Comprobacio("),
    ):
        assert old in noisy.decode()
        assert not up_to_date(committed, noisy.decode().replace(old, new, 1).encode())


def test_an_entry_zero_up_to_rounding_is_as_noisy_as_its_array(committed: bytes) -> None:
    """337's eigenvectors on a processor with AVX-512: entries that are 0 up to rounding came
    out 7.9e-17 on one machine and 5.9e-17 (or −1.4e-16 against 1.4e-16) on another, beside
    entries near 0.4. The noise of an entry is its array's; a real that moved by more than
    that, even one near zero, is not noise."""

    def vector(at: float) -> Any:
        return lambda r: [*r, {"v": [[0.4082482904638631, at, -0.7071067811865476]]}]

    base = _repacked(committed, vector(7.850462293418876e-17))
    for other in (5.887846720064157e-17, -1.3738309013483032e-16, 0.0):
        assert up_to_date(base, _repacked(committed, vector(other)))
    assert not up_to_date(base, _repacked(committed, vector(1e-6)))  # beyond the array's noise
    # alone, a real near zero is judged against itself: 1e-16 against 2e-16 is a change
    alone = _repacked(committed, lambda r: [*r, {"s": 1e-16}])
    assert not up_to_date(alone, _repacked(committed, lambda r: [*r, {"s": 2e-16}]))


@pytest.mark.parametrize(
    "broken",
    [b"", b"{", b'{"cells": 3}', b"[]", "\udcff".encode("utf-8", "surrogatepass")],
    ids=["vacio", "json-roto", "sin-celdas", "no-objeto", "no-utf8"],
)
def test_a_broken_notebook_is_stale_never_an_error(committed: bytes, broken: bytes) -> None:
    assert not up_to_date(broken, committed) and not up_to_date(committed, broken)


def test_a_recording_that_does_not_unpack_is_stale(committed: bytes) -> None:
    text = committed.decode()
    found = PACKED.search(json.loads(text) and "".join(_cell(json.loads(text))["source"]))
    assert found is not None
    first_row = re.search(r'"([^"]{20})', found.group(2))
    assert first_row is not None
    broken = text.replace(first_row.group(1), "!" * 20, 1).encode()
    assert not up_to_date(committed, broken)


def test_compmath_notebook_keeps_a_noisy_copy_and_check_calls_it_current(
    cli, tmp_path: Path, committed: bytes
) -> None:
    """The CLI on a copy of the course: a committed notebook recorded on another processor is
    «al día» for --check and lint, and `compmath notebook` leaves it as it is (no churn from one
    machine to the next); one whose recording moved beyond the noise is stale for both."""
    course = tmp_path / "curso"
    for part in ("classes", "schemas", "cuadernos"):
        shutil.copytree(REPO / part, course / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "curso.toml", course / "curso.toml")
    target = course / COMMITTED.relative_to(REPO)
    noisy = _repacked(committed, lambda r: _reals(r, _ulps))
    target.write_bytes(noisy)
    checked = cli("notebook", "323", "--practice", "--check", "--root", str(course))
    assert checked.code == 0 and "al día" in checked.out, checked.out
    written = cli("notebook", "323", "--practice", "--root", str(course))
    assert written.code == 0 and target.read_bytes() == noisy, written.out
    moved = _repacked(committed, lambda r: _first_real(r, lambda x: x * 1.001 if x else 1.0)[0])
    target.write_bytes(moved)
    stale = cli("notebook", "323", "--practice", "--check", "--root", str(course))
    assert stale.code != 0 and "no está al día" in stale.out, stale.out
    rewritten = cli("notebook", "323", "--practice", "--root", str(course))
    assert rewritten.code == 0 and up_to_date(target.read_bytes(), committed)
    assert target.read_bytes() != moved
