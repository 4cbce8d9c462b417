"""Difusión: el proceso directo, de x_0 a ruido puro en forma cerrada.

    q(x_t | x_{t−1}) = N(√(1 − β_t) x_{t−1}, β_t I),   α_t = 1 − β_t,   ᾱ_t = Π_{s≤t} α_s
    q(x_t | x_0)     = N(√ᾱ_t x_0, (1 − ᾱ_t) I)   ⇔   x_t = √ᾱ_t x_0 + √(1 − ᾱ_t) ε
    SNR(t)           = ᾱ_t / (1 − ᾱ_t)
    q(x_{t−1} | x_t, x_0) = N(μ̃_t, β̃_t I)
        μ̃_t = √ᾱ_{t−1} β_t/(1 − ᾱ_t) · x_0 + √α_t (1 − ᾱ_{t−1})/(1 − ᾱ_t) · x_t
        β̃_t = (1 − ᾱ_{t−1})/(1 − ᾱ_t) · β_t

Índices t = 1..T como en el artículo: los vectores guardan en la posición t el valor del paso t y en
la posición 0 el estado inicial (β_0 = 0, ᾱ_0 = 1). Calendario lineal de DDPM: β de 1e-4 a 0.02.

Referencia: Ho, Jain y Abbeel, «Denoising Diffusion Probabilistic Models», NeurIPS 2020,
ecuaciones (4), (6) y (7).
"""

import numpy as np

PASOS = 1000                             # T
BETA_INICIAL = 1e-4                      # β_1
BETA_FINAL = 0.02                        # β_T
TIEMPOS = (1, 10, 100, 250, 500, 1000)   # pasos que se muestran
T_POSTERIOR = 500                        # paso de la posterior y de la muestra
X0 = 1.0                                 # dato inicial de la muestra Monte Carlo
MUESTRAS = 200_000                       # muestras de x_t
SEMILLA = 0                              # semilla fija del generador de numpy
CASI_RUIDO = 1e-4                        # umbral para «ᾱ_T prácticamente nulo»
TOL = 1e-12                              # identidades que solo difieren por redondeo


def calendario_lineal(beta_inicial: float, beta_final: float, pasos: int) -> np.ndarray:
    """β_t lineal en t = 1..T, con β_0 = 0 de relleno para indexar como el artículo."""
    betas = np.linspace(beta_inicial, beta_final, pasos)  # (T,)
    return np.concatenate([[0.0], betas])                 # (T + 1,)


def alpha_barra(betas: np.ndarray) -> np.ndarray:
    """ᾱ_t = Π_{s≤t} (1 − β_s); ᾱ_0 = 1 porque β_0 = 0."""
    return np.cumprod(1.0 - betas)                        # (T + 1,)


def iterar_marginal(betas: np.ndarray, media_0: float,
                    varianza_0: float) -> tuple[np.ndarray, np.ndarray]:
    """Aplica q(x_t|x_{t−1}) paso a paso: m_t = √α_t m_{t−1}, v_t = α_t v_{t−1} + β_t."""
    medias = np.empty(len(betas))                         # (T + 1,)
    varianzas = np.empty(len(betas))                      # (T + 1,)
    medias[0], varianzas[0] = media_0, varianza_0
    for t in range(1, len(betas)):
        alfa = 1.0 - betas[t]
        medias[t] = np.sqrt(alfa) * medias[t - 1]
        varianzas[t] = alfa * varianzas[t - 1] + betas[t]
    return medias, varianzas


def posterior(betas: np.ndarray, ab: np.ndarray, t: int) -> tuple[float, float, float]:
    """(coeficiente de x_0, coeficiente de x_t, β̃_t) de q(x_{t−1} | x_t, x_0), para t ≥ 1."""
    coef_x0 = np.sqrt(ab[t - 1]) * betas[t] / (1.0 - ab[t])
    coef_xt = np.sqrt(1.0 - betas[t]) * (1.0 - ab[t - 1]) / (1.0 - ab[t])
    beta_tilde = (1.0 - ab[t - 1]) / (1.0 - ab[t]) * betas[t]
    return float(coef_x0), float(coef_xt), float(beta_tilde)


def muestrear_xt(x0: float, ab_t: float, muestras: int, semilla: int) -> np.ndarray:
    """x_t = √ᾱ_t x_0 + √(1 − ᾱ_t) ε de un solo salto, sin recorrer los pasos intermedios."""
    rng = np.random.default_rng(semilla)
    eps = rng.standard_normal(muestras)                   # (muestras,)
    return np.sqrt(ab_t) * x0 + np.sqrt(1.0 - ab_t) * eps  # (muestras,)


def run(beta_inicial: float = BETA_INICIAL, beta_final: float = BETA_FINAL, x0: float = X0,
        muestras: int = MUESTRAS) -> dict:
    if not 0.0 < beta_inicial <= beta_final < 1.0:
        raise ValueError("se necesita 0 < beta_inicial <= beta_final < 1")
    if muestras < 1:
        raise ValueError(f"se necesita al menos una muestra; se recibió {muestras}")

    # Calendario y producto acumulado: (T + 1,)
    betas = calendario_lineal(beta_inicial, beta_final, PASOS)
    ab = alpha_barra(betas)
    snr = ab[1:] / (1.0 - ab[1:])                         # (T,) SNR(t) en la posición t − 1

    # Iterar la cadena desde x_0 = 1 fijo (media 1, varianza 0) y desde Var x_0 = 1
    medias, varianzas = iterar_marginal(betas, 1.0, 0.0)
    _, varianzas_unidad = iterar_marginal(betas, 0.0, 1.0)
    error_cerrada = max(np.max(np.abs(medias - np.sqrt(ab))),
                        np.max(np.abs(varianzas - (1.0 - ab))))

    # Posterior de un paso en t = 500, y β̃_t frente a β_t para t = 2..T
    coef_x0, coef_xt, beta_tilde = posterior(betas, ab, T_POSTERIOR)
    t = np.arange(2, PASOS + 1)                           # (T − 1,)
    betas_tilde = (1.0 - ab[t - 1]) / (1.0 - ab[t]) * betas[t]  # (T − 1,)

    # Monte Carlo de q(x_500 | x_0) con varianza muestral ddof = 0
    xt = muestrear_xt(x0, ab[T_POSTERIOR], muestras, SEMILLA)

    return {
        "betas_extremos": [betas[1], betas[PASOS]],
        "alpha_barra": {f"t_{s}": ab[s] for s in TIEMPOS},
        "snr": {f"t_{s}": snr[s - 1] for s in TIEMPOS},
        "alpha_barra_decrece": bool(np.all(np.diff(ab) < 0)),
        "el_ultimo_paso_es_casi_ruido_puro": bool(ab[PASOS] < CASI_RUIDO),
        "forma_cerrada_igual_a_iterar": bool(error_cerrada < TOL),
        "la_varianza_se_conserva": bool(np.max(np.abs(varianzas_unidad - 1.0)) < TOL),
        "posterior_t500": {"coef_x0": coef_x0, "coef_xt": coef_xt, "beta_tilde": beta_tilde,
                           "beta": betas[T_POSTERIOR]},
        "beta_tilde_menor_que_beta": bool(np.all(betas_tilde < betas[t])),
        "muestra_t500": {"media": np.mean(xt), "varianza": np.var(xt),
                         "media_teorica": np.sqrt(ab[T_POSTERIOR]) * x0,
                         "varianza_teorica": 1.0 - ab[T_POSTERIOR]},
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
