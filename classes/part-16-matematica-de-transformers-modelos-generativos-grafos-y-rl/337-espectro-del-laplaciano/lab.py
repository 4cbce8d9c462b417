"""Espectro del laplaciano: el vector de Fiedler y la transformada de Fourier en grafos.

    L = D − A = U Λ Uᵀ,   0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n;   λ₂ > 0 ⇔ grafo conexo (conectividad algebraica)
    R(x) = xᵀLx / xᵀx = Σ_{aristas ij} w_ij (x_i − x_j)² / Σ_i x_i²      (cociente de Rayleigh)
    λ₂ = min_{x ⊥ 1, x ≠ 0} R(x)     (el mínimo lo alcanza el vector de Fiedler)
    GFT: x̂ = Uᵀ x,   x = U x̂,   ‖x̂‖ = ‖x‖ (Parseval);   xᵀLx = Σ_k λ_k x̂_k²
    ciclo C_n: L es circulante y la base de la DFT, F_jk = e^{−2πi jk/n} / √n, la diagonaliza:
               Fᴴ L F = diag(2 − 2 cos(2πk/n)),  k = 0 … n−1

Convención: el signo de un autovector es arbitrario; el lab fija el del vector de Fiedler con la
componente del nodo 0 negativa. Los autovectores de un autovalor repetido (aquí el 3, triple) no son
únicos: eigh da una base u otra según el procesador. La GFT se calcula en la base que fija
base_espectral, la misma en cualquier máquina, y esos coeficientes no se emiten.

Referencias: M. Fiedler, «Algebraic Connectivity of Graphs», Czechoslovak Math. J. 23 (1973),
doi:10.21136/CMJ.1973.101168; D. I. Shuman et al., «The Emerging Field of Signal Processing on
Graphs», IEEE Signal Processing Magazine 30(3), 2013; U. von Luxburg, «A Tutorial on Spectral
Clustering», Statistics and Computing 17, 2007.
"""

import numpy as np

TRIANGULO_A = ((0, 1), (1, 2), (2, 0))
TRIANGULO_B = ((3, 4), (4, 5), (5, 3))
PUENTE = (2, 3)                                  # la única arista entre los dos triángulos
N_NODOS = 6
SENAL = np.array([1.0, 1.2, 0.9, -1.0, -1.1, -0.8])  # (6,): + en un triángulo, − en el otro
FRECUENCIAS_BAJAS = 2                            # x̂_1 y x̂_2: constante y Fiedler
MUESTRAS_RAYLEIGH = 1000                         # señales al azar ⊥ 1 con las que retar a λ₂
SEMILLA = 0
N_CICLO = 6
PERMUTACION = "0,1,2,3,4,5"                      # el nodo k es el nodo PERMUTACION[k] del ejemplo:
                                                 # el mismo grafo y la misma señal, otros nombres
TOL_EXACTA = 1e-12                               # identidades exactas, salvo redondeo
TOL_REPETIDO = 1e-9                              # dos autovalores más cerca que esto: uno repetido
TOL_BASE = 1e-6                                  # una proyección más corta no aporta dirección


def laplaciano(aristas: tuple, n: int, pesos: np.ndarray) -> np.ndarray:
    """L = D − A de un grafo no dirigido con un peso por arista."""
    L = np.zeros((n, n))                                 # (n, n)
    for (i, j), w in zip(aristas, pesos):
        L[i, j] -= w
        L[j, i] -= w
        L[i, i] += w
        L[j, j] += w
    return L


def cociente_de_rayleigh(aristas: tuple, pesos: np.ndarray, x: np.ndarray) -> np.ndarray:
    """R(x) = Σ w_ij (x_i − x_j)² / Σ x_i², sumando sobre las aristas; x es (n,) o (muestras, n)."""
    i, j = np.array(aristas).T                           # (E,), (E,) extremos de cada arista
    ### BEGIN SOLUTION
    variacion = np.sum(pesos * (x[..., i] - x[..., j]) ** 2, axis=-1)  # () o (muestras,)
    energia = np.sum(x ** 2, axis=-1)                                  # () o (muestras,)
    ### END SOLUTION
    return variacion / energia


