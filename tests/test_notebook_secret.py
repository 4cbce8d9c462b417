"""The practice notebook carries no line of the course's solution: every cell, every output and
the metadata, with every string literal decoded as base64 (and zlib) where it can be, holds none
of the holes' solution lines, whitespace aside; and its checks, which compare with the values the
course's lab gave (never its code), still tell each right hole from a wrong one, hole by hole,
in every class."""

from __future__ import annotations

import ast
import base64
import binascii
import json
import re
import zlib
from typing import Any

import pytest

from compmath.holes.graft import course_lab
from compmath.holes.mutation import assigned
from compmath.notebook.build import build_notebook, notebook_path
from compmath.notebook.toolcode import tools_source
from tests.conftest import REPO
from tests.test_notebook import CLASSES, COURSE, IDS, run_cells, solved, source

WHITESPACE = re.compile(r"\s+")
PERTURB = '''\
_VECES = [0]


def _perturbado(valor, dentro=False):
    """The value a wrong hole leaves: every number moved, every flag flipped (its first 5000
    times: a loop that waits for the values to settle ends all the same)."""
    import numpy as np
    if not dentro:
        _VECES[0] += 1
        if _VECES[0] > 5000:
            return valor
    if isinstance(valor, np.ndarray) and valor.dtype.kind == "f":
        return valor * 1.5 + 0.5
    if isinstance(valor, np.ndarray) and valor.dtype.kind == "b":
        return ~valor
    if isinstance(valor, np.ndarray):
        return valor + 1
    if isinstance(valor, (bool, np.bool_)):
        return not valor
    if isinstance(valor, str):
        return valor + "~"
    if isinstance(valor, (int, float, np.number)):
        return valor * 1.5 + 1
    if isinstance(valor, (list, tuple)):
        return type(valor)([_perturbado(v, True) for v in valor])
    if isinstance(valor, dict):
        return {k: _perturbado(v, True) for k, v in valor.items()}
    return valor
'''


def squeezed(text: str) -> str:
    return WHITESPACE.sub("", text)


def decoded(text: str) -> list[str]:
    """`text` and what each of its string literals (joined where Python joins them) decodes to
    as base64, then zlib, when it does."""
    found = [text]
    try:
        literals = [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant)]
    except SyntaxError:
        literals = []
    for literal in literals:
        if not isinstance(literal, str) or len(literal) < 16:
            continue
        try:
            raw = base64.b64decode(literal, validate=True)
        except (binascii.Error, ValueError):
            continue
        for attempt in (lambda b: zlib.decompress(b), lambda b: b):
            try:
                found.append(attempt(raw).decode("utf-8"))
                break
            except (zlib.error, UnicodeDecodeError):
                continue
    return found


def everything(notebook: dict[str, Any]) -> str:
    """The notebook's text as a reader with four lines of Python could see it, squeezed."""
    parts = [json.dumps(notebook.get("metadata", {}), ensure_ascii=False)]
    for cell in notebook["cells"]:
        parts.append(json.dumps(cell.get("metadata", {}), ensure_ascii=False))
        parts += decoded(source(cell))
        parts += [json.dumps(o, ensure_ascii=False) for o in cell.get("outputs", [])]
    return squeezed("\n".join(parts))


def solution_lines(cls) -> list[str]:
    """Each line the course's solution regions hold, squeezed (blank lines aside), but those
    the exercise itself shows (an `else:` that its own code also has)."""
    lab = course_lab(cls)
    shown = squeezed(lab.exercise + tools_source())  # what any notebook shows
    lines = [squeezed(t) for r in lab.regions for t in r.body if t.strip()]
    secret = [line for line in lines if line not in shown]
    assert len(secret) >= len(lab.regions)  # every hole has lines of its own to look for
    return secret


@pytest.mark.lento  # every class's practice notebook built and decoded: 20 × up to 3 s
@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_no_line_of_the_solution_is_in_the_practice_notebook(cls) -> None:
    notebook = build_notebook(COURSE, cls, practice=True)
    text = everything(notebook)
    leaked = [line for line in solution_lines(cls) if line in text]
    assert not leaked, leaked
    # the check does look where the code would be: the same search finds it in the solved one
    assert all(line in everything(solved(notebook, cls.lab)) for line in solution_lines(cls))


@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_the_committed_practice_notebook_carries_none_either(cls) -> None:
    """What the repository offers for download (cuadernos/practica/), searched the same way."""
    committed = REPO / notebook_path(cls, practice=True)
    text = everything(json.loads(committed.read_text(encoding="utf-8")))
    assert not [line for line in solution_lines(cls) if line in text]


def test_the_old_notebook_would_have_failed_the_search() -> None:
    """The search is not blind: the lab as the former notebooks carried it (base64 + zlib, in a
    string literal) is found by it."""
    cls = COURSE.resolve("323")
    packed = base64.b64encode(zlib.compress(cls.lab.read_bytes(), 9)).decode("ascii")
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "source": f"X = {packed!r}"}
    text = everything({"cells": [cell], "metadata": {}})
    assert all(line in text for line in solution_lines(cls))


def wrong(notebook: dict[str, Any], cls, number: int) -> dict[str, Any]:
    """The solved notebook with hole `number` leaving every name it binds perturbed."""
    region = course_lab(cls).regions[number - 1]
    names = assigned(region)
    for cell in notebook["cells"]:
        text = source(cell)
        marker = f"### FIN DEL HUECO {number} ###"
        if cell["cell_type"] != "code" or marker not in text:
            continue
        lines = text.splitlines()
        at = next(i for i, t in enumerate(lines) if t.strip() == marker)
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
        lines[at:at] = [f"{indent}{n} = _perturbado({n})" for n in names]
        cell["source"] = "\n".join(lines)
    for cell in notebook["cells"]:  # each hole's check starts with a fresh count (a class
        # whose checks call a hole thousands of times, 330's sampling, used it up before)
        if cell["id"].startswith("comprobar-hueco-"):
            cell["source"] = "_VECES[0] = 0\n" + source(cell)
    kept = [c for c in notebook["cells"] if c["id"] not in ("ejecutar", "mapas", "comprobar")]
    prelude = {
        "cell_type": "code",
        "id": "perturbar",
        "metadata": {},
        "outputs": [],
        "source": PERTURB,
    }
    return {**notebook, "cells": [prelude, *kept]}  # the hole checks, not the whole run


@pytest.mark.lento  # every class's practice notebook, run once per hole
@pytest.mark.parametrize("cls", CLASSES, ids=IDS)
def test_each_wrong_hole_is_told_from_the_right_ones(cls) -> None:
    """Hole k leaving wrong values: hole k is not «bien», every other hole still is."""
    built = build_notebook(COURSE, cls, practice=True)
    holes = len(cls.meta.holes)
    for number in range(1, holes + 1):
        printed, _ = run_cells(wrong(solved(built, cls.lab), cls, number))
        for k in range(1, holes + 1):
            said = printed[f"comprobar-hueco-{k}"]
            if k == number:
                blamed = (f"✗ hueco {k} (mal)", f"✗ hueco {k} (falla)")
                assert said.startswith(blamed), (number, said)
            else:
                assert said.startswith(f"✓ hueco {k}: bien"), (number, k, said)
