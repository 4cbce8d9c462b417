"""Redes convolucionales en grafos (GCN): una capa es un promedio ponderado de vecinos.

    Ã = A + I,   d̃_i = Σ_j Ã_ij ≥ 1,   Â = D̃^{−1/2} Ã D̃^{−1/2}
    H' = σ(Â H W)   ⇔   h'_i = σ( Σ_{j ∈ N(i) ∪ {i}} h_j W / √(d̃_i d̃_j) )
    espectro(Â) ⊂ (−1, 1];   el autovalor 1 aparece una vez por componente conexa
    Â^k H → en cada componente, filas proporcionales a √d̃_i     (sobresuavizado)

Los autobucles (el «truco de renormalización») garantizan d̃ ≥ 1: el nodo aislado de la clase 335
pasa a tener grado 1 y solo se ve a sí mismo, sin división por cero. Sin ellos (autobucles=False)
el lab usa la raíz inversa segura de la 335 y el nodo aislado se queda sin mensaje.

Referencias: T. N. Kipf y M. Welling, «Semi-Supervised Classification with Graph Convolutional
Networks», ICLR 2017, ec. (2) y (8); Q. Li, Z. Han y X.-M. Wu, «Deeper Insights into Graph
Convolutional Networks for Semi-Supervised Learning», AAAI 2018 (sobresuavizado).
"""

import numpy as np

ARISTAS = ((0, 1), (1, 2), (2, 0), (2, 3))  # el grafo de la 335: triángulo, cola 2-3
N_NODOS = 5                                  # el nodo 4 está aislado
H = np.array([[1.0, 0.0],
              [0.0, 1.0],
              [1.0, 1.0],
              [2.0, 0.0],
              [0.0, 3.0]])                   # (nodos, 2): rasgos de entrada
W = np.array([[1.0, 0.5],
              [-0.5, 1.0]])                  # (2, 2): pesos de la capa, h W en vectores fila
PERMUTACION = (4, 2, 0, 3, 1)                # nodo i del grafo permutado = nodo PERMUTACION[i]
CAPAS = (1, 2, 5, 10, 50)                    # k para medir el sobresuavizado
COMPONENTE_GRANDE = (0, 1, 2, 3)
TOL_EXACTA = 1e-12
UMBRAL_SUAVE = 1e-3                          # por debajo, las filas son indistinguibles


def adyacencia(aristas: tuple, n: int) -> np.ndarray:
    """Matriz de adyacencia simétrica 0/1."""
    A = np.zeros((n, n), dtype=int)  # (n, n)
    for i, j in aristas:
        A[i, j] = A[j, i] = 1
    return A


def raiz_inversa_segura(grados: np.ndarray) -> np.ndarray:
    """1/√d si d > 0 y 0 si d = 0: la convención de la 335 (solo hace falta sin autobucles)."""
    d = grados.astype(float)          # (n,)
    r = np.zeros_like(d)              # (n,)
    r[d > 0] = 1.0 / np.sqrt(d[d > 0])
    return r


