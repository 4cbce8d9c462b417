"""Q-learning: aprender Q* con transiciones muestreadas, sin conocer el modelo.

    Q*(s,a) = R(s,a) + γ Σ_s' P(s'|s,a) max_a' Q*(s',a')
    Q(s,a) ← Q(s,a) + α_n(s,a) [ r + γ max_a' Q(s',a') − Q(s,a) ]      (Q(meta, ·) = 0)
    α_n = 1 / n(s,a)^ω   con ω ∈ (½, 1]   (Robbins–Monro: Σ α_n = ∞, Σ α_n² < ∞)

Es iteración de valor estocástica y asíncrona: la esperanza sobre s' se sustituye por la
transición observada. Es off-policy: aquí el comportamiento es uniforme y solo tiene que visitar
todos los pares (s, a). Como el comportamiento no depende de Q, la experiencia se genera primero
(episodios de transiciones (s, a, r, s')) y después se aprende de ella. Para comparar las tasas
1/n^0.8 y 1/n, la misma experiencia se corta en 20 tramos independientes de 200 episodios y cada
tasa aprende de cero en cada tramo: la media de los 20 errores tiene un error típico √20 veces
menor que el de una sola ejecución. El MDP es el pasillo de la clase 338.

Referencias: Watkins y Dayan, «Q-learning», Machine Learning 8 (1992);
Even-Dar y Mansour, «Learning Rates for Q-learning», JMLR 5 (2003).
"""

from collections.abc import Iterator

import numpy as np

ESTADOS = 4                   # 0, 1, 2 y la meta 3 (absorbente)
META = 3
ACCIONES = 2                  # 0 = izquierda, 1 = derecha
GAMMA = 0.9
PROB_EXITO = 0.8              # la acción se cumple; con 0.2 el agente se queda donde está
RECOMPENSA_PASO = -1.0
DESTINO = ((0, 0, 1),         # DESTINO[a][s]: adónde lleva la acción a desde s si se cumple:
           (1, 2, 3))         # izquierda (en 0 no se mueve) y derecha
ITERACIONES_Q = 2000          # pasos de iteración de valor sobre Q para Q*, como mucho
EPISODIOS = 4000
CORTES = (50, 200, 1000, 4000)  # episodios tras los que se mide ‖Q − Q*‖_∞
OMEGA = 0.8                   # α_n = 1/n^ω
OMEGA_ARMONICA = 1.0          # α_n = 1/n: la media de los objetivos vistos
TRAMOS = 20                   # tramos independientes para comparar las tasas...
EPISODIOS_TRAMO = 200         # ...de 200 episodios cada uno (20 · 200 = 4000)
# «aproxima Q*»: el error final medio entre semillas es 0.017 y su desviación 0.0072;
# 0.05 queda 4.5 desviaciones por encima (ninguna de 1000 semillas lo alcanza)
UMBRAL_ERROR = 0.05
SEMILLA = 0
Q_INICIAL = 0.0               # valor inicial de toda la tabla Q, también de la fila de la meta
BLOQUE = 50_000               # aleatorios pedidos a rng de una vez (uno a uno, 6 veces más lento)


def modelo(prob_exito: float) -> tuple[np.ndarray, np.ndarray]:
    """P[a, s, s'] y R[s, a] del pasillo de la clase 338."""
    P = np.zeros((ACCIONES, ESTADOS, ESTADOS))                # (A, S, S)
    for s in range(META):
        for a in range(ACCIONES):
            P[a, s, DESTINO[a][s]] += prob_exito              # la acción se cumple...
            P[a, s, s] += 1.0 - prob_exito                    # ...o el agente se queda
    P[:, META, META] = 1.0                                    # meta absorbente
    R = np.full((ESTADOS, ACCIONES), RECOMPENSA_PASO)         # (S, A)
    R[META] = 0.0
    return P, R


def q_optimo(P: np.ndarray, R: np.ndarray, gamma: float, iteraciones: int) -> np.ndarray:
    """Iteración de valor sobre Q: Q ← R + γ P max_a' Q, hasta que Q deja de cambiar.

    Para en el punto fijo exacto (en coma flotante), 28 pasos en el pasillo: desde ahí cada paso
    devolvería la misma Q bit a bit, así que es la Q de `iteraciones` pasos, el máximo.
    """
    Q = np.zeros((ESTADOS, ACCIONES))                         # (S, A)
    for _ in range(iteraciones):
        Q_anterior = Q.copy()                                 # copia: el paso podría escribir en Q
        ### BEGIN SOLUTION
        V = Q.max(axis=1)                                     # (S,) max_a' Q(s', a')
        Q = R + gamma * (P @ V).T                             # (S, A)
        ### END SOLUTION
        if np.array_equal(Q, Q_anterior):                     # punto fijo: ya no cambia ni un bit
            break
    return Q


def acciones_y_uniformes(rng: np.random.Generator) -> Iterator[tuple[int, float]]:
    """Pares (a, u) sin fin: acción uniforme y u ~ U[0, 1), pedidos a rng por bloques."""
    while True:
        acciones = rng.integers(0, ACCIONES, size=BLOQUE).tolist()
        uniformes = rng.random(BLOQUE).tolist()
        yield from zip(acciones, uniformes)


