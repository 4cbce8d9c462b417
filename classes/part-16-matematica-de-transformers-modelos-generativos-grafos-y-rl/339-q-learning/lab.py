"""Q-learning: aprender Q* con transiciones muestreadas, sin conocer el modelo.

    Q*(s,a) = R(s,a) + γ Σ_s' P(s'|s,a) max_a' Q*(s',a')
    Q(s,a) ← Q(s,a) + α_n(s,a) [ r + γ max_a' Q(s',a') − Q(s,a) ]      (Q(meta, ·) = 0)
    α_n = 1 / n(s,a)^ω   con ω ∈ (½, 1]   (Robbins–Monro: Σ α_n = ∞, Σ α_n² < ∞)

Es iteración de valor estocástica y asíncrona: la esperanza sobre s' se sustituye por la
transición observada. Es off-policy: aquí el comportamiento es uniforme y solo tiene que visitar
todos los pares (s, a). El MDP es el pasillo de la clase 338.

Referencias: Watkins y Dayan, «Q-learning», Machine Learning 8 (1992);
Even-Dar y Mansour, «Learning Rates for Q-learning», JMLR 5 (2003).
"""

import numpy as np

ESTADOS = 4                   # 0, 1, 2 y la meta 3 (absorbente)
META = 3
ACCIONES = 2                  # 0 = izquierda, 1 = derecha
GAMMA = 0.9
PROB_EXITO = 0.8              # la acción se cumple; con 0.2 el agente se queda donde está
RECOMPENSA_PASO = -1.0
ITERACIONES_Q = 2000          # iteración de valor sobre Q para obtener Q*
EPISODIOS = 4000
CORTES = (50, 200, 1000, 4000)  # episodios en los que se mide ‖Q − Q*‖_∞
OMEGA = 0.8                   # α_n = 1/n^ω
SEMILLA = 0
BLOQUE = 50_000               # aleatorios pre-muestreados de una vez (mucho más rápido)


def modelo(prob_exito: float) -> tuple[np.ndarray, np.ndarray]:
    """P[a, s, s'] y R[s, a] del pasillo de la clase 338."""
    P = np.zeros((ACCIONES, ESTADOS, ESTADOS))                # (A, S, S)
    for s in range(META):
        for a, paso in enumerate((-1, 1)):
            P[a, s, max(s + paso, 0)] += prob_exito          # en 0, «izquierda» no se mueve
            P[a, s, s] += 1.0 - prob_exito
    P[:, META, META] = 1.0                                    # meta absorbente
    R = np.full((ESTADOS, ACCIONES), RECOMPENSA_PASO)         # (S, A)
    R[META] = 0.0
    return P, R


def q_optimo(P: np.ndarray, R: np.ndarray, gamma: float, iteraciones: int) -> np.ndarray:
    """Iteración de valor sobre Q: Q ← R + γ P max_a' Q."""
    Q = np.zeros((ESTADOS, ACCIONES))                         # (S, A)
    for _ in range(iteraciones):
        Q = R + gamma * (P @ Q.max(axis=1)).T                 # (S, A)
    return Q


def error_no_terminal(Q: list[list[float]], Q_opt: np.ndarray) -> float:
    """‖Q − Q*‖_∞ sobre los estados no terminales."""
    return float(np.max(np.abs(np.array(Q[:META]) - Q_opt[:META])))


def q_learning(gamma: float, prob_exito: float, episodios: int, omega: float,
               semilla: int, Q_opt: np.ndarray) -> dict:
    """Q-learning con comportamiento uniforme; a la vez, con α = 1/n^ω y con α = 1/n.

    Las dos versiones ven exactamente las mismas transiciones: el comportamiento no depende de Q.
    """
    rng = np.random.default_rng(semilla)
    inicios = rng.integers(0, META, size=episodios).tolist()  # estado inicial uniforme en {0,1,2}
    acciones: list[int] = []
    uniformes: list[float] = []
    j = 0                                                     # siguiente aleatorio por usar
    Q = [[0.0] * ACCIONES for _ in range(ESTADOS)]            # α = 1/n^ω  (S, A)
    Q1 = [[0.0] * ACCIONES for _ in range(ESTADOS)]           # α = 1/n    (S, A)
    n = [[0] * ACCIONES for _ in range(META)]                 # visitas n(s, a)  (S−1, A)
    errores = {}
    for episodio in range(1, episodios + 1):
        s = inicios[episodio - 1]
        while s != META:
            if j == len(acciones):                            # renovar el bloque de aleatorios
                acciones = rng.integers(0, ACCIONES, size=BLOQUE).tolist()
                uniformes = rng.random(BLOQUE).tolist()
                j = 0
            a, u = acciones[j], uniformes[j]
            j += 1
            # Transición muestreada: se mueve con prob_exito, si no se queda
            s2 = max(s + (1 if a else -1), 0) if u < prob_exito else s
            n[s][a] += 1
            # Objetivo de Bellman muestreado; en la meta no hay bootstrap
            futuro = 0.0 if s2 == META else gamma * max(Q[s2])
            futuro1 = 0.0 if s2 == META else gamma * max(Q1[s2])
            Q[s][a] += (RECOMPENSA_PASO + futuro - Q[s][a]) / n[s][a] ** omega
            Q1[s][a] += (RECOMPENSA_PASO + futuro1 - Q1[s][a]) / n[s][a]
            s = s2
        if episodio in CORTES:
            errores[str(episodio)] = error_no_terminal(Q, Q_opt)
    return {"Q": np.array(Q), "Q1": np.array(Q1), "visitas": np.array(n), "errores": errores}


def run(gamma: float = GAMMA, prob_exito: float = PROB_EXITO, episodios: int = EPISODIOS,
        omega: float = OMEGA, semilla: int = SEMILLA) -> dict:
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

    res = q_learning(gamma, prob_exito, episodios, omega, semilla, Q_opt)
    Q = res["Q"]                                              # (S, A)
    error = error_no_terminal(Q.tolist(), Q_opt)
    errores = res["errores"]
    primero, ultimo = str(CORTES[0]), str(CORTES[-1])

    return {
        "q_optimo": Q_opt,
        "q_aprendido": Q,
        "error_maximo": error,
        "q_learning_aproxima_q_optimo": error < 0.05,
        "politica_greedy_coincide": bool(np.array_equal(
            Q[:META].argmax(axis=1), Q_opt[:META].argmax(axis=1))),
        "error_por_episodios": errores,
        "el_error_disminuye": errores[ultimo] < errores[primero],
        "visitas_por_par": res["visitas"],
        "todos_los_pares_visitados": bool(np.all(res["visitas"] > 0)),
        "error_con_tasa_1_sobre_n": error_no_terminal(res["Q1"].tolist(), Q_opt),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
