"""Leaf-by-leaf comparison with tolerances."""

from compmath.course.records import Tolerance
from compmath.judging.compare import compare, key_order_differs

TOL = Tolerance()


def test_equal_within_tolerance() -> None:
    assert compare({"a": 1.0}, {"a": 1.0 + 5e-7}, TOL) == []


def test_number_beyond_tolerance_reports_error_and_tolerance() -> None:
    (d,) = compare({"a": [1.0, 2.0]}, {"a": [1.0, 2.1]}, TOL)
    assert d.path == "salida.a[1]" and d.kind == "valor"
    assert abs(d.abs_error - 0.1) < 1e-12 and abs(d.tolerance - (1e-6 + 2e-6)) < 1e-15


def test_bool_never_equals_int_and_int_is_exact() -> None:
    kinds = {
        d.path: d.kind
        for d in compare({"b": True, "i": 3, "f": 2.0}, {"b": 1, "i": 4, "f": 2}, TOL)
    }
    assert kinds == {"salida.b": "tipo", "salida.i": "valor", "salida.f": "tipo"}


def test_declared_tolerance_applies_to_integers() -> None:
    counts = Tolerance(atol=100, rtol=0, declared=True)
    assert compare({"n": 1000}, {"n": 1050}, TOL, {"n": counts}) == []
    assert compare({"n": 1000}, {"n": 1050}, TOL) != []


def test_missing_extra_and_length() -> None:
    diffs = compare({"a": 1, "b": [1, 2], "c": {"x": 1}}, {"b": [1], "c": {"y": 1}, "d": 0}, TOL)
    assert [(d.path, d.kind) for d in diffs] == [
        ("salida.a", "falta"),
        ("salida.b", "longitud"),
        ("salida.c.x", "falta"),
        ("salida.c.y", "sobra"),
        ("salida.d", "sobra"),
    ]


def test_strings_exact_and_order() -> None:
    assert compare({"s": "RoPE"}, {"s": "rope"}, TOL)[0].kind == "valor"
    assert key_order_differs({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not key_order_differs({"a": 1}, {"a": 1})


def test_per_output_tolerance() -> None:
    loose = {"mc": Tolerance(atol=0.01, declared=True)}
    assert (
        compare({"mc": 0.5, "x": 0.5}, {"mc": 0.505, "x": 0.505}, TOL, loose)[0].path == "salida.x"
    )
