"""Class 334: the coupling flow's density by hand-derived Jacobians, a semi-analytic mass, scipy."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "inversa", "reconstruccion_exacta", "log_det_jacobiano", "log_det_coincide",
    "jacobiano_triangular", "log_densidad_x", "integral_de_la_densidad", "densidad_integra_uno",
    "flujo_afin", "flujo_afin_coincide_con_gaussiana",
]


def s(u: float) -> float:
    return 0.5 * math.tanh(u)


def inverse(x1: float, x2: float) -> tuple[float, float]:
    return x1, (x2 - 0.8 * x1) * math.exp(-s(x1))


def forward(z1: float, z2: float) -> tuple[float, float]:
    return z1, z2 * math.exp(s(z1)) + 0.8 * z1


def jacobian_of_inverse(x1: float, x2: float) -> list[list[float]]:
    """∂f/∂x derived by hand: s'(u) = ½ (1 − tanh² u)."""
    ds = 0.5 * (1 - math.tanh(x1) ** 2)
    e = math.exp(-s(x1))
    return [[1.0, 0.0], [(-0.8 - (x2 - 0.8 * x1) * ds) * e, e]]


def mass_in_box(limit: float) -> float:
    """P(x ∈ [−L, L]²) = ∫ φ(z₁) P(|z₂ e^{s(z₁)} + 0.8 z₁| ≤ L) dz₁, for |z₁| ≤ L (x₁ = z₁)."""
    z1 = np.linspace(-limit, limit, 20_001)
    phi = np.exp(-z1**2 / 2) / math.sqrt(2 * math.pi)
    scale = np.exp(-0.5 * np.tanh(z1))
    cdf = np.vectorize(lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2))))
    inside = cdf((limit - 0.8 * z1) * scale) - cdf((-limit - 0.8 * z1) * scale)
    values = phi * inside
    return float(np.sum((values[1:] + values[:-1]) / 2) * (z1[1] - z1[0]))


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(334)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["inversa"]) == ["x", "z"]
    assert list(out["log_det_jacobiano"]) == ["formula", "numerico"]
    assert list(out["flujo_afin"]) == ["cambio_de_variable", "gaussiana"]


def test_syllabus_values(out: dict) -> None:
    assert out["inversa"]["x"] == [0.5, 1.0]
    assert out["inversa"]["z"] == pytest.approx([0.5, 0.476216], abs=1e-6)
    assert out["log_det_jacobiano"] == pytest.approx(
        {"formula": -0.231059, "numerico": -0.231059}, abs=1e-6
    )
    assert out["log_densidad_x"] == pytest.approx(-2.307326, abs=1e-6)
    assert out["integral_de_la_densidad"] == pytest.approx(0.999996, abs=1e-6)
    assert out["flujo_afin"] == pytest.approx(
        {"cambio_de_variable": -6.704127, "gaussiana": -6.704127}, abs=1e-6
    )


def test_inverse_and_reconstruction_recomputed(out: dict) -> None:
    x1, x2 = out["inversa"]["x"]
    z = inverse(x1, x2)
    assert out["inversa"]["z"] == pytest.approx(list(z), abs=1e-6)
    back = forward(*z)
    assert out["reconstruccion_exacta"] == (max(abs(back[0] - x1), abs(back[1] - x2)) < 1e-12)
    assert out["reconstruccion_exacta"] is True


def test_log_det_against_the_hand_derived_jacobian(out: dict) -> None:
    jac = jacobian_of_inverse(0.5, 1.0)
    det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0]
    assert out["log_det_jacobiano"]["formula"] == pytest.approx(math.log(abs(det)), abs=1e-6)
    assert out["log_det_jacobiano"]["numerico"] == pytest.approx(math.log(abs(det)), abs=1e-6)
    # the numerical Jacobian of the lab itself, entry by entry
    numeric = lab_module(334).jacobiano_numerico(np.array([0.5, 1.0]), 1e-5)
    assert numeric == pytest.approx(np.array(jac), abs=1e-8)
    log_det = out["log_det_jacobiano"]
    assert out["log_det_coincide"] == (abs(log_det["formula"] - log_det["numerico"]) < 2e-6)
    assert out["jacobiano_triangular"] == (abs(numeric[0, 1]) < 1e-9)
    assert out["log_det_coincide"] is True and out["jacobiano_triangular"] is True


