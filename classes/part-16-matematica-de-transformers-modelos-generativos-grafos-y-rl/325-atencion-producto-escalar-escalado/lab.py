"""Atención por producto escalar escalado: por qué se divide entre √d_k.

    q, k con entradas iid de media 0 y varianza 1:
        E[q·k] = 0,   Var(q·k) = d_k   →   Var(q·k / √d_k) = 1
    ∂softmax/∂z = diag(p) − p pᵀ        (se anula cuando p es casi one-hot)
    softmax(z) = softmax(z − max z)     (restar el máximo evita que exp desborde)

Referencias: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, sección 3.2.1 (nota al pie
sobre la varianza d_k); Dao et al., «FlashAttention», NeurIPS 2022 (softmax por bloques).
"""

from itertools import pairwise

import numpy as np

DIMENSIONES = (4, 16, 64, 256)   # d_k
PARES = 4000                     # pares (q, k) por d_k
SEMILLA_VARIANZA = 0
SEMILLA_SATURACION = 1
D_K_SATURACION = 256             # una query contra 8 keys en d_k = 256
CLAVES = 8
LOGITS_GRANDES = np.array([1000.0, 999.0, 998.0])
TOLERANCIA_VARIANZA = 0.1        # error típico de la varianza escalada con 4000 pares ≈ 0.03


def varianzas_producto(dimensiones: tuple[int, ...], pares: int, semilla: int) -> tuple[list, list]:
    """Varianza empírica de q·k y de q·k/√d_k para cada d_k."""
    rng = np.random.default_rng(semilla)
    sin_escalar, escalada = [], []
    for d_k in dimensiones:
        q = rng.standard_normal((pares, d_k))     # (pares, d_k)
        k = rng.standard_normal((pares, d_k))     # (pares, d_k)
        productos = np.sum(q * k, axis=1)         # (pares,): un q·k por par
        sin_escalar.append(float(np.var(productos)))
        escalada.append(float(np.var(productos / np.sqrt(d_k))))
    return sin_escalar, escalada


def softmax(z: np.ndarray) -> np.ndarray:
    """softmax estable: exp(z − max z) / Σ exp(z − max z)."""
    e = np.exp(z - np.max(z))                     # (n,), todas en (0, 1]
    return e / np.sum(e)


def softmax_ingenua(z: np.ndarray) -> np.ndarray:
    """exp(z) / Σ exp(z) tal cual: exp(1000) = inf e inf/inf = NaN."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
        return e / np.sum(e)


def entropia(p: np.ndarray) -> float:
    """H(p) = −Σ p log p, con 0·log 0 = 0."""
    p = p[p > 0]
    return float(-np.sum(p * np.log(p)))


def jacobiano_softmax(p: np.ndarray) -> np.ndarray:
    """∂p/∂z = diag(p) − p pᵀ."""
    return np.diag(p) - np.outer(p, p)           # (n, n)


def run(pares: int = PARES, d_k_saturacion: int = D_K_SATURACION) -> dict:
    # Monte Carlo: Var(q·k) ≈ d_k y, tras escalar, ≈ 1
    var_sin, var_con = varianzas_producto(DIMENSIONES, pares, SEMILLA_VARIANZA)

    # Una query y 8 keys en d_k grande: logits con desviación √d_k sin escalar y 1 escalados
    rng = np.random.default_rng(SEMILLA_SATURACION)
    q = rng.standard_normal(d_k_saturacion)                 # (d_k,)
    K = rng.standard_normal((CLAVES, d_k_saturacion))       # (8, d_k)
    logits = K @ q                                          # (8,)
    p_sin = softmax(logits)                                 # casi one-hot
    p_con = softmax(logits / np.sqrt(d_k_saturacion))       # repartida
    h_sin, h_con = entropia(p_sin), entropia(p_con)
    j_sin = float(np.linalg.norm(jacobiano_softmax(p_sin)))  # Frobenius
    j_con = float(np.linalg.norm(jacobiano_softmax(p_con)))

    return {
        "varianza_sin_escalar": {str(d): v for d, v in zip(DIMENSIONES, var_sin)},
        "varianza_escalada": {str(d): v for d, v in zip(DIMENSIONES, var_con)},
        "la_varianza_crece_con_dk": all(a < b for a, b in pairwise(var_sin)),
        "la_varianza_escalada_es_cercana_a_uno": all(
            abs(v - 1.0) <= TOLERANCIA_VARIANZA for v in var_con
        ),
        "peso_maximo": {"sin_escalar": float(p_sin.max()), "escalado": float(p_con.max())},
        "entropia": {"sin_escalar": h_sin, "escalada": h_con, "maxima_log8": float(np.log(CLAVES))},
        "norma_jacobiano_softmax": {"sin_escalar": j_sin, "escalado": j_con},
        "el_escalado_evita_la_saturacion": h_con > h_sin and j_con > j_sin,
        "softmax_ingenua_desborda": bool(np.any(np.isnan(softmax_ingenua(LOGITS_GRANDES)))),
        "softmax_estable": softmax(LOGITS_GRANDES),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
