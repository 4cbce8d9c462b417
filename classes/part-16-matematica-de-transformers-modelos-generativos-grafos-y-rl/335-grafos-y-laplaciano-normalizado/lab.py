"""Grafos y laplaciano normalizado: qué hacer con un nodo de grado cero.

    d_i = Σ_j A_ij,   L = D − A,   xᵀ L x = Σ_{(i,j)∈E} (x_i − x_j)² ≥ 0
    L_sym = D^{−1/2} L D^{−1/2}   con la raíz inversa segura: (D^{−1/2})_uu = 0 si d_u = 0
    L_sym(u,u) = 1 si d_u > 0 y 0 si d_u = 0;   L_sym(u,v) = −1/√(d_u d_v) si u ~ v   (Chung)
    espectro(L_sym) ⊂ [0, 2];   multiplicidad del autovalor 0 = nº de componentes conexas

Con un nodo aislado, `deg**-0.5` vale inf y la fila y la columna de ese nodo se llenan de NaN
(inf · 0); el resto de la matriz sigue finito, pero los autovalores ya no se pueden calcular. Con
una raíz finita en el nodo aislado (0, o cualquier otro valor) su fila, su columna y su diagonal
valen 0, porque las de L ya son 0. Lo que fija la convención de Chung es esa diagonal: 0 y no 1,
para que el nodo aislado aporte un autovalor 0 como toda componente conexa. La fórmula
I − D^{−1/2} A D^{−1/2} pone un 1 en ella, parece inofensiva y rompe el conteo.

Referencias: F. R. K. Chung, «Spectral Graph Theory», AMS, 1997, cap. 1 (la definición de L_sym);
U. von Luxburg, «A Tutorial on Spectral Clustering», Statistics and Computing 17, 2007 (un tutorial
sobre los tres laplacianos y su uso en agrupamiento espectral).
"""

from collections import deque

import numpy as np

ARISTAS = ((0, 1), (1, 2), (2, 0), (2, 3))  # un triángulo 0-1-2 con una cola 2-3
NODOS_CONECTADOS = 4                         # nodos 0..3; los aislados (por defecto, el 4) detrás
TOL_CERO = 1e-10                             # |λ| < TOL_CERO cuenta como autovalor nulo
TOL_EXACTA = 1e-12                           # identidades exactas salvo redondeo


def adyacencia(aristas: tuple, n: int) -> np.ndarray:
    """Matriz de adyacencia simétrica 0/1 de un grafo no dirigido con n nodos."""
    A = np.zeros((n, n), dtype=int)  # (n, n)
    for i, j in aristas:
        A[i, j] = A[j, i] = 1
    return A


def laplaciano(A: np.ndarray) -> np.ndarray:
    """L = D − A, con D la diagonal de grados."""
    ### BEGIN SOLUTION
    grados = A.sum(axis=1)             # (n,)
    L = np.diag(grados) - A            # (n, n)
    ### END SOLUTION
    return L


def raiz_inversa_segura(grados: np.ndarray) -> np.ndarray:
    """(D^{−1/2})_uu = 1/√d_u si d_u > 0, y 0 si d_u = 0 (sin dividir nunca por cero)."""
    d = grados.astype(float)                                   # (n,)
    ### BEGIN SOLUTION
    inversa = np.zeros_like(d)                                 # (n,) 0 donde d_u = 0
    positivos = d > 0                                          # (n,) nodos con vecinos
    inversa[positivos] = 1.0 / np.sqrt(d[positivos])
    ### END SOLUTION
    return inversa


def laplaciano_normalizado(A: np.ndarray) -> np.ndarray:
    """L_sym de Chung: D^{−1/2} L D^{−1/2} con la raíz inversa segura (diagonal 0 si d_u = 0)."""
    r = raiz_inversa_segura(A.sum(axis=1))      # (n,)
    ### BEGIN SOLUTION
    L_sym = r[:, None] * laplaciano(A) * r[None, :]  # (n, n): L_uv · r_u · r_v
    ### END SOLUTION
    return L_sym


