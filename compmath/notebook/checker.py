"""The notebook's own checker, embedded verbatim in every notebook: numpy and the standard library.

Student-facing like a lab (Spanish names and messages). It repeats the runner's rules without
importing compmath: canonical rounding (judging/encode.py) and the comparison with tolerances
(judging/compare.py); tests/test_notebook_checker.py proves both agree on a table of cases.
The notebook's data cell assigns the names set below; the functions read them when called.
"""

import json
import math
import re
import traceback
from typing import Any, NamedTuple

# La celda de datos del cuaderno los fija; volver a ejecutar esta celda no los borra.
ESPERADO: dict[str, Any] = globals().get("ESPERADO", {})  # la instantánea, salida por salida
DECIMALES: int = globals().get("DECIMALES", 6)  # los decimales con que se redondea
TOLERANCIA: dict[str, float] = globals().get("TOLERANCIA", {"atol": 1e-6, "rtol": 1e-6})
TOLERANCIAS: dict[str, dict[str, float]] = globals().get("TOLERANCIAS", {})  # salidas con la suya
HUECOS: dict[int, dict[str, Any]] = globals().get("HUECOS", {})  # práctica: función y salidas

RUIDO = 1e-12  # |x| por debajo es ruido de coma flotante: cuenta como 0.0
MOSTRADAS = 3  # diferencias que se enseñan por salida
ABIERTO = re.compile(r"hueco (\d+) sin completar")


