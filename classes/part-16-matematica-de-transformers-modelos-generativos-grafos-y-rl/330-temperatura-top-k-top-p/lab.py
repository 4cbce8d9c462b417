"""Temperatura, top-k y top-p: reescribir la distribución antes de muestrear.

    p_T = softmax(z / T);   T → ∞: uniforme;   T → 0⁺: argmax si el máximo es único (con m logits
                            empatados, 1/m a cada uno); T = 0 se trata aparte, sin dividir
    1 − máx_i p_T,i ≤ Σ_{j≠máx} e^((z_j − z_(1))/T) ≤ (V − 1) · e^(−Δ/T),  Δ = z_(1) − z_(2) > 0
    dH(p_T)/dT = Var_{p_T}(z) / T³ ≥ 0       (la entropía nunca baja al subir T)
    top-k: conservar los k tokens más probables y renormalizar
    top-p (núcleo): sobre la distribución q que llega, V_p = prefijo mínimo de los tokens en orden
                    descendente de q con Σ_{i ∈ V_p} q_i ≥ p;  renormalizar
    tubería (transformers): logits → /T → top-k → top-p (sobre lo ya renormalizado) → muestrear
    tubería (llama.cpp, por defecto): logits → top-k → top-p → /T → muestrear

Orden descendente estable (empates resueltos por índice). Entropías en nats.

Referencias: Holtzman et al., «The Curious Case of Neural Text Degeneration», ICLR 2020 (top-p);
Fan, Lewis y Dauphin, «Hierarchical Neural Story Generation», ACL 2018 (top-k).
"""

import numpy as np

TOKENS = ("el", "gato", "perro", "come", "duerme", ".")
LOGITS = np.array([2.0, 1.5, 0.8, 0.3, -0.5, -1.2])
TEMPERATURAS = (0.5, 1.0, 2.0)
TEMPERATURAS_HACIA_CERO = (1.0, 0.5, 0.1, 0.05, 0.02)   # T → 0⁺, frente al argmax de T = 0
K = 3                            # top-k del ejemplo
P = 0.9                          # masa del núcleo
TUBERIA = (2.0, 4, 0.9)          # (T, k, p): aquí el top-k recorta y el orden cambia el núcleo
MUESTRAS = 20_000
PERMUTACION = "0,1,2,3,4,5"   # orden del vocabulario: la posición i lleva el token PERMUTACION[i]
SEMILLA = 0
# Una distribución cuya masa acumulada cae justo en p en el segundo token (en float64,
# 0.5 + 0.4 == 0.9): ahí se ve si la frontera es ≥ o >
P_FRONTERA = np.array([0.5, 0.4, 0.1])
MASA_FRONTERA = 0.9


def softmax(z: np.ndarray) -> np.ndarray:
    """Softmax estable: resta el máximo antes de exponenciar (admite −∞ en los tokens cortados)."""
    e = np.exp(z - z.max())                        # (V,)
    return e / e.sum()


def con_temperatura(z: np.ndarray, t: float) -> np.ndarray:
    """p_T = softmax(z/T); T = 0 es el argmax explícito (one-hot), sin dividir entre cero.

    Con empates en el máximo, np.argmax elige el primero; el límite T → 0⁺ los repartiría.
    """
    if t < 0:
        raise ValueError(f"la temperatura no puede ser negativa; se recibió {t}")
    ### BEGIN SOLUTION
    if t == 0:
        p = np.zeros_like(z)                       # (V,) decodificación voraz
        p[np.argmax(z)] = 1.0
    else:
        p = softmax(z / t)                         # (V,)
    ### END SOLUTION
    return p


def entropia(p: np.ndarray) -> float:
    """H(p) = −Σ p log p en nats, con 0·log 0 = 0."""
    positivas = p[p > 0]
    return float(-(positivas * np.log(positivas)).sum())


def orden_descendente(p: np.ndarray) -> np.ndarray:
    """Índices de mayor a menor probabilidad; en un empate va antes el índice menor."""
    return np.argsort(-p, kind="stable")           # (V,)


def top_k(p: np.ndarray, k: int) -> np.ndarray:
    """Conserva los k más probables y renormaliza."""
    ### BEGIN SOLUTION
    conservar = orden_descendente(p)[:k]           # (k,) índices de los k mayores
    q = np.zeros_like(p)                           # (V,)
    q[conservar] = p[conservar]
    ### END SOLUTION
    return q / q.sum()


