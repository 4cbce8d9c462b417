"""Query, Key y Value: la atención como búsqueda blanda en un diccionario.

    Q = X W_Q,   K = X W_K,   V = X W_V        X ∈ R^{n×d}, W_Q, W_K ∈ R^{d×d_k}, W_V ∈ R^{d×d_v}
    A = softmax_filas(Q Kᵀ / √d_k)              cada fila de A es ≥ 0 y suma 1
    salida = A V                                cada fila es combinación convexa de las filas de V
    Atención(P X) = P · Atención(X)             P permutación: la atención no ve el orden

Convención de vectores fila: Q = X @ W_Q con W_Q de forma (d_entrada, d_salida).

Referencias: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, sección 3.2.1;
Bahdanau, Cho y Bengio, ICLR 2015.
"""

import numpy as np

TOKENS = ("el", "gato", "come")
X = np.array([[1, 0, 1, 0],
              [0, 1, 0, 1],
              [1, 1, 0, 0]], dtype=float)   # (n, d) = (3, 4)
W_Q = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], dtype=float)  # (d, d_k) = (4, 2)
W_K = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], dtype=float)  # (d, d_k) = (4, 2)
W_V = np.array([[1, 0], [0, 0], [0, 1], [2, 1]], dtype=float)  # (d, d_v) = (4, 2)
PERMUTACION = "2,0,1"   # la fila i de P·X es la fila PERMUTACION[i] de X
TOLERANCIA = 1e-12


def softmax_filas(S: np.ndarray) -> np.ndarray:
    """softmax por filas, estable: restar el máximo de cada fila no cambia el resultado."""
    Z = np.exp(S - S.max(axis=1, keepdims=True))   # (n, n)
    return Z / Z.sum(axis=1, keepdims=True)         # (n, n), filas que suman 1


def atencion(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray) -> tuple:
    """Devuelve Q, K, V, las puntuaciones escaladas, los pesos y la salida."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V              # (n, d_k), (n, d_k), (n, d_v)
    S = Q @ K.T / np.sqrt(W_K.shape[1])              # (n, n): fila i = query i contra cada key
    A = softmax_filas(S)                             # (n, n)
    return Q, K, V, S, A, A @ V                      # salida: (n, d_v)


def run(permutacion: str = PERMUTACION) -> dict:
    Q, K, V, S, A, salida = atencion(X, W_Q, W_K, W_V)

    # Combinación convexa: cada columna de la salida queda entre el mínimo y el máximo de V
    dentro = (salida >= V.min(axis=0) - TOLERANCIA) & (salida <= V.max(axis=0) + TOLERANCIA)

    # Equivariancia: atender a los tokens permutados da la salida permutada
    orden = [int(i) for i in permutacion.split(",")]
    if sorted(orden) != list(range(len(TOKENS))):
        raise ValueError(
            f"la permutación debe reordenar 0..{len(TOKENS) - 1}; se recibió {permutacion!r}"
        )
    P = np.eye(len(TOKENS))[orden]                   # (n, n), matriz de permutación
    salida_permutada = atencion(P @ X, W_Q, W_K, W_V)[-1]
    error_permutacion = np.max(np.abs(salida_permutada - P @ salida))

    return {
        "formas": {
            "X": list(X.shape), "W_Q": list(W_Q.shape), "Q": list(Q.shape),
            "puntuaciones": list(S.shape),
        },
        "proyecciones": {"q": Q, "k": K, "v": V},
        "puntuaciones_escaladas": S,
        "pesos_de_atencion": A,
        "salida": salida,
        "filas_suman_uno": bool(np.all(np.abs(A.sum(axis=1) - 1.0) < TOLERANCIA)),
        "salida_es_combinacion_convexa": bool(np.all(dentro)),
        "permutar_tokens_permuta_la_salida": bool(error_permutacion < TOLERANCIA),
        "puntuaciones_no_simetricas": bool(np.max(np.abs(S - S.T)) > TOLERANCIA),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
