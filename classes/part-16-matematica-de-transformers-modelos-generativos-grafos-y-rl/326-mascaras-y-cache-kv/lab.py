"""Máscaras causales, relleno y caché KV: qué puede ver cada posición.

    S_ij = q_i·k_j / √d_k + M_ij,    M_ij = 0 si está permitido, −∞ si no
    causal:  permitido ⇔ j ≤ i                            (n×n, triangular inferior)
    relleno: permitido ⇔ j es un token real
    L consultas y S claves (decodificar con caché, L ≤ S): permitido ⇔ j ≤ i + (S − L)
    paso t con caché: salida_t = softmax(q_t K_{≤t}ᵀ / √d_k) V_{≤t}     → O(t) en vez de O(t²)

Con −∞ el peso de una clave prohibida es exactamente 0. Si una fila no tiene ninguna clave
permitida, la softmax es 0/0 = NaN.

Referencias: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, sección 3.2.3;
Shazeer, «Fast Transformer Decoding: One Write-Head is All You Need», 2019.
"""

import numpy as np

X = np.array([[1.0, 0.0],
              [0.0, 1.0],
              [1.0, 1.0],
              [2.0, -1.0]])          # (n, d) = (4, 2); aquí Q = K = V = X
TOKEN_3_NUEVO_X = -5.0              # sustituto (x, y) del último token
TOKEN_3_NUEVO_Y = 7.0
ES_TOKEN_REAL = np.array([True, True, True, False])  # el último token es relleno
TOLERANCIA = 1e-12
ESCALA = 1.0                        # factor de X: con 15 las puntuaciones pasan de 700 y
                                    # exp desborda si la softmax no resta el máximo
ALINEACIONES = {"arriba_izquierda", "abajo_derecha"}  # de la máscara causal si L < S


def mascara_causal(L: int, S: int, alineacion: str = "arriba_izquierda") -> np.ndarray:
    """1 = permitido. Arriba-izquierda: j ≤ i (torch is_causal). Abajo-derecha: j ≤ i + (S − L)."""
    if alineacion not in ALINEACIONES:
        raise ValueError(f"alineación desconocida «{alineacion}»: usa {sorted(ALINEACIONES)}")
    desplazamiento = 0 if alineacion == "arriba_izquierda" else S - L
    i = np.arange(L)[:, None]                        # (L, 1): índice de la consulta
    j = np.arange(S)[None, :]                        # (1, S): índice de la clave
    ### BEGIN SOLUTION
    permitido = j <= i + desplazamiento              # (L, S) de bool
    ### END SOLUTION
    return permitido.astype(int)                     # (L, S), 1 = permitido


def softmax_enmascarada(S: np.ndarray, permitido: np.ndarray) -> np.ndarray:
    """Suma −∞ donde no está permitido y aplica la softmax estable por filas (NaN sin claves)."""
    with np.errstate(invalid="ignore"):                          # −∞ − (−∞) en una fila vacía
        ### BEGIN SOLUTION
        Z = np.where(permitido.astype(bool), S, -np.inf)        # (L, S): −∞ en lo prohibido
        E = np.exp(Z - Z.max(axis=1, keepdims=True))            # (L, S): exp(−∞) = 0 exacto
        P = E / E.sum(axis=1, keepdims=True)                    # (L, S): cada fila suma 1
        ### END SOLUTION
    return P


def softmax_segura(S: np.ndarray, permitido: np.ndarray) -> np.ndarray:
    """Como la anterior, pero una fila sin claves permitidas da pesos 0 en vez de NaN."""
    vacias = ~permitido.astype(bool).any(axis=1)                 # (L,)
    P = softmax_enmascarada(S, permitido | vacias[:, None])      # rellenar para no dividir 0/0
    P[vacias] = 0.0
    return P


def atencion(Q: np.ndarray, K: np.ndarray, V: np.ndarray, permitido: np.ndarray) -> tuple:
    """Pesos (L, S) y salida (L, d_v) de la atención enmascarada."""
    A = softmax_enmascarada(Q @ K.T / np.sqrt(K.shape[1]), permitido)
    return A, A @ V


