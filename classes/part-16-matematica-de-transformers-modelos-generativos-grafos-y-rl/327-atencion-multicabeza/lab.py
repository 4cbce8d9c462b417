"""Atención multicabeza: varias atenciones pequeñas en paralelo, mezcladas por W_O.

    d_h = d / h
    cabeza_i = softmax(Q_i K_iᵀ / √d_h) V_i,   Q_i = X W_Q[:, i·d_h:(i+1)·d_h]  (igual K_i, V_i)
    MultiHead(X) = Concat(cabeza_1, ..., cabeza_h) W_O = Σ_i cabeza_i · W_O[i·d_h:(i+1)·d_h, :]
    parámetros sin sesgos = 4 d²   (no depende de h)
    caché KV por token y capa = 2 · h_kv · d_h   (MHA: h_kv = h; GQA: h_kv = grupos; MQA: h_kv = 1)

Convención de vectores fila: Q = X @ W_Q con W_Q de forma (d, d).

Referencias: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, sección 3.2.2;
Shazeer 2019 (MQA); Ainslie et al., EMNLP 2023 (GQA); Elhage et al. 2021 (circuitos QK y OV).
"""

import numpy as np

# X: 3 tokens («el», «gato», «come») de dimensión d = 4, los mismos que en la clase 324.
X = np.array([[1.0, 0.0, 1.0, 0.0],
              [0.0, 1.0, 0.0, 1.0],
              [1.0, 1.0, 0.0, 0.0]])
W_Q = np.array([[1.0, 0.0, 0.0, 1.0],
                [0.0, 1.0, 1.0, 0.0],
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 1.0]])
W_K = np.array([[0.0, 1.0, 1.0, 0.0],
                [1.0, 0.0, 0.0, 1.0],
                [1.0, 1.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0]])
W_V = np.eye(4)
W_O = 0.5 * np.array([[1.0, 0.0, 0.0, 1.0],
                      [0.0, 1.0, 1.0, 0.0],
                      [0.0, 0.0, 1.0, 0.0],
                      [1.0, 1.0, 0.0, 0.0]])
CABEZAS = 2                  # h
CABEZAS_PARA_CONTAR = (1, 2, 4)  # valores de h para el conteo de parámetros con d = 4
SEMILLA_CONTEO = 0           # las capas del conteo se sortean: nada se corta de W_Q, W_K, W_V
TOLERANCIA = 1e-12           # identidades exactas salvo redondeo
UMBRAL_DISTINTAS = 1e-3      # max|A_1 − A_2| por encima de esto: patrones distintos
PERTURBACION = 1.0           # lo que se suma a un peso para ver si la salida lo nota
UMBRAL_INFLUYE = 1e-9        # un cambio de la salida por encima de esto: el peso se usa

# Caché KV de un modelo «típico»: 8 cabezas de dimensión 64.
CABEZAS_CACHE = 8
DIM_CABEZA_CACHE = 64
GRUPOS_GQA = 2


def softmax_filas(s: np.ndarray) -> np.ndarray:
    """Softmax estable por filas (resta el máximo de cada fila)."""
    e = np.exp(s - s.max(axis=1, keepdims=True))  # (n, n)
    return e / e.sum(axis=1, keepdims=True)       # (n, n), filas que suman 1


