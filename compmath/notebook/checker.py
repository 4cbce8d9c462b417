"""The notebook's checker, embedded in every notebook after rules.py: the standard library only.

Student-facing like a lab (Spanish names and messages): show the outputs, compare them with the
snapshot embedded in the notebook, judge one hole of the practice variant, draw the matrices when
matplotlib is there. Everything lives in two classes, so that the lab's own names (a `TOLERANCIA`,
a `redondear`) and the checker's never overwrite each other in the notebook's one namespace.
"""

from __future__ import annotations

import re
import traceback
import typing

from compmath.notebook.rules import Reglas


class Comprobacion(Reglas):
    """Compara las salidas de run() con la instantánea, como `compmath run`, sin compmath."""

    ABIERTO = re.compile(r"hueco (\d+) sin completar")

    def __init__(
        self,
        esperado: dict[str, typing.Any],
        decimales: int,
        tolerancia: dict[str, float],
        tolerancias: dict[str, dict[str, float]],
        huecos: dict[int, dict[str, typing.Any]] | None = None,
    ) -> None:
        self.esperado = esperado  # la instantánea (expected.json), salida por salida
        self.decimales = decimales  # los decimales con que el ejecutor redondea
        self.tolerancia = tolerancia  # {"atol": ..., "rtol": ...} de toda la clase
        self.tolerancias = tolerancias  # las salidas con tolerancia propia
        self.huecos = huecos or {}  # práctica: {k: {"funcion": ..., "salidas": [...]}}

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
        except NotImplementedError as exc:
            abierto = self.ABIERTO.search(str(exc))
            if abierto is None:
                raise
            print(f"✗ run() aún no termina: el hueco {abierto.group(1)} está sin completar")
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

    def hueco(self, k: int) -> None:
        """Comprueba las salidas que alimenta el hueco k: sin completar, escrito o hecho."""
        nombre, salidas = self.huecos[k]["funcion"], self.huecos[k]["salidas"]
        funcion, run = globals().get(nombre), globals().get("run")
        if funcion is None:
            print(f"✗ hueco {k}: ejecuta antes la celda que define {nombre}()")
        elif self._abierto(funcion, k):
            print(
                f"✗ hueco {k} sin completar: escribe tu código entre ### HUECO {k} ### y "
                f"### FIN DEL HUECO {k} ###, y ejecuta esa celda y esta"
            )
        elif run is None:
            print(
                f"… hueco {k} escrito: sus salidas se comprueban cuando run() esté definida "
                "(ejecuta las celdas de abajo y vuelve a esta)"
            )
        else:
            self.comprobar(self.ejecutar(run), salidas, f"hueco {k}")

    def estado_de_los_huecos(self) -> None:
        """Dice qué huecos siguen sin completar."""
        for k, hueco in self.huecos.items():
            funcion = globals().get(hueco["funcion"])
            abierto = funcion is None or self._abierto(funcion, k)
            estado = "✗" if abierto else "✓", "sin completar" if abierto else "escrito"
            print(f"  {estado[0]} hueco {k} ({hueco['funcion']}): {estado[1]}")

    def mapas(self, salidas: dict[str, typing.Any] | None) -> None:
        """Dibuja las matrices como mapas de calor si matplotlib está instalado (si no, nada)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            return
        datos = self.canonico(salidas or {}, self.decimales)
        for nombre, etiquetas, filas in [m for n, v in datos.items() for m in self.matrices(n, v)]:
            alto, ancho = len(filas), len(filas[0])
            figura, ejes = plt.subplots(figsize=(min(1 + 0.5 * ancho, 9), min(1 + 0.4 * alto, 7)))
            imagen = ejes.imshow(filas, cmap="viridis", aspect="auto")
            ejes.set_title(nombre)
            ejes.set_yticks(range(alto), etiquetas)
            figura.colorbar(imagen, ax=ejes)
            plt.show()
