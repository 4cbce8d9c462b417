"""Gradiente de política (REINFORCE) y regularización KL en un bandido de 3 brazos.

    π_θ = softmax(θ),   J(θ) = Σ_a π_θ(a) r(a)
    ∇J = E_{a~π}[ (R − b) ∇ log π_θ(a) ],   ∇ log π_θ(a) = e_a − π_θ   (b constante: sin sesgo)
    bandido con softmax:  ∇J sale del jacobiano de la softmax, ∂π(a)/∂θ_i = π(a)(1{a=i} − π(i))
    max_π E_π[r] − β KL(π ‖ π_ref)  ⇒  π*(a) ∝ π_ref(a) exp(r(a)/β)
    con π_ref uniforme:  π* = softmax(r/β)   (β hace de temperatura)

Referencias: Williams, «Simple Statistical Gradient-Following Algorithms for Connectionist
Reinforcement Learning», Machine Learning 8 (1992); Rafailov et al., «Direct Preference
Optimization», NeurIPS 2023, ec. 4; Sutton y Barto (2018), §2.8.
"""

from collections.abc import Callable

import numpy as np

RECOMPENSAS = (1.0, 2.0, 0.5)   # r(a): recompensa media de cada brazo
RUIDO = 1.0                     # la recompensa observada es r(a) + N(0, RUIDO²)
MUESTRAS = 20_000               # tiradas de REINFORCE
ERRORES_TIPICOS = 5             # «insesgado»: la media a menos de 5 errores típicos del exacto
SEMILLA = 0
H = 1e-6                        # paso de las diferencias centrales
PASOS = 500                     # ascenso exacto sobre J
PASOS_KL = 5000                 # ascenso exacto sobre J − β KL: como mucho...
UMBRAL_KL = 1e-10               # ...hasta que un paso mueva θ menos que esto (punto fijo)
TASA = 1.0                      # tamaño de paso del ascenso
BETA = 0.5                      # peso del freno KL (la «temperatura»)


def softmax(z: np.ndarray) -> np.ndarray:
    """Softmax estable: se resta el máximo antes de exponenciar."""
    e = np.exp(z - z.max())                                    # (A,)
    return e / e.sum()                                         # (A,)


def retorno(theta: np.ndarray, r: np.ndarray) -> float:
    """J(θ) = Σ_a π_θ(a) r(a)."""
    return float(softmax(theta) @ r)


def gradiente_exacto(theta: np.ndarray, r: np.ndarray) -> np.ndarray:
    """∇_θ J del bandido con política softmax, derivado a mano (lo contrastan las diferencias)."""
    pi = softmax(theta)                                        # (A,)
    ### BEGIN SOLUTION
    J = pi @ r                                                 # escalar: el retorno esperado
    grad = pi * (r - J)                                        # (A,)
    ### END SOLUTION
    return grad


def diferencias_centrales(theta: np.ndarray, r: np.ndarray, h: float) -> np.ndarray:
    """(J(θ + h e_i) − J(θ − h e_i)) / 2h para cada componente i."""
    E = np.eye(len(theta))                                     # (A, A)
    return np.array([(retorno(theta + h * e, r) - retorno(theta - h * e, r)) / (2 * h) for e in E])


def gradiente_kl(theta: np.ndarray, r: np.ndarray, beta: float, pi_ref: np.ndarray) -> np.ndarray:
    """∇_θ [E_π r − β KL(π‖π_ref)]: su ascenso debe llegar a la forma cerrada softmax(r/β)."""
    pi = softmax(theta)                                        # (A,)
    ### BEGIN SOLUTION
    g = r - beta * np.log(pi / pi_ref)                         # (A,) recompensa «efectiva»
    grad = pi * (g - pi @ g)                                   # (A,)
    ### END SOLUTION
    return grad


def reinforce(theta: np.ndarray, r: np.ndarray, muestras: int, semilla: int) -> dict:
    """Estimaciones (R − b)(e_a − π) por muestra, sin línea base y con b = J.

    Para cada b devuelve la media (A,), su error típico (A,) y la traza de la covarianza.
    """
    rng = np.random.default_rng(semilla)
    pi = softmax(theta)                                        # (A,)
    a = rng.choice(len(r), size=muestras, p=pi)                # (N,) brazos tirados
    R = r[a] + RUIDO * rng.standard_normal(muestras)           # (N,) recompensas observadas
    resultado = {}
    for nombre, b in (("sin_linea_base", 0.0), ("con_linea_base", float(pi @ r))):
        ### BEGIN SOLUTION
        score = np.eye(len(r))[a] - pi                         # (N, A) ∇ log π(a) = e_a − π
        g = (R - b)[:, None] * score                           # (N, A) una estimación por muestra
        ### END SOLUTION
        covarianza = np.cov(g, rowvar=False, ddof=1)           # (A, A)
        resultado[nombre] = {
            "media": g.mean(axis=0),                           # (A,)
            "error_tipico": np.sqrt(np.diag(covarianza) / muestras),  # (A,)
            "varianza_traza": float(np.trace(covarianza)),
        }
    return resultado