def atencion(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Atención por producto escalar escalado: devuelve (pesos, salida)."""
    pesos = softmax_filas(q @ k.T / np.sqrt(q.shape[1]))  # (n, n)
    return pesos, pesos @ v                               # (n, n), (n, d_v)


def proyecciones_por_cabeza(w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
                            h: int) -> dict[str, list[np.ndarray]]:
    """Las matrices de cada cabeza: W_Q^(i), W_K^(i), W_V^(i), de forma (d, d_h), i = 0..h−1."""
    d = w_q.shape[1]
    if d % h:
        raise ValueError(f"el número de cabezas debe dividir d = {d}; se recibió {h}")
    d_h = d // h
    bloques = [slice(i * d_h, (i + 1) * d_h) for i in range(h)]  # columnas de cada cabeza
    return {nombre: [w[:, b].copy() for b in bloques]            # h matrices (d, d_h)
            for nombre, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v))}


def multicabeza(x: np.ndarray, proyecciones: dict[str, list[np.ndarray]],
                w_o: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Atención en cada cabeza y Concat(cabezas)·W_O: devuelve (pesos, cabezas, salida)."""
    pesos, cabezas = [], []
    for w_q_i, w_k_i, w_v_i in zip(proyecciones["W_Q"], proyecciones["W_K"], proyecciones["W_V"]):
        ### BEGIN SOLUTION
        q_i, k_i, v_i = x @ w_q_i, x @ w_k_i, x @ w_v_i      # (n, d_h) cada una
        a, c = atencion(q_i, k_i, v_i)                       # (n, n), (n, d_h): escala √d_h
        ### END SOLUTION
        pesos.append(a)
        cabezas.append(c)
    ### BEGIN SOLUTION
    concatenadas = np.concatenate(cabezas, axis=1)           # (n, h·d_h) = (n, d)
    salida = concatenadas @ w_o                              # (n, d)
    ### END SOLUTION
    return pesos, cabezas, salida


def suma_por_cabeza(cabezas: list[np.ndarray], w_o: np.ndarray) -> np.ndarray:
    """Σ_i cabeza_i · W_O[bloque i, :]: la misma proyección de salida, cabeza a cabeza."""
    d_h = cabezas[0].shape[1]
    total = np.zeros((cabezas[0].shape[0], w_o.shape[1]))      # (n, d)
    for i, c in enumerate(cabezas):
        ### BEGIN SOLUTION
        total += c @ w_o[i * d_h:(i + 1) * d_h, :]             # (n, d_h) @ (d_h, d)
        ### END SOLUTION
    return total


def una_cabeza_por_circuitos(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
                             w_o: np.ndarray) -> np.ndarray:
    """Otra ruta para h = 1: forma bilineal W_Q W_Kᵀ, softmax por log-suma-exp y W_V W_O."""
    w_qk = w_q @ w_k.T                                       # (d, d): qué mira cada token
    w_ov = w_v @ w_o                                         # (d, d): qué escribe
    s = x @ w_qk @ x.T / np.sqrt(w_q.shape[1])               # (n, n) = Q Kᵀ/√d
    m = s.max(axis=1)                                        # (n,)
    log_z = m + np.log(np.exp(s - m[:, None]).sum(axis=1))   # (n,): log Σ_j exp(s_ij)
    pesos = np.exp(s - log_z[:, None])                       # (n, n)
    return pesos @ x @ w_ov                                  # (n, d)


def construir_capa(d: int, h: int,
                   rng: np.random.Generator) -> tuple[dict[str, list[np.ndarray]], np.ndarray]:
    """Una capa nueva de h cabezas: cada cabeza sortea sus propias W_Q^(i), W_K^(i), W_V^(i).

    Cada una tiene forma (d, d_h) con d_h = d/h, y W_O tiene una fila por columna de Concat.
    """
    if d % h:
        raise ValueError(f"el número de cabezas debe dividir d = {d}; se recibió {h}")
    d_h = d // h
    proyecciones = {nombre: [rng.standard_normal((d, d_h)) for _ in range(h)]  # h × (d, d_h)
                    for nombre in ("W_Q", "W_K", "W_V")}
    w_o = rng.standard_normal((h * d_h, d))                                   # (h·d_h, d)
    return proyecciones, w_o


def contar_parametros(proyecciones: dict[str, list[np.ndarray]], w_o: np.ndarray) -> int:
    """Suma los tamaños de las matrices construidas: las h de Q, K y V de cada cabeza y W_O."""
    return sum(w.size for matrices in proyecciones.values() for w in matrices) + w_o.size


def pesos_que_influyen(x: np.ndarray, proyecciones: dict[str, list[np.ndarray]],
                       w_o: np.ndarray) -> int:
    """Cuántos pesos de la capa cambian su salida sobre x al sumarles PERTURBACION, uno cada vez."""
    base = multicabeza(x, proyecciones, w_o)[2]                               # (n, d)
    cuenta = 0
    for w in [m for matrices in proyecciones.values() for m in matrices] + [w_o]:
        for indice in np.ndindex(w.shape):
            original = w[indice]
            w[indice] = original + PERTURBACION
            cambio = np.max(np.abs(multicabeza(x, proyecciones, w_o)[2] - base))
            w[indice] = original                                              # se deja como estaba
            cuenta += int(cambio > UMBRAL_INFLUYE)
    return cuenta


def cache_kv(cabezas_kv: int, d_h: int) -> int:
    """Números guardados por token y capa: una K y una V de tamaño d_h por cabeza de K/V."""
    return 2 * cabezas_kv * d_h


def run(cabezas: int = CABEZAS) -> dict:
    d = W_Q.shape[1]
    pesos, cabezas_salida, salida = multicabeza(
        X, proyecciones_por_cabeza(W_Q, W_K, W_V, cabezas), W_O)

    # ¿Miran las dos primeras cabezas patrones distintos? (n, n) cada una
    distintas = bool(len(pesos) > 1 and np.max(np.abs(pesos[0] - pesos[1])) > UMBRAL_DISTINTAS)

    # Concatenar y proyectar == sumar la contribución de cada cabeza (producto por bloques)
    por_bloques = np.max(np.abs(salida - suma_por_cabeza(cabezas_salida, W_O))) < TOLERANCIA

    # h = 1 frente a una ruta independiente: circuitos W_Q W_Kᵀ y W_V W_O, softmax por log-suma-exp
    una = multicabeza(X, proyecciones_por_cabeza(W_Q, W_K, W_V, 1), W_O)[2]   # (n, d)
    otra_ruta = una_cabeza_por_circuitos(X, W_Q, W_K, W_V, W_O)                # (n, d)
    una_es_simple = np.max(np.abs(una - otra_ruta)) < TOLERANCIA

    # Parámetros de una capa construida de cero para cada h, con las matrices de cada cabeza
    # sorteadas por separado; la capa se usa sobre X (su salida debe ser (n, d)) y se cuenta.
    # Las formas fijan la suma (4d² con d_h = d/h): es una demostración. Lo que sí puede fallar es
    # que la capa use todos esos pesos: se cambia cada uno y se mira si la salida lo nota.
    rng = np.random.default_rng(SEMILLA_CONTEO)
    conteo = {}
    todos_influyen = True
    for h in CABEZAS_PARA_CONTAR:
        proyecciones, w_o = construir_capa(d, h, rng)
        forma = multicabeza(X, proyecciones, w_o)[2].shape
        if forma != X.shape:
            raise ValueError(f"la capa de {h} cabezas devuelve {forma}; se esperaba {X.shape}")
        conteo[str(h)] = contar_parametros(proyecciones, w_o)
        todos_influyen &= pesos_que_influyen(X, proyecciones, w_o) == conteo[str(h)]

    return {
        "configuracion": {"d_modelo": d, "cabezas": cabezas, "dim_cabeza": d // cabezas},
        "pesos_por_cabeza": pesos,
        "salida": salida,
        "las_cabezas_atienden_distinto": distintas,
        "concatenar_y_proyectar_es_sumar_por_cabeza": bool(por_bloques),
        "una_cabeza_es_atencion_simple": bool(una_es_simple),
        "parametros_sin_sesgo": conteo,
        "cada_parametro_influye_en_la_salida": bool(todos_influyen),
        "cache_kv_por_token_y_capa": {
            "mha_8_cabezas": cache_kv(CABEZAS_CACHE, DIM_CABEZA_CACHE),
            "gqa_2_grupos": cache_kv(GRUPOS_GQA, DIM_CABEZA_CACHE),
            "mqa": cache_kv(1, DIM_CABEZA_CACHE),
        },
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
