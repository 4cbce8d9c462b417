"""Query, Key y Value: la atención como búsqueda blanda en un diccionario.

    Q = X W_Q,   K = X W_K,   V = X W_V        X ∈ R^{n×d}, W_Q, W_K ∈ R^{d×d_k}, W_V ∈ R^{d×d_v}
    A = softmax_filas(Q Kᵀ / √d_k)              cada fila de A es ≥ 0 y suma 1
    salida = A V                                cada fila es combinación convexa de las filas de V
    Atención(P X) = P · Atención(X)             P permutación (sin máscara): no ve el orden

Convención de vectores fila: Q = X @ W_Q con W_Q de forma (d_entrada, d_salida).
Q Kᵀ = X (W_Q W_Kᵀ) Xᵀ es simétrica para toda X si y solo si W_Q W_Kᵀ lo es; aun así, los pesos A
no suelen serlo, porque la softmax normaliza cada fila por su cuenta.

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
ESCALA = 1.0            # factor de X: con 20 las puntuaciones pasan de 700 y exp desborda
                        # si la softmax no resta el máximo


def softmax_filas(S: np.ndarray) -> np.ndarray:
    """softmax por filas, estable: restar el máximo de cada fila no cambia el resultado."""
    ### BEGIN SOLUTION
    Z = np.exp(S - S.max(axis=1, keepdims=True))   # (n, n), entradas en (0, 1]
    A = Z / Z.sum(axis=1, keepdims=True)            # (n, n), filas que suman 1
    ### END SOLUTION
    return A


def atencion(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray) -> tuple:
    """Devuelve Q, K, V, las puntuaciones escaladas, los pesos y la salida."""
    ### BEGIN SOLUTION
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V              # (n, d_k), (n, d_k), (n, d_v)
    S = Q @ K.T / np.sqrt(W_K.shape[1])              # (n, n): fila i = consulta i contra cada clave
    ### END SOLUTION
    A = softmax_filas(S)                             # (n, n)
    return Q, K, V, S, A, A @ V                      # salida: (n, d_v)


def es_combinacion_convexa(A: np.ndarray, V: np.ndarray, salida: np.ndarray) -> bool:
    """¿Cada fila de la salida es Σ_j a_ij v_j con a_ij ≥ 0 y Σ_j a_ij = 1? (los pesos, testigos)"""
    no_negativos = bool(np.all(A >= 0.0))
    suman_uno = bool(np.all(np.abs(A.sum(axis=1) - 1.0) < TOLERANCIA))
    # Σ_j a_ij v_j sumando fila a fila de V, no con el producto matricial que dio la salida
    combinacion = sum(A[:, [j]] * V[j] for j in range(V.shape[0]))  # (n, d_v)
    reproduce = bool(np.max(np.abs(combinacion - salida)) < TOLERANCIA)
    return no_negativos and suman_uno and reproduce


def run(permutacion: str = PERMUTACION, escala: float = ESCALA) -> dict:
    Xe = escala * X                                  # (n, d): los tokens escalados
    Q, K, V, S, A, salida = atencion(Xe, W_Q, W_K, W_V)

    # Combinación convexa: pesos ≥ 0 que suman 1 y que, aplicados a las filas de V, dan la salida
    convexa = es_combinacion_convexa(A, V, salida)

    # Equivariancia: atender a los tokens permutados da la salida permutada (un teorema: se
    # muestra la salida, no se afirma nada que un hueco razonable pudiera romper)
    orden = [int(i) for i in permutacion.split(",")]
    if sorted(orden) != list(range(len(TOKENS))):
        raise ValueError(
            f"la permutación debe reordenar 0..{len(TOKENS) - 1}; se recibió {permutacion!r}"
        )
    P = np.eye(len(TOKENS))[orden]                   # (n, n), matriz de permutación
    salida_permutada = atencion(P @ Xe, W_Q, W_K, W_V)[-1]     # (n, d_v) = P · salida

    return {
        "formas": {
            "X": list(Xe.shape), "W_Q": list(W_Q.shape), "Q": list(Q.shape),
            "puntuaciones": list(S.shape),
        },
        "proyecciones": {"q": Q, "k": K, "v": V},
        "puntuaciones_escaladas": S,
        "pesos_de_atencion": A,
        "salida": salida,
        "filas_suman_uno": bool(np.all(np.abs(A.sum(axis=1) - 1.0) < TOLERANCIA)),
        "salida_es_combinacion_convexa": convexa,
        "salida_con_tokens_permutados": salida_permutada,
        "puntuaciones_no_simetricas": bool(np.max(np.abs(S - S.T)) > TOLERANCIA),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