def decodificar_sin_cache(X: np.ndarray) -> tuple[np.ndarray, int]:
    """En cada paso t recalcula toda la atención causal de los t+1 tokens; cuenta los q·k."""
    productos = 0
    salidas = []
    for t in range(len(X)):
        prefijo = X[: t + 1]                                     # (t+1, d)
        S = np.zeros((t + 1, t + 1))
        for i in range(t + 1):
            for j in range(i + 1):                               # solo pares permitidos j ≤ i
                S[i, j] = prefijo[i] @ prefijo[j] / np.sqrt(X.shape[1])
                productos += 1
        todas = softmax_enmascarada(S, mascara_causal(t + 1, t + 1)) @ prefijo  # (t+1, d)
        salidas.append(todas[t])                                 # solo se usa la del token nuevo
    return np.array(salidas), productos


def decodificar_con_cache(X: np.ndarray) -> tuple[np.ndarray, int]:
    """En cada paso t guarda k_t, v_t y solo calcula la fila nueva q_t·K_{≤t}; cuenta los q·k."""
    productos = 0
    cache_k, cache_v, salidas = [], [], []
    for t in range(len(X)):
        q = X[t]                                                 # (d,): Q = K = V = X
        ### BEGIN SOLUTION
        cache_k.append(X[t])                                     # la clave y el valor del token
        cache_v.append(X[t])                                     # nuevo entran en la caché
        K, V = np.array(cache_k), np.array(cache_v)             # (t+1, d)
        s = np.array([q @ k for k in K]) / np.sqrt(X.shape[1])   # (t+1,): solo la fila nueva
        ### END SOLUTION
        productos += len(K)
        # L = 1 consulta contra S = t+1 claves: alineación abajo-derecha (ve todas)
        pesos = softmax_enmascarada(s[None, :], mascara_causal(1, t + 1, "abajo_derecha"))
        salidas.append((pesos @ V)[0])
    return np.array(salidas), productos


def run(token_3_x: float = TOKEN_3_NUEVO_X, token_3_y: float = TOKEN_3_NUEVO_Y,
        escala: float = ESCALA) -> dict:
    Xe = escala * X                                              # (4, 2): los tokens escalados
    n = len(Xe)
    causal = mascara_causal(n, n)                                # (4, 4)
    A, salida = atencion(Xe, Xe, Xe, causal)

    # Pesos del futuro: entradas con j > i
    futuros = A[np.triu_indices(n, k=1)]

    # Cambiar el token 3 no cambia las salidas 0..2
    X2 = Xe.copy()
    X2[3] = (token_3_x, token_3_y)
    salida2 = atencion(X2, X2, X2, causal)[1]
    cambio_en_el_pasado = np.max(np.abs(salida2[:3] - salida[:3]))

    # Caché KV frente a recalcular
    sin_cache, productos_sin = decodificar_sin_cache(Xe)
    con_cache, productos_con = decodificar_con_cache(Xe)
    error_cache = max(np.max(np.abs(con_cache - salida)), np.max(np.abs(sin_cache - salida)))

    # Relleno: se enmascara por columnas, combinado con la máscara causal
    permitido_relleno = causal & ES_TOKEN_REAL[None, :].astype(int)
    A_relleno = atencion(Xe, Xe, Xe, permitido_relleno)[0]

    # Fila sin ninguna clave permitida
    vacia = np.zeros((1, n), dtype=int)
    fila_vacia = softmax_enmascarada(np.zeros((1, n)), vacia)

    return {
        "mascara_causal": causal,
        "pesos_causales": A,
        "pesos_futuros_son_cero": bool(np.all(futuros == 0.0)),
        "el_futuro_no_afecta_al_pasado": bool(cambio_en_el_pasado < TOLERANCIA),
        "cache_kv_coincide_con_recalculo": bool(error_cache < TOLERANCIA),
        "productos_qk_sin_y_con_cache": {"sin_cache": productos_sin, "con_cache": productos_con},
        "peso_maximo_sobre_relleno": float(A_relleno[:, ~ES_TOKEN_REAL].max()),
        "fila_sin_claves_da_nan": bool(np.all(np.isnan(fila_vacia))),
        "alineacion_causal_l1_s4": {
            "arriba_izquierda": mascara_causal(1, n, "arriba_izquierda"),
            "abajo_derecha": mascara_causal(1, n, "abajo_derecha"),
        },
        "convencion_segura_fila_vacia": softmax_segura(np.zeros((1, n)), vacia)[0],
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
