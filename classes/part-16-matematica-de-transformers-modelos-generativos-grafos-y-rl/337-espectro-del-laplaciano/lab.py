"""Espectro del Laplaciano: el vector de Fiedler y la transformada de Fourier en grafos.

    L = U Λ Uᵀ,   0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n;   λ₂ > 0 ⇔ el grafo es conexo (conectividad algebraica)
    λ₂ = min_{x ⊥ 1, x ≠ 0} xᵀLx / xᵀx    (cociente de Rayleigh; lo alcanza el vector de Fiedler)
    GFT: x̂ = Uᵀ x,   x = U x̂,   ‖x̂‖ = ‖x‖ (Parseval);   xᵀLx = Σ_k λ_k x̂_k²
    ciclo C_n: λ_k = 2 − 2 cos(2πk/n)   (los autovalores de la DFT de la parte 13)

Convención: el signo de un autovector es arbitrario; el lab fija el del vector de Fiedler con la
componente del nodo 0 negativa. Los autovectores de un autovalor repetido (aquí el 3, triple) no son
únicos y no se emiten.

Referencias: M. Fiedler, «Algebraic Connectivity of Graphs», Czechoslovak Math. J. 23, 1973;
D. I. Shuman et al., «The Emerging Field of Signal Processing on Graphs», IEEE Signal Processing
Magazine 30(3), 2013; U. von Luxburg, «A Tutorial on Spectral Clustering», 2007.
"""

import numpy as np

TRIANGULO_A = ((0, 1), (1, 2), (2, 0))
TRIANGULO_B = ((3, 4), (4, 5), (5, 3))
PUENTE = (2, 3)                                  # la única arista entre los dos triángulos
N_NODOS = 6
SENAL = np.array([1.0, 1.2, 0.9, -1.0, -1.1, -0.8])  # (6,): + en un triángulo, − en el otro
FRECUENCIAS_BAJAS = 2                            # x̂_0 y x̂_1: constante y Fiedler
N_CICLO = 6
TOL_EXACTA = 1e-12


def laplaciano(aristas: tuple, n: int, pesos: tuple = ()) -> np.ndarray:
    """L = D − A de un grafo no dirigido con pesos (1 por defecto)."""
    L = np.zeros((n, n))                                 # (n, n)
    for e, (i, j) in enumerate(aristas):
        w = pesos[e] if e < len(pesos) else 1.0
        L[i, j] -= w
        L[j, i] -= w
        L[i, i] += w
        L[j, j] += w
    return L


def vector_de_fiedler(L: np.ndarray) -> tuple[float, np.ndarray]:
    """λ₂ y su autovector unitario con el signo fijado (componente 0 negativa)."""
    autovalores, U = np.linalg.eigh(L)   # (n,), (n, n) columnas = autovectores
    f = U[:, 1]                          # (n,)
    if f[0] > 0:
        f = -f
    return float(autovalores[1]), f


def gft(L: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Transformada de Fourier en el grafo: coeficientes de x en la base de autovectores."""
    _, U = np.linalg.eigh(L)   # (n, n)
    return U.T @ x             # (n,)


def ciclo(n: int) -> tuple:
    """Aristas del ciclo C_n: 0-1-…-(n−1)-0."""
    return tuple((k, (k + 1) % n) for k in range(n))


def run(peso_puente: float = 1.0) -> dict:
    if peso_puente < 0:
        raise ValueError(f"peso_puente debe ser >= 0; se recibió {peso_puente}")
    aristas = TRIANGULO_A + TRIANGULO_B + (PUENTE,)
    pesos = (1.0,) * 6 + (peso_puente,)
    L = laplaciano(aristas, N_NODOS, pesos)              # (6, 6)
    autovalores = np.linalg.eigvalsh(L)                  # (6,) ascendentes

    lambda2, f = vector_de_fiedler(L)                    # escalar, (6,)

    # Corte por el signo del vector de Fiedler.
    negativos = [int(i) for i in np.flatnonzero(f < 0)]
    no_negativos = [int(i) for i in np.flatnonzero(f >= 0)]
    lado = f >= 0                                        # (6,) bool
    cortadas = sum(1 for i, j in aristas if lado[i] != lado[j])

    # Sin el puente el grafo tiene dos componentes: λ₂ = 0.
    L_sin_puente = laplaciano(TRIANGULO_A + TRIANGULO_B, N_NODOS)
    lambda2_sin_puente = np.linalg.eigvalsh(L_sin_puente)[1]
    anula = bool(abs(lambda2_sin_puente) < TOL_EXACTA)

    # Cociente de Rayleigh del vector de Fiedler.
    rayleigh = float(f @ L @ f / (f @ f))
    rayleigh_ok = bool(abs(rayleigh - lambda2) < TOL_EXACTA)

    # GFT: la base es ortonormal, así que conserva la energía (Parseval).
    x_hat = gft(L, SENAL)                                # (6,)
    parseval = bool(abs(np.linalg.norm(x_hat) - np.linalg.norm(SENAL)) < TOL_EXACTA)
    energia_baja = float(np.sum(x_hat[:FRECUENCIAS_BAJAS] ** 2) / np.sum(SENAL ** 2))

    # En el ciclo C_6 los autovalores son los de la DFT: 2 − 2cos(2πk/6).
    k = np.arange(N_CICLO)
    dft = np.sort(2 - 2 * np.cos(2 * np.pi * k / N_CICLO))       # (6,)
    espectro_ciclo = np.linalg.eigvalsh(laplaciano(ciclo(N_CICLO), N_CICLO))  # (6,)
    ciclo_ok = bool(np.max(np.abs(espectro_ciclo - dft)) < TOL_EXACTA)

    return {
        "autovalores_laplaciano": autovalores,
        "conectividad_algebraica": lambda2,
        "vector_de_fiedler": f,
        "particion_por_signo": [negativos, no_negativos],
        "aristas_cortadas": cortadas,
        "quitar_el_puente_anula_lambda2": anula,
        "rayleigh_del_fiedler_es_lambda2": rayleigh_ok,
        "gft_conserva_energia": parseval,
        "energia_en_dos_frecuencias_bajas": energia_baja,
        "ciclo_c6_autovalores_son_dft": ciclo_ok,
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