def laplaciano_ingenuo(A: np.ndarray) -> np.ndarray:
    """El error a evitar: deg**-0.5 sin mirar los ceros (inf en el nodo aislado, luego NaN)."""
    grados = A.sum(axis=1).astype(float)        # (n,)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = grados ** -0.5                       # (n,) con inf donde d_u = 0
        return np.diag(r) @ laplaciano(A) @ np.diag(r)  # (n, n) con NaN


def convencion_diagonal_uno(A: np.ndarray) -> np.ndarray:
    """La alternativa tentadora: I − D^{−1/2} A D^{−1/2}, que deja 1 en la diagonal del aislado."""
    r = raiz_inversa_segura(A.sum(axis=1))          # (n,)
    return np.eye(len(A)) - r[:, None] * A * r[None, :]  # (n, n)


def componentes_conexas(A: np.ndarray) -> int:
    """Cuenta componentes con una búsqueda en anchura (BFS): nada espectral."""
    n = len(A)
    visto = [False] * n
    componentes = 0
    for origen in range(n):
        if visto[origen]:
            continue
        componentes += 1
        visto[origen] = True
        cola = deque([origen])
        while cola:
            u = cola.popleft()
            for v in np.flatnonzero(A[u]):
                if not visto[v]:
                    visto[v] = True
                    cola.append(v)
    return componentes


def multiplicidad_del_cero(autovalores: np.ndarray) -> int:
    """Número de autovalores con |λ| < TOL_CERO."""
    return int(np.sum(np.abs(autovalores) < TOL_CERO))


def run(nodos_aislados: int = 1) -> dict:
    if nodos_aislados < 0:
        raise ValueError(f"nodos_aislados debe ser >= 0; se recibió {nodos_aislados}")
    n = NODOS_CONECTADOS + nodos_aislados
    A = adyacencia(ARISTAS, n)                      # (n, n)
    grados = A.sum(axis=1)                          # (n,) enteros
    L = laplaciano(A)                               # (n, n) enteros

    # L·1 = 0: cada fila suma el grado menos los vecinos.
    filas_suman_cero = bool(np.all(L @ np.ones(n, dtype=int) == 0))

    # El cálculo ingenuo con deg**-0.5 produce inf/NaN si hay algún nodo aislado: se cuentan
    # (n² − (n − aislados)², la fila y la columna de cada aislado), no se afirma que existan.
    ingenuo = laplaciano_ingenuo(A)                 # (n, n)
    ingenuo_no_finitas = int(np.sum(~np.isfinite(ingenuo)))

    L_sym = laplaciano_normalizado(A)               # (n, n)
    autovalores = np.linalg.eigvalsh(L_sym)         # (n,) ascendentes
    en_0_2 = bool(np.all(autovalores >= -TOL_EXACTA) and np.all(autovalores <= 2 + TOL_EXACTA))

    ceros = multiplicidad_del_cero(autovalores)
    componentes = componentes_conexas(A)

    # Contraejemplo: con diagonal 1 en el nodo aislado su autovalor pasa de 0 a 1.
    autovalores_uno = np.linalg.eigvalsh(convencion_diagonal_uno(A))  # (n,)

    return {
        "grafo": {"adyacencia": A, "grados": grados},
        "laplaciano": L,
        "filas_suman_cero": filas_suman_cero,
        "ingenuo_entradas_no_finitas": ingenuo_no_finitas,
        "laplaciano_normalizado": L_sym,
        "autovalores_normalizado": autovalores,
        "autovalores_en_0_2": en_0_2,
        "conteo": {"multiplicidad_del_cero": ceros, "componentes": componentes},
        "multiplicidad_igual_a_componentes": ceros == componentes,
        "convencion_diagonal_uno": {
            "autovalores": autovalores_uno,
            "multiplicidad_del_cero": multiplicidad_del_cero(autovalores_uno),
        },
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
