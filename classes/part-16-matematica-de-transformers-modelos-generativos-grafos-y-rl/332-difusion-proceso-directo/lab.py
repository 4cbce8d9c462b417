"""Difusión: el proceso directo, de x_0 a ruido puro en forma cerrada, y cómo se usa para volver.

    q(x_t | x_{t−1}) = N(√(1 − β_t) x_{t−1}, β_t I),   α_t = 1 − β_t,   ᾱ_t = Π_{s≤t} α_s
    q(x_t | x_0)     = N(√ᾱ_t x_0, (1 − ᾱ_t) I)   ⇔   x_t = √ᾱ_t x_0 + √(1 − ᾱ_t) ε
    SNR(t)           = ᾱ_t / (1 − ᾱ_t)
    q(x_{t−1} | x_t, x_0) = N(μ̃_t, β̃_t I)
        μ̃_t = √ᾱ_{t−1} β_t/(1 − ᾱ_t) · x_0 + √α_t (1 − ᾱ_{t−1})/(1 − ᾱ_t) · x_t
            = (x_t − β_t/√(1 − ᾱ_t) · ε) / √α_t                  (escrita con el ruido)
        β̃_t = (1 − ᾱ_{t−1})/(1 − ᾱ_t) · β_t
    L_simple = E_{t, x_0, ε} ‖ε − ε_θ(x_t, t)‖²;   el término t de la ELBO pesa
        λ_t = β_t² / (2 σ_t² α_t (1 − ᾱ_t))  y L_simple lo sustituye por 1
    muestreo ancestral: x_{t−1} = (x_t − β_t/√(1 − ᾱ_t) · ε_θ(x_t, t)) / √α_t + σ_t z
    calendario coseno: ᾱ_t ∝ cos²((t/T + s)/(1 + s) · π/2),  s = 0.008,  β_t ≤ 0.999

Índices t = 1..T como en el artículo: los vectores guardan en la posición t el valor del paso t y en
la posición 0 el estado inicial (β_0 = 0, ᾱ_0 = 1). Calendario lineal de DDPM: β de 1e-4 a 0.02.

Referencias: Ho, Jain y Abbeel, «Denoising Diffusion Probabilistic Models», NeurIPS 2020,
ecuaciones (4), (6), (7), (11), (12) y (14) y algoritmo 2; Nichol y Dhariwal, «Improved Denoising
Diffusion Probabilistic Models», ICML 2021, ecuación (17) (calendario coseno).
"""

import numpy as np

PASOS = 1000                             # T
BETA_INICIAL = 1e-4                      # β_1
BETA_FINAL = 0.02                        # β_T
TIEMPOS = (1, 10, 100, 250, 500, 1000)   # pasos que se muestran
TIEMPOS_PESOS = (2, 10, 100, 250, 500, 1000)  # λ_t: el término t = 1 de la ELBO es el decodificador
T_POSTERIOR = 500                        # paso de la a posteriori y de la muestra
X0 = 1.0                                 # dato inicial de la muestra Monte Carlo
MUESTRAS = 200_000                       # muestras de x_t
SEMILLA = 0                              # semilla fija del generador de numpy
ERRORES_TIPICOS = 4                      # la muestra se acepta a menos de 4 errores típicos
CASI_RUIDO = 1e-4                        # umbral para «ᾱ_T prácticamente nulo»
TOL = 1e-12                              # identidades que solo difieren por redondeo
S_COSENO = 0.008                         # desplazamiento s del calendario coseno
BETA_MAXIMA = 0.999                      # tope de β_t en el calendario coseno (evita β_T = 1)
MEDIA_DATOS = 1.0                        # datos N(1, 0.5²) para el muestreo inverso
VARIANZA_DATOS = 0.25
TOL_DATOS = 0.01                         # el muestreo inverso recupera media y varianza a 0.01


def calendario_lineal(beta_inicial: float, beta_final: float, pasos: int) -> np.ndarray:
    """β_t lineal en t = 1..T, con β_0 = 0 de relleno para indexar como el artículo."""
    betas = np.linspace(beta_inicial, beta_final, pasos)  # (T,)
    return np.concatenate([[0.0], betas])                 # (T + 1,)


def calendario_coseno(pasos: int, s: float = S_COSENO) -> np.ndarray:
    """β_t = min(1 − f(t)/f(t − 1), 0.999) con f(t) = cos²((t/T + s)/(1 + s) · π/2)."""
    t = np.arange(pasos + 1)                                  # (T + 1,)
    f = np.cos((t / pasos + s) / (1 + s) * np.pi / 2) ** 2    # (T + 1,) ᾱ sin normalizar
    betas = np.minimum(1.0 - f[1:] / f[:-1], BETA_MAXIMA)     # (T,)
    return np.concatenate([[0.0], betas])                     # (T + 1,)


