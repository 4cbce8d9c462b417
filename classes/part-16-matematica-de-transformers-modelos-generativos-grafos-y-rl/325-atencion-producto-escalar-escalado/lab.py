"""Atención por producto escalar escalado: por qué se divide entre √d_k.

    q, k con entradas iid de media 0 y varianza 1:
        E[q·k] = 0,   Var(q·k) = d_k   →   Var(q·k / √d_k) = 1
    ∂softmax/∂z = diag(p) − p pᵀ        (se anula cuando p es casi degenerada, toda en una clave)
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
D_K_SATURACION = 256             # consultas y claves de dimensión d_k = 256
CLAVES = 8                       # claves por consulta
SORTEOS = 1000                   # sorteos independientes de (una consulta, 8 claves)
LOGITS_GRANDES = np.array([1000.0, 999.0, 998.0])
# Error típico de la varianza escalada con 4000 pares: √((2 + 6/d_k)/4000) ≈ 0,022–0,030,
# así que ±0,1 son de 3,4 a 4,4 errores típicos.
TOLERANCIA_VARIANZA = 0.1


def varianzas_producto(dimensiones: tuple[int, ...], pares: int,
                       semilla: int) -> tuple[list, list, list]:
    """Varianza empírica de q·k y de q·k/√d_k para cada d_k, y la media de q·k/√d_k."""
    rng = np.random.default_rng(semilla)
    sin_escalar, escalada, medias = [], [], []
    for d_k in dimensiones:
        q = rng.standard_normal((pares, d_k))     # (pares, d_k)
        k = rng.standard_normal((pares, d_k))     # (pares, d_k)
        ### BEGIN SOLUTION
        productos = np.sum(q * k, axis=1)         # (pares,): un q·k por par
        escalados = productos / np.sqrt(d_k)      # (pares,): q·k/√d_k
        ### END SOLUTION
        sin_escalar.append(float(np.var(productos)))
        escalada.append(float(np.var(escalados)))
        medias.append(float(np.mean(escalados)))  # la varianza no ve un desplazamiento; la media sí
    return sin_escalar, escalada, medias


def softmax(z: np.ndarray) -> np.ndarray:
    """softmax estable: exp(z − max z) / Σ exp(z − max z).

    z es un vector (n,) o un lote de filas (..., n): el máximo y la suma se toman en cada fila.
    """
    ### BEGIN SOLUTION
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))      # (..., n), todas en (0, 1]
    p = e / np.sum(e, axis=-1, keepdims=True)              # (..., n), cada fila suma 1
    ### END SOLUTION
    return p


def softmax_ingenua(z: np.ndarray) -> np.ndarray:
    """exp(z) / Σ exp(z) tal cual: exp(1000) = inf e inf/inf = NaN."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
        return e / np.sum(e)


def entropia(p: np.ndarray) -> np.ndarray:
    """H(p) = −Σ p log p de un vector (n,) o de cada fila (..., n), con 0·log 0 = 0."""
    log_p = np.log(p, out=np.zeros_like(p), where=p > 0)   # (..., n), 0 donde p = 0
    return -np.sum(p * log_p, axis=-1)                     # (...,), en nats


def jacobiano_softmax(p: np.ndarray) -> np.ndarray:
    """∂p/∂z = diag(p) − p pᵀ, para un vector p (n,) o para cada fila de un lote (..., n)."""
    ### BEGIN SOLUTION
    diag_p = p[..., :, None] * np.eye(p.shape[-1])         # (..., n, n): diag(p)
    p_pT = p[..., :, None] * p[..., None, :]               # (..., n, n): p pᵀ
    J = diag_p - p_pT                                      # (..., n, n)
    ### END SOLUTION
    return J


def saturacion(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Peso máximo, entropía y ‖diag(p) − p pᵀ‖_F de la softmax de cada fila de logits."""
    P = softmax(logits)                                            # (sorteos, 8)
    peso_maximo = P.max(axis=-1)                                   # (sorteos,)
    H = entropia(P)                                                # (sorteos,), en nats
    norma_J = np.linalg.norm(jacobiano_softmax(P), axis=(-2, -1))  # (sorteos,): Frobenius
    return peso_maximo, H, norma_J


def run(pares: int = PARES, d_k_saturacion: int = D_K_SATURACION, sorteos: int = SORTEOS) -> dict:
    # Monte Carlo: Var(q·k) ≈ d_k y, tras escalar, ≈ 1
    var_sin, var_con, medias = varianzas_producto(DIMENSIONES, pares, SEMILLA_VARIANZA)

    # Saturación: cada sorteo es una consulta q y 8 claves k_c de entradas N(0, 1). Dada q, cada
    # logit q·k_c = Σ_i q_i k_ci es una suma de normales independientes, N(0, Σ_i q_i² = ‖q‖²):
    # la cuenta de Var(q·k) = d_k sin promediar q. Y los 8 logits son independientes entre sí.
    # Así se sortean, sin formar las claves: 8 aleatorios por sorteo en vez de 8·d_k.
    rng = np.random.default_rng(SEMILLA_SATURACION)
    q = rng.standard_normal((sorteos, d_k_saturacion))             # (sorteos, d_k)
    norma_q = np.linalg.norm(q, axis=1, keepdims=True)             # (sorteos, 1): ‖q‖ ≈ √d_k
    logits = norma_q * rng.standard_normal((sorteos, CLAVES))      # (sorteos, 8): los q·k_c
    # Medias sobre los sorteos, sin escalar y dividiendo los logits entre √d_k
    p_sin, h_sin, j_sin = (float(x.mean()) for x in saturacion(logits))
    p_con, h_con, j_con = (float(x.mean()) for x in saturacion(logits / np.sqrt(d_k_saturacion)))

    return {
        "varianza_sin_escalar": {str(d): v for d, v in zip(DIMENSIONES, var_sin)},
        "varianza_escalada": {str(d): v for d, v in zip(DIMENSIONES, var_con)},
        "media_escalada": {str(d): m for d, m in zip(DIMENSIONES, medias)},
        "la_varianza_crece_con_dk": all(a < b for a, b in pairwise(var_sin)),
        "la_varianza_escalada_es_cercana_a_uno": all(
            abs(v - 1.0) <= TOLERANCIA_VARIANZA for v in var_con
        ),
        "peso_maximo": {"sin_escalar": p_sin, "escalado": p_con},
        "entropia": {"sin_escalar": h_sin, "escalada": h_con},
        "norma_jacobiano_softmax": {"sin_escalar": j_sin, "escalado": j_con},
        "el_escalado_evita_la_saturacion": h_con > h_sin and j_con > j_sin,
        # Una demostración, no una afirmación: cuántas entradas de la softmax ingenua no son finitas
        "softmax_ingenua_no_finitas": int(np.sum(~np.isfinite(softmax_ingenua(LOGITS_GRANDES)))),
        "softmax_estable": softmax(LOGITS_GRANDES),
        "jacobiano_softmax_estable": jacobiano_softmax(softmax(LOGITS_GRANDES)),  # (3, 3)
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
