"""Tokenización por pares de bytes (BPE): fusionar el par más frecuente, una y otra vez.

    cuenta(a, b)    = Σ_palabras frec(palabra) · nº de apariciones de «a b» en la palabra
    (a*, b*)        = argmax cuenta(a, b)            → nuevo símbolo «a*b*»
    |corpus|_{k+1}  = |corpus|_k − cuenta(a*, b*)     (si no hay solapes «a a a»)
    |vocabulario|   = |símbolos iniciales| + nº de fusiones

Cada palabra se deletrea en caracteres más el marcador de fin de palabra «</w>». Los empates se
deshacen por la primera aparición al recorrer el corpus en su orden: es lo que hace el
max(pares, key=pares.get) del Algoritmo 1 del artículo cuando se ejecuta en Python ≥ 3.7, donde un
dict conserva el orden de inserción (antes ese orden no estaba garantizado).

Referencia: Sennrich, Haddow y Birch, «Neural Machine Translation of Rare Words with Subword
Units», ACL 2016, Algoritmo 1.
"""

from itertools import pairwise

FIN = "</w>"
# El corpus del Algoritmo 1 de Sennrich et al.: palabra deletreada → frecuencia.
CORPUS = {
    "l o w </w>": 5,
    "l o w e r </w>": 2,
    "n e w e s t </w>": 6,
    "w i d e s t </w>": 3,
}
FUSIONES = 10
PALABRAS_NUEVAS = ("lowest", "newer", "wider")


def deletrear(palabra: str) -> list[str]:
    """«low» → ['l', 'o', 'w', '</w>']."""
    return list(palabra) + [FIN]


def contar_pares(corpus: list[tuple[list[str], int]]) -> dict[tuple[str, str], int]:
    """cuenta(a, b) ponderada por la frecuencia; el dict conserva el orden de primera aparición."""
    cuentas: dict[tuple[str, str], int] = {}
    ### BEGIN SOLUTION
    for simbolos, frec in corpus:
        for par in pairwise(simbolos):               # pares adyacentes, izquierda a derecha
            cuentas[par] = cuentas.get(par, 0) + frec
    ### END SOLUTION
    return cuentas


def fusionar(simbolos: list[str], par: tuple[str, str]) -> list[str]:
    """Sustituye cada aparición de «a b» (sin solapes, de izquierda a derecha) por «ab»."""
    salida: list[str] = []
    i = 0
    while i < len(simbolos):
        if i + 1 < len(simbolos) and (simbolos[i], simbolos[i + 1]) == par:
            salida.append(simbolos[i] + simbolos[i + 1])
            i += 2
        else:
            salida.append(simbolos[i])
            i += 1
    return salida


def simbolos_totales(corpus: list[tuple[list[str], int]]) -> int:
    """|corpus|: número de símbolos ponderado por frecuencia."""
    return sum(len(simbolos) * frec for simbolos, frec in corpus)


def aprender_bpe(
    corpus: list[tuple[list[str], int]], n_fusiones: int
) -> tuple[list[tuple[str, str]], list[int], list[int], list[tuple[list[str], int]]]:
    """Aprende hasta n_fusiones; devuelve las fusiones, sus cuentas, |corpus| y el corpus final."""
    fusiones: list[tuple[str, str]] = []
    frecuencias: list[int] = []
    tamanos = [simbolos_totales(corpus)]
    for _ in range(n_fusiones):
        cuentas = contar_pares(corpus)
        if not cuentas:                              # todo el corpus ya son palabras enteras
            break
        ### BEGIN SOLUTION
        mejor = max(cuentas, key=cuentas.__getitem__)  # argmax; empate → el primero que apareció
        corpus = [(fusionar(simbolos, mejor), frec) for simbolos, frec in corpus]
        ### END SOLUTION
        fusiones.append(mejor)
        frecuencias.append(cuentas[mejor])
        tamanos.append(simbolos_totales(corpus))
    return fusiones, frecuencias, tamanos, corpus


def segmentar(palabra: str, fusiones: list[tuple[str, str]]) -> list[str]:
    """Aplica las fusiones aprendidas en el mismo orden en que se aprendieron."""
    simbolos = deletrear(palabra)
    ### BEGIN SOLUTION
    for par in fusiones:                             # una pasada por fusión, en su orden
        simbolos = fusionar(simbolos, par)
    ### END SOLUTION
    return simbolos


def decodificar(tokens: list[str]) -> str:
    """Concatenar y quitar el marcador de fin de palabra."""
    return "".join(tokens).replace(FIN, "")


def run(numero_de_fusiones: int = FUSIONES) -> dict:
    # Corpus de trabajo: (lista de símbolos, frecuencia) por palabra
    corpus = [(clave.split(" "), frec) for clave, frec in CORPUS.items()]
    iniciales = {s for simbolos, _ in corpus for s in simbolos}  # 11 símbolos distintos

    lista, frecuencias, tamanos, final = aprender_bpe(corpus, numero_de_fusiones)

    # Palabras no vistas: se parten en piezas conocidas, siempre que sus caracteres estén en el
    # vocabulario inicial (una «z» nunca vista quedaría fuera: por eso GPT-2 parte de bytes)
    segmentadas = {p: segmentar(p, lista) for p in PALABRAS_NUEVAS}

    # Decodificar las nuevas y las del corpus ya fusionado: una fusión solo une símbolos vecinos,
    # así que la concatenación no cambia nunca (una demostración, no algo que pueda fallar)
    originales = [decodificar(clave.split(" ")) for clave in CORPUS]   # «low», «lower», ...
    decodificadas = {p: decodificar(t) for p, t in segmentadas.items()}
    decodificadas |= {p: decodificar(simbolos) for p, (simbolos, _) in zip(originales, final)}

    # Caracteres del corpus (sin «</w>») por token tras las fusiones: 79 / 28
    caracteres = sum(len(p) * frec for p, frec in zip(originales, CORPUS.values()))

    return {
        "corpus_inicial": dict(CORPUS),
        "fusiones": [list(par) for par in lista],
        "frecuencia_de_cada_fusion": frecuencias,
        "simbolos_en_el_corpus": tamanos,
        "las_frecuencias_no_crecen": all(a >= b for a, b in pairwise(frecuencias)),
        "cada_fusion_ahorra_su_frecuencia": all(
            tamanos[i] - tamanos[i + 1] == frecuencias[i] for i in range(len(frecuencias))
        ),
        "tamano_del_vocabulario": len(iniciales) + len(lista),
        "segmentacion_de_palabras_nuevas": segmentadas,
        "decodificacion": decodificadas,
        "caracteres_por_token": caracteres / tamanos[-1],
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
