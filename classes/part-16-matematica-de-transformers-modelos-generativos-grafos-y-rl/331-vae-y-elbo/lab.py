"""VAE y la cota ELBO: lo que le falta a la cota es exactamente una divergencia KL.

    log p(x) = ELBO(q) + KL(q(z|x) ‖ p(z|x))  ≥  ELBO(q)
    ELBO(q)  = E_q[log p(x|z)] − KL(q(z|x) ‖ p(z))
    KL(N(μ, σ²) ‖ N(0, 1)) = ½ (μ² + σ² − 1 − log σ²)
    reparametrización: z = μ + σ ε,  ε ~ N(0, 1)
    error típico del estimador = √(Var_ε[integrando] / n)

Modelo lineal-gaussiano en el que todo es exacto: p(z) = N(0, 1) y p(x|z) = N(w z + b, s²), así que
p(x) = N(b, w² + s²) y la a posteriori es p(z|x) = N(μ*, σ*²) con σ*² = 1/(1 + w²/s²) y
μ* = σ*² w (x − b)/s². El codificador q(z|x) = N(μ, σ²) es una gaussiana cualquiera.

Referencias: Kingma y Welling, «Auto-Encoding Variational Bayes», ICLR 2014 (apéndice B para la
KL); Rezende, Mohamed y Wierstra, «Stochastic Backpropagation and Approximate Inference in Deep
Generative Models», ICML 2014; Kingma y Welling, «An Introduction to Variational Autoencoders»,
2019.
"""

import numpy as np

W = 2.0                # peso del decodificador: media de p(x|z) = w z + b
B = 0.5                # sesgo del decodificador
S = 1.0                # desviación típica del ruido de observación
X = 2.0                # el dato observado
MEDIA_Q = 0.3          # μ del codificador (la a posteriori exacta tiene media 0.6)
DESVIACION_Q = 0.6     # σ del codificador (la a posteriori exacta tiene varianza 0.2)
MUESTRAS = 200_000     # muestras ε del estimador Monte Carlo
SEMILLA = 0            # semilla fija del generador de numpy
TOL_EXACTA = 1e-12     # identidades que solo difieren por redondeo
ERRORES_TIPICOS = 4    # el Monte Carlo se acepta a menos de 4 errores típicos de la forma cerrada


def log_normal(v: np.ndarray | float, media: np.ndarray | float, varianza: float) -> np.ndarray:
    """log N(v; media, varianza), elemento a elemento."""
    return -0.5 * np.log(2 * np.pi * varianza) - (v - media) ** 2 / (2 * varianza)


def kl_normales(m1: float, v1: float, m2: float, v2: float) -> float:
    """KL(N(m1, v1) ‖ N(m2, v2)) entre gaussianas univariantes, en forma cerrada."""
    return 0.5 * (np.log(v2 / v1) + (v1 + (m1 - m2) ** 2) / v2 - 1.0)


def kl_con_prior(mu: float, sigma: float) -> float:
    """KL(N(μ, σ²) ‖ N(0, 1)) = ½ (μ² + σ² − 1 − log σ²): el término de regularización del VAE."""
    ### BEGIN SOLUTION
    kl = 0.5 * (mu**2 + sigma**2 - 1.0 - np.log(sigma**2))
    ### END SOLUTION
    return kl


def posterior_exacta(x: float, w: float, b: float, s: float) -> tuple[float, float]:
    """(μ*, σ*²) de p(z|x) en el modelo lineal-gaussiano."""
    ### BEGIN SOLUTION
    varianza = 1.0 / (1.0 + w**2 / s**2)        # σ*² = 1/(1 + w²/s²): precisiones que se suman
    media = varianza * w * (x - b) / s**2       # μ* = σ*² w (x − b)/s²
    ### END SOLUTION
    return media, varianza


def reconstruccion_cerrada(x: float, mu: float, sigma: float, w: float, b: float,
                           s: float) -> float:
    """E_q[log p(x|z)] con z ~ N(μ, σ²): la media de (x − b − w z)² es (x − b − wμ)² + w²σ²."""
    error_cuadratico = (x - b - w * mu) ** 2 + w**2 * sigma**2
    return -0.5 * np.log(2 * np.pi * s**2) - error_cuadratico / (2 * s**2)


def elbo_cerrada(x: float, mu: float, sigma: float, w: float, b: float,
                 s: float) -> tuple[float, float, float]:
    """(reconstrucción, KL con la a priori, ELBO) en forma cerrada."""
    reconstruccion = reconstruccion_cerrada(x, mu, sigma, w, b, s)
    kl = kl_con_prior(mu, sigma)
    return reconstruccion, kl, reconstruccion - kl