def alpha_barra(betas: np.ndarray) -> np.ndarray:
    """ᾱ_t = Π_{s≤t} (1 − β_s); ᾱ_0 = 1 porque β_0 = 0."""
    ### BEGIN SOLUTION
    ab = np.cumprod(1.0 - betas)                          # (T + 1,)
    ### END SOLUTION
    return ab


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
    ### BEGIN SOLUTION
    coef_x0 = np.sqrt(ab[t - 1]) * betas[t] / (1.0 - ab[t])
    coef_xt = np.sqrt(1.0 - betas[t]) * (1.0 - ab[t - 1]) / (1.0 - ab[t])
    beta_tilde = (1.0 - ab[t - 1]) / (1.0 - ab[t]) * betas[t]
    ### END SOLUTION
    return float(coef_x0), float(coef_xt), float(beta_tilde)


def muestrear_xt(x0: float, ab_t: float, eps: np.ndarray) -> np.ndarray:
    """x_t = √ᾱ_t x_0 + √(1 − ᾱ_t) ε de un solo salto, sin recorrer los pasos intermedios."""
    return np.sqrt(ab_t) * x0 + np.sqrt(1.0 - ab_t) * eps  # (muestras,)


def paso_inverso(x_t: np.ndarray | float, eps_predicho: np.ndarray | float, t: int | np.ndarray,
                 betas: np.ndarray, ab: np.ndarray) -> np.ndarray | float:
    """Media del paso inverso con el ruido predicho: (x_t − β_t/√(1 − ᾱ_t) · ε̂) / √α_t."""
    ### BEGIN SOLUTION
    media = (x_t - betas[t] / np.sqrt(1.0 - ab[t]) * eps_predicho) / np.sqrt(1.0 - betas[t])
    ### END SOLUTION
    return media


def ruido_optimo(x_t: float, t: int, ab: np.ndarray, media_datos: float,
                 varianza_datos: float) -> float:
    """E[ε | x_t] con datos N(media, varianza): la predicción que minimiza L_simple en el paso t."""
    varianza_xt = ab[t] * varianza_datos + 1.0 - ab[t]       # Var x_t
    return np.sqrt(1.0 - ab[t]) / varianza_xt * (x_t - np.sqrt(ab[t]) * media_datos)


def media_del_paso(x_t: float, t: int, betas: np.ndarray, ab: np.ndarray, media_datos: float,
                   varianza_datos: float) -> float:
    """Media de p(x_{t−1} | x_t) con el predictor óptimo del ruido: una función afín de x_t."""
    eps_predicho = ruido_optimo(x_t, t, ab, media_datos, varianza_datos)
    return paso_inverso(x_t, eps_predicho, t, betas, ab)


