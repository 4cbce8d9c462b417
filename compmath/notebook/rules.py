"""The runner's rules as the notebook applies them, with the standard library only.

Canonical rounding as base/encode.py does it, the comparison with tolerances as
judging/compare.py does it, a difference worded as the run screen words it, and which outputs are
matrices. Student-facing (Spanish), embedded in every notebook with checker.py, which builds on it;
tests/test_notebook_checker.py proves the rules agree with the runner's on a table of cases.
"""

from __future__ import annotations

import json
import math
import typing


class Reglas:
    """Las reglas del ejecutor: redondear, comparar con tolerancias, explicar una diferencia."""

    RUIDO = 1e-12  # |x| por debajo es ruido de coma flotante: cuenta como 0.0
    MOSTRADAS = 3  # diferencias que se enseñan por salida

    class Diferencia(typing.NamedTuple):
        """Una hoja que no coincide: ruta, qué cambia, los dos valores, error y tolerancia."""

        ruta: str
        tipo: str  # "valor", "tipo", "falta", "sobra" o "longitud"
        esperado: typing.Any
        obtenido: typing.Any
        error: float | None = None
        tolerancia: float | None = None
        salida: str = ""  # la salida de primer nivel donde está la hoja

    @staticmethod
    def redondear(x: float, decimales: int) -> float:
        """Redondea como el ejecutor: decimales fijos; cifras significativas si |x| es pequeño."""
        magnitud = abs(x)
        if magnitud < Reglas.RUIDO:
            return 0.0
        if magnitud < 10.0 ** -(decimales // 2):
            valor = float(f"{x:.{decimales}g}")
        else:
            valor = round(x, decimales)
        return valor + 0.0  # -0.0 pasa a 0.0

    @staticmethod
    def canonico(valor: typing.Any, decimales: int, ruta: str = "salida") -> typing.Any:
        """Las salidas como datos JSON (arrays a listas), redondeadas como en expected.json."""
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
            return Reglas.redondear(valor, decimales)
        canonico = Reglas.canonico
        if isinstance(valor, dict):
            return {str(k): canonico(v, decimales, f"{ruta}.{k}") for k, v in valor.items()}
        if isinstance(valor, (list, tuple)):
            return [canonico(v, decimales, f"{ruta}[{i}]") for i, v in enumerate(valor)]
        raise ValueError(f"{ruta}: tipo {type(valor).__name__} no representable en JSON")

    @staticmethod
    def _clase(valor: typing.Any) -> str:
        tipos = ((bool, "booleano"), (int, "entero"), (float, "real"), (str, "texto"))
        for tipo, nombre in (*tipos, (list, "lista"), (dict, "objeto")):
            if isinstance(valor, tipo):  # bool antes que int: un booleano no es un entero
                return nombre
        return "null"

    @staticmethod
    def diferencias(
        esperado: dict[str, typing.Any],
        obtenido: dict[str, typing.Any],
        tolerancia: dict[str, float],
        por_salida: dict[str, dict[str, float]],
    ) -> list[Reglas.Diferencia]:
        """Todas las diferencias entre instantánea y salidas, hoja a hoja, con tolerancias."""
        fuera: list[Reglas.Diferencia] = []

        def recorrer(
            e: typing.Any, o: typing.Any, ruta: str, tol: dict[str, float], salida: str
        ) -> None:
            propia = salida in por_salida

            def D(
                ruta: str,
                tipo: str,
                e: typing.Any,
                o: typing.Any,
                error: float | None = None,
                tolerancia: float | None = None,
            ) -> None:
                fuera.append(Reglas.Diferencia(ruta, tipo, e, o, error, tolerancia, salida))

            ce, co = Reglas._clase(e), Reglas._clase(o)
            if ce != co:
                D(ruta, "tipo", e, o)
            elif ce == "objeto":
                for clave in e:
                    if clave in o:
                        recorrer(e[clave], o[clave], f"{ruta}.{clave}", tol, salida)
                    else:
                        D(f"{ruta}.{clave}", "falta", e[clave], None)
                for c in o:
                    if c not in e:
                        D(f"{ruta}.{c}", "sobra", None, o[c])
            elif ce == "lista" and len(e) != len(o):
                D(ruta, "longitud", len(e), len(o))
            elif ce == "lista":
                for i, (a, b) in enumerate(zip(e, o)):
                    recorrer(a, b, f"{ruta}[{i}]", tol, salida)
            elif ce == "real" or (ce == "entero" and propia):  # |o − e| ≤ atol + rtol·|e|
                permitido = tol["atol"] + tol["rtol"] * abs(e)
                if abs(o - e) > permitido:
                    D(ruta, "valor", e, o, abs(o - e), permitido)
            elif e != o:  # enteros, booleanos y textos: exactos
                entero = ce == "entero"
                error = float(abs(o - e)) if entero else None
                D(ruta, "valor", e, o, error, 0.0 if entero else None)

        for clave, valor in esperado.items():
            if clave in obtenido:
                tol = por_salida.get(clave, tolerancia)
                recorrer(valor, obtenido[clave], f"salida.{clave}", tol, clave)
            else:
                fuera.append(
                    Reglas.Diferencia(f"salida.{clave}", "falta", valor, None, salida=clave)
                )
        fuera.extend(
            Reglas.Diferencia(f"salida.{c}", "sobra", None, v, salida=c)
            for c, v in obtenido.items()
            if c not in esperado
        )
        return fuera

    @staticmethod
    def corto(valor: typing.Any, limite: int) -> str:
        """Un valor en una línea, como en el JSON; si es largo, una lista o un dict se corta
        entre elementos (nunca dentro de un número) y se marca con …."""

        def linea(v: typing.Any) -> str:
            return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

        texto = linea(valor)
        if len(texto) <= limite:
            return texto
        if not isinstance(valor, (list, dict)):
            return texto[: max(1, limite - 1)] + "…"
        if isinstance(valor, list):
            partes = [linea(v) for v in valor]
        else:
            partes = [f"{linea(k)}: {linea(v)}" for k, v in valor.items()]
        hecho = "[" if isinstance(valor, list) else "{"
        for parte in partes:
            if len(hecho) + len(parte) + 3 > limite and len(hecho) > 1:
                break
            hecho += parte + ", "
        return hecho + "…"

    @staticmethod
    def numero(x: float, cifras: int | None = None) -> str:
        """Un número para leer, como lo escribe el ejecutor (compmath/wording.py, `number`):
        coma decimal y ·10ⁿ para una potencia de diez: 0,841471 · 3,2·10⁻⁵."""
        if isinstance(x, int) and cifras is None:
            return str(x)
        texto = repr(float(x)) if cifras is None else f"{x:.{cifras}g}"
        if texto in ("nan", "inf", "-inf"):
            return {"nan": "NaN", "inf": "∞", "-inf": "-∞"}[texto]
        mantisa, _, potencia = texto.partition("e")
        mantisa = mantisa.replace(".", ",")
        if not potencia:
            return mantisa
        return f"{mantisa}·10" + str(int(potencia)).translate(
            str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
        )

    @staticmethod
    def _hojas(valor: typing.Any) -> int:
        if isinstance(valor, list):
            return sum(Reglas._hojas(v) for v in valor)
        if isinstance(valor, dict):
            return sum(Reglas._hojas(v) for v in valor.values())
        return 1

    @staticmethod
    def texto(valor: typing.Any, limite: int | None = 6) -> str:
        """Un valor en una línea para leer, como el ejecutor (`value_text`): `; ` entre
        elementos, verdadero/falso/nulo, hasta `limite` números y luego … (N)."""
        if isinstance(valor, bool):
            return "verdadero" if valor else "falso"
        if isinstance(valor, (int, float)):
            return Reglas.numero(valor)
        if valor is None:
            return "nulo"
        if not isinstance(valor, (list, dict)):
            return json.dumps(valor, ensure_ascii=False)
        elementos = (
            [("", v) for v in valor]
            if isinstance(valor, list)
            else [(f"{json.dumps(k, ensure_ascii=False)}: ", v) for k, v in valor.items()]
        )
        abre, cierra = ("[", "]") if isinstance(valor, list) else ("{", "}")
        hechos: list[str] = []
        usados = 0
        for k, (clave, elemento) in enumerate(elementos):
            cuantos = Reglas._hojas(elemento)
            if (
                limite is not None
                and usados + cuantos > limite
                and hechos
                and len(elementos) - k > 1
            ):
                return f"{abre}{'; '.join(hechos)}; … ({len(elementos)}){cierra}"
            dentro = None if limite is None else max(limite - usados, 1)
            hechos.append(clave + Reglas.texto(elemento, dentro))
            usados += cuantos
        return f"{abre}{'; '.join(hechos)}{cierra}"

    @staticmethod
    def explicar(d: Reglas.Diferencia) -> str:
        """Una diferencia en una línea, con las palabras de `compmath run`: ruta, esperado,
        obtenido y cuánto difieren (Δ, % y tolerancia)."""
        esperado, obtenido = Reglas.texto(d.esperado), Reglas.texto(d.obtenido)
        if d.tipo == "sobra":
            return f"{d.ruta}: obtenido {obtenido} · no está en la instantánea"
        if d.tipo == "falta":
            return f"{d.ruta}: esperado {esperado} · falta en la salida"
        if d.tipo == "valor" and d.error is not None and d.tolerancia is not None:
            detalle = f"Δ {Reglas.numero(d.error, 6)}"  # las cifras de los valores
            numerico = isinstance(d.esperado, (int, float)) and not isinstance(d.esperado, bool)
            if numerico and d.esperado:
                detalle += f" ({Reglas.numero(100 * d.error / abs(d.esperado), 3)} %)"
            detalle += f" > tolerancia {Reglas.numero(d.tolerancia, 3)}"
        else:
            detalle = {
                "tipo": "cambia el tipo",
                "longitud": "cambia la longitud",
                "valor": "valor distinto",
            }[d.tipo]
        return f"{d.ruta}: esperado {esperado}, obtenido {obtenido} · {detalle}"

    @staticmethod
    def _matriz(valor: typing.Any) -> tuple[list[str], list[list[float]]] | None:
        """Etiquetas y filas, si el valor es una matriz numérica (2 x 2 o más)."""
        if isinstance(valor, dict):
            filas = [(str(clave), fila) for clave, fila in valor.items()]
        elif isinstance(valor, list):
            filas = [(str(i), fila) for i, fila in enumerate(valor)]
        else:
            return None
        ancho = len(filas[0][1]) if filas and isinstance(filas[0][1], list) else 0
        for _, fila in filas:
            if not isinstance(fila, list) or len(fila) != ancho:
                return None
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in fila):
                return None
        if len(filas) < 2 or ancho < 2:
            return None
        return [etiqueta for etiqueta, _ in filas], [fila for _, fila in filas]

    @staticmethod
    def matrices(nombre: str, valor: typing.Any) -> list[tuple[str, list[str], list[list[float]]]]:
        """Las matrices de una salida: ella, las de sus claves o las capas de un tensor 3-D."""
        matriz, matrices = Reglas._matriz(valor), Reglas.matrices
        if matriz is not None:
            return [(nombre, *matriz)]
        if isinstance(valor, dict):
            return [m for clave, v in valor.items() for m in matrices(f"{nombre}.{clave}", v)]
        capas = [Reglas._matriz(v) for v in valor] if isinstance(valor, list) else []
        if len(capas) >= 2 and all(capa is not None for capa in capas):
            return [(f"{nombre}[{i}]", *capa) for i, capa in enumerate(capas) if capa is not None]
        return []