def a_normalizada(A: np.ndarray, autobucles: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Â = D̃^{−1/2} Ã D̃^{−1/2} y los grados d̃ (con Ã = A + I si autobucles)."""
    ### BEGIN SOLUTION
    A_tilde = A + np.eye(len(A), dtype=int) if autobucles else A  # (n, n)
    grados = A_tilde.sum(axis=1)                                  # (n,) enteros
    r = raiz_inversa_segura(grados)                               # (n,)
    A_hat = r[:, None] * A_tilde * r[None, :]                     # (n, n)
    ### END SOLUTION
    return A_hat, grados                                          # (n, n), (n,)


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def capa_gcn(A: np.ndarray, H: np.ndarray, W: np.ndarray, autobucles: bool = True) -> np.ndarray:
    """Forma matricial: ReLU(Â H W)."""
    A_hat, _ = a_normalizada(A, autobucles)  # (n, n)
    ### BEGIN SOLUTION
    H_salida = relu(A_hat @ H @ W)           # (n, d_salida)
    ### END SOLUTION
    return H_salida


def capa_gcn_por_mensajes(A: np.ndarray, H: np.ndarray, W: np.ndarray,
                          autobucles: bool = True) -> np.ndarray:
    """La misma capa nodo a nodo: cada vecino j (y el propio i) envía h_j W / √(d̃_i d̃_j)."""
    n = len(A)
    A_tilde = A + np.eye(n, dtype=int) if autobucles else A
    grados = A_tilde.sum(axis=1)
    salida = np.zeros((n, W.shape[1]))                   # (n, d_salida)
    for i in range(n):
        for j in np.flatnonzero(A_tilde[i]):             # N(i) ∪ {i}
            ### BEGIN SOLUTION
            salida[i] += (H[j] @ W) / np.sqrt(grados[i] * grados[j])  # mensaje de j a i
            ### END SOLUTION
    return relu(salida)


def dispersion(A_hat: np.ndarray, H: np.ndarray, grados: np.ndarray, k: int) -> float:
    """max |Y_ij − media_i Y_ij| en la componente grande, con Y_i = (Â^k H)_i / √d̃_i."""
    Z = np.linalg.matrix_power(A_hat, k) @ H                 # (n, 2): k capas sin W ni ReLU
    nodos = list(COMPONENTE_GRANDE)
    Y = Z[nodos] / np.sqrt(grados[nodos])[:, None]           # (4, 2)
    return float(np.max(np.abs(Y - Y.mean(axis=0))))


def run(autobucles: bool = True) -> dict:
    A = adyacencia(ARISTAS, N_NODOS)                    # (5, 5)
    A_hat, grados = a_normalizada(A, autobucles)        # (5, 5), (5,)

    # Con autobucles ningún grado es 0: no hay división por cero que tratar. Sin ellos el nodo
    # aislado tiene grado 0 y es la raíz inversa segura la que deja Â finita.
    sin_division_por_cero = bool(np.all(np.isfinite(A_hat))
                                 and (grados.min() >= 1 or not autobucles))

    H_salida = capa_gcn(A, H, W, autobucles)            # (5, 2)

    # El nodo aislado (4) solo recibe su propio mensaje, el de su autobucle: h'_4 = ReLU(h_4 W);
    # sin autobucles no recibe ninguno y su salida es ReLU(0) = 0.
    aislado = N_NODOS - 1
    propio = relu(H[aislado] @ W) if autobucles else np.zeros(W.shape[1])  # (d_salida,)
    solo_se_ve = bool(np.max(np.abs(H_salida[aislado] - propio)) < TOL_EXACTA)

    # Bucle explícito sobre vecinos frente a la forma matricial.
    por_mensajes = capa_gcn_por_mensajes(A, H, W, autobucles)  # (5, 2)
    es_suma_ponderada = bool(np.max(np.abs(por_mensajes - H_salida)) < TOL_EXACTA)

    # Equivariancia: permutar el grafo y los rasgos permuta la salida igual.
    p = list(PERMUTACION)
    A_perm = A[np.ix_(p, p)]                            # P A Pᵀ
    salida_perm = capa_gcn(A_perm, H[p], W, autobucles)  # GCN(PAPᵀ, PH)
    # Cualquier capa hecha de productos de Â, H y W lo cumple: se muestra el número, no se afirma
    error_equivariancia = float(np.max(np.abs(salida_perm - H_salida[p])))

    autovalores = np.linalg.eigvalsh(A_hat)             # (5,) ascendentes

    # Sobresuavizado: k capas lineales apiladas (sin W ni ReLU).
    dispersiones = {f"k_{k}": dispersion(A_hat, H, grados, k) for k in CAPAS}
    sobresuavizado = dispersiones[f"k_{CAPAS[-1]}"] < UMBRAL_SUAVE < dispersiones[f"k_{CAPAS[0]}"]

    return {
        "grados_con_autobucles": grados,
        "a_normalizada": A_hat,
        "sin_division_por_cero": sin_division_por_cero,
        "salida_capa": H_salida,
        "nodo_aislado_solo_se_ve_a_si_mismo": solo_se_ve,
        "mensaje_es_suma_ponderada_de_vecinos": es_suma_ponderada,
        "error_de_equivariancia": error_equivariancia,
        "autovalores_a_normalizada": autovalores,
        "dispersion_tras_k_capas": dispersiones,
        "sobresuavizado": bool(sobresuavizado),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