def vector_de_fiedler(L: np.ndarray) -> tuple[float, np.ndarray]:
    """λ₂ y su autovector unitario con el signo fijado (componente 0 negativa)."""
    ### BEGIN SOLUTION
    autovalores, U = np.linalg.eigh(L)   # (n,) ascendentes, (n, n) columnas = autovectores
    f = U[:, 1]                          # (n,) el de λ₂
    if f[0] > 0:
        f = -f
    ### END SOLUTION
    return float(autovalores[1]), f


def base_espectral(L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Autovalores ascendentes de L y una base ortonormal de autovectores sin ambigüedad.

    Dentro de un autovalor repetido eigh da una base cualquiera, y con cualquier signo; el
    proyector sobre su autoespacio, V Vᵀ, no depende de esa elección. Gram–Schmidt sobre las
    columnas del proyector, en orden, saca de él la base: la misma en cualquier máquina, salvo
    redondeo (un autovalor simple queda con su primera componente no nula positiva).
    """
    autovalores, V = np.linalg.eigh(L)                   # (n,), (n, n)
    n = len(autovalores)
    U = np.zeros_like(V)                                 # (n, n)
    inicio = 0
    while inicio < n:
        fin = inicio + 1                                 # [inicio, fin): un mismo autovalor
        while fin < n and autovalores[fin] - autovalores[inicio] < TOL_REPETIDO:
            fin += 1
        P = V[:, inicio:fin] @ V[:, inicio:fin].T        # (n, n) proyector sobre el autoespacio
        k = inicio
        for columna in P.T:                              # la proyección de e_1, e_2, …
            if k == fin:
                break
            u = columna - U[:, inicio:k] @ (U[:, inicio:k].T @ columna)  # (n,) ⊥ las ya elegidas
            if np.linalg.norm(u) > TOL_BASE:
                U[:, k] = u / np.linalg.norm(u)
                k += 1
        inicio = fin
    return autovalores, U


def gft(U: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Transformada de Fourier en el grafo: coeficientes de x en la base ortonormal de
    autovectores U (por columnas, de la más suave a la más oscilante)."""
    ### BEGIN SOLUTION
    x_hat = U.T @ x            # (n,)
    ### END SOLUTION
    return x_hat


def ciclo(n: int) -> tuple:
    """Aristas del ciclo C_n: 0-1-…-(n−1)-0."""
    return tuple((k, (k + 1) % n) for k in range(n))


def matriz_dft(n: int) -> np.ndarray:
    """F_jk = e^{−2πi jk/n} / √n: la DFT unitaria; su columna k es el modo de frecuencia k."""
    k = np.arange(n)                                     # (n,)
    return np.exp(-2j * np.pi * np.outer(k, k) / n) / np.sqrt(n)  # (n, n)


def run(peso_puente: float = 1.0, permutacion: str = PERMUTACION) -> dict:
    if peso_puente < 0:
        raise ValueError(f"peso_puente debe ser >= 0; se recibió {peso_puente}")
    orden = [int(i) for i in permutacion.split(",")]
    if sorted(orden) != list(range(N_NODOS)):
        raise ValueError(
            f"la permutación debe reordenar 0..{N_NODOS - 1}; se recibió {permutacion!r}")
    nuevo = {viejo: k for k, viejo in enumerate(orden)}  # nombre del ejemplo -> nombre aquí

    def renombradas(aristas: tuple) -> tuple:
        return tuple((nuevo[i], nuevo[j]) for i, j in aristas)

    aristas = renombradas(TRIANGULO_A + TRIANGULO_B + (PUENTE,))
    senal = SENAL[orden]                                 # (6,) la misma señal, renombrada
    pesos = np.array([1.0] * 6 + [peso_puente])          # (7,) el puente es la última
    L = laplaciano(aristas, N_NODOS, pesos)              # (6, 6)
    autovalores = np.linalg.eigvalsh(L)                  # (6,) ascendentes

    lambda2, f = vector_de_fiedler(L)                    # escalar, (6,)

    # Corte por el signo del vector de Fiedler.
    negativos = [int(i) for i in np.flatnonzero(f < 0)]
    no_negativos = [int(i) for i in np.flatnonzero(f >= 0)]
    lado = f >= 0                                        # (6,) bool
    cortadas = sum(1 for i, j in aristas if lado[i] != lado[j])

    # El puente es lo que une los triángulos: con él λ₂ > 0; sin él, dos componentes y λ₂ = 0.
    # Las dos λ₂ salen de la misma diagonalización (vector_de_fiedler); con peso_puente = 0 el
    # puente no une nada y la afirmación es falsa.
    sin_puente = renombradas(TRIANGULO_A + TRIANGULO_B)
    L_sin_puente = laplaciano(sin_puente, N_NODOS, np.ones(len(sin_puente)))
    lambda2_sin_puente, _ = vector_de_fiedler(L_sin_puente)
    anula = bool(lambda2 > TOL_EXACTA and abs(lambda2_sin_puente) < TOL_EXACTA)

    # λ₂ como mínimo: R(f) = λ₂ y ninguna señal al azar ortogonal a la constante baja de ahí.
    rng = np.random.default_rng(SEMILLA)
    X = rng.standard_normal((MUESTRAS_RAYLEIGH, N_NODOS))  # (M, 6)
    X -= X.mean(axis=1, keepdims=True)                   # (M, 6) cada fila ⊥ 1
    r_fiedler = float(cociente_de_rayleigh(aristas, pesos, f))
    r_azar = cociente_de_rayleigh(aristas, pesos, X)     # (M,)
    minimiza = bool(abs(r_fiedler - lambda2) < TOL_EXACTA
                    and np.all(r_azar >= r_fiedler - TOL_EXACTA))

    # GFT: la base es ortonormal, así que conserva la energía (Parseval). Se muestran las dos
    # energías, no se afirma su igualdad: U x, la inversa, también la conserva y no se delata.
    _, U = base_espectral(L)                             # (6, 6) columnas = autovectores
    x_hat = gft(U, senal)                                # (6,)
    energias = {"senal": float(np.sum(senal ** 2)), "transformada": float(np.sum(x_hat ** 2))}
    energia_baja = float(np.sum(x_hat[:FRECUENCIAS_BAJAS] ** 2) / np.sum(senal ** 2))

    # En el ciclo C_6 la base de la DFT diagonaliza L: Fᴴ L F = diag(2 − 2cos(2πk/6)).
    k = np.arange(N_CICLO)                               # (6,)
    L_ciclo = laplaciano(ciclo(N_CICLO), N_CICLO, np.ones(N_CICLO))  # (6, 6)
    F = matriz_dft(N_CICLO)                              # (6, 6) complejo
    en_la_base_dft = F.conj().T @ L_ciclo @ F            # (6, 6)
    formula = 2 - 2 * np.cos(2 * np.pi * k / N_CICLO)    # (6,) 2 − 2cos(2πk/6)
    fuera = en_la_base_dft - np.diag(np.diag(en_la_base_dft))    # (6, 6) sin la diagonal

    return {
        "autovalores_laplaciano": autovalores,
        "conectividad_algebraica": lambda2,
        "vector_de_fiedler": f,
        "particion_por_signo": [negativos, no_negativos],
        "aristas_cortadas": cortadas,
        "quitar_el_puente_anula_lambda2": anula,
        "el_fiedler_minimiza_rayleigh": minimiza,
        "energia_de_la_senal_y_de_su_gft": energias,
        "energia_en_dos_frecuencias_bajas": energia_baja,
        "ciclo_c6_en_la_base_dft": {
            "diagonal": np.real(np.diag(en_la_base_dft)),   # (6,) Fᴴ L F, parte real
            "formula": formula,
            "mayor_fuera_de_la_diagonal": float(np.max(np.abs(fuera))),
        },
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