def ascenso(theta: np.ndarray, direccion: Callable[[np.ndarray], np.ndarray], pasos: int,
            tasa: float, umbral: float = 0.0) -> np.ndarray:
    """θ ← θ + tasa · direccion(θ), `pasos` veces o hasta que un paso mueva θ menos que `umbral`.

    Con umbral 0 da siempre los `pasos` pasos. Si los pasos se acortan en una razón ρ, lo que
    queda por recorrer al parar es umbral · ρ/(1 − ρ) como mucho: con 1e-10, lejos de la 6.ª cifra.
    """
    for _ in range(pasos):
        paso = tasa * direccion(theta)                         # (A,)
        theta = theta + paso                                   # (A,)
        if np.abs(paso).max() < umbral:                        # ‖θ_{k+1} − θ_k‖_∞ < umbral
            break
    return theta


def run(beta: float = BETA, muestras: int = MUESTRAS, tasa: float = TASA,
        semilla: int = SEMILLA) -> dict:
    if beta <= 0:
        raise ValueError(f"beta debe ser positivo; se recibió {beta}")
    if muestras < 2:
        raise ValueError(
            f"muestras debe ser al menos 2 (np.cov usa ddof = 1); se recibió {muestras}")
    r = np.array(RECOMPENSAS)                                  # (A,)
    theta0 = np.zeros(len(r))                                  # política inicial uniforme

    # Gradiente exacto y diferencias centrales
    grad = gradiente_exacto(theta0, r)                         # (A,)
    dif = diferencias_centrales(theta0, r, H)                  # (A,)

    # REINFORCE: mismas tiradas con y sin línea base
    est = reinforce(theta0, r, muestras, semilla)
    sin_b, con_b = est["sin_linea_base"], est["con_linea_base"]
    insesgados = all(
        np.all(np.abs(e["media"] - grad) < ERRORES_TIPICOS * e["error_tipico"])
        for e in (sin_b, con_b)
    )

    # Ascenso exacto sobre J: la política se concentra en el mejor brazo
    pi_final = softmax(ascenso(theta0, lambda t: gradiente_exacto(t, r), PASOS, tasa))  # (A,)
    mejor = int(np.argmax(r))

    # Ascenso exacto sobre J − β KL(π‖uniforme) hasta que θ deja de moverse (648 pasos con
    # β = 0,5), frente a la forma cerrada softmax(r/β)
    pi_ref = np.full(len(r), 1.0 / len(r))                     # (A,)
    theta_kl = ascenso(theta0, lambda t: gradiente_kl(t, r, beta, pi_ref), PASOS_KL, tasa,
                       UMBRAL_KL)
    pi_kl = softmax(theta_kl)                                  # (A,)
    pi_cerrada = softmax(r / beta)                             # (A,)

    return {
        "politica_inicial": {
            "probabilidades": softmax(theta0),
            "retorno_esperado": retorno(theta0, r),
        },
        "gradiente_exacto": grad,
        "coincide_con_diferencias_finitas": bool(np.max(np.abs(grad - dif)) < 1e-8),
        "reinforce": {nombre: e["media"] for nombre, e in est.items()},
        "reinforce_varianza_traza": {nombre: e["varianza_traza"] for nombre, e in est.items()},
        "estimadores_insesgados": bool(insesgados),
        "linea_base_reduce_varianza": con_b["varianza_traza"] < sin_b["varianza_traza"],
        "politica_tras_500_pasos": pi_final,
        "ascenso_elige_el_mejor_brazo": bool(
            int(np.argmax(pi_final)) == mejor and pi_final[mejor] > 0.95
        ),
        "optimo_kl": {"por_gradiente": pi_kl, "softmax_r_sobre_beta": pi_cerrada},
        "kl_regularizado_es_softmax_con_temperatura": bool(
            np.max(np.abs(pi_kl - pi_cerrada)) < 1e-6
        ),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
