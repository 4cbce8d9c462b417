"""Class 334: the coupling flow's density by hand-derived and complex-step Jacobians, a
semi-analytic mass, and the affine flow against a hand-written Gaussian and scipy."""

import cmath
import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "inversa",
    "reconstruccion_exacta",
    "log_det_jacobiano",
    "log_det_coincide",
    "jacobiano_numerico",
    "log_densidad_x",
    "integral_de_la_densidad",
    "densidad_integra_uno",
    "flujo_afin",
    "flujo_afin_coincide_con_gaussiana",
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


def complex_step_jacobian(x: tuple[float, float], layers: int) -> list[list[float]]:
    """∂f/∂x of the whole normalizing map, by complex-step differentiation (no subtraction)."""

    def s_c(u: complex) -> complex:
        return 0.5 * cmath.tanh(u)

    def f_c(v: list[complex]) -> list[complex]:
        for k in reversed(range(layers)):  # undo the last generative layer first
            fixed, other = k % 2, 1 - k % 2
            v = list(v)
            v[other] = (v[other] - 0.8 * v[fixed]) * cmath.exp(-s_c(v[fixed]))
        return v

    h = 1e-30
    jac = [[0.0, 0.0], [0.0, 0.0]]
    for j in range(2):
        v = [complex(c) for c in x]
        v[j] += 1j * h
        out = f_c(v)
        for i in range(2):
            jac[i][j] = out[i].imag / h
    return jac


def mass_in_box(limit: float) -> float:
    """P(x ∈ [−L, L]²) = ∫ φ(z₁) P(|z₂ e^{s(z₁)} + 0.8 z₁| ≤ L) dz₁, for |z₁| ≤ L (x₁ = z₁)."""
    z1 = np.linspace(-limit, limit, 20_001)
    phi = np.exp(-(z1**2) / 2) / math.sqrt(2 * math.pi)
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
        {"cambio_de_variable": -3.585734, "gaussiana": -3.585734}, abs=1e-6
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
    numeric = lab_module(334).jacobiano_numerico(np.array([0.5, 1.0]), 1, 1e-5)
    assert numeric == pytest.approx(np.array(jac), abs=1e-8)
    assert np.array(complex_step_jacobian((0.5, 1.0), 1)) == pytest.approx(np.array(jac), abs=1e-12)
    log_det = out["log_det_jacobiano"]
    assert out["log_det_coincide"] == (abs(log_det["formula"] - log_det["numerico"]) < 2e-6)
    independent = complex_step_jacobian((0.5, 1.0), 1)
    off_diagonal = min(abs(independent[0][1]), abs(independent[1][0]))
    assert off_diagonal < 1e-12  # one layer: J₁₂ = 0
    assert np.array(out["jacobiano_numerico"]) == pytest.approx(np.array(independent), abs=2e-6)
    assert out["jacobiano_numerico"][0][1] == 0.0
    assert out["log_det_coincide"] is True


def test_two_alternating_layers_give_a_full_jacobian_whose_log_det_still_adds() -> None:
    # README: with capas=2 the composition is not triangular (jacobiano_numerico shows it), yet the
    # sum of the layers' −s still equals log |det| of the whole Jacobian
    two = emitted(334, capas=2, limite=12.0)
    jac = complex_step_jacobian((0.5, 1.0), 2)
    assert np.array(jac) == pytest.approx(
        np.array([[0.683317, -0.503607], [-1.026809, 1.863133]]), abs=1e-6
    )
    assert min(abs(jac[0][1]), abs(jac[1][0])) > 0.1
    assert np.array(two["jacobiano_numerico"]) == pytest.approx(np.array(jac), abs=2e-6)
    det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0]
    # undo layer 2 (x₂ fixed), then layer 1 (the new first coordinate fixed)
    z1 = (0.5 - 0.8 * 1.0) * math.exp(-s(1.0))
    z2 = (1.0 - 0.8 * z1) * math.exp(-s(z1))
    layer_sum = -s(1.0) - s(z1)
    assert layer_sum == pytest.approx(math.log(abs(det)), abs=1e-12)
    assert two["inversa"]["z"] == pytest.approx([z1, z2], abs=1e-6)
    assert two["log_det_jacobiano"] == pytest.approx(
        {"formula": layer_sum, "numerico": layer_sum}, abs=1e-6
    )
    assert two["log_det_coincide"] is True and two["reconstruccion_exacta"] is True
    assert two["log_densidad_x"] == pytest.approx(
        -math.log(2 * math.pi) - 0.5 * (z1**2 + z2**2) + layer_sum, abs=1e-6
    )
    assert two["integral_de_la_densidad"] == pytest.approx(0.999997, abs=1e-6)
    assert two["densidad_integra_uno"] is True
    # the default box is too small for the wider two-layer density
    assert emitted(334, capas=2)["integral_de_la_densidad"] == pytest.approx(0.998828, abs=1e-6)


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
    # N(b, A Aᵀ) with A Aᵀ = [[4, 2], [2, 5]], det 16, inverse [[5, −2], [−2, 4]] / 16
    r = (0.3 - 1.0, 0.2 + 1.0)
    quad = (5 * r[0] ** 2 - 4 * r[0] * r[1] + 4 * r[1] ** 2) / 16
    log_pdf = -math.log(2 * math.pi) - 0.5 * math.log(16.0) - 0.5 * quad
    # README: z = A⁻¹(x − b) = (−0.35, 0.775), and the volume term −log |det A| = −log 4 matters
    assert quad == pytest.approx(0.35**2 + 0.775**2, abs=1e-12)
    assert log_pdf == pytest.approx(-3.585734, abs=1e-6)
    assert log_pdf + math.log(4) == pytest.approx(-2.199440, abs=1e-6)  # without the volume term
    affine = out["flujo_afin"]
    assert affine["gaussiana"] == pytest.approx(log_pdf, abs=1e-6)
    assert affine["cambio_de_variable"] == pytest.approx(log_pdf, abs=1e-6)
    assert out["flujo_afin_coincide_con_gaussiana"] == (
        abs(affine["cambio_de_variable"] - affine["gaussiana"]) < 2e-6
    )


@pytest.mark.lento  # seconds: out of the quick loop
def test_affine_flow_against_scipy(out: dict) -> None:
    stats = pytest.importorskip("scipy.stats")
    a = np.array([[2.0, 0.0], [1.0, 2.0]])
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


@pytest.mark.parametrize("bad", [{"paso": 0.0}, {"limite": -1.0}, {"paso": 1e-4}, {"capas": 0}])
def test_invalid_grids_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        lab_module(334).run(**bad)
