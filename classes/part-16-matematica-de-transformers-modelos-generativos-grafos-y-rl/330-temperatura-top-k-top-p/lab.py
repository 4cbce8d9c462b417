"""Temperatura, top-k y top-p: reescribir la distribución antes de muestrear.

    p_T = softmax(z / T);   T → 0⁺: argmax (T = 0 se trata aparte, sin dividir);   T → ∞: uniforme
    dH(p_T)/dT = Var_{p_T}(z) / T³ ≥ 0       (la entropía nunca baja al subir T)
    top-k: conservar los k tokens más probables y renormalizar
    top-p (núcleo): V_p = prefijo mínimo, en orden descendente, con Σ_{V_p} p ≥ p;  renormalizar
    tubería: logits → /T → top-k → top-p (sobre lo ya renormalizado) → muestrear

Orden descendente estable (empates resueltos por índice). Entropías en nats.

Referencias: Holtzman et al., «The Curious Case of Neural Text Degeneration», ICLR 2020 (top-p);
Fan, Lewis y Dauphin, «Hierarchical Neural Story Generation», ACL 2018 (top-k).
"""

import numpy as np

TOKENS = ("el", "gato", "perro", "come", "duerme", ".")
LOGITS = np.array([2.0, 1.5, 0.8, 0.3, -0.5, -1.2])
TEMPERATURAS = (0.5, 1.0, 2.0)
TEMPERATURA_CASI_CERO = 0.01     # softmax(z/0.01) frente al argmax explícito de T = 0
K = 3                            # top-k del ejemplo
P = 0.9                          # masa del núcleo
TUBERIA = (0.7, 4, 0.9)          # (T, k, p) de la tubería que se muestrea
MUESTRAS = 20_000
SEMILLA = 0
TOLERANCIA_EXACTA = 1e-12
TOLERANCIA_MUESTREO = 0.01       # ≈ 3 errores típicos: √(0,6·0,4/20 000) ≈ 0,0035


def softmax(z: np.ndarray) -> np.ndarray:
    """Softmax estable: resta el máximo antes de exponenciar."""
    e = np.exp(z - z.max())                        # (V,)
    return e / e.sum()


def con_temperatura(z: np.ndarray, t: float) -> np.ndarray:
    """p_T = softmax(z/T); T = 0 es el argmax explícito (one-hot), sin dividir entre cero."""
    if t < 0:
        raise ValueError(f"la temperatura no puede ser negativa; se recibió {t}")
    if t == 0:
        uno = np.zeros_like(z)                     # (V,)
        uno[np.argmax(z)] = 1.0
        return uno
    return softmax(z / t)                          # (V,)


def entropia(p: np.ndarray) -> float:
    """H(p) = −Σ p log p en nats, con 0·log 0 = 0."""
    positivas = p[p > 0]
    return float(-(positivas * np.log(positivas)).sum())


def orden_descendente(p: np.ndarray) -> np.ndarray:
    """Índices de mayor a menor probabilidad; en un empate va antes el índice menor."""
    return np.argsort(-p, kind="stable")           # (V,)


def top_k(p: np.ndarray, k: int) -> np.ndarray:
    """Conserva los k más probables y renormaliza."""
    conservar = orden_descendente(p)[:k]           # (k,)
    q = np.zeros_like(p)                           # (V,)
    q[conservar] = p[conservar]
    return q / q.sum()


def top_p(p: np.ndarray, masa: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Núcleo: prefijo mínimo con masa acumulada ≥ masa. Devuelve (q, acumulada, tamaño)."""
    orden = orden_descendente(p)                   # (V,)
    acumulada = np.cumsum(p[orden])                # (V,) masa acumulada en orden descendente
    tamano = int(np.argmax(acumulada >= masa)) + 1 if acumulada[-1] >= masa else len(p)
    q = np.zeros_like(p)                           # (V,)
    q[orden[:tamano]] = p[orden[:tamano]]
    return q / q.sum(), acumulada, tamano


def tuberia(z: np.ndarray, t: float, k: int, masa: float) -> np.ndarray:
    """Temperatura → top-k → top-p, el orden de transformers."""
    return top_p(top_k(con_temperatura(z, t), k), masa)[0]


def run(semilla: int = SEMILLA) -> dict:
    # Temperatura: una distribución, su entropía y el tamaño del núcleo p = 0.9 por cada T
    por_t = {}
    for t in TEMPERATURAS:
        p_t = con_temperatura(LOGITS, t)                                   # (V,)
        por_t[str(float(t))] = {
            "probabilidades": p_t,
            "entropia": entropia(p_t),
            "tamano_nucleo_p09": top_p(p_t, P)[2],
        }
    h = [v["entropia"] for v in por_t.values()]
    crece = all(a < b for a, b in zip(h, h[1:]))

    # T → 0⁺ se acerca al argmax explícito de T = 0
    casi_cero = con_temperatura(LOGITS, TEMPERATURA_CASI_CERO)
    es_argmax = np.max(np.abs(casi_cero - con_temperatura(LOGITS, 0.0))) < TOLERANCIA_EXACTA

    # Truncados con T = 1
    p1 = con_temperatura(LOGITS, 1.0)
    q_k = top_k(p1, K)
    q_p, acumulada, n = top_p(p1, P)
    # Mínimo: con n tokens se alcanza la masa y con n − 1 no
    minimo = bool(acumulada[n - 1] >= P and (n == 1 or acumulada[n - 2] < P))

    tamanos = [v["tamano_nucleo_p09"] for v in por_t.values()]

    # Muestreo de la tubería T = 0.7, k = 4, p = 0.9
    teorica = tuberia(LOGITS, *TUBERIA)                                   # (V,)
    rng = np.random.default_rng(semilla)
    muestras = rng.choice(len(LOGITS), size=MUESTRAS, p=teorica)         # (MUESTRAS,)
    empirica = np.bincount(muestras, minlength=len(LOGITS)) / MUESTRAS   # (V,)
    cerca = np.max(np.abs(empirica - teorica)) < TOLERANCIA_MUESTREO

    return {
        "logits": dict(zip(TOKENS, LOGITS)),
        "por_temperatura": por_t,
        "la_entropia_crece_con_la_temperatura": crece,
        "temperatura_cero_es_argmax": bool(es_argmax),
        "top_k_3": q_k,
        "top_p_09": {"distribucion": q_p, "masa_acumulada_ordenada": acumulada, "tamano": n},
        "el_nucleo_es_el_minimo": minimo,
        "la_temperatura_cambia_el_nucleo": len(set(tamanos)) > 1,
        "muestreo_t07_k4_p09": {"teorica": teorica, "empirica_20000": empirica},
        "frecuencias_empiricas_cerca_de_teoricas": bool(cerca),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
