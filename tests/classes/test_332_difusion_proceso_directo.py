"""Class 332: the DDPM forward process in plain Python, its posterior by Gaussian conditioning."""

import math

import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "betas_extremos", "alpha_barra", "snr", "alpha_barra_decrece",
    "el_ultimo_paso_es_casi_ruido_puro", "forma_cerrada_igual_a_iterar",
    "la_varianza_se_conserva", "posterior_t500", "beta_tilde_menor_que_beta", "muestra_t500",
]
TIMES = [1, 10, 100, 250, 500, 1000]
SYLLABUS_ALPHA_BAR = [0.9999, 0.998105, 0.897018, 0.524085, 0.078587, 4.03583e-05]
SYLLABUS_SNR = [9999.0, 526.761519, 8.710449, 1.101217, 0.08529, 4.03599e-05]


def schedule(beta_1: float = 1e-4, beta_T: float = 0.02, T: int = 1000) -> tuple[list, list]:
    """betas[t] and alpha_bar[t] for t = 0..T in plain Python (index 0: no noise yet)."""
    betas = [0.0] + [beta_1 + (beta_T - beta_1) * (t - 1) / (T - 1) for t in range(1, T + 1)]
    alpha_bar = [1.0]
    for t in range(1, T + 1):
        alpha_bar.append(alpha_bar[-1] * (1 - betas[t]))
    return betas, alpha_bar


BETAS, ALPHA_BAR = schedule()


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(332)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["alpha_barra"]) == [f"t_{t}" for t in TIMES]
    assert list(out["snr"]) == [f"t_{t}" for t in TIMES]
    assert list(out["posterior_t500"]) == ["coef_x0", "coef_xt", "beta_tilde", "beta"]
    assert list(out["muestra_t500"]) == ["media", "varianza", "media_teorica", "varianza_teorica"]


def test_schedule_and_alpha_bar_match_syllabus_and_plain_python(out: dict) -> None:
    assert out["betas_extremos"] == pytest.approx([1e-4, 0.02], abs=1e-12)
    emitted_ab = list(out["alpha_barra"].values())
    assert emitted_ab == pytest.approx(SYLLABUS_ALPHA_BAR, abs=1e-6)
    assert emitted_ab == pytest.approx([ALPHA_BAR[t] for t in TIMES], rel=1e-5, abs=1e-6)
    # the tiny last value is emitted with 6 significant digits
    assert out["alpha_barra"]["t_1000"] == pytest.approx(4.03583e-05, rel=1e-5)


def test_snr_matches_and_follows_from_alpha_bar(out: dict) -> None:
    snr = list(out["snr"].values())
    assert snr == pytest.approx(SYLLABUS_SNR, rel=1e-6, abs=1e-6)
    assert snr == pytest.approx([ALPHA_BAR[t] / (1 - ALPHA_BAR[t]) for t in TIMES], rel=1e-6)
    assert all(a > b for a, b in zip(snr, snr[1:]))
    # SNR = 1 is crossed between t = 259 and t = 260
    assert ALPHA_BAR[259] > 0.5 > ALPHA_BAR[260]


def test_against_diffusers_if_installed(out: dict) -> None:
    diffusers = pytest.importorskip("diffusers")
    scheduler = diffusers.DDPMScheduler(
        num_train_timesteps=1000, beta_start=0.0001, beta_end=0.02, beta_schedule="linear"
    )
    cumprod = scheduler.alphas_cumprod.numpy()
    for t in TIMES:  # the library is 0-based: ᾱ_t = alphas_cumprod[t − 1]
        assert out["alpha_barra"][f"t_{t}"] == pytest.approx(float(cumprod[t - 1]), rel=1e-4)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    ab = list(out["alpha_barra"].values())
    assert out["alpha_barra_decrece"] == all(a > b for a, b in zip(ab, ab[1:]))
    assert out["el_ultimo_paso_es_casi_ruido_puro"] == (out["alpha_barra"]["t_1000"] < 1e-4)
    post = out["posterior_t500"]
    assert out["beta_tilde_menor_que_beta"] == (post["beta_tilde"] < post["beta"])
    for key in ["alpha_barra_decrece", "el_ultimo_paso_es_casi_ruido_puro",
                "forma_cerrada_igual_a_iterar", "la_varianza_se_conserva",
                "beta_tilde_menor_que_beta"]:
        assert out[key] is True, key


