"""Positional encoding sinusoidal: la posición como un banco de relojes.

    PE(pos, 2i)   = sin(pos / 10000^(2i/d))
    PE(pos, 2i+1) = cos(pos / 10000^(2i/d))

Cada par de componentes (2i, 2i+1) gira con frecuencia ω_i = 10000^(-2i/d): las primeras
giran rápido, las últimas casi no se mueven. No hay parámetros que aprender. En el artículo la
tabla se suma al embedding ya multiplicado por √d_model (sección 3.4).

Referencia: Vaswani et al., «Attention Is All You Need», NeurIPS 2017, secciones 3.4 y 3.5.
"""

import numpy as np

DIMENSION = 8            # d: tamaño del embedding (par)
POSICIONES = 6           # posiciones 0..5 que se muestran
POSICIONES_CON_NORMA = 3  # pos_0..pos_2 en la tabla de normas
POSICION_LEJANA = 10_000  # muy lejos de cualquier longitud "vista"
BASE = 10_000.0


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

    # Similitud con la posición 0 medida con el producto escalar
    producto_1 = float(pe[0] @ pe[1])
    producto_5 = float(pe[0] @ pe[5])

    # Solo se puede *evaluar* en una posición lejana: finita y con la misma norma.
    lejana = codificacion(np.array([posicion_lejana]), dimension)[0]
    se_puede_evaluar_lejos = bool(
        np.all(np.isfinite(lejana))
        and abs(np.linalg.norm(lejana) - np.sqrt(dimension / 2)) < 1e-12
    )

    return {
        "dimension": dimension,
        "codificaciones": {f"pos_{p}": pe[p] for p in range(posiciones)},
        "normas": {f"pos_{p}": normas[p] for p in range(POSICIONES_CON_NORMA)},
        "producto_pos0_pos1": producto_1,
        "producto_pos0_pos5": producto_5,
        # Compara solo dos distancias (1 y 5); no dice que el producto decaiga siempre.
        "la_similitud_decae_con_la_distancia": producto_1 > producto_5,
        # Hecho del método: la tabla es una fórmula fija, no hay pesos que entrenar.
        "parametros_aprendidos": 0,
        "extrapola_a_secuencias_mas_largas": se_puede_evaluar_lejos,
        # Hecho del campo: alternativas conocidas a la codificación sinusoidal.
        "alternativas": ["posiciones aprendidas", "RoPE", "ALiBi"],
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install -e ."
        raise SystemExit(aviso) from None

    main(run)
