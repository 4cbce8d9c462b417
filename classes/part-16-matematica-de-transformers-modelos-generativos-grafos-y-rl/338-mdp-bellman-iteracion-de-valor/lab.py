"""MDP, ecuación de Bellman e iteración de valor: el valor como punto fijo.

    Evaluación:   V^π = r^π + γ P^π V^π      ⇒  V^π = (I − γ P^π)^(-1) r^π
    Optimalidad:  (T V)(s) = max_a [ R(s,a) + γ Σ_s' P(s'|s,a) V(s') ]
    Contracción:  ‖T V − T U‖_∞ ≤ γ ‖V − U‖_∞  ⇒  ‖V_k − V*‖_∞ ≤ γ^k ‖V_0 − V*‖_∞
    Política:     π*(s) = argmax_a [ R(s,a) + γ Σ_s' P(s'|s,a) V*(s') ]

El MDP es un pasillo 0-1-2-3 con la meta absorbente en 3. La acción elegida se cumple con
probabilidad 0.8; con 0.2 el agente se queda donde está. Cada paso fuera de la meta cuesta 1.
Con 3 estados de decisión y 2 acciones hay 2³ = 8 políticas deterministas: el lab las evalúa todas
con el sistema lineal, y su máximo estado a estado es el V* exacto con el que se mide la iteración.

Referencias: Bellman, «A Markovian Decision Process», J. Math. Mech. 6 (1957);
Sutton y Barto, «Reinforcement Learning: An Introduction», 2.ª ed. (2018), capítulos 3 y 4;
Puterman, «Markov Decision Processes» (1994), capítulo 6.
"""

from itertools import product

import numpy as np

ESTADOS = 4                     # 0, 1, 2 y la meta 3
META = 3                        # absorbente: recompensa 0 y se queda allí para siempre
ACCIONES = ("izquierda", "derecha")
GAMMA = 0.9                     # factor de descuento
PROB_EXITO = 0.8                # la acción elegida se cumple; si no, el agente no se mueve
RECOMPENSA_PASO = -1.0          # coste de cada paso fuera de la meta
UMBRAL = 1e-10                  # parar cuando ‖V_k − V_{k−1}‖_∞ < UMBRAL
ITERACIONES_EVALUACION = 1000   # pasos de la evaluación iterativa de la política aleatoria
U1 = (1.0, -2.0, 3.0, 0.5)      # la pareja del ejemplo trabajado para la contracción
U2 = (-4.0, 0.5, 2.0, -1.0)
PAREJAS_AL_AZAR = 1000          # más parejas (U, W) para poner a prueba la contracción
ESCALA_AL_AZAR = 5.0            # sus componentes son normales de desviación 5
SEMILLA = 0
HOLGURA = 1e-12                 # redondeo en las desigualdades


def modelo(prob_exito: float) -> tuple[np.ndarray, np.ndarray]:
    """P[a, s, s'] y R[s, a] del pasillo."""
    P = np.zeros((len(ACCIONES), ESTADOS, ESTADOS))          # (A, S, S)
    for s in range(ESTADOS):
        if s == META:
            P[:, s, s] = 1.0                                  # la meta es absorbente
            continue
        for a, paso in enumerate((-1, 1)):
            destino = min(max(s + paso, 0), ESTADOS - 1)      # en 0, «izquierda» no se mueve
            P[a, s, destino] += prob_exito
            P[a, s, s] += 1.0 - prob_exito
    R = np.full((ESTADOS, len(ACCIONES)), RECOMPENSA_PASO)    # (S, A)
    R[META] = 0.0                                             # la meta no acumula coste
    return P, R


def valores_q(P: np.ndarray, R: np.ndarray, V: np.ndarray, gamma: float) -> np.ndarray:
    """Q(s,a) = R(s,a) + γ Σ_s' P(s'|s,a) V(s').

    V es un vector (S,) y Q sale (S, A). Con N vectores en las columnas de V, (S, N), sale una
    tabla por vector, (N, S, A): .T invierte todos los ejes de P @ V, (A, S, N) → (N, S, A).
    """
    ### BEGIN SOLUTION
    futuro = (P @ V).T                                        # (S, A): Σ_s' P(s'|s,a) V(s')
    Q = R + gamma * futuro                                    # (S, A)
    ### END SOLUTION
    return Q