def test_iterating_the_chain_gives_the_closed_form(out: dict) -> None:
    mean, var, var_unit = 1.0, 0.0, 1.0
    worst = worst_unit = 0.0
    for t in range(1, 1001):
        mean *= math.sqrt(1 - BETAS[t])
        var = (1 - BETAS[t]) * var + BETAS[t]
        var_unit = (1 - BETAS[t]) * var_unit + BETAS[t]
        worst = max(worst, abs(mean - math.sqrt(ALPHA_BAR[t])), abs(var - (1 - ALPHA_BAR[t])))
        worst_unit = max(worst_unit, abs(var_unit - 1))
    assert out["forma_cerrada_igual_a_iterar"] == (worst < 1e-12)
    assert out["la_varianza_se_conserva"] == (worst_unit < 1e-12)


def test_posterior_by_gaussian_conditioning(out: dict) -> None:
    # (x_{t−1}, x_t) given x_0 is jointly Gaussian; condition on x_t with the Schur complement
    t = 500
    var_prev = 1 - ALPHA_BAR[t - 1]
    var_t = 1 - ALPHA_BAR[t]
    cov = math.sqrt(1 - BETAS[t]) * var_prev          # Cov(x_{t−1}, x_t | x_0)
    coef_xt = cov / var_t
    coef_x0 = math.sqrt(ALPHA_BAR[t - 1]) - coef_xt * math.sqrt(ALPHA_BAR[t])
    beta_tilde = var_prev - cov**2 / var_t
    post = out["posterior_t500"]
    assert post["coef_x0"] == pytest.approx(coef_x0, abs=1e-6)
    assert post["coef_xt"] == pytest.approx(coef_xt, abs=1e-6)
    assert post["beta_tilde"] == pytest.approx(beta_tilde, abs=1e-6)
    assert post["beta"] == pytest.approx(BETAS[t], abs=1e-6)
    assert post == pytest.approx(
        {"coef_x0": 0.00307, "coef_xt": 0.994107, "beta_tilde": 0.010031, "beta": 0.01004}, abs=1e-6
    )
    # β̃_t < β_t at every t ≥ 2 (β̃_1 = 0)
    assert all(
        (1 - ALPHA_BAR[s - 1]) / (1 - ALPHA_BAR[s]) * BETAS[s] < BETAS[s] for s in range(2, 1001)
    )


def test_monte_carlo_sample_against_theory(out: dict) -> None:
    sample = out["muestra_t500"]
    assert sample["media_teorica"] == pytest.approx(math.sqrt(ALPHA_BAR[500]), abs=1e-6)
    assert sample["varianza_teorica"] == pytest.approx(1 - ALPHA_BAR[500], abs=1e-6)
    assert abs(sample["media"] - sample["media_teorica"]) < 0.01
    assert abs(sample["varianza"] - sample["varianza_teorica"]) < 0.015


def test_a_gentle_schedule_does_not_reach_noise() -> None:
    gentle = emitted(332, beta_final=0.002)
    _, ab = schedule(beta_T=0.002)
    assert gentle["alpha_barra"]["t_1000"] == pytest.approx(ab[1000], abs=1e-6)
    assert ab[1000] > 0.3  # about exp(−1.05): plenty of signal left
    assert gentle["el_ultimo_paso_es_casi_ruido_puro"] is False
    assert gentle["la_varianza_se_conserva"] is True


@pytest.mark.parametrize("bad", [{"beta_inicial": 0.03}, {"beta_inicial": 0.0}, {"beta_final": 1.0},
                                 {"muestras": 0}])
def test_invalid_schedules_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        lab_module(332).run(**bad)
