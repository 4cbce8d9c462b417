"""Positional encoding sinusoidal: la posición como un banco de relojes.

    PE(pos, 2i)   = sin(pos / 10000^(2i/d))
    PE(pos, 2i+1) = cos(pos / 10000^(2i/d))

Cada par de componentes (2i, 2i+1) gira con frecuencia ω_i = 10000^(-2i/d): las primeras
giran rápido, las últimas casi no se mueven. No hay parámetros que aprender. En el artículo la
tabla se suma al embedding ya multiplicado por √d_model (sección 3.4).

    PE(p)·PE(q) = Σ_i cos((p − q)·ω_i)     baja con |p − q| mientras todos los (p − q)·ω_i ≤ π,
                                          es decir, para distancias 0..3; más allá no es regla
    PE(L)·PE(L + k) = PE(0)·PE(k)          lejos, la tabla conserva su geometría (no el modelo)

Referencia: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, secciones 3.4 y 3.5.
"""

import numpy as np

DIMENSION = 8            # d: tamaño del embedding (par)
POSICIONES = 6           # posiciones 0..POSICIONES−1 que se muestran
POSICIONES_CON_NORMA = 3  # pos_0..pos_2 en la tabla de normas
POSICION_LEJANA = 10_000  # muy lejos de cualquier longitud "vista"
BASE = 10_000.0
# Distancias k = 0..3 en que la similitud decae por fuerza: la aguja más rápida (ω_0 = 1) da
# media vuelta en k = π, y mientras todos los ángulos k·ω_i están en [0, π] cada coseno baja.
DISTANCIA_CORTA = 3
VECINAS = 5               # PE(L)·PE(L+k) se compara con PE(0)·PE(k) para k = 1..5
TOL_NORMA = 1e-12         # identidad exacta: solo ruido de redondeo
TOL_GEOMETRIA = 1e-9      # el redondeo de los ángulos L·ω_i crece con L: con L = 10^9 ya la supera


def frecuencias(d: int) -> np.ndarray:
    """ω_i = 1 / 10000^(2i/d) para i = 0..d/2-1."""
    i = np.arange(d // 2)                         # (d/2,)
    ### BEGIN SOLUTION
    omega = 1.0 / BASE ** (2 * i / d)             # (d/2,), de 1 hacia 1/10000
    ### END SOLUTION
    return omega


def codificacion(posiciones: np.ndarray, d: int) -> np.ndarray:
    """Tabla PE con la disposición intercalada del artículo: seno en pares, coseno en impares."""
    if d < 2 or d % 2:
        raise ValueError(f"la dimensión debe ser par y al menos 2; se recibió {d}")
    pe = np.empty((len(posiciones), d))             # (posiciones, d)
    ### BEGIN SOLUTION
    angulos = np.outer(posiciones, frecuencias(d))  # (posiciones, d/2): pos · ω_i
    pe[:, 0::2] = np.sin(angulos)
    pe[:, 1::2] = np.cos(angulos)
    ### END SOLUTION
    return pe


def run(dimension: int = DIMENSION, posiciones: int = POSICIONES,
        posicion_lejana: int = POSICION_LEJANA) -> dict:
    # Tabla de codificaciones de las primeras posiciones: (posiciones, d)
    pe = codificacion(np.arange(max(posiciones, 6)), dimension)

    # Cada par (sin, cos) aporta 1 a la norma al cuadrado: ‖PE(pos)‖ = √(d/2) siempre.
    normas = np.linalg.norm(pe[:POSICIONES_CON_NORMA], axis=1)  # (3,)

    # Similitud con la posición 0 medida con el producto escalar: PE(0)·PE(k) = Σ cos(k·ω_i)
    productos = pe[0] @ pe.T                         # (posiciones,)
    producto_1 = float(productos[1])
    producto_5 = float(productos[5])

    # Decae a corta distancia: estrictamente decreciente en k = 0..3 (más allá no es regla)
    decae_cerca = bool(np.all(np.diff(productos[: DISTANCIA_CORTA + 1]) < 0))

    # Lejos de lo visto, la tabla conserva su geometría: es finita, su norma sigue siendo √(d/2)
    # y el producto con sus vecinas PE(L)·PE(L+k) es el mismo que PE(0)·PE(k). No dice nada de
    # cómo se comporta allí un modelo entrenado con secuencias cortas.
    lejanas = codificacion(np.arange(posicion_lejana, posicion_lejana + VECINAS + 1), dimension)
    productos_lejos = lejanas[0] @ lejanas.T          # (VECINAS + 1,)
    conserva_geometria = bool(
        np.all(np.isfinite(lejanas))
        and abs(np.linalg.norm(lejanas[0]) - np.sqrt(dimension / 2)) < TOL_NORMA
        and np.max(np.abs(productos_lejos[1:] - productos[1 : VECINAS + 1])) < TOL_GEOMETRIA
    )

    return {
        "dimension": dimension,
        "codificaciones": {f"pos_{p}": pe[p] for p in range(posiciones)},
        "normas": {f"pos_{p}": normas[p] for p in range(POSICIONES_CON_NORMA)},
        "producto_pos0_pos1": producto_1,
        "producto_pos0_pos5": producto_5,
        # A corta distancia (k ≤ 3); no dice que el producto decaiga siempre.
        "la_similitud_decae_con_la_distancia": decae_cerca,
        # Hecho del método: la tabla es una fórmula fija, no hay pesos que entrenar.
        "parametros_aprendidos": 0,
        "extrapola_a_secuencias_mas_largas": conserva_geometria,
        # Hecho del campo: alternativas conocidas a la codificación sinusoidal.
        "alternativas": ["posiciones aprendidas", "RoPE", "ALiBi"],
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
