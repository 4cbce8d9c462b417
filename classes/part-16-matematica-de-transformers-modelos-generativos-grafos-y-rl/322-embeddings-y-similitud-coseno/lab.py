"""Embeddings y similitud coseno: un token es una fila de una tabla.

    e(token) = E[id] = onehot(id) · E           E ∈ R^{|V|×d}
    cos(a, b) = a·b / (‖a‖ ‖b‖) ∈ [−1, 1]        (Cauchy–Schwarz)
    cos(λa, b) = cos(a, b) para λ > 0;  a·b, en cambio, escala con λ
    analogía: argmax_{w ∉ {a, b, c}} cos(e_b − e_a + e_c, e_w)

Con un vector nulo el coseno no está definido; como torch.nn.functional.cosine_similarity, el lab
divide entre max(‖a‖, ε)·max(‖b‖, ε) y devuelve 0.

Referencias: Mikolov et al., «Efficient Estimation of Word Representations in Vector Space», 2013;
Press y Wolf, «Using the Output Embedding to Improve Language Models», EACL 2017.
"""

import numpy as np

# Dimensiones interpretables: (realeza, género, fruta, tamaño)
PALABRAS = ("rey", "reina", "hombre", "mujer", "manzana", "pera")
E = np.array([
    [0.95, 0.90, 0.02, 0.30],    # rey
    [0.93, -0.88, 0.01, 0.28],   # reina
    [0.05, 0.92, 0.03, 0.20],    # hombre
    [0.04, -0.90, 0.02, 0.22],   # mujer
    [0.01, 0.02, 0.97, 0.10],    # manzana
    [0.02, -0.01, 0.91, 0.15],   # pera
])                               # (|V|, d) = (6, 4)
ESCALA = 3.0                     # λ de la comprobación de invariancia (la clave dice «3rey»)
EPSILON = 1e-8                   # ε de torch.nn.functional.cosine_similarity
TOLERANCIA = 1e-12


def buscar(E: np.ndarray, indice: int) -> np.ndarray:
    """La capa de embedding como producto: onehot(id) · E."""
    onehot = np.zeros(E.shape[0])                  # (|V|,)
    onehot[indice] = 1.0
    return onehot @ E                              # (d,)


def coseno(a: np.ndarray, b: np.ndarray, eps: float = EPSILON) -> float:
    """a·b / (max(‖a‖, ε) · max(‖b‖, ε)): 0 si alguno es nulo."""
    ### BEGIN SOLUTION
    producto = a @ b                                                  # a·b
    normas = max(np.linalg.norm(a), eps) * max(np.linalg.norm(b), eps)  # ‖a‖ ‖b‖, con suelo ε
    ### END SOLUTION
    return float(producto / normas)


def matriz_coseno(E: np.ndarray, eps: float = EPSILON) -> np.ndarray:
    """Cosenos entre todas las filas: normalizar filas y multiplicar."""
    ### BEGIN SOLUTION
    normas = np.maximum(np.linalg.norm(E, axis=1, keepdims=True), eps)  # (|V|, 1)
    U = E / normas                                                       # (|V|, d), filas unitarias
    C = U @ U.T                                                          # (|V|, |V|)
    ### END SOLUTION
    return C


def analogia(E: np.ndarray, a: int, b: int, c: int, eps: float = EPSILON) -> tuple[int, float]:
    """a es a b como c es a ?: argmax de cos(e_b − e_a + e_c, e_w) sin las tres de la consulta."""
    ### BEGIN SOLUTION
    objetivo = E[b] - E[a] + E[c]                                    # (d,), sin normalizar antes
    cosenos = np.array([coseno(objetivo, fila, eps) for fila in E])      # (|V|,)
    cosenos[[a, b, c]] = -np.inf                                         # excluir la consulta
    ### END SOLUTION
    ganador = int(np.argmax(cosenos))
    return ganador, float(cosenos[ganador])


def run(indice_busqueda: int = 1, epsilon: float = EPSILON) -> dict:
    idx = {p: i for i, p in enumerate(PALABRAS)}

    # La búsqueda en tabla es un producto one-hot por E (exacto: solo suma ceros); una
    # demostración, no algo que pueda fallar
    busqueda = {"palabra": PALABRAS[indice_busqueda], "onehot_por_E": buscar(E, indice_busqueda),
                "fila_de_E": E[indice_busqueda]}

    # Cosenos entre las 6 palabras: (6, 6)
    C = matriz_coseno(E, epsilon)

    # Vecino más cercano: argmax de cada fila sin la diagonal
    sin_diagonal = C - 3.0 * np.eye(len(PALABRAS))   # los cosenos están en [−1, 1]
    vecinos = {p: PALABRAS[int(np.argmax(sin_diagonal[i]))] for i, p in enumerate(PALABRAS)}

    # rey − hombre + mujer ≈ ?
    ganador, cos_analogia = analogia(E, idx["hombre"], idx["rey"], idx["mujer"], epsilon)

    # manzana es a pera como rey es a ?: pera − manzana es casi nulo, el objetivo casi es «rey»,
    # y sin excluir la consulta ganaría la propia «rey»
    ganador_2, cos_2 = analogia(E, idx["manzana"], idx["pera"], idx["rey"], epsilon)
    objetivo_2 = E[idx["pera"]] - E[idx["manzana"]] + E[idx["rey"]]                 # (d,)
    sin_excluir = int(np.argmax([coseno(objetivo_2, fila, epsilon) for fila in E]))

    # Escalar un vector: el coseno no cambia, el producto escalar sí
    rey, reina = E[idx["rey"]], E[idx["reina"]]
    cos_1 = coseno(rey, reina, epsilon)
    cos_lambda = coseno(ESCALA * rey, reina, epsilon)

    return {
        "dimension": E.shape[1],
        "busqueda_one_hot": busqueda,
        "matriz_coseno": {p: dict(zip(PALABRAS, C[i])) for i, p in enumerate(PALABRAS)},
        "vecino_mas_cercano": vecinos,
        "analogia_rey_menos_hombre_mas_mujer": PALABRAS[ganador],
        "coseno_de_la_analogia": cos_analogia,
        "analogia_pera_menos_manzana_mas_rey": {
            "respuesta": PALABRAS[ganador_2],
            "coseno": cos_2,
            "sin_excluir_la_consulta": PALABRAS[sin_excluir],
        },
        "coseno_invariante_a_escala": abs(cos_lambda - cos_1) < TOLERANCIA,
        "producto_escalar_cambia_con_escala": {
            "rey_reina": float(rey @ reina),
            "3rey_reina": float((ESCALA * rey) @ reina),
        },
        # Convención (como PyTorch): con un vector nulo el coseno vale 0, no NaN
        "coseno_con_vector_nulo": coseno(np.zeros(E.shape[1]), rey, epsilon),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