def operador_bellman(P: np.ndarray, R: np.ndarray, V: np.ndarray, gamma: float) -> np.ndarray:
    """(T V)(s) = max_a Q(s,a), para V (S,) o para cada columna de V (S, N)."""
    return valores_q(P, R, V, gamma).max(axis=-1)             # (S,), o (N, S)


def evaluar_politica(P_pi: np.ndarray, r_pi: np.ndarray, gamma: float) -> np.ndarray:
    """Resuelve el sistema lineal (I − γ P^π) V = r^π."""
    ### BEGIN SOLUTION
    A = np.eye(len(r_pi)) - gamma * P_pi                      # (S, S)
    V = np.linalg.solve(A, r_pi)                              # (S,)
    ### END SOLUTION
    return V


def pasos_de_la_cota(R: np.ndarray, gamma: float, umbral: float) -> int:
    """Cuántas iteraciones bastan según la contracción: ‖V_1 − V_0‖_∞ = ‖T 0‖_∞ ≤ max|R| y cada
    paso multiplica el cambio por γ como mucho, así que tras k pasos es ≤ γ^k max|R|, menor que
    el umbral en cuanto k > log(umbral / max|R|) / log γ."""
    escala = float(np.max(np.abs(R)))
    if gamma == 0.0 or escala < umbral:
        return 1
    return max(1, int(np.ceil(np.log(umbral / escala) / np.log(gamma))))


def iteracion_de_valor(P: np.ndarray, R: np.ndarray, gamma: float,
                       umbral: float) -> list[np.ndarray]:
    """V_0 = 0, V_{k+1} = T V_k hasta que ‖V_k − V_{k−1}‖_∞ < umbral; devuelve V_0..V_k.

    Si el cambio no baja del umbral en el doble de los pasos que da la cota, lo que se itera no
    es el operador de Bellman (un error en el hueco): se dice, en vez de iterar para siempre."""
    historia = [np.zeros(ESTADOS)]
    tope = 2 * pasos_de_la_cota(R, gamma, umbral) + 10
    for _ in range(tope):
        ### BEGIN SOLUTION
        historia.append(operador_bellman(P, R, historia[-1], gamma))  # V_{k+1} = T V_k  (S,)
        cambio = np.max(np.abs(historia[-1] - historia[-2]))          # ‖V_{k+1} − V_k‖_∞
        ### END SOLUTION
        if cambio < umbral:
            return historia
    raise RuntimeError(
        f"la iteración de valor no baja de umbral={umbral:g} en {tope} pasos y la contracción "
        f"de razón γ={gamma:g} dice que bastan {pasos_de_la_cota(R, gamma, umbral)}: o lo que se "
        "itera no es T V, o el umbral está por debajo del redondeo (prueba uno mayor)")


def valores_deterministas(P: np.ndarray, R: np.ndarray, gamma: float) -> np.ndarray:
    """V^π de cada política determinista (una acción por estado; en la meta da igual)."""
    estados = np.arange(ESTADOS)
    valores = []
    for politica in product(range(len(ACCIONES)), repeat=META):  # 2³ = 8 políticas
        a = np.array((*politica, 0))                          # (S,) acción en cada estado
        valores.append(evaluar_politica(P[a, estados], R[estados, a], gamma))  # (S,)
    return np.array(valores)                                  # (8, S)


def forma_cerrada(gamma: float, prob_exito: float) -> np.ndarray:
    """Con «derecha» siempre: V(s) = (−1 + γ p V(s+1)) / (1 − γ (1 − p)), V(meta) = 0."""
    V = np.zeros(ESTADOS)
    for s in range(META - 1, -1, -1):
        V[s] = (RECOMPENSA_PASO + gamma * prob_exito * V[s + 1]) / (1 - gamma * (1 - prob_exito))
    return V


