"""Class 332: the DDPM forward process in plain Python, its posterior by Gaussian conditioning."""

import math

import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "betas_extremos",
    "alpha_barra",
    "snr",
    "mayor_cociente_entre_pasos",
    "el_ultimo_paso_es_casi_ruido_puro",
    "forma_cerrada_igual_a_iterar",
    "varianza_final_desde_1",
    "posterior_t500",
    "beta_tilde_menor_que_beta",
    "teoria_t500",
    "media_muestral_t500",
    "varianza_muestral_t500",
    "la_muestra_confirma_la_forma_cerrada",
    "alpha_barra_coseno",
    "primer_paso_con_snr_menor_que_1",
    "la_media_se_escribe_con_el_ruido",
    "pesos_de_la_elbo",
    "paso_de_peso_maximo",
    "muestreo_inverso",
    "el_muestreo_inverso_recupera_los_datos",
    "las_dos_sigmas_acotan_la_varianza",
]
N = 200_000
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
    assert list(out["teoria_t500"]) == ["media", "varianza"]
    assert list(out["alpha_barra_coseno"]) == [f"t_{t}" for t in TIMES]
    assert list(out["pesos_de_la_elbo"]) == [f"t_{t}" for t in [2, *TIMES[1:]]]
    assert list(out["muestreo_inverso"]) == [
        "media_datos",
        "varianza_datos",
        "media_final",
        "varianza_final_sigma2_beta",
        "varianza_final_sigma2_beta_tilde",
    ]


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
    assert all(a > b for a, b in zip(ab, ab[1:]))
    # every ratio ᾱ_t/ᾱ_{t−1} is α_t = 1 − β_t: the largest is the first step's
    assert out["mayor_cociente_entre_pasos"] == pytest.approx(
        max(ALPHA_BAR[t] / ALPHA_BAR[t - 1] for t in range(1, 1001)), rel=1e-12
    )
    assert out["mayor_cociente_entre_pasos"] == pytest.approx(1 - BETAS[1], rel=1e-12)
    assert out["el_ultimo_paso_es_casi_ruido_puro"] == (out["alpha_barra"]["t_1000"] < 1e-4)
    post = out["posterior_t500"]
    assert out["beta_tilde_menor_que_beta"] == (post["beta_tilde"] < post["beta"])
    for key in [
        "el_ultimo_paso_es_casi_ruido_puro",
        "forma_cerrada_igual_a_iterar",
        "beta_tilde_menor_que_beta",
    ]:
        assert out[key] is True, key


def test_iterating_the_chain_gives_the_closed_form(out: dict) -> None:
    mean, var, var_unit, var_wrong = 1.0, 0.0, 1.0, 1.0
    worst = 0.0
    for t in range(1, 1001):
        mean *= math.sqrt(1 - BETAS[t])
        var = (1 - BETAS[t]) * var + BETAS[t]
        var_unit = (1 - BETAS[t]) * var_unit + BETAS[t]
        var_wrong = (1 - BETAS[t]) ** 2 * var_wrong + BETAS[t]  # mean factor 1 − β, not √(1 − β)
        worst = max(worst, abs(mean - math.sqrt(ALPHA_BAR[t])), abs(var - (1 - ALPHA_BAR[t])))
    assert out["forma_cerrada_igual_a_iterar"] == (worst < 1e-12)
    shown = out["varianza_final_desde_1"]
    assert shown["con_raiz_de_alfa"] == pytest.approx(var_unit, abs=1e-12)
    assert shown["con_raiz_de_alfa"] == pytest.approx(1.0, abs=1e-12)
    assert shown["con_alfa"] == pytest.approx(var_wrong, abs=1e-6)
    # the wrong factor drives the variance towards β/(1 − (1 − β)²) = 1/(2 − β): about one half
    assert 0.5 < shown["con_alfa"] < 0.51


def test_posterior_by_gaussian_conditioning(out: dict) -> None:
    # (x_{t−1}, x_t) given x_0 is jointly Gaussian; condition on x_t with the Schur complement
    t = 500
    var_prev = 1 - ALPHA_BAR[t - 1]
    var_t = 1 - ALPHA_BAR[t]
    cov = math.sqrt(1 - BETAS[t]) * var_prev  # Cov(x_{t−1}, x_t | x_0)
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
    theory = out["teoria_t500"]
    assert theory["media"] == pytest.approx(math.sqrt(ALPHA_BAR[500]), abs=1e-6)
    assert theory["varianza"] == pytest.approx(1 - ALPHA_BAR[500], abs=1e-6)
    se_mean = math.sqrt((1 - ALPHA_BAR[500]) / N)
    se_var = (1 - ALPHA_BAR[500]) * math.sqrt(2 / N)  # Gaussian sample variance, ddof = 0
    assert (se_mean, se_var) == pytest.approx((0.002146, 0.002914), abs=1e-6)
    mean_gap = abs(out["media_muestral_t500"] - theory["media"])
    var_gap = abs(out["varianza_muestral_t500"] - theory["varianza"])
    assert out["la_muestra_confirma_la_forma_cerrada"] == (
        mean_gap < 4 * se_mean and var_gap < 4 * se_var
    )
    assert out["la_muestra_confirma_la_forma_cerrada"] is True
    # the declared tolerances are 4-5 standard errors
    assert 4 <= 0.01 / se_mean <= 5 and 4 <= 0.014 / se_var <= 5