def redondear(x: float, decimales: int) -> float:
    """Redondea como el ejecutor: decimales fijos; cifras significativas si |x| es pequeño."""
    magnitud = abs(x)
    if magnitud < RUIDO:
        return 0.0
    if magnitud < 10.0 ** -(decimales // 2):
        valor = float(f"{x:.{decimales}g}")
    else:
        valor = round(x, decimales)
    return valor + 0.0  # -0.0 pasa a 0.0


def canonico(valor: Any, decimales: int, ruta: str = "salida") -> Any:
    """Las salidas como datos JSON (arrays de numpy a listas), redondeadas como en expected.json."""
    if type(valor).__module__ == "numpy":
        if not hasattr(valor, "tolist"):
            raise ValueError(f"{ruta}: tipo {type(valor).__name__} no representable en JSON")
        valor = valor.tolist()
    if valor is None or isinstance(valor, (bool, str)):
        return valor
    if isinstance(valor, int):
        return int(valor)
    if isinstance(valor, float):
        if math.isnan(valor) or math.isinf(valor):
            raise ValueError(f"la salida {ruta} es {valor}, que JSON no puede representar")
        return redondear(valor, decimales)
    if isinstance(valor, dict):
        return {str(k): canonico(v, decimales, f"{ruta}.{k}") for k, v in valor.items()}
    if isinstance(valor, (list, tuple)):
        return [canonico(v, decimales, f"{ruta}[{i}]") for i, v in enumerate(valor)]
    raise ValueError(f"{ruta}: tipo {type(valor).__name__} no representable en JSON")


class Diferencia(NamedTuple):
    """Una hoja que no coincide: su ruta, qué cambia, los dos valores, el error y la tolerancia."""

    ruta: str
    tipo: str  # "valor", "tipo", "falta", "sobra" o "longitud"
    esperado: Any
    obtenido: Any
    error: float | None = None
    tolerancia: float | None = None


def _clase(valor: Any) -> str:
    for tipo, nombre in (
        (bool, "booleano"),  # antes que int: un booleano nunca es igual a un entero
        (int, "entero"),
        (float, "real"),
        (str, "texto"),
        (list, "lista"),
        (dict, "objeto"),
    ):
        if isinstance(valor, tipo):
            return nombre
    return "null"


def _recorrer(
    e: Any, o: Any, ruta: str, tol: dict[str, float], propia: bool, fuera: list[Diferencia]
) -> None:
    ce, co = _clase(e), _clase(o)
    if ce != co:  # un booleano nunca es igual a un entero
        fuera.append(Diferencia(ruta, "tipo", e, o))
    elif ce == "objeto":
        for clave in e:
            if clave in o:
                _recorrer(e[clave], o[clave], f"{ruta}.{clave}", tol, propia, fuera)
            else:
                fuera.append(Diferencia(f"{ruta}.{clave}", "falta", e[clave], None))
        fuera += [Diferencia(f"{ruta}.{c}", "sobra", None, o[c]) for c in o if c not in e]
    elif ce == "lista":
        if len(e) != len(o):
            fuera.append(Diferencia(ruta, "longitud", len(e), len(o)))
        else:
            for i, (a, b) in enumerate(zip(e, o)):
                _recorrer(a, b, f"{ruta}[{i}]", tol, propia, fuera)
    elif ce == "real" or (ce == "entero" and propia):  # |o − e| ≤ atol + rtol·|e|
        permitido = tol["atol"] + tol["rtol"] * abs(e)
        if abs(o - e) > permitido:
            fuera.append(Diferencia(ruta, "valor", e, o, abs(o - e), permitido))
    elif e != o:  # enteros, booleanos y textos: exactos
        entero = ce == "entero"
        fuera.append(
            Diferencia(
                ruta, "valor", e, o, float(abs(o - e)) if entero else None, 0.0 if entero else None
            )
        )


def diferencias(
    esperado: dict[str, Any],
    obtenido: dict[str, Any],
    tolerancia: dict[str, float],
    por_salida: dict[str, dict[str, float]],
) -> list[Diferencia]:
    """Todas las diferencias entre la instantánea y las salidas, hoja a hoja, con tolerancias."""
    fuera: list[Diferencia] = []
    for clave, valor in esperado.items():
        if clave not in obtenido:
            fuera.append(Diferencia(f"salida.{clave}", "falta", valor, None))
            continue
        propia = por_salida.get(clave)
        _recorrer(
            valor,
            obtenido[clave],
            f"salida.{clave}",
            propia or tolerancia,
            propia is not None,
            fuera,
        )
    fuera += [
        Diferencia(f"salida.{c}", "sobra", None, v)
        for c, v in obtenido.items()
        if c not in esperado
    ]
    return fuera


def _corto(valor: Any, limite: int) -> str:
    texto = json.dumps(valor, ensure_ascii=False, separators=(", ", ": "))
    return texto if len(texto) <= limite else texto[: limite - 1].rstrip(", ") + "…"


def explicar(d: Diferencia) -> str:
    """Una diferencia en una línea: ruta, esperado, obtenido y cuánto difieren."""
    if d.tipo == "valor" and d.error is not None and d.tolerancia is not None:
        detalle = f"Δ {d.error:.3g}"
        if not isinstance(d.esperado, bool) and d.esperado:
            detalle += f" ({100 * d.error / abs(d.esperado):.3g} %)".replace(".", ",")
        detalle += f" > tolerancia {d.tolerancia:.3g}"
    else:
        detalle = {
            "tipo": "cambia el tipo",
            "falta": "falta en la salida",
            "sobra": "no está en la instantánea",
            "longitud": "cambia la longitud",
            "valor": "valor distinto",
        }[d.tipo]
    return (
        f"{d.ruta}: esperado {_corto(d.esperado, 30)}, "
        f"obtenido {_corto(d.obtenido, 30)} · {detalle}"
    )


def mostrar(salidas: dict[str, Any]) -> None:
    """Imprime cada salida como la guarda la instantánea (la completa está en salidas[nombre])."""
    for nombre, valor in canonico(salidas, DECIMALES).items():
        print(f"{nombre}: {_corto(valor, 110)}")


def comprobar(
    salidas: dict[str, Any] | None, nombres: list[str] | None = None, quien: str = ""
) -> bool:
    """Compara las salidas (o solo `nombres`) con la instantánea y dice cuáles coinciden."""
    if salidas is None:
        print("✗ no hay salidas que comprobar: run() no terminó (mira el mensaje de arriba)")
        return False
    obtenido = canonico(salidas, DECIMALES)
    todas = diferencias(ESPERADO, obtenido, TOLERANCIA, TOLERANCIAS)
    elegidas = nombres or list(dict.fromkeys([*ESPERADO, *obtenido]))
    bien = 0
    for nombre in elegidas:
        suyas = [d for d in todas if re.match(rf"salida\.{re.escape(nombre)}(?![\w])", d.ruta)]
        propia = " (tolerancia propia)" if nombre in TOLERANCIAS else ""
        if not suyas:
            bien += 1
            print(f"  ✓ {nombre}{propia}")
            continue
        print(f"  ✗ {nombre}{propia}")
        for d in suyas[:MOSTRADAS]:
            print(f"      {explicar(d)}")
        if len(suyas) > MOSTRADAS:
            print(f"      … y {len(suyas) - MOSTRADAS} diferencias más")
    orden = nombres is None and set(ESPERADO) == set(obtenido) and list(ESPERADO) != list(obtenido)
    if orden:
        print("  ✗ las salidas llegan en otro orden que en la instantánea: " + ", ".join(ESPERADO))
    cierre = f"{bien}/{len(elegidas)} salidas coinciden con la instantánea"
    print(f"{quien}: {cierre}" if quien else cierre)
    return bien == len(elegidas) and not orden


def ejecutar(run: Any) -> dict[str, Any] | None:
    """Llama a run(); mientras quede un hueco sin completar, lo dice y devuelve None."""
    try:
        salidas: dict[str, Any] = run()
    except NotImplementedError as exc:
        abierto = ABIERTO.search(str(exc))
        if abierto is None:
            raise
        print(f"✗ run() aún no termina: el hueco {abierto.group(1)} está sin completar")
        return None
    except Exception as exc:  # el error de un hueco mal escrito: se enseña, el cuaderno sigue
        traceback.print_exc()
        print(f"✗ run() lanzó {type(exc).__name__}: {exc}")
        return None
    return salidas


def _sin_completar(funcion: Any, k: int) -> bool:
    """Verdadero si la función aún lanza el NotImplementedError del hueco k."""
    codigos, marca = [funcion.__code__], f"hueco {k} sin completar"
    while codigos:
        for constante in codigos.pop().co_consts:
            if isinstance(constante, str) and marca in constante:
                return True
            if hasattr(constante, "co_consts"):
                codigos.append(constante)
    return False


def comprobar_hueco(k: int) -> None:
    """Comprueba las salidas que alimenta el hueco k (sin completar, escrito o hecho)."""
    nombre, salidas = HUECOS[k]["funcion"], HUECOS[k]["salidas"]
    funcion = globals().get(nombre)
    if funcion is None:
        print(f"✗ hueco {k}: ejecuta antes la celda que define {nombre}()")
        return
    if _sin_completar(funcion, k):
        print(
            f"✗ hueco {k} sin completar: escribe tu código entre ### HUECO {k} ### y "
            f"### FIN DEL HUECO {k} ###, y ejecuta esa celda y esta"
        )
        return
    run = globals().get("run")
    if run is None:
        print(
            f"… hueco {k} escrito: sus salidas se comprueban cuando run() esté definida "
            "(ejecuta las celdas de abajo y vuelve a esta)"
        )
        return
    comprobar(ejecutar(run), salidas, f"hueco {k}")


def estado_de_los_huecos() -> None:
    """Dice qué huecos siguen sin completar."""
    for k, hueco in HUECOS.items():
        funcion = globals().get(hueco["funcion"])
        abierto = funcion is None or _sin_completar(funcion, k)
        print(
            f"  {'✗' if abierto else '✓'} hueco {k} ({hueco['funcion']}): "
            f"{'sin completar' if abierto else 'escrito'}"
        )


def _numero(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _matriz(valor: Any) -> tuple[list[str], Any] | None:
    """Etiquetas de fila y tabla, si el valor es una matriz numérica (2 x 2 o más)."""
    import numpy as np

    if isinstance(valor, dict):
        filas = [(str(clave), fila) for clave, fila in valor.items()]
    elif isinstance(valor, list):
        filas = [(str(i), fila) for i, fila in enumerate(valor)]
    else:
        return None
    ancho = len(filas[0][1]) if filas and isinstance(filas[0][1], list) else 0
    if len(filas) < 2 or ancho < 2:
        return None
    for _, fila in filas:
        if not isinstance(fila, list) or len(fila) != ancho or not all(map(_numero, fila)):
            return None
    return [etiqueta for etiqueta, _ in filas], np.array([fila for _, fila in filas], dtype=float)


def matrices(nombre: str, valor: Any) -> list[tuple[str, list[str], Any]]:
    """Las matrices de una salida: ella misma, las de sus claves o las capas de un tensor 3-D."""
    encontrada = _matriz(valor)
    if encontrada is not None:
        return [(nombre, *encontrada)]
    if isinstance(valor, dict):
        return [m for clave, v in valor.items() for m in matrices(f"{nombre}.{clave}", v)]
    capas = [_matriz(v) for v in valor] if isinstance(valor, list) and len(valor) >= 2 else []
    if capas and all(capa is not None for capa in capas):
        return [(f"{nombre}[{i}]", *capa) for i, capa in enumerate(capas) if capa is not None]
    return []


def dibujar_mapas(salidas: dict[str, Any] | None) -> None:
    """Dibuja las matrices como mapas de calor si matplotlib está instalado (si no, nada)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return
    datos = canonico(salidas or {}, DECIMALES)
    for nombre, etiquetas, tabla in [m for n, v in datos.items() for m in matrices(n, v)]:
        figura, ejes = plt.subplots(
            figsize=(min(1 + 0.5 * tabla.shape[1], 9), min(1 + 0.4 * tabla.shape[0], 7))
        )
        imagen = ejes.imshow(tabla, cmap="viridis", aspect="auto")
        ejes.set_title(nombre)
        ejes.set_yticks(range(len(etiquetas)), etiquetas)
        figura.colorbar(imagen, ax=ejes)
        plt.show()