def run(umbral: float = UMBRAL, gamma: float = GAMMA, prob_exito: float = PROB_EXITO) -> dict:
    if not 0.0 <= gamma < 1.0:
        raise ValueError(
            f"gamma debe estar en [0, 1) para que T sea contracción; se recibió {gamma}")
    if not 0.0 < prob_exito <= 1.0:
        raise ValueError(f"prob_exito debe estar en (0, 1]; se recibió {prob_exito}")
    if not umbral > 0.0:
        raise ValueError(f"umbral debe ser positivo; se recibió {umbral}")
    P, R = modelo(prob_exito)

    # Política aleatoria uniforme: P^π y r^π promedian las dos acciones
    P_pi = P.mean(axis=0)                                     # (S, S)
    r_pi = R.mean(axis=1)                                     # (S,)
    v_pi = evaluar_politica(P_pi, r_pi, gamma)                # (S,)

    # La misma V^π iterando la ecuación de evaluación desde 0
    v_iter = np.zeros(ESTADOS)
    for _ in range(ITERACIONES_EVALUACION):
        v_iter = r_pi + gamma * P_pi @ v_iter                 # (S,)
    evaluacion_coincide = bool(np.max(np.abs(v_iter - v_pi)) < 1e-10)

    # Iteración de valor: V_0 = 0, ..., V_K (se para ahí; es V* salvo el umbral)
    historia = iteracion_de_valor(P, R, gamma, umbral)
    v_opt = historia[-1]                                      # (S,)
    q_opt = valores_q(P, R, v_opt, gamma)                     # (S, A)
    politica = [ACCIONES[int(a)] for a in q_opt.argmax(axis=1)]
    politica[META] = "meta"                                   # en la meta la acción es indiferente

    # V* exacto sin iterar: las 8 políticas deterministas, cada una por su sistema lineal
    v_det = valores_deterministas(P, R, gamma)                # (8, S)
    v_exacto = v_det.max(axis=0)                              # (S,) una de ellas gana en todos

    # Contracción: ‖T U − T W‖_∞ ≤ γ ‖U − W‖_∞ para la pareja fija y 1000 parejas al azar,
    # las 1001 a la vez: una pareja (U, W) por fila, y T aplicado a cada columna de Uᵀ y Wᵀ
    rng = np.random.default_rng(SEMILLA)
    al_azar = ESCALA_AL_AZAR * rng.standard_normal((PAREJAS_AL_AZAR, 2, ESTADOS))  # (1000, 2, S)
    U = np.vstack([U1, al_azar[:, 0]])                        # (1001, S)
    W = np.vstack([U2, al_azar[:, 1]])                        # (1001, S)
    TU, TW = operador_bellman(P, R, U.T, gamma), operador_bellman(P, R, W.T, gamma)  # (1001, S)
    distancia_T = np.max(np.abs(TU - TW), axis=1)             # (1001,) ‖T U − T W‖_∞
    distancia = np.max(np.abs(U - W), axis=1)                 # (1001,) ‖U − W‖_∞
    es_contraccion = np.all(distancia_T <= gamma * distancia + HOLGURA)

    # Cota geométrica del error frente al V* exacto en cada iteración k = 0..K
    error_inicial = np.max(np.abs(historia[0] - v_exacto))
    cota = all(
        np.max(np.abs(v_k - v_exacto)) <= gamma**k * error_inicial + HOLGURA
        for k, v_k in enumerate(historia)
    )

    # Residuo de Bellman tras parar: pequeño, pero no exactamente cero
    residuo = np.max(np.abs(operador_bellman(P, R, v_opt, gamma) - v_opt))

    # Dominancia: V* no queda por debajo de ninguna política determinista ni de la aleatoria
    domina = bool(np.all(v_opt >= v_det - HOLGURA) and np.all(v_opt >= v_pi - HOLGURA))

    return {
        "v_politica_aleatoria": v_pi,
        "evaluacion_iterativa_coincide": evaluacion_coincide,
        "v_optimo": v_opt,
        "politica_optima": politica,
        "iteraciones_valor": len(historia) - 1,
        "bellman_es_contraccion": bool(es_contraccion),
        "cota_gamma_k": bool(cota),
        "residuo_de_bellman": residuo,
        "v_optimo_domina": domina,
        "v_optimo_coincide_con_forma_cerrada": bool(
            np.max(np.abs(v_opt - forma_cerrada(gamma, prob_exito))) < 1e-9
        ),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
