"""The canonical encoder: rounding, numpy conversion, refusals with their path."""

import math

import numpy as np
import pytest

from compmath.base.encode import EncodeError, canonical_float, canonical_json, normalize


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.8414709848078965, 0.841471),
        (4.035829e-05, 4.03583e-05),  # 6 significant digits below 1e-3
        (0.000999999833, 0.001),
        (3e-16, 0.0),  # floating-point noise
        (-1e-13, 0.0),
        (-0.0, 0.0),
        (123456.78901234, 123456.789012),
        (1e-12, 1e-12),
    ],
)
def test_canonical_float(value: float, expected: float) -> None:
    out = canonical_float(value)
    assert out == expected
    assert math.copysign(1, out) == math.copysign(1, expected)


def test_negative_zero_prints_as_zero() -> None:
    assert canonical_json({"x": -0.0, "y": -1e-20}) == '{\n  "x": 0.0,\n  "y": 0.0\n}\n'


def test_numpy_values_become_plain_json() -> None:
    data = normalize(
        {"a": np.arange(3), "b": np.float32(0.5), "c": np.bool_(True), "d": (1, 2), "e": np.eye(2)}
    )
    assert data == {"a": [0, 1, 2], "b": 0.5, "c": True, "d": [1, 2], "e": [[1.0, 0.0], [0.0, 1.0]]}
    assert type(data["c"]) is bool and type(data["a"][0]) is int


def test_key_order_is_kept() -> None:
    assert list(normalize({"z": 1, "a": 2, "m": 3})) == ["z", "a", "m"]


@pytest.mark.parametrize(
    ("value", "path", "phrase"),
    [
        ({"fila_2": [0.0, float("nan")]}, "salida.fila_2[1]", "NaN"),
        ({"a": {"b": np.array([1.0, np.inf])}}, "salida.a.b[1]", "infinito"),
        ({"a": object()}, "salida.a", "no representable"),
        ({"a": {1: 2}}, "salida.a", "clave no textual"),
    ],
)
def test_refusals_name_the_path(value: object, path: str, phrase: str) -> None:
    with pytest.raises(EncodeError) as info:
        canonical_json(value)
    assert info.value.path == path
    assert phrase in info.value.problem


def test_a_list_is_not_a_dict() -> None:
    with pytest.raises(EncodeError, match="no un dict"):
        canonical_json([1, 2])


def test_text_is_utf8_indented_with_final_newline() -> None:
    assert canonical_json({"título": "ñ"}) == '{\n  "título": "ñ"\n}\n'


def test_other_decimals() -> None:
    assert canonical_float(0.123456789, 3) == 0.123
    assert canonical_float(0.0123456, 3) == 0.0123  # below 10^-1: 3 significant digits