def cosine_alpha_bar(T: int = 1000, s: float = 0.008) -> list[float]:
    """improved-diffusion's betas_for_alpha_bar (t/T form, β clipped at 0.999), in plain Python."""

    def f(u: float) -> float:
        return math.cos((u + s) / (1 + s) * math.pi / 2) ** 2

    alpha_bar = [1.0]
    for i in range(T):
        beta = min(1 - f((i + 1) / T) / f(i / T), 0.999)
        alpha_bar.append(alpha_bar[-1] * (1 - beta))
    return alpha_bar


def test_cosine_schedule(out: dict) -> None:
    cos_ab = cosine_alpha_bar()
    for t in TIMES:
        assert out["alpha_barra_coseno"][f"t_{t}"] == pytest.approx(cos_ab[t], rel=1e-5, abs=1e-6)
    # away from the clipped end, ᾱ_t is the cosine itself
    f0 = math.cos(0.008 / 1.008 * math.pi / 2) ** 2
    assert out["alpha_barra_coseno"]["t_500"] == pytest.approx(
        math.cos((0.5 + 0.008) / 1.008 * math.pi / 2) ** 2 / f0, abs=1e-6
    )
    first = {
        "lineal": next(t for t in range(1, 1001) if ALPHA_BAR[t] < 0.5),
        "coseno": next(t for t in range(1, 1001) if cos_ab[t] < 0.5),
    }
    assert out["primer_paso_con_snr_menor_que_1"] == first == {"lineal": 260, "coseno": 497}


def test_cosine_against_diffusers_if_installed(out: dict) -> None:
    diffusers = pytest.importorskip("diffusers")
    scheduler = diffusers.DDPMScheduler(num_train_timesteps=1000, beta_schedule="squaredcos_cap_v2")
    cumprod = scheduler.alphas_cumprod.numpy()
    for t in TIMES[:-1]:
        assert out["alpha_barra_coseno"][f"t_{t}"] == pytest.approx(float(cumprod[t - 1]), rel=1e-4)


def test_posterior_mean_written_with_the_noise(out: dict) -> None:
    worst = 0.0
    for t in (1, 2, 10, 500, 999, 1000):
        for eps in (-2.3, -0.4, 0.0, 0.7, 1.9):
            x0 = 1.0
            xt = math.sqrt(ALPHA_BAR[t]) * x0 + math.sqrt(1 - ALPHA_BAR[t]) * eps
            with_x0 = (
                math.sqrt(ALPHA_BAR[t - 1]) * BETAS[t] / (1 - ALPHA_BAR[t]) * x0
                + math.sqrt(1 - BETAS[t]) * (1 - ALPHA_BAR[t - 1]) / (1 - ALPHA_BAR[t]) * xt
            )
            with_eps = (xt - BETAS[t] / math.sqrt(1 - ALPHA_BAR[t]) * eps) / math.sqrt(1 - BETAS[t])
            worst = max(worst, abs(with_x0 - with_eps))
    assert worst < 1e-12
    assert out["la_media_se_escribe_con_el_ruido"] is True
    # the lab's claim fails if the noise form is wrong: check the lab's own function
    lab = lab_module(332)
    b, ab = (
        lab.calendario_lineal(1e-4, 0.02, 1000),
        lab.alpha_barra(lab.calendario_lineal(1e-4, 0.02, 1000)),
    )
    xt = math.sqrt(ab[500]) + math.sqrt(1 - ab[500]) * 0.7
    assert lab.paso_inverso(xt, 0.7, 500, b, ab) == pytest.approx(
        (xt - BETAS[500] / math.sqrt(1 - ALPHA_BAR[500]) * 0.7) / math.sqrt(1 - BETAS[500])
    )


def test_elbo_weights(out: dict) -> None:
    lam = {
        t: BETAS[t] ** 2 / (2 * BETAS[t] * (1 - BETAS[t]) * (1 - ALPHA_BAR[t]))
        for t in range(2, 1001)
    }
    for key, value in out["pesos_de_la_elbo"].items():
        assert value == pytest.approx(lam[int(key[2:])], rel=1e-6, abs=1e-6)
    assert out["paso_de_peso_maximo"] == max(lam, key=lam.get) == 2
    assert min(lam, key=lam.get) == 349 and lam[2] / lam[349] == pytest.approx(54.9, abs=0.1)


