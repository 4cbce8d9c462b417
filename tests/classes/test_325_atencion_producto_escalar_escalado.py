"""Class 325: Monte Carlo variances against theory, saturation recomputed, stable softmax."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "varianza_sin_escalar",
    "varianza_escalada",
    "la_varianza_crece_con_dk",
    "la_varianza_escalada_es_cercana_a_uno",
    "peso_maximo",
    "entropia",
    "norma_jacobiano_softmax",
    "el_escalado_evita_la_saturacion",
    "softmax_ingenua_desborda",
    "softmax_estable",
]
DIMS = [4, 16, 64, 256]


def standard_error_of_variance(d: int, n: int = 4000) -> float:
    """q·k sums d iid products of variance 1 and fourth moment 9, so Var((q·k)²) = 2d² + 6d."""
    return math.sqrt((2 * d * d + 6 * d) / n)


def softmax(z: list[float]) -> list[float]:
    m = max(z)
    e = [math.exp(x - m) for x in z]
    return [x / sum(e) for x in e]


def jacobian_by_finite_differences(z: np.ndarray, h: float = 1e-6) -> np.ndarray:
    cols = []
    for j in range(len(z)):
        dz = np.zeros(len(z))
        dz[j] = h
        cols.append((np.array(softmax(list(z + dz))) - np.array(softmax(list(z - dz)))) / (2 * h))
    return np.array(cols).T


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(325)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["varianza_sin_escalar"]) == [str(d) for d in DIMS]


def test_variances_against_theory_within_five_standard_errors(out: dict) -> None:
    for d in DIMS:
        se = standard_error_of_variance(d)
        assert abs(out["varianza_sin_escalar"][str(d)] - d) < 5 * se
        assert abs(out["varianza_escalada"][str(d)] - 1) < 5 * se / d
        assert out["varianza_escalada"][str(d)] == pytest.approx(
            out["varianza_sin_escalar"][str(d)] / d, abs=1e-5
        )
    assert standard_error_of_variance(256) / 256 == pytest.approx(
        0.03, abs=0.01
    )  # the syllabus' "≈ 0.03"


def test_variances_recomputed_with_the_same_stream(out: dict) -> None:
    """Same numpy on both sides, so the digits must agree; the stream itself is not pinned."""
    rng = np.random.default_rng(0)
    for d in DIMS:
        q, k = rng.standard_normal((4000, d)), rng.standard_normal((4000, d))
        s = np.einsum("ij,ij->i", q, k)
        assert out["varianza_sin_escalar"][str(d)] == pytest.approx(
            np.mean((s - s.mean()) ** 2), abs=1e-6
        )


def test_variance_claims_recomputed(out: dict) -> None:
    v = [out["varianza_sin_escalar"][str(d)] for d in DIMS]
    assert out["la_varianza_crece_con_dk"] == all(v[i] < v[i + 1] for i in range(len(v) - 1))
    assert out["la_varianza_escalada_es_cercana_a_uno"] == all(
        abs(x - 1) <= 0.1 for x in out["varianza_escalada"].values()
    )
    assert out["la_varianza_crece_con_dk"] and out["la_varianza_escalada_es_cercana_a_uno"]


def test_saturation_recomputed_independently(out: dict) -> None:
    special = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(1)
    q = rng.standard_normal(256)
    keys = rng.standard_normal((8, 256))
    z = keys @ q
    for label, logits in (("sin_escalar", z), ("escalado", z / 16)):
        p = special.softmax(logits)
        assert out["peso_maximo"][label] == pytest.approx(p.max(), abs=1e-6)
        entropy_key = "escalada" if label == "escalado" else label
        assert out["entropia"][entropy_key] == pytest.approx(special.entr(p).sum(), abs=1e-6)
        jac = jacobian_by_finite_differences(logits)
        assert np.allclose(jac, np.diag(p) - np.outer(p, p), atol=1e-8)
        assert out["norma_jacobiano_softmax"][label] == pytest.approx(
            np.linalg.norm(jac), rel=1e-4, abs=1e-8
        )
    assert out["entropia"]["maxima_log8"] == pytest.approx(math.log(8), abs=1e-6)


def test_saturation_claim_and_bounds(out: dict) -> None:
    h, j = out["entropia"], out["norma_jacobiano_softmax"]
    assert out["el_escalado_evita_la_saturacion"] == (
        h["escalada"] > h["sin_escalar"] and j["escalado"] > j["sin_escalar"]
    )
    assert out["el_escalado_evita_la_saturacion"]
    for value in (h["sin_escalar"], h["escalada"]):
        assert 0 <= value <= h["maxima_log8"]
    for p in out["peso_maximo"].values():
        assert 1 / 8 <= p <= 1


def test_naive_softmax_overflows_and_stable_one_does_not(out: dict) -> None:
    special = pytest.importorskip("scipy.special")
    z = np.array([1000.0, 999.0, 998.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(z) / np.exp(z).sum()
    assert out["softmax_ingenua_desborda"] == bool(np.isnan(naive).any())
    assert out["softmax_ingenua_desborda"]
    assert out["softmax_estable"] == pytest.approx(list(special.softmax(z)), abs=1e-6)
    assert out["softmax_estable"] == pytest.approx(list(np.exp(z - special.logsumexp(z))), abs=1e-6)
    assert out["softmax_estable"] == pytest.approx([0.665241, 0.244728, 0.090031], abs=1e-6)
    assert out["softmax_estable"] == pytest.approx(softmax([0.0, -1.0, -2.0]), abs=1e-6)


def test_softmax_is_shift_invariant_and_jacobian_vanishes_when_one_hot() -> None:
    lab = lab_module(325)
    z = np.array([0.3, -1.2, 2.0, 0.0])
    assert np.allclose(lab.softmax(z), lab.softmax(z + 123.0), atol=1e-15)
    one_hot = lab.softmax(np.array([80.0, 0.0, 0.0]))
    assert np.linalg.norm(lab.jacobiano_softmax(one_hot)) < 1e-30
    uniform = np.full(8, 1 / 8)
    assert lab.entropia(uniform) == pytest.approx(math.log(8), abs=1e-12)
    assert lab.entropia(np.array([1.0, 0.0, 0.0])) == 0.0  # 0·log 0 = 0


def test_scaling_by_d_instead_of_sqrt_d_undershoots() -> None:
    lab = lab_module(325)
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((4000, 64)), rng.standard_normal((4000, 64))
    s = np.sum(q * k, axis=1)
    assert abs(np.var(s / 64) - 1 / 64) < 5 * standard_error_of_variance(64) / 64**2
    assert lab.varianzas_producto((64,), 4000, 3)[1][0] == pytest.approx(np.var(s / 8), abs=1e-12)
