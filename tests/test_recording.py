"""The recorder's shortcuts change nothing it records.

The course's lab, instrumented, keeps for each function with a hole its first call and its
smallest (by `__tamano__`, a count of elements). A call whose record would pass its limit is
dropped, so the recorder does not even copy a call whose count passes the limit: that rests on
each counted element taking at least one character of the record's JSON, checked here on many
shapes of values. The count itself has a fast path for plain lists and tuples: it must agree
with the plain recursive definition. And 339, whose first call to q_learning holds every
episode (far past the limit), still records its smallest call and replays it.
"""

from __future__ import annotations

import copy
import inspect
import json
import random
from typing import Any

import numpy as np
import pytest

from compmath.course.tree import load_course
from compmath.notebook.recording import CALL_CHARACTERS, recording_source
from tests.conftest import REPO

COURSE = load_course(REPO)


def _instrumented(number: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"grabacion_{number}"}
    code = compile(recording_source(COURSE.resolve(number)), f"grabacion-{number}", "exec")
    exec(code, namespace)  # the course's own lab, as the recorder runs it
    return namespace


def _size(value: Any) -> int:
    """The count as first written: every element one, arrays by their size."""
    if hasattr(value, "size") and hasattr(value, "dtype"):
        return int(value.size)
    if isinstance(value, dict):
        return 1 + sum(_size(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(_size(v) for v in value)
    return 1


def _value(rng: random.Random, depth: int = 0) -> Any:
    """A value of the kinds labs pass: scalars (numpy's too), arrays, nested lists, tuples, dicts."""
    kinds = ["int", "float", "bool", "str", "none", "np_scalar", "array"]
    if depth < 3:
        kinds += ["list", "tuple", "dict"] * 2
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-5, 5)
    if kind == "float":
        return rng.choice([0.0, -0.0, 1.5, float("nan"), float("inf"), rng.random()])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "str":
        return rng.choice(["", "a", "clave"])
    if kind == "none":
        return None
    if kind == "np_scalar":
        return rng.choice([np.float64(0.5), np.int64(3), np.float32(-0.0)])
    if kind == "array":
        shape = tuple(rng.randint(0, 3) for _ in range(rng.randint(0, 2)))
        return (
            np.zeros(shape) if rng.random() < 0.5 else np.arange(int(np.prod(shape))).reshape(shape)
        )
    items = [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if kind == "list":
        return items
    if kind == "tuple":
        return tuple(items)
    return {f"k{i}": v for i, v in enumerate(items)}


@pytest.fixture(scope="module")
def lab_339() -> dict[str, Any]:
    return _instrumented("339")


def test_the_count_agrees_with_its_plain_definition_and_bounds_the_json(lab_339) -> None:
    size, codec = lab_339["__tamano__"], lab_339["Valores"]
    rng = random.Random(20261203)
    for _ in range(3000):
        arguments = {f"a{i}": _value(rng) for i in range(rng.randint(0, 4))}
        assert size(arguments) == _size(arguments), arguments
        record = json.dumps({"argumentos": codec.cifrar(arguments)})
        assert len(record) >= size(arguments), arguments


def test_a_first_call_past_the_limit_is_not_copied_and_the_smallest_is_recorded(lab_339) -> None:
    recorded = json.loads(lab_339["run"]()["grabacion"])
    chosen = lab_339["__grabacion__"]["elegidas"]["q_learning"]
    assert "primera" not in chosen  # every episode: far past a tenth of the limit
    size, copied = chosen["pequena"]
    assert copied is not None and size <= CALL_CHARACTERS
    (call,) = recorded["q_learning"]  # the smallest call, replayed
    assert len(json.dumps(call)) <= CALL_CHARACTERS
    episodes = lab_339["Valores"].descifrar(call["argumentos"])["episodios"]
    assert len(episodes) == lab_339["EPISODIOS_TRAMO"]  # one tramo of the experience


def test_same_to_the_bit_means_the_same_encoding(lab_339) -> None:
    """The replay encodes an argument after the call only when it is not the same to the bit as
    its copy from before: `__mismo__` may say no to values that encode alike (the encodings then
    decide), never yes to two that encode differently (-0.0 and 0.0, 1 and True, a NaN)."""
    same, codec = lab_339["__mismo__"], lab_339["Valores"]
    rng = random.Random(20261207)
    said_yes = 0
    for _ in range(3000):
        before, after = _value(rng), _value(rng)
        for pair in ((before, after), (before, copy.deepcopy(before))):
            if same(*pair):
                said_yes += 1
                assert codec.cifrar(pair[0]) == codec.cifrar(pair[1]), pair
    assert said_yes > 1000  # it does say yes: the copies of plain values are the same
    for a, b in ((0.0, -0.0), (1, True), (np.zeros(2), -np.zeros(2)), ([1.0], (1.0,))):
        assert not same(a, b)


def test_a_call_is_measured_as_its_bound_arguments_without_binding_it(lab_339) -> None:
    """The wrapper counts a call's arguments (positional, by name, defaults) as the count of
    its bound arguments; a call it cannot measure that way is bound, as before."""
    wrap, state = lab_339["__envuelta__"], lab_339["__grabacion__"]

    def f(a, b=(1, 2, 3), *, c=None):  # a keyword-only parameter: always bound
        return a

    def g(a, b=[0.5] * 4):
        return a

    state["fase"] = 1
    for name, function, calls in (
        ("g", g, [((), {"a": [1, 2]}), (([1, 2, 3, 4, 5],), {}), ((np.zeros(7), "x"), {})]),
        ("f", f, [((1,), {}), (([1, 2],), {"c": [3, 4, 5, 6, 7, 8]})]),
    ):
        wrapped = wrap(name, function)
        for args, kwargs in calls:
            state["elegidas"].pop(name, None)
            state["vistas"].pop(name, None)
            wrapped(*args, **kwargs)
            bound = inspect.signature(function).bind(*args, **kwargs)
            bound.apply_defaults()
            assert state["elegidas"][name]["pequena"][0] == _size(dict(bound.arguments))


def test_what_a_call_changes_in_place_is_recorded_copied_or_not() -> None:
    """The replay copies each argument to see afterwards whether the call changed it (a value
    written again the same is no change; the encodings decide what the copy cannot); where a
    copy cannot be made, it encodes the argument before the call instead, and says the same."""

    class NoCopies:
        @staticmethod
        def deepcopy(value: Any) -> Any:
            raise TypeError("no se puede copiar")

    def changes(x, y, z):  # x: a new value; y: written again, the same; z: a new element
        x[0] = 3.0
        y[0] = y[0]
        z.append(1)
        return None

    for copies in (True, False):
        lab = _instrumented("326")
        if not copies:
            lab["__copia__"] = NoCopies
        wrapped = lab["__envuelta__"]("changes", changes)
        lab["__DUENOS__"] = {"changes": [1]}
        lab["changes__del_curso__"] = changes
        lab["__run_del_curso__"] = lambda call=wrapped: call(np.zeros(2), [2.5], [])
        recorded = json.loads(lab["run"]()["grabacion"])
        (call,) = recorded["changes"]
        assert sorted(call["cambia"]) == ["x", "z"], copies
        assert list(lab["Valores"].descifrar(call["cambia"]["x"])) == [3.0, 0.0]