def elbo_montecarlo(x: float, mu: float, sigma: float, w: float, b: float, s: float,
                    muestras: int, semilla: int) -> float:
    """Media de log p(x|z) + log p(z) − log q(z) con z = μ + σ ε (truco de reparametrización)."""
    rng = np.random.default_rng(semilla)
    eps = rng.standard_normal(muestras)         # (muestras,) ruido que no depende de μ ni σ
    ### BEGIN SOLUTION
    z = mu + sigma * eps                        # (muestras,) derivable respecto a μ y σ
    log_conjunta = log_normal(x, w * z + b, s**2) + log_normal(z, 0.0, 1.0)  # (muestras,)
    log_q = log_normal(z, mu, sigma**2)         # (muestras,)
    ### END SOLUTION
    return float(np.mean(log_conjunta - log_q))


def varianza_por_muestra(x: float, mu: float, sigma: float, w: float, b: float, s: float,
                         completa: bool) -> float:
    """Var_ε del integrando de un estimador de la ELBO, en forma cerrada.

    Con z = μ + σ ε el integrando es un polinomio a ε² + c ε + cte, y para ε ~ N(0, 1)
    Var(a ε² + c ε) = 2a² + c². completa=True: log p(x|z) + log p(z) − log q(z);
    completa=False: solo log p(x|z) (la KL con la a priori se suma aparte, sin muestrear).
    """
    residuo = x - b - w * mu                    # x − b − wμ: lo que la media de z no explica
    a = -(w * sigma) ** 2 / (2 * s**2)          # de −(residuo − wσε)²/(2s²)
    c = w * sigma * residuo / s**2
    if completa:
        a += (1.0 - sigma**2) / 2               # de log p(z) − log q(z) = −(μ + σε)²/2 + ε²/2
        c -= mu * sigma
    return 2 * a**2 + c**2


def run(x: float = X, media_q: float = MEDIA_Q, desviacion_q: float = DESVIACION_Q,
        w: float = W, b: float = B, s: float = S, muestras: int = MUESTRAS) -> dict:
    if desviacion_q <= 0 or s <= 0:
        raise ValueError("desviacion_q y s deben ser positivas")
    if muestras < 1:
        raise ValueError(f"se necesita al menos una muestra; se recibió {muestras}")
    if w == 0:
        raise ValueError("w no puede ser 0: el dato no diría nada de z")

    # log p(x) exacto: la marginal del modelo es N(b, w² + s²)
    log_px = float(log_normal(x, b, w**2 + s**2))

    # A posteriori verdadera p(z|x) = N(μ*, σ*²)
    media_post, var_post = posterior_exacta(x, w, b, s)

    # ELBO del codificador q = N(μ, σ²) en forma cerrada
    reconstruccion, kl_prior, elbo = elbo_cerrada(x, media_q, desviacion_q, w, b, s)

    # Lo que le falta a la cota, y la KL del codificador con la a posteriori
    brecha = log_px - elbo
    kl_post = float(kl_normales(media_q, desviacion_q**2, media_post, var_post))

    # Con q igual a la a posteriori exacta la cota se alcanza
    _, _, elbo_optima = elbo_cerrada(x, media_post, np.sqrt(var_post), w, b, s)

    # El mismo ELBO estimado por Monte Carlo con la reparametrización, y su error típico exacto
    elbo_mc = elbo_montecarlo(x, media_q, desviacion_q, w, b, s, muestras, SEMILLA)
    error_completa = np.sqrt(varianza_por_muestra(x, media_q, desviacion_q, w, b, s, True)
                             / muestras)
    error_reconstruccion = np.sqrt(varianza_por_muestra(x, media_q, desviacion_q, w, b, s, False)
                                   / muestras)

    return {
        "log_verosimilitud_exacta": log_px,
        "posterior_exacta": {"media": media_post, "varianza": var_post},
        "elbo": {"reconstruccion": reconstruccion, "kl_con_prior": kl_prior, "total": elbo},
        "brecha": brecha,
        "kl_q_con_posterior": kl_post,
        "brecha_es_kl_con_posterior": bool(abs(brecha - kl_post) < TOL_EXACTA),
        "elbo_acota_por_debajo": bool(elbo <= log_px + TOL_EXACTA),
        "elbo_en_la_posterior_exacta_es_log_px": bool(abs(elbo_optima - log_px) < TOL_EXACTA),
        "elbo_montecarlo_reparametrizado": elbo_mc,
        "error_tipico_montecarlo": {"elbo_completa": error_completa,
                                    "reconstruccion_mas_kl_cerrada": error_reconstruccion},
        "cociente_de_errores_tipicos": float(error_completa / error_reconstruccion),
        "montecarlo_cerca_de_forma_cerrada": bool(
            abs(elbo_mc - elbo) <= ERRORES_TIPICOS * error_completa + TOL_EXACTA),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