def muestreo_inverso(betas: np.ndarray, ab: np.ndarray, sigma2: np.ndarray, media_datos: float,
                     varianza_datos: float) -> tuple[float, float]:
    """Media y varianza de x_0 tras el algoritmo 2 de DDPM desde x_T ~ N(0, 1), sin muestrear.

    Con el predictor óptimo cada paso es afín en x_t más un ruido independiente,
    x_{t−1} = a x_t + c + σ_t z, así que basta seguir la media y la varianza de la gaussiana.
    """
    media, varianza = 0.0, 1.0                            # x_T ~ N(0, 1)
    for t in range(len(betas) - 1, 0, -1):
        c = media_del_paso(0.0, t, betas, ab, media_datos, varianza_datos)      # ordenada
        a = media_del_paso(1.0, t, betas, ab, media_datos, varianza_datos) - c  # pendiente
        ruido = sigma2[t] if t > 1 else 0.0               # el último paso no añade ruido
        media, varianza = a * media + c, a**2 * varianza + ruido
    return float(media), float(varianza)


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
    # Con el factor √α_t la varianza 1 se conserva (α_t + β_t = 1); con α_t, el error común,
    # cada paso la multiplica por α_t² y se acerca a β/(1 − α²) ≈ ½
    varianza_con_alfa = 1.0
    for beta in betas[1:]:
        varianza_con_alfa = (1.0 - beta) ** 2 * varianza_con_alfa + beta

    # A posteriori de un paso en t = 500, y β̃_t frente a β_t para t = 2..T
    coef_x0, coef_xt, beta_tilde = posterior(betas, ab, T_POSTERIOR)
    t = np.arange(2, PASOS + 1)                           # (T − 1,)
    betas_tilde = np.array([posterior(betas, ab, s)[2] for s in t])  # (T − 1,) β̃_t paso a paso

    # Monte Carlo de q(x_500 | x_0) de un salto; errores típicos de la media y de la varianza
    rng = np.random.default_rng(SEMILLA)
    eps = rng.standard_normal(muestras)                   # (muestras,)
    xt = muestrear_xt(x0, ab[T_POSTERIOR], eps)
    media_teorica, varianza_teorica = np.sqrt(ab[T_POSTERIOR]) * x0, 1.0 - ab[T_POSTERIOR]
    error_media = np.sqrt(varianza_teorica / muestras)
    error_varianza = varianza_teorica * np.sqrt(2.0 / muestras)   # gaussiana, ddof = 0
    # La muestra de un salto se contrasta con la cadena iterada paso a paso (no con la fórmula con
    # que se sorteó): media x_0 · m_500 y varianza v_500 de iterar_marginal
    media_cadena, varianza_cadena = medias[T_POSTERIOR] * x0, varianzas[T_POSTERIOR]
    confirma = (abs(np.mean(xt) - media_cadena) < ERRORES_TIPICOS * error_media
                and abs(np.var(xt) - varianza_cadena) < ERRORES_TIPICOS * error_varianza)

    # Calendario coseno y primer paso en que la señal pesa menos que el ruido (ᾱ_t < ½)
    ab_coseno = alpha_barra(calendario_coseno(PASOS))
    cruce = {"lineal": int(np.argmax(snr < 1.0)) + 1,
             "coseno": int(np.argmax(ab_coseno[1:] / (1.0 - ab_coseno[1:]) < 1.0)) + 1}

    # La media de la a posteriori escrita con el ruido: mismos valores en todos los pasos
    todos = np.arange(1, PASOS + 1)[:, None]              # (T, 1)
    e = eps[None, :16]                                    # (1, ≤16) primeros ruidos de la muestra
    x_t = np.sqrt(ab[todos]) * x0 + np.sqrt(1.0 - ab[todos]) * e             # (T, ≤16)
    con_x0 = (np.sqrt(ab[todos - 1]) * betas[todos] / (1.0 - ab[todos]) * x0
              + np.sqrt(1.0 - betas[todos]) * (1.0 - ab[todos - 1]) / (1.0 - ab[todos]) * x_t)
    con_ruido = paso_inverso(x_t, e, todos, betas, ab)    # (T, ≤16)
    media_con_ruido = np.max(np.abs(con_x0 - con_ruido)) < TOL

    # Peso λ_t = β_t² / (2 σ_t² α_t (1 − ᾱ_t)) de cada término de la ELBO con σ_t² = β_t;
    # L_simple usa 1 en todos
    lambdas = betas[1:] / (2.0 * (1.0 - betas[1:]) * (1.0 - ab[1:]))       # (T,) λ_t en t − 1
    paso_de_peso_maximo = int(np.argmax(lambdas[1:])) + 2  # entre t = 2..T (t = 1 es L_0)

    # Muestreo ancestral con el predictor óptimo, con las dos varianzas σ_t² de Ho et al.
    beta_tilde_todos = np.concatenate([[0.0], (1.0 - ab[:-1]) / (1.0 - ab[1:]) * betas[1:]])
    media_final, varianza_beta = muestreo_inverso(betas, ab, betas, MEDIA_DATOS, VARIANZA_DATOS)
    _, varianza_beta_tilde = muestreo_inverso(betas, ab, beta_tilde_todos, MEDIA_DATOS,
                                              VARIANZA_DATOS)
    recupera = (abs(media_final - MEDIA_DATOS) < TOL_DATOS
                and abs(varianza_beta - VARIANZA_DATOS) < TOL_DATOS
                and abs(varianza_beta_tilde - VARIANZA_DATOS) < TOL_DATOS)

    return {
        "betas_extremos": [betas[1], betas[PASOS]],
        "alpha_barra": {f"t_{s}": ab[s] for s in TIEMPOS},
        "snr": {f"t_{s}": snr[s - 1] for s in TIEMPOS},
        "mayor_cociente_entre_pasos": float(np.max(ab[1:] / ab[:-1])),
        "el_ultimo_paso_es_casi_ruido_puro": bool(ab[PASOS] < CASI_RUIDO),
        "forma_cerrada_igual_a_iterar": bool(error_cerrada < TOL),
        "varianza_final_desde_1": {"con_raiz_de_alfa": varianzas_unidad[PASOS],
                                   "con_alfa": varianza_con_alfa},
        "posterior_t500": {"coef_x0": coef_x0, "coef_xt": coef_xt, "beta_tilde": beta_tilde,
                           "beta": betas[T_POSTERIOR]},
        "beta_tilde_menor_que_beta": bool(np.all(betas_tilde < betas[t])),
        "teoria_t500": {"media": media_teorica, "varianza": varianza_teorica},
        "media_muestral_t500": np.mean(xt),
        "varianza_muestral_t500": np.var(xt),
        "la_muestra_confirma_la_forma_cerrada": bool(confirma),
        "alpha_barra_coseno": {f"t_{s}": ab_coseno[s] for s in TIEMPOS},
        "primer_paso_con_snr_menor_que_1": cruce,
        "la_media_se_escribe_con_el_ruido": bool(media_con_ruido),
        "pesos_de_la_elbo": {f"t_{s}": lambdas[s - 1] for s in TIEMPOS_PESOS},
        "paso_de_peso_maximo": paso_de_peso_maximo,
        "muestreo_inverso": {"media_datos": MEDIA_DATOS, "varianza_datos": VARIANZA_DATOS,
                             "media_final": media_final,
                             "varianza_final_sigma2_beta": varianza_beta,
                             "varianza_final_sigma2_beta_tilde": varianza_beta_tilde},
        "el_muestreo_inverso_recupera_los_datos": bool(recupera),
        "las_dos_sigmas_acotan_la_varianza": bool(
            varianza_beta_tilde < VARIANZA_DATOS < varianza_beta),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
