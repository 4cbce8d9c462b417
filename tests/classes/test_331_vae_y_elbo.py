"""Class 331: the ELBO of a linear-Gaussian model checked by quadrature and closed forms."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "log_verosimilitud_exacta",
    "posterior_exacta",
    "elbo",
    "brecha",
    "kl_q_con_posterior",
    "brecha_es_kl_con_posterior",
    "elbo_acota_por_debajo",
    "elbo_en_la_posterior_exacta_es_log_px",
    "elbo_montecarlo_reparametrizado",
    "error_tipico_montecarlo",
    "cociente_de_errores_tipicos",
    "montecarlo_cerca_de_forma_cerrada",
]
N = 200_000
W, B, S, X = 2.0, 0.5, 1.0, 2.0
MU, SIGMA = 0.3, 0.6
# A fine grid in z where every density of the example is negligible outside.
Z = np.linspace(-12.0, 12.0, 240_001)
DZ = Z[1] - Z[0]


def log_gauss(v, mean, var):
    return -0.5 * np.log(2 * np.pi * var) - (v - mean) ** 2 / (2 * var)


def integrate(values: np.ndarray) -> float:
    """Trapezoidal rule on the grid Z."""
    return float(np.sum((values[1:] + values[:-1]) / 2) * DZ)


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(331)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["posterior_exacta"]) == ["media", "varianza"]
    assert list(out["elbo"]) == ["reconstruccion", "kl_con_prior", "total"]
    assert list(out["error_tipico_montecarlo"]) == [
        "elbo_completa",
        "reconstruccion_mas_kl_cerrada",
    ]


def test_syllabus_values(out: dict) -> None:
    assert out["log_verosimilitud_exacta"] == pytest.approx(-1.948657, abs=1e-6)
    assert out["posterior_exacta"] == pytest.approx({"media": 0.6, "varianza": 0.2}, abs=1e-6)
    assert out["elbo"]["reconstruccion"] == pytest.approx(-2.043939, abs=1e-6)
    assert out["elbo"]["kl_con_prior"] == pytest.approx(0.235826, abs=1e-6)
    assert out["elbo"]["total"] == pytest.approx(-2.279764, abs=1e-6)
    assert out["brecha"] == pytest.approx(0.331107, abs=1e-6)
    assert out["kl_q_con_posterior"] == pytest.approx(0.331107, abs=1e-6)


def test_marginal_and_posterior_by_quadrature(out: dict) -> None:
    # p(x) = ∫ p(x|z) p(z) dz and the posterior moments, with no conjugacy formula at all
    joint = np.exp(log_gauss(X, W * Z + B, S**2) + log_gauss(Z, 0.0, 1.0))
    evidence = integrate(joint)
    assert math.log(evidence) == pytest.approx(out["log_verosimilitud_exacta"], abs=1e-6)
    post = joint / evidence
    mean = integrate(Z * post)
    var = integrate((Z - mean) ** 2 * post)
    assert mean == pytest.approx(out["posterior_exacta"]["media"], abs=1e-6)
    assert var == pytest.approx(out["posterior_exacta"]["varianza"], abs=1e-6)


def test_elbo_terms_by_quadrature(out: dict) -> None:
    q = np.exp(log_gauss(Z, MU, SIGMA**2))
    reconstruction = integrate(q * log_gauss(X, W * Z + B, S**2))
    kl_prior = integrate(q * (log_gauss(Z, MU, SIGMA**2) - log_gauss(Z, 0.0, 1.0)))
    kl_post = integrate(q * (log_gauss(Z, MU, SIGMA**2) - log_gauss(Z, 0.6, 0.2)))
    assert out["elbo"]["reconstruccion"] == pytest.approx(reconstruction, abs=1e-6)
    assert out["elbo"]["kl_con_prior"] == pytest.approx(kl_prior, abs=1e-6)
    assert out["kl_q_con_posterior"] == pytest.approx(kl_post, abs=1e-6)
    # Kingma & Welling, appendix B: −KL = ½ (1 + log σ² − μ² − σ²)
    assert -out["elbo"]["kl_con_prior"] == pytest.approx(
        0.5 * (1 + math.log(SIGMA**2) - MU**2 - SIGMA**2), abs=1e-6
    )


def test_against_scipy_quadrature() -> None:
    integrate_mod = pytest.importorskip("scipy.integrate")
    out = emitted(331)

    def joint(z: float) -> float:
        return math.exp(log_gauss(X, W * z + B, S**2) + log_gauss(z, 0.0, 1.0))

    def kl_density(z: float) -> float:
        log_q = log_gauss(z, MU, SIGMA**2)
        return math.exp(log_q) * (log_q - log_gauss(z, 0.6, 0.2))

    evidence, _ = integrate_mod.quad(joint, -math.inf, math.inf)
    kl_post, _ = integrate_mod.quad(kl_density, -15, 15)
    assert out["log_verosimilitud_exacta"] == pytest.approx(math.log(evidence), abs=1e-6)
    assert out["kl_q_con_posterior"] == pytest.approx(kl_post, abs=1e-6)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    elbo = out["elbo"]
    assert elbo["total"] == pytest.approx(elbo["reconstruccion"] - elbo["kl_con_prior"], abs=2e-6)
    assert out["brecha"] == pytest.approx(out["log_verosimilitud_exacta"] - elbo["total"], abs=2e-6)
    # at six decimals the identity can only be checked to rounding
    assert out["brecha_es_kl_con_posterior"] == (
        abs(out["brecha"] - out["kl_q_con_posterior"]) < 2e-6
    )
    assert out["elbo_acota_por_debajo"] == (elbo["total"] <= out["log_verosimilitud_exacta"])
    std_error = out["error_tipico_montecarlo"]["elbo_completa"]
    assert out["montecarlo_cerca_de_forma_cerrada"] == (
        abs(out["elbo_montecarlo_reparametrizado"] - elbo["total"]) <= 4 * std_error + 1e-6
    )
    errors = out["error_tipico_montecarlo"]
    ratio = out["cociente_de_errores_tipicos"]
    assert ratio == pytest.approx(
        errors["elbo_completa"] / errors["reconstruccion_mas_kl_cerrada"], rel=1e-4
    )
    assert ratio == pytest.approx(math.sqrt(1.13 / 2.2032), abs=1e-6) and ratio < 1
    assert out["brecha_es_kl_con_posterior"] is True
    assert out["elbo_acota_por_debajo"] is True
    assert out["montecarlo_cerca_de_forma_cerrada"] is True


def test_bound_is_attained_at_the_exact_posterior(out: dict) -> None:
    mean, var = out["posterior_exacta"]["media"], out["posterior_exacta"]["varianza"]
    at_post = emitted(331, media_q=mean, desviacion_q=math.sqrt(var))
    assert at_post["brecha"] == pytest.approx(0.0, abs=1e-9)
    assert at_post["kl_q_con_posterior"] == pytest.approx(0.0, abs=1e-9)
    assert at_post["elbo"]["total"] == pytest.approx(out["log_verosimilitud_exacta"], abs=1e-6)
    assert out["elbo_en_la_posterior_exacta_es_log_px"] == (
        abs(at_post["elbo"]["total"] - out["log_verosimilitud_exacta"]) < 2e-6
    )
    # with q equal to the posterior the Monte Carlo integrand is the constant log p(x)
    assert at_post["elbo_montecarlo_reparametrizado"] == pytest.approx(
        out["log_verosimilitud_exacta"], abs=1e-9
    )


def test_monte_carlo_agrees_with_theory_statistically(out: dict) -> None:
    # integrand variance by quadrature gives the standard error of a 200 000-sample mean
    q = np.exp(log_gauss(Z, MU, SIGMA**2))
    integrand = log_gauss(X, W * Z + B, S**2) + log_gauss(Z, 0.0, 1.0) - log_gauss(Z, MU, SIGMA**2)
    mean = integrate(q * integrand)
    std_error = math.sqrt(integrate(q * (integrand - mean) ** 2) / N)
    assert std_error < 0.003
    assert abs(out["elbo_montecarlo_reparametrizado"] - out["elbo"]["total"]) < 4 * std_error
    assert 0.01 / std_error == pytest.approx(4.2, abs=0.05)  # the snapshot tolerance in SE units


def test_standard_errors_by_quadrature_and_by_sampling(out: dict) -> None:
    q = np.exp(log_gauss(Z, MU, SIGMA**2))
    reconstruction = log_gauss(X, W * Z + B, S**2)
    full = reconstruction + log_gauss(Z, 0.0, 1.0) - log_gauss(Z, MU, SIGMA**2)
    errors = {}
    for name, f in (("elbo_completa", full), ("reconstruccion_mas_kl_cerrada", reconstruction)):
        mean = integrate(q * f)
        errors[name] = math.sqrt(integrate(q * (f - mean) ** 2) / N)
        assert out["error_tipico_montecarlo"][name] == pytest.approx(errors[name], abs=1e-6)
    assert errors == pytest.approx(
        {
            "elbo_completa": math.sqrt(1.13 / N),
            "reconstruccion_mas_kl_cerrada": math.sqrt(2.2032 / N),
        }
    )
    # the same standard errors estimated from the lab's own draws (default_rng(0))
    eps = np.random.default_rng(0).standard_normal(N)
    z = MU + SIGMA * eps
    rec = log_gauss(X, W * z + B, S**2)
    whole = rec + log_gauss(z, 0.0, 1.0) - log_gauss(z, MU, SIGMA**2)
    assert whole.std() / math.sqrt(N) == pytest.approx(errors["elbo_completa"], rel=0.01)
    assert rec.std() / math.sqrt(N) == pytest.approx(
        errors["reconstruccion_mas_kl_cerrada"], rel=0.01
    )
    # both estimators aim at the same ELBO
    kl = out["elbo"]["kl_con_prior"]
    assert rec.mean() - kl == pytest.approx(
        out["elbo"]["total"], abs=4 * errors["reconstruccion_mas_kl_cerrada"]
    )


def test_full_estimator_has_zero_variance_at_the_posterior() -> None:
    at_post = emitted(331, media_q=0.6, desviacion_q=math.sqrt(0.2))
    assert at_post["error_tipico_montecarlo"]["elbo_completa"] == 0.0
    assert at_post["error_tipico_montecarlo"]["reconstruccion_mas_kl_cerrada"] > 1e-3
    assert at_post["montecarlo_cerca_de_forma_cerrada"] is True


def test_reparametrized_gradient_matches_the_closed_form() -> None:
    lab = lab_module(331)
    h = 1e-4
    # common random numbers: the same ε at μ ± h, as the reparametrization allows
    up = lab.elbo_montecarlo(X, MU + h, SIGMA, W, B, S, 200_000, 0)
    down = lab.elbo_montecarlo(X, MU - h, SIGMA, W, B, S, 200_000, 0)
    # d ELBO / dμ = w (x − b − w μ)/s² − μ = 2·0.9 − 0.3 = 1.5
    assert (up - down) / (2 * h) == pytest.approx(1.5, abs=0.05)


@pytest.mark.parametrize("bad", [{"desviacion_q": 0.0}, {"s": -1.0}, {"muestras": 0}])
def test_invalid_parameters_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        lab_module(331).run(**bad)


def test_monte_carlo_claim_follows_the_numbers_with_few_samples() -> None:
    few = emitted(331, muestras=3)
    assert few["error_tipico_montecarlo"]["elbo_completa"] == pytest.approx(
        math.sqrt(1.13 / 3), abs=1e-6
    )
    assert few["montecarlo_cerca_de_forma_cerrada"] == (
        abs(few["elbo_montecarlo_reparametrizado"] - few["elbo"]["total"])
        <= 4 * few["error_tipico_montecarlo"]["elbo_completa"] + 1e-6
    )


def test_which_estimator_varies_less_depends_on_the_parameters() -> None:
    # README: with these numbers the full integrand varies more (2a² + c² = 71.06 against 61.7472)
    other = emitted(
        331, x=0.5, media_q=-0.4, desviacion_q=1.2, w=1.0, b=-0.5, s=0.5, muestras=20000
    )
    residual = 0.5 - (-0.5) - 1.0 * (-0.4)  # x − b − wμ
    a_rec, c_rec = -(1.2**2) / (2 * 0.25), 1.2 * residual / 0.25
    a_full, c_full = a_rec + (1 - 1.2**2) / 2, c_rec + 0.4 * 1.2  # + log p(z) − log q(z)
    expected = math.sqrt((2 * a_full**2 + c_full**2) / (2 * a_rec**2 + c_rec**2))
    assert expected == pytest.approx(math.sqrt(71.06 / 61.7472))
    assert other["cociente_de_errores_tipicos"] == pytest.approx(expected, rel=1e-5)
    assert other["cociente_de_errores_tipicos"] > 1


def test_a_zero_weight_is_refused_in_spanish() -> None:
    # with w = 0 the reconstruction-only integrand is constant and the ratio would divide by zero
    with pytest.raises(ValueError, match="w no puede ser 0"):
        lab_module(331).run(w=0.0)
