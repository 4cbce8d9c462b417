"""The notebook's checker, embedded in every notebook after rules.py: the standard library only.

Student-facing like a lab (Spanish names and messages): show the outputs, compare them with the
snapshot embedded in the notebook, judge one hole of the practice variant, draw the matrices when
matplotlib is there. Everything lives in two classes, so that the lab's own names (a `TOLERANCIA`,
a `redondear`) and the checker's never overwrite each other in the notebook's one namespace.
"""

from __future__ import annotations

import base64
import contextlib
import inspect
import io
import traceback
import types
import typing
import zlib

from compmath.notebook.rules import Reglas


class Comprobacion(Reglas):
    """Compara las salidas de run() con la instantánea, como `compmath run`, sin compmath."""

    def __init__(
        self,
        esperado: dict[str, typing.Any],
        decimales: int,
        tolerancia: dict[str, float],
        tolerancias: dict[str, dict[str, float]],
        huecos: dict[int, dict[str, typing.Any]] | None = None,
        variantes: list[dict[str, typing.Any]] | None = None,
        referencia: str = "",
    ) -> None:
        self.esperado = esperado  # la instantánea (expected.json), salida por salida
        self.decimales = decimales  # los decimales con que el ejecutor redondea
        self.tolerancia = tolerancia  # {"atol": ..., "rtol": ...} de toda la clase
        self.tolerancias = tolerancias  # las salidas con tolerancia propia
        self.huecos = huecos or {}  # práctica: {k: {"funcion": ..., "salidas": [...]}}
        self.variantes = variantes or [{}]  # práctica: los parámetros con que se juzga cada hueco
        self.referencia = referencia  # práctica: el laboratorio del curso, comprimido

    def mostrar(self, salidas: dict[str, typing.Any]) -> None:
        """Imprime cada salida como la guarda la instantánea (la completa: salidas[nombre])."""
        for nombre, valor in self.canonico(salidas, self.decimales).items():
            print(f"{nombre}: {self.corto(valor, 110)}")

    def comprobar(
        self,
        salidas: dict[str, typing.Any] | None,
        nombres: list[str] | None = None,
        quien: str = "",
    ) -> bool:
        """Compara las salidas (o solo `nombres`) con la instantánea y dice cuáles coinciden."""
        if salidas is None:
            print("✗ no hay salidas que comprobar: run() no terminó (mira el mensaje de arriba)")
            return False
        obtenido = self.canonico(salidas, self.decimales)
        elegidas = nombres or list(dict.fromkeys([*self.esperado, *obtenido]))
        bien = 0
        for nombre in elegidas:
            suyas = self.de_la_salida(nombre, obtenido)
            propia = " (tolerancia propia)" if nombre in self.tolerancias else ""
            bien += not suyas
            print(f"  {'✗' if suyas else '✓'} {nombre}{propia}")
            for d in suyas[: self.MOSTRADAS]:
                print(f"      {self.explicar(d)}")
            if len(suyas) > self.MOSTRADAS:
                print(f"      … y {len(suyas) - self.MOSTRADAS} diferencias más")
        orden = set(self.esperado) == set(obtenido) and list(self.esperado) != list(obtenido)
        if orden and nombres is None:
            print(
                "  ✗ las salidas llegan en otro orden que en la instantánea: "
                + ", ".join(self.esperado)
            )
        cierre = f"{bien}/{len(elegidas)} salidas coinciden con la instantánea"
        print(f"{quien}: {cierre}" if quien else cierre)
        return bien == len(elegidas) and not (orden and nombres is None)

    def de_la_salida(self, nombre: str, obtenido: dict[str, typing.Any]) -> list[Reglas.Diferencia]:
        """Las diferencias de una salida: se compara ella sola, con su tolerancia."""
        esperada = {nombre: self.esperado[nombre]} if nombre in self.esperado else {}
        suya = {nombre: obtenido[nombre]} if nombre in obtenido else {}
        return self.diferencias(esperada, suya, self.tolerancia, self.tolerancias)

    def ejecutar(
        self, run: typing.Callable[[], dict[str, typing.Any]]
    ) -> dict[str, typing.Any] | None:
        """Llama a run(); si un hueco sigue abierto o el código falla, lo dice y devuelve None."""
        try:
            return run()
        except NotImplementedError:
            abiertos = [k for k in self.huecos if self._sin_completar(k)]
            if not abiertos:
                traceback.print_exc()
                print("✗ run() lanzó NotImplementedError")
                return None
            print(f"✗ run() aún no termina: el hueco {abiertos[0]} está sin completar")
        except Exception as exc:  # el error de un hueco mal escrito: se enseña, el cuaderno sigue
            traceback.print_exc()
            print(f"✗ run() lanzó {type(exc).__name__}: {exc}")
        return None

    @staticmethod
    def _abierto(funcion: typing.Any, k: int) -> bool:
        """Verdadero si la función aún lanza el NotImplementedError del hueco k."""
        codigos, marca = [funcion.__code__], f"hueco {k} sin completar"
        while codigos:
            for constante in codigos.pop().co_consts:
                if isinstance(constante, str) and marca in constante:
                    return True
                if hasattr(constante, "co_consts"):
                    codigos.append(constante)
        return False

    def _sin_completar(self, k: int) -> bool:
        funcion = globals().get(self.huecos[k]["funcion"])
        return funcion is None or self._abierto(funcion, k)

    @staticmethod
    def _etiqueta(parametros: dict[str, typing.Any]) -> str:
        if not parametros:
            return "con los parámetros por defecto"
        return "con " + ", ".join(f"{k} = {v}" for k, v in parametros.items())

    def _laboratorio(self, k: int, funcion: typing.Any) -> dict[str, typing.Any]:
        """El laboratorio del curso con el hueco k del alumno: su región si se puede leer el
        código de su celda; si no, su función entera en lugar de la del curso."""
        lineas = self._texto().splitlines()
        abre = [i for i, t in enumerate(lineas) if t.strip() == f"### HUECO {k} ###"]
        cierra = [i for i, t in enumerate(lineas) if t.strip() == f"### FIN DEL HUECO {k} ###"]
        suyo = None
        try:
            codigo = inspect.getsource(funcion).splitlines()
        except (OSError, TypeError):
            codigo = []
        a = [i for i, t in enumerate(codigo) if t.strip() == f"### HUECO {k} ###"]
        c = [i for i, t in enumerate(codigo) if t.strip() == f"### FIN DEL HUECO {k} ###"]
        if a and c and abre and cierra and a[0] < c[0]:
            propia = codigo[a[0]][: len(codigo[a[0]]) - len(codigo[a[0]].lstrip())]
            curso = lineas[abre[0]][: len(lineas[abre[0]]) - len(lineas[abre[0]].lstrip())]
            suyo = [
                curso + t[len(propia) :] if t.startswith(propia) else t
                for t in codigo[a[0] + 1 : c[0]]
            ]
            lineas[abre[0] + 1 : cierra[0]] = suyo
        modulo: dict[str, typing.Any] = {"__name__": "laboratorio_del_curso"}
        exec(compile("\n".join(lineas) + "\n", "<laboratorio del curso>", "exec"), modulo)
        if suyo is None:  # sin el código de la celda: la función del alumno entera
            nombre = self.huecos[k]["funcion"]
            modulo[nombre] = types.FunctionType(
                funcion.__code__, modulo, nombre, funcion.__defaults__, funcion.__closure__
            )
            modulo[nombre].__kwdefaults__ = funcion.__kwdefaults__
        return modulo

    def _texto(self) -> str:
        """El laboratorio del curso (sus huecos resueltos, entre sus marcas)."""
        return zlib.decompress(base64.b64decode(self.referencia)).decode("utf-8")

    def _referencia(self) -> dict[str, typing.Any]:
        modulo: dict[str, typing.Any] = {"__name__": "laboratorio_del_curso"}
        exec(compile(self._texto(), "<laboratorio del curso>", "exec"), modulo)
        return modulo

    def juzgar(self, k: int) -> tuple[str, str, str]:
        """(estado, motivo, prints) del hueco k, juzgado solo: su código dentro del
        laboratorio del curso, con los parámetros por defecto y con cada variante oculta."""
        nombre = self.huecos[k]["funcion"]
        funcion = globals().get(nombre)
        if funcion is None:
            return "sin definir", f"ejecuta antes la celda que define {nombre}()", ""
        if self._abierto(funcion, k):
            return "sin completar", "", ""
        impreso = ""
        for parametros in self.variantes:
            etiqueta = self._etiqueta(parametros)
            esperado = self.canonico(self._referencia()["run"](**parametros), self.decimales)
            salida = io.StringIO()
            try:
                with contextlib.redirect_stdout(salida):
                    obtenido = self._laboratorio(k, funcion)["run"](**parametros)
                obtenido = self.canonico(obtenido, self.decimales)
            except Exception as exc:  # el error de un hueco mal escrito: se dice, el cuaderno sigue
                return "falla", f"{etiqueta}: {type(exc).__name__}: {exc}", salida.getvalue()
            impreso = impreso or salida.getvalue()
            todas = self.diferencias(esperado, obtenido, self.tolerancia, self.tolerancias)
            if todas:
                orden = list(esperado)
                primera = min(
                    todas, key=lambda d: orden.index(d.salida) if d.salida in orden else len(orden)
                )
                return "mal", f"{etiqueta}: {self.explicar(primera)}", salida.getvalue()
        return "bien", "", impreso

    def hueco(self, k: int) -> bool:
        """Juzga el hueco k como `compmath practice`: bien, mal (en qué variante) o sin hacer."""
        estado, motivo, impreso = self.juzgar(k)
        variantes = len(self.variantes) - 1
        if estado == "bien":
            print(
                f"✓ hueco {k}: bien (da lo mismo que el laboratorio del curso con los parámetros "
                f"por defecto y en {variantes} variante{'s' if variantes != 1 else ''} oculta"
                f"{'s' if variantes != 1 else ''})"
            )
        elif estado == "sin completar":
            print(
                f"✗ hueco {k} sin completar: escribe tu código entre ### HUECO {k} ### y "
                f"### FIN DEL HUECO {k} ###, y ejecuta esa celda y esta"
            )
        else:
            print(f"✗ hueco {k} ({estado}): {motivo}")
        if impreso.strip():
            lineas = impreso.rstrip("\n").splitlines()
            print(f"tus print ({len(lineas)} línea{'s' if len(lineas) != 1 else ''}):")
            for linea in lineas[:20]:
                print(f"  │ {linea}")
            if len(lineas) > 20:
                print(f"  │ … {len(lineas) - 20} más")
        return estado == "bien"

    def estado_de_los_huecos(self) -> None:
        """Dice cómo está cada hueco, juzgado solo (como la celda que lo sigue)."""
        for k, hueco in self.huecos.items():
            estado, motivo, _ = self.juzgar(k)
            marca = {"bien": "✓", "sin completar": "·"}.get(estado, "✗")
            detalle = f" — {motivo}" if motivo else ""
            print(f"  {marca} hueco {k} ({hueco['funcion']}): {estado}{detalle}")

    def mapas(
        self, salidas: dict[str, typing.Any] | None, sin_dibujo: tuple[str, ...] = ()
    ) -> None:
        """Dibuja las matrices como mapas de calor si matplotlib está instalado (si no, nada);
        las salidas de `sin_dibujo` no (class.toml dice que un dibujo de ellas no dice nada)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            return
        datos = self.canonico(salidas or {}, self.decimales)
        datos = {nombre: valor for nombre, valor in datos.items() if nombre not in sin_dibujo}
        for nombre, etiquetas, filas in [m for n, v in datos.items() for m in self.matrices(n, v)]:
            alto, ancho = len(filas), len(filas[0])
            figura, ejes = plt.subplots(figsize=(min(1 + 0.5 * ancho, 9), min(1 + 0.4 * alto, 7)))
            imagen = ejes.imshow(filas, cmap="viridis", aspect="auto")
            ejes.set_title(nombre)
            ejes.set_yticks(range(alto), etiquetas)
            figura.colorbar(imagen, ax=ejes)
            plt.show()
