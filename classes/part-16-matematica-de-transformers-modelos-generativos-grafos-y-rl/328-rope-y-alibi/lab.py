"""Posiciones relativas: RoPE y ALiBi.

RoPE (disposición intercalada, RoFormer ec. 34), con θ_i = 10000^(−2i/d), i = 0..d/2−1:
    (x_2i, x_2i+1) ↦ (x_2i cos mθ_i − x_2i+1 sin mθ_i,  x_2i sin mθ_i + x_2i+1 cos mθ_i)
    ⟨R_m q, R_n k⟩ = ⟨q, R_(n−m) k⟩   → solo depende de m − n;   ‖R_m q‖ = ‖q‖
Disposición por mitades (GPT-NeoX, transformers): x·cat(cos, cos) + rotate_half(x)·cat(sin, sin),
que es la intercalada tras la permutación fija P = (coordenadas pares, coordenadas impares).
Decaimiento a largo alcance (RoFormer §3.4.3), con r = m − n y S_j = Σ_{l<j} e^{i r θ_l}:
    |⟨R_m q, R_n k⟩| ≤ max_l |h_{l+1} − h_l| · Σ_{j=1}^{d/2} |S_j|   (h_l: pareja l de q por k*)
    y la media (1/(d/2)) Σ_j |S_j| decae con |r|, en promedio y no de forma monótona
Extensión del contexto por un factor s: interpolación de posiciones m ↦ m/s (θ_i/s para todas);
NTK: base b ↦ b·s^(d/(d−2)), que deja θ_0 igual y divide entre s la frecuencia más baja.

ALiBi:  S_ij = q_i·k_j/√d_k − m_h (i − j) para j ≤ i
    pendientes con H potencia de 2: m_h = 2^(−8h/H), h = 1..H
    la softmax no cambia al sumar una constante por fila ⇒ −m(i − j) ≡ +m·j

Referencias: Su et al., «RoFormer», Neurocomputing 568 (2024) 127063;
Press, Smith y Lewis, «Train Short, Test Long», ICLR 2022;
Chen et al., «Extending Context Window of Large Language Models via Positional Interpolation», 2023;
Peng et al., «YaRN: Efficient Context Window Extension of Large Language Models», ICLR 2024.
"""

import math

import numpy as np

BASE = 10_000.0
Q = np.array([1.0, 0.0, 0.5, 0.5])     # una consulta de dimensión d = 4
K = np.array([0.5, 1.0, -0.5, 1.0])    # una clave
PARES_A_DISTANCIA_2 = ((3, 1), (7, 5), (102, 100))  # (m, n) con m − n = 2
POSICION_NORMA = 37                    # posición en la que se comprueba ‖R_m q‖ = ‖q‖
POSICIONES_DISPOSICION = 20            # m = 0..19 para comparar las dos disposiciones
CABEZAS_ALIBI = (8, 6)                 # una potencia de 2 y otra que no lo es
TOKENS_ALIBI = 5                       # secuencia causal de 5 tokens
TOLERANCIA = 1e-12                     # identidades exactas salvo redondeo

# Largo alcance y extensión del contexto, con la dimensión de cabeza de Llama
D_CABEZA = 128
TRAMOS_DE_DISTANCIA = ((1, 10), (11, 100), (101, 1000), (1001, 10000))  # r en [a, b]
CONTEXTO_ENTRENADO = 2048              # longitud de entrenamiento (Llama 1)
FACTOR_EXTENSION = 4.0                 # s: de 2048 a 8192 tokens


def frecuencias(d: int, base: float = BASE) -> np.ndarray:
    """θ_i = base^(−2i/d), la misma escalera de frecuencias que la clase 323."""
    i = np.arange(d // 2)                          # (d/2,)
    return base ** (-2.0 * i / d)                  # (d/2,)


def rope_intercalado(x: np.ndarray, m: float, theta: np.ndarray) -> np.ndarray:
    """Gira cada par consecutivo (x_2i, x_2i+1) un ángulo m·θ_i."""
    angulo = m * theta                             # (d/2,)
    c, s = np.cos(angulo), np.sin(angulo)          # (d/2,)
    pares, impares = x[0::2], x[1::2]              # (d/2,) cada uno
    girado = np.empty_like(x)                      # (d,)
    ### BEGIN SOLUTION
    girado[0::2] = pares * c - impares * s
    girado[1::2] = pares * s + impares * c
    ### END SOLUTION
    return girado


def rotate_half(x: np.ndarray) -> np.ndarray:
    """(x_1, x_2) ↦ (−x_2, x_1) por mitades, como en transformers."""
    mitad = x.shape[-1] // 2
    return np.concatenate([-x[mitad:], x[:mitad]])  # (d,)


def rope_mitades(x: np.ndarray, m: float, theta: np.ndarray) -> np.ndarray:
    """Disposición por mitades: la coordenada j se empareja con j + d/2."""
    angulo = np.concatenate([m * theta, m * theta])  # (d,) = cat(freqs, freqs)
    return x * np.cos(angulo) + rotate_half(x) * np.sin(angulo)


def permutacion_pares_impares(d: int) -> np.ndarray:
    """Índices de P: primero las coordenadas pares y luego las impares."""
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])  # (d,)