def top_p(p: np.ndarray, masa: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Núcleo: prefijo mínimo con masa acumulada ≥ masa. Devuelve (q, acumulada, tamaño)."""
    orden = orden_descendente(p)                   # (V,)
    ### BEGIN SOLUTION
    acumulada = np.cumsum(p[orden])                # (V,) masa acumulada en orden descendente
    tamano = int(np.argmax(acumulada >= masa)) + 1 if acumulada[-1] >= masa else len(p)
    q = np.zeros_like(p)                           # (V,)
    q[orden[:tamano]] = p[orden[:tamano]]
    ### END SOLUTION
    return q / q.sum(), acumulada, tamano


def tuberia(z: np.ndarray, t: float, k: int, masa: float) -> tuple[np.ndarray, int]:
    """Temperatura → top-k → top-p, el orden de transformers. Devuelve (q, tamaño del núcleo)."""
    q, _, tamano = top_p(top_k(con_temperatura(z, t), k), masa)
    return q, tamano


def tuberia_temperatura_al_final(z: np.ndarray, t: float, k: int,
                                 masa: float) -> tuple[np.ndarray, int]:
    """Top-k → top-p con los logits tal cual, y la temperatura solo sobre los supervivientes."""
    q, _, tamano = top_p(top_k(softmax(z), k), masa)
    z_cortados = np.where(q > 0, z, -np.inf)       # (V,) los tokens cortados ya no vuelven
    return con_temperatura(z_cortados, t), tamano


def run(semilla: int = SEMILLA, muestras: int = MUESTRAS, permutacion: str = PERMUTACION) -> dict:
    if muestras < 1:
        raise ValueError(f"se necesita al menos una muestra; se recibió {muestras}")
    # El vocabulario en otro orden: nada cambia salvo el orden en que se listan los tokens (así
    # se ve si el truncado ordena de verdad, porque por defecto los logits ya vienen ordenados)
    orden_vocabulario = [int(i) for i in permutacion.split(",")]
    if sorted(orden_vocabulario) != list(range(len(TOKENS))):
        raise ValueError(
            f"la permutación debe reordenar 0..{len(TOKENS) - 1}; se recibió {permutacion!r}"
        )
    tokens = [TOKENS[i] for i in orden_vocabulario]
    logits = LOGITS[orden_vocabulario]                                     # (V,)

    # Temperatura: una distribución, su entropía y el tamaño del núcleo p = 0.9 por cada T
    por_t = {}
    for t in TEMPERATURAS:
        p_t = con_temperatura(logits, t)                                   # (V,)
        por_t[str(float(t))] = {
            "probabilidades": p_t,
            "entropia": entropia(p_t),
            "tamano_nucleo_p09": top_p(p_t, P)[2],
        }
    h = [v["entropia"] for v in por_t.values()]
    crece = all(a < b for a, b in zip(h, h[1:]))

    # T = 0 aparte (argmax, sin dividir) y el límite T → 0⁺: distancia máxima al one-hot
    argmax = con_temperatura(logits, 0.0)                                  # (V,)
    distancia = {str(t): float(np.max(np.abs(con_temperatura(logits, t) - argmax)))
                 for t in TEMPERATURAS_HACIA_CERO}
    d = list(distancia.values())
    z_ordenados = np.sort(logits)[::-1]
    hueco = z_ordenados[0] - z_ordenados[1]                                # Δ = z_(1) − z_(2)
    cotas = [(len(logits) - 1) * np.exp(-hueco / t) for t in TEMPERATURAS_HACIA_CERO]
    # Solo con un máximo único (Δ > 0) el límite es el one-hot; con empates la cota no dice nada
    tiende = (hueco > 0
              and all(a > b for a, b in zip(d, d[1:]))
              and all(di <= c for di, c in zip(d, cotas)))

    # Truncados con T = 1
    p1 = con_temperatura(logits, 1.0)
    q_k = top_k(p1, K)
    q_p, acumulada, n = top_p(p1, P)
    # Mínimo: con n tokens se alcanza la masa y con n − 1 no
    minimo = bool(acumulada[n - 1] >= P and (n == 1 or acumulada[n - 2] < P))

    # Un prefijo que suma exactamente la masa pedida ya es el núcleo
    q_frontera, _, n_frontera = top_p(P_FRONTERA, MASA_FRONTERA)

    tamanos = [v["tamano_nucleo_p09"] for v in por_t.values()]

    # Tubería T = 2, k = 4, p = 0.9 en los dos órdenes, y sin el top-k
    t_tub, k_tub, p_tub = TUBERIA
    teorica, n_tub = tuberia(logits, t_tub, k_tub, p_tub)                  # (V,), int
    n_sin_k = top_p(con_temperatura(logits, t_tub), p_tub)[2]
    al_final, n_final = tuberia_temperatura_al_final(logits, t_tub, k_tub, p_tub)

    # Muestreo de la tubería de transformers; error típico de cada frecuencia √(q_i(1 − q_i)/n)
    rng = np.random.default_rng(semilla)
    indices = rng.choice(len(logits), size=muestras, p=teorica)           # (muestras,)
    empirica = np.bincount(indices, minlength=len(logits)) / muestras      # (V,)
    error_tipico = np.sqrt(teorica * (1 - teorica) / muestras)            # (V,) 0 si p = 0
    # El muestreo está fuera de los huecos: una demostración, no una afirmación. La mayor
    # desviación en errores típicos, entre los tokens que pueden salir (los recortados no salen)
    posibles = error_tipico > 0                                            # (V,)
    desviacion = (float(np.max(np.abs(empirica - teorica)[posibles] / error_tipico[posibles]))
                  if posibles.any() else 0.0)

    return {
        "logits": dict(zip(tokens, logits)),
        "por_temperatura": por_t,
        "la_entropia_crece_con_la_temperatura": crece,
        "temperatura_cero": argmax,
        "distancia_al_argmax": distancia,
        "t_hacia_cero_tiende_al_argmax": bool(tiende),
        "top_k_3": q_k,
        "top_p_09": {"distribucion": q_p, "masa_acumulada_ordenada": acumulada, "tamano": n},
        "el_nucleo_es_el_minimo": minimo,
        "top_p_en_la_frontera": {"distribucion": q_frontera, "tamano": n_frontera},
        "la_temperatura_cambia_el_nucleo": len(set(tamanos)) > 1,
        "tuberia_t2_k4_p09": {"distribucion": teorica, "tamano_nucleo": n_tub,
                              "tamano_nucleo_sin_top_k": n_sin_k},
        "tuberia_con_la_temperatura_al_final": {"distribucion": al_final,
                                                "tamano_nucleo": n_final},
        "el_top_k_cambia_el_nucleo": n_tub != n_sin_k,
        "el_orden_cambia_el_nucleo": bool(np.any((teorica > 0) != (al_final > 0))),
        "frecuencias_empiricas": empirica,
        "desviacion_maxima_en_errores_tipicos": desviacion,
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