def reverse_moments(sigma2: list[float], mean_d: float = 1.0, var_d: float = 0.25) -> tuple:
    """Another route: plug E[x_0 | x_t] into μ̃_t(x_0, x_t), then push mean and variance back."""
    m, v = 0.0, 1.0
    for t in range(1000, 0, -1):
        gain = math.sqrt(ALPHA_BAR[t]) * var_d / (ALPHA_BAR[t] * var_d + 1 - ALPHA_BAR[t])
        c0 = math.sqrt(ALPHA_BAR[t - 1]) * BETAS[t] / (1 - ALPHA_BAR[t])
        c1 = math.sqrt(1 - BETAS[t]) * (1 - ALPHA_BAR[t - 1]) / (1 - ALPHA_BAR[t])
        slope = c0 * gain + c1
        shift = c0 * (mean_d - gain * math.sqrt(ALPHA_BAR[t]) * mean_d)
        m, v = slope * m + shift, slope**2 * v + (sigma2[t] if t > 1 else 0.0)
    return m, v


def test_ancestral_sampling_moments(out: dict) -> None:
    tilde = [0.0] + [(1 - ALPHA_BAR[t - 1]) / (1 - ALPHA_BAR[t]) * BETAS[t] for t in range(1, 1001)]
    m_beta, v_beta = reverse_moments(BETAS)
    m_tilde, v_tilde = reverse_moments(tilde)
    rev = out["muestreo_inverso"]
    assert (rev["media_datos"], rev["varianza_datos"]) == (1.0, 0.25)
    assert rev["media_final"] == pytest.approx(m_beta, abs=1e-6)
    assert m_beta == pytest.approx(m_tilde, abs=1e-12)  # σ_t only changes the variance
    assert rev["varianza_final_sigma2_beta"] == pytest.approx(v_beta, abs=1e-6)
    assert rev["varianza_final_sigma2_beta_tilde"] == pytest.approx(v_tilde, abs=1e-6)
    assert out["el_muestreo_inverso_recupera_los_datos"] == (
        abs(m_beta - 1) < 0.01 and abs(v_beta - 0.25) < 0.01 and abs(v_tilde - 0.25) < 0.01
    )
    assert out["las_dos_sigmas_acotan_la_varianza"] == (v_tilde < 0.25 < v_beta)
    assert out["las_dos_sigmas_acotan_la_varianza"] is True


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_ancestral_sampling_by_actually_sampling(out: dict) -> None:
    """Algorithm 2 run on 20 000 particles with the lab's optimal predictor: same moments."""
    import numpy as np

    lab = lab_module(332)
    b = lab.calendario_lineal(1e-4, 0.02, 1000)
    ab = lab.alpha_barra(b)
    rng = np.random.default_rng(5)
    n = 20_000
    x = rng.standard_normal(n)
    for t in range(1000, 0, -1):
        eps_hat = lab.ruido_optimo(x, t, ab, 1.0, 0.25)
        x = lab.paso_inverso(x, eps_hat, t, b, ab)
        if t > 1:
            x = x + math.sqrt(b[t]) * rng.standard_normal(n)
    rev = out["muestreo_inverso"]
    var = rev["varianza_final_sigma2_beta"]
    assert abs(x.mean() - rev["media_final"]) < 4 * math.sqrt(var / n)
    assert abs(x.var() - var) < 4 * var * math.sqrt(2 / n)


def test_a_gentle_schedule_does_not_reach_noise() -> None:
    gentle = emitted(332, beta_final=0.002)
    _, ab = schedule(beta_T=0.002)
    assert gentle["alpha_barra"]["t_1000"] == pytest.approx(ab[1000], abs=1e-6)
    assert ab[1000] > 0.3  # about exp(−1.05): plenty of signal left
    assert gentle["el_ultimo_paso_es_casi_ruido_puro"] is False
    assert gentle["varianza_final_desde_1"]["con_raiz_de_alfa"] == pytest.approx(1.0, abs=1e-12)
    assert gentle["alpha_barra_coseno"] == emitted(332)["alpha_barra_coseno"]  # fixed schedule


@pytest.mark.parametrize(
    "bad", [{"beta_inicial": 0.03}, {"beta_inicial": 0.0}, {"beta_final": 1.0}, {"muestras": 0}]
)
def test_invalid_schedules_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        lab_module(332).run(**bad)


def test_the_sample_and_the_posterior_claims_can_fail() -> None:
    # the one-jump sample is checked against the iterated chain, not against the ᾱ it was drawn
    # with: a wrong ᾱ (√ᾱ, the confusion the class warns about) makes the claim false
    lab = lab_module(332)
    right = lab.alpha_barra
    lab.alpha_barra = lambda betas: lab.np.sqrt(right(betas))
    assert lab.run()["la_muestra_confirma_la_forma_cerrada"] is False
    # β̃_t < β_t is read from the posterior function: taking β_t as the posterior variance fails
    lab = lab_module(332)
    exact = lab.posterior
    lab.posterior = lambda betas, ab, t: (*exact(betas, ab, t)[:2], float(betas[t]))
    assert lab.run()["beta_tilde_menor_que_beta"] is False