def cota_relativa(r: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """(1/(d/2)) Σ_{j=1}^{d/2} |S_j| con S_j = Σ_{i<j} e^{i r θ_i}, para cada distancia r."""
    ### BEGIN SOLUTION
    fases = np.exp(1j * np.outer(r, theta))        # (distancias, d/2): e^{i r θ_i}
    S = np.cumsum(fases, axis=1)                   # (distancias, d/2): S_1 .. S_{d/2}
    ### END SOLUTION
    return np.abs(S).mean(axis=1)                  # (distancias,)


def base_ntk(base: float, s: float, d: int) -> float:
    """Base «NTK-aware»: b·s^(d/(d−2)), que divide entre s la frecuencia más baja."""
    return base * s ** (d / (d - 2))


def pendientes_alibi(h: int) -> list[float]:
    """Regla del código oficial de ALiBi (get_slopes), también para H no potencia de 2."""
    def potencia_de_2(n: int) -> list[float]:
        inicio = 2.0 ** (-8.0 / n)                  # m_1 = 2^(−8/H), razón geométrica igual
        return [inicio ** (k + 1) for k in range(n)]

    if math.log2(h).is_integer():
        return potencia_de_2(h)
    cercana = 2 ** math.floor(math.log2(h))         # mayor potencia de 2 por debajo de h
    # las que faltan se toman intercaladas de la serie de 2·cercana cabezas
    return potencia_de_2(cercana) + pendientes_alibi(2 * cercana)[0::2][: h - cercana]


def sesgo_alibi(m: float, n: int) -> np.ndarray:
    """−m(i − j) para j ≤ i; NaN marca las posiciones futuras (se emiten como null)."""
    i = np.arange(n)[:, None]                       # (n, 1)
    j = np.arange(n)[None, :]                       # (1, n)
    ### BEGIN SOLUTION
    sesgo = -m * (i - j).astype(float)              # (n, n): castigo lineal en la distancia
    ### END SOLUTION
    return np.where(j <= i, sesgo, np.nan)


def softmax_causal(puntuaciones: np.ndarray) -> np.ndarray:
    """Softmax estable por filas ignorando las entradas NaN (futuro enmascarado)."""
    validas = ~np.isnan(puntuaciones)                                   # (n, n)
    s = np.where(validas, puntuaciones, -np.inf)                        # (n, n)
    e = np.exp(s - s.max(axis=1, keepdims=True))                        # (n, n), 0 en el futuro
    return e / e.sum(axis=1, keepdims=True)


def a_json(matriz: np.ndarray) -> list[list[float | None]]:
    """Matriz con NaN → listas con None (JSON no admite NaN)."""
    return [[None if np.isnan(v) else float(v) for v in fila] for fila in matriz]


def run(base: float = BASE, posicion_norma: int = POSICION_NORMA,
        factor_extension: float = FACTOR_EXTENSION, cabezas_alibi: int = 8) -> dict:
    if factor_extension <= 0 or base <= 1:
        raise ValueError("factor_extension debe ser positivo y base mayor que 1")
    if cabezas_alibi < 1:
        raise ValueError(f"cabezas_alibi debe ser >= 1; se recibió {cabezas_alibi}")
    d = Q.shape[0]
    theta = frecuencias(d, base)                                        # (d/2,)

    # ⟨R_m q, R_n k⟩ para pares con la misma distancia m − n = 2
    productos = {f"{m},{n}": float(rope_intercalado(Q, m, theta) @ rope_intercalado(K, n, theta))
                 for m, n in PARES_A_DISTANCIA_2}
    valores = list(productos.values())
    solo_distancia = max(valores) - min(valores) < TOLERANCIA

    # La rotación es ortogonal: no cambia la norma
    conserva = abs(np.linalg.norm(rope_intercalado(Q, posicion_norma, theta))
                   - np.linalg.norm(Q)) < TOLERANCIA

    # Disposición por mitades aplicada a P q == P aplicado a la intercalada, m = 0..19
    p = permutacion_pares_impares(d)                                    # (d,)
    error_disposicion = max(
        np.max(np.abs(rope_mitades(Q[p], m, theta) - rope_intercalado(Q, m, theta)[p]))
        for m in range(POSICIONES_DISPOSICION)
    )

    # Cota de Su et al. con d = 128: su valor en r = 0 y su media en tramos de distancia
    theta_128 = frecuencias(D_CABEZA, base)                             # (64,)
    cota = {"0": float(cota_relativa(np.array([0.0]), theta_128)[0])}
    for a, b in TRAMOS_DE_DISTANCIA:
        r = np.arange(a, b + 1, dtype=float)                            # (b − a + 1,)
        cota[f"{a}_a_{b}"] = float(cota_relativa(r, theta_128).mean())
    valores_cota = list(cota.values())
    decae = all(x > y for x, y in zip(valores_cota, valores_cota[1:]))

    # Extensión de 2048 a s·2048 tokens: interpolación de posiciones (θ/s) y base NTK
    s = factor_extension
    theta_pi = theta_128 / s                                            # m/s ⇔ θ_i/s
    theta_ntk = frecuencias(D_CABEZA, base_ntk(base, s, D_CABEZA))      # (64,)
    contexto_largo = s * CONTEXTO_ENTRENADO
    extension = {
        "factor": s,
        "base_ntk": base_ntk(base, s, D_CABEZA),
        "frecuencia_alta": {"original": theta_128[0], "interpolacion_posicional": theta_pi[0],
                            "ntk": theta_ntk[0]},
        "frecuencia_baja": {"original": theta_128[-1], "interpolacion_posicional": theta_pi[-1],
                            "ntk": theta_ntk[-1]},
        # ángulo m·θ de la frecuencia más baja en la última posición: lo visto y lo nuevo
        "angulo_maximo_frecuencia_baja": {
            "entrenado": CONTEXTO_ENTRENADO * theta_128[-1],
            "original_en_contexto_largo": contexto_largo * theta_128[-1],
            "interpolacion_posicional": contexto_largo * theta_pi[-1],
            "ntk": contexto_largo * theta_ntk[-1],
        },
    }

    pendientes = {f"{h}_cabezas": pendientes_alibi(h) for h in CABEZAS_ALIBI}
    # cabeza 0 de un modelo con cabezas_alibi cabezas (con 8: m = 1/2)
    m0 = pendientes_alibi(cabezas_alibi)[0]
    sesgo = sesgo_alibi(m0, TOKENS_ALIBI)                               # (n, n) con NaN arriba

    # Puntuaciones q·k iguales (0): solo cuenta el sesgo; última fila = la consulta más reciente
    pesos = softmax_causal(sesgo)                                       # (n, n)
    crecientes = bool(np.all(np.diff(pesos[-1]) > 0))

    # Sumar +m·j en lugar de −m(i − j) solo cambia cada fila en la constante −m·i
    j = np.arange(TOKENS_ALIBI, dtype=float)
    sesgo_j = np.where(np.isnan(sesgo), np.nan, m0 * j[None, :])         # (n, n)
    equivale = np.max(np.abs(softmax_causal(sesgo_j) - pesos)) < TOLERANCIA

    return {
        "frecuencias": theta,
        "vectores_rotados": {
            "q_pos3": rope_intercalado(Q, 3, theta),
            "k_pos1": rope_intercalado(K, 1, theta),
        },
        "productos_distancia_2": productos,
        "producto_solo_depende_de_la_distancia": bool(solo_distancia),
        "rotacion_conserva_normas": bool(conserva),
        "intercalado_equivale_a_mitades": bool(error_disposicion < TOLERANCIA),
        "cota_de_decaimiento": cota,
        "la_cota_decae_en_promedio": decae,
        "extension_de_contexto": extension,
        "pendientes_alibi": pendientes,
        "sesgo_alibi_cabeza_0": a_json(sesgo),
        "alibi_prefiere_lo_reciente": crecientes,
        "sesgo_m_por_j_equivale": bool(equivale),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