def experiencia(prob_exito: float, episodios: int, semilla: int) -> list[list[tuple]]:
    """Episodios del comportamiento uniforme desde un estado inicial uniforme en {0, 1, 2}.

    Cada episodio es la lista de sus transiciones (s, a, r, s'), hasta llegar a la meta.
    """
    rng = np.random.default_rng(semilla)
    inicios = rng.integers(0, META, size=episodios).tolist()  # (episodios,)
    azar = acciones_y_uniformes(rng)
    vividos = []
    for s in inicios:
        episodio = []
        while s != META:
            a, u = next(azar)
            s2 = DESTINO[a][s] if u < prob_exito else s       # se mueve con prob_exito
            episodio.append((s, a, RECOMPENSA_PASO, s2))
            s = s2
        vividos.append(episodio)
    return vividos


def error_no_terminal(Q: list[list[float]], Q_opt: np.ndarray) -> float:
    """‖Q − Q*‖_∞ sobre los estados no terminales."""
    return float(np.max(np.abs(np.array(Q[:META]) - Q_opt[:META])))


def q_learning(episodios: list[list[tuple]], gamma: float, omega: float, Q_opt: np.ndarray,
               q_inicial: float = 0.0) -> tuple[list[list[float]], list[list[int]], dict]:
    """Q-learning tabular con α = 1/n(s,a)^ω; mide ‖Q − Q*‖_∞ tras los episodios de CORTES.

    La tabla empieza con q_inicial en todos los pares, también en los de la meta, que nunca se
    actualizan: el objetivo al llegar a la meta no puede leerlos (con q_inicial = 0 no se notaría).
    """
    Q = [[q_inicial] * ACCIONES for _ in range(ESTADOS)]      # (S, A); la fila de la meta no cambia
    n = [[0] * ACCIONES for _ in range(META)]                 # visitas n(s, a)  (S−1, A)
    errores = {}
    for e, episodio in enumerate(episodios, start=1):
        for s, a, r, s2 in episodio:
            n[s][a] += 1
            ### BEGIN SOLUTION
            alfa = 1.0 / n[s][a] ** omega                     # α_n(s, a) = 1/n^ω
            futuro = 0.0 if s2 == META else max(Q[s2])        # en la meta no hay bootstrap
            objetivo = r + gamma * futuro                     # objetivo de Bellman muestreado
            Q[s][a] += alfa * (objetivo - Q[s][a])            # un paso α hacia el objetivo
            ### END SOLUTION
        if e in CORTES:
            errores[str(e)] = error_no_terminal(Q, Q_opt)
    return Q, n, errores


def run(semilla: int = SEMILLA, episodios: int = EPISODIOS, gamma: float = GAMMA,
        prob_exito: float = PROB_EXITO, omega: float = OMEGA, q_inicial: float = Q_INICIAL) -> dict:
    if not 0.0 <= gamma < 1.0:
        raise ValueError(f"gamma debe estar en [0, 1); se recibió {gamma}")
    if not 0.0 < prob_exito <= 1.0:
        raise ValueError(f"prob_exito debe estar en (0, 1]; se recibió {prob_exito}")
    if not 0.5 < omega <= 1.0:
        raise ValueError(f"omega debe estar en (1/2, 1] (Robbins–Monro); se recibió {omega}")
    if episodios < max(CORTES):
        raise ValueError(f"episodios debe ser al menos {max(CORTES)}; se recibió {episodios}")
    P, R = modelo(prob_exito)
    Q_opt = q_optimo(P, R, gamma, ITERACIONES_Q)              # (S, A)

    # La experiencia, una sola vez, y el aprendizaje con α = 1/n^ω sobre toda ella
    vividos = experiencia(prob_exito, episodios, semilla)
    Q, visitas, errores = q_learning(vividos, gamma, omega, Q_opt, q_inicial)

    # Las dos tasas, de cero en cada uno de los 20 tramos de 200 episodios: media del error final
    tramos = [vividos[i * EPISODIOS_TRAMO:(i + 1) * EPISODIOS_TRAMO] for i in range(TRAMOS)]
    comparacion = {}
    for nombre, w in (("alfa_1_sobre_n_0_8", OMEGA), ("alfa_1_sobre_n", OMEGA_ARMONICA)):
        finales = [error_no_terminal(q_learning(tramo, gamma, w, Q_opt, q_inicial)[0], Q_opt)
                   for tramo in tramos]                       # (TRAMOS,)
        comparacion[nombre] = float(np.mean(finales))

    Q = np.array(Q)                                           # (S, A)
    error = error_no_terminal(Q.tolist(), Q_opt)
    primero, ultimo = str(CORTES[0]), str(CORTES[-1])

    return {
        "q_optimo": Q_opt,
        "q_aprendido": Q[:META],                              # (S−1, A): la fila de la meta es 0
        "error_maximo": error,
        "q_learning_aproxima_q_optimo": error < UMBRAL_ERROR,
        "politica_voraz_coincide": bool(np.array_equal(
            Q[:META].argmax(axis=1), Q_opt[:META].argmax(axis=1))),
        "error_por_episodios": errores,
        "el_error_disminuye": errores[ultimo] < errores[primero],
        "visitas_por_par": np.array(visitas),
        "comparacion_de_tasas": comparacion,
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