def test_density_from_the_generative_direction(out: dict) -> None:
    # p_X(x) = p_Z(z) / |det ∂g/∂z| with det ∂g/∂z = e^{s(z₁)}: the same density, seen from z
    z1, z2 = inverse(0.5, 1.0)
    log_pz = -math.log(2 * math.pi) - 0.5 * (z1**2 + z2**2)
    assert out["log_densidad_x"] == pytest.approx(log_pz - s(z1), abs=1e-6)


def test_integral_matches_the_mass_inside_the_box(out: dict) -> None:
    mass = mass_in_box(8.0)
    assert 1 - mass == pytest.approx(3.92e-6, abs=2e-8)  # the missing mass lies outside [−8, 8]²
    assert out["integral_de_la_densidad"] == pytest.approx(mass, abs=1e-6)
    assert out["densidad_integra_uno"] == (abs(out["integral_de_la_densidad"] - 1) < 1e-3)
    assert out["densidad_integra_uno"] is True


def test_a_small_box_misses_mass_and_the_claim_follows() -> None:
    small = emitted(334, limite=2.0, paso=0.02)
    # the node sum gives full weight to the boundary nodes, where the density is not negligible now
    assert small["integral_de_la_densidad"] == pytest.approx(mass_in_box(2.0), abs=5e-3)
    assert small["integral_de_la_densidad"] < 0.9
    assert small["densidad_integra_uno"] is False


def test_affine_flow_against_a_hand_written_gaussian(out: dict) -> None:
    # N(b, A Aᵀ) with A Aᵀ = [[4, 2], [2, 1.25]], det 1, inverse [[1.25, −2], [−2, 4]]
    r = (0.3 - 1.0, 0.2 + 1.0)
    quad = 1.25 * r[0] ** 2 - 4 * r[0] * r[1] + 4 * r[1] ** 2
    log_pdf = -math.log(2 * math.pi) - 0.5 * math.log(1.0) - 0.5 * quad
    affine = out["flujo_afin"]
    assert affine["gaussiana"] == pytest.approx(log_pdf, abs=1e-6)
    assert affine["cambio_de_variable"] == pytest.approx(log_pdf, abs=1e-6)
    assert out["flujo_afin_coincide_con_gaussiana"] == (
        abs(affine["cambio_de_variable"] - affine["gaussiana"]) < 2e-6
    )


def test_affine_flow_against_scipy(out: dict) -> None:
    stats = pytest.importorskip("scipy.stats")
    a = np.array([[2.0, 0.0], [1.0, 0.5]])
    expected = stats.multivariate_normal(mean=[1, -1], cov=a @ a.T).logpdf([0.3, 0.2])
    assert out["flujo_afin"]["gaussiana"] == pytest.approx(float(expected), abs=1e-6)


def test_other_points_reconstruct_and_keep_the_formula() -> None:
    for x1, x2 in [(-3.0, 4.0), (2.5, -1.5), (0.0, 0.0)]:
        result = emitted(334, x1=x1, x2=x2, paso=0.1)
        z1, z2 = inverse(x1, x2)
        assert result["inversa"]["z"] == pytest.approx([z1, z2], abs=1e-6)
        assert result["reconstruccion_exacta"] is True
        assert result["log_det_jacobiano"]["numerico"] == pytest.approx(-s(x1), abs=1e-6)
        assert result["log_densidad_x"] == pytest.approx(
            -math.log(2 * math.pi) - 0.5 * (z1**2 + z2**2) - s(x1), abs=1e-6
        )


@pytest.mark.parametrize("bad", [{"paso": 0.0}, {"limite": -1.0}, {"paso": 1e-4}])
def test_invalid_grids_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        lab_module(334).run(**bad)
