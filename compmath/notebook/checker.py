"""The notebook's checker, embedded in every notebook after rules.py: the standard library only.

Student-facing like a lab (Spanish names and messages): show the outputs, compare them with the
snapshot embedded in the notebook, judge one hole of the practice variant, draw the matrices when
matplotlib is there. Everything lives in classes, so that the lab's own names (a `TOLERANCIA`,
a `redondear`) and the checker's never overwrite each other in the notebook's one namespace.

A hole is judged by its function alone, never against the course's code (the notebook carries
none): at each variant, the function is called with the arguments the course's lab gave it and
must return (and leave in its arguments) what the course's returned. What it calls of another
hole's function answers as the course's did for those arguments; another hole in the same function
leaves what the course's left for what it received (recording.py made the records).
"""

from __future__ import annotations

import base64
import contextlib
import inspect
import io
import json
import math
import sys
import traceback
import typing
import zlib

from compmath.notebook.rules import Reglas


class Valores:
    """Los valores que graba el laboratorio del curso, como JSON: arrays con su tipo y forma."""

    class Muestra(typing.NamedTuple):
        """Un array grande, grabado en parte: su forma y unos elementos, por su índice plano."""

        forma: list[int]
        indices: list[int]
        valores: list[typing.Any]

    @staticmethod
    def _de_numpy(valor: typing.Any, muestra: int) -> typing.Any:
        """Un array (o escalar) de numpy con su tipo y su forma; con `muestra`, uno grande solo
        por su forma y `muestra` de sus elementos, repartidos por igual."""
        if getattr(valor.dtype, "kind", "") not in "biuf":
            raise TypeError(f"no se puede grabar un array de tipo {valor.dtype}")
        if not hasattr(valor, "shape") or valor.shape == ():
            return {"$": "escalar", "dtype": valor.dtype.str, "v": Valores.cifrar(valor.item())}
        plano = valor.ravel().tolist()
        forma = {"dtype": valor.dtype.str, "forma": list(valor.shape)}
        if 0 < muestra < len(plano):
            paso = (len(plano) - 1) / (muestra - 1)
            indices = sorted({round(i * paso) for i in range(muestra)})
            datos = [Valores.cifrar(plano[i]) for i in indices]
            return {"$": "muestra", **forma, "indices": indices, "v": datos}
        return {"$": "array", **forma, "v": [Valores.cifrar(x) for x in plano]}

    @staticmethod
    def cifrar(valor: typing.Any, muestra: int = 0) -> typing.Any:
        """Un valor como JSON con etiquetas ("$"): tuplas, dicts, arrays y escalares de numpy;
        con `muestra`, un array más grande se graba por su forma y `muestra` elementos."""

        def cifrar(v: typing.Any) -> typing.Any:
            return Valores.cifrar(v, muestra)

        if type(valor).__module__ == "numpy" and hasattr(valor, "dtype"):
            return Valores._de_numpy(valor, muestra)
        if valor is None or isinstance(valor, (bool, int, str)):
            return valor
        if isinstance(valor, float):
            if math.isnan(valor) or math.isinf(valor):
                return {"$": "real", "v": repr(valor)}
            return valor + 0.0  # exacto: JSON escribe el real que se vuelve a leer igual
        if isinstance(valor, list):
            return [cifrar(v) for v in valor]
        if isinstance(valor, tuple):
            return {"$": "tupla", "v": [cifrar(v) for v in valor]}
        if isinstance(valor, dict):
            return {
                "$": "dict",
                "claves": [cifrar(k) for k in valor],
                "v": [cifrar(v) for v in valor.values()],
            }
        raise TypeError(f"no se puede grabar un valor de tipo {type(valor).__name__}")

    @staticmethod
    def descifrar(valor: typing.Any) -> typing.Any:
        """El valor que `cifrar` grabó, nuevo cada vez (numpy, el que importó el laboratorio)."""
        descifrar = Valores.descifrar
        if isinstance(valor, list):
            return [descifrar(v) for v in valor]
        if not isinstance(valor, dict):
            return valor
        etiqueta = valor["$"]
        if etiqueta == "real":
            return float(valor["v"])
        if etiqueta == "tupla":
            return tuple(descifrar(v) for v in valor["v"])
        if etiqueta == "dict":
            return {descifrar(k): descifrar(v) for k, v in zip(valor["claves"], valor["v"])}
        if etiqueta == "muestra":
            datos = [descifrar(v) for v in valor["v"]]
            return Valores.Muestra(valor["forma"], valor["indices"], datos)
        numpy = sys.modules.get("numpy")
        if numpy is None:
            raise RuntimeError("falta numpy: ejecuta antes la celda del preámbulo del laboratorio")
        if etiqueta == "escalar":
            return numpy.dtype(valor["dtype"]).type(descifrar(valor["v"]))
        datos = [descifrar(v) for v in valor["v"]]
        return numpy.array(datos, dtype=valor["dtype"]).reshape(valor["forma"])


class Comprobacion(Reglas, Valores):
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
        tramos: dict[int, dict[str, list[str]]] | None = None,
    ) -> None:
        self.esperado = esperado  # la instantánea (expected.json), salida por salida
        self.decimales = decimales  # los decimales con que el ejecutor redondea
        self.tolerancia = tolerancia  # {"atol": ..., "rtol": ...} de toda la clase
        self.tolerancias = tolerancias  # las salidas con tolerancia propia
        self.huecos = huecos or {}  # práctica: {k: {"funcion": ..., "salidas": [...]}}
        self.variantes = variantes or [{}]  # práctica: los parámetros con que se juzga cada hueco
        self.referencia = referencia  # práctica: lo que da el curso en cada variante, comprimido
        self.tramos = tramos or {}  # práctica: lo que lee y deja un hueco que comparte función
        self._grabado: list[dict[str, typing.Any]] | None = None
        self.sin_grabar: dict[int, list[int]] = {}  # por hueco: variantes sin nada que comparar

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

    class Desvio(Exception):
        """Lo que recibe otro hueco ya no es lo que recibía en el laboratorio del curso."""

    def _grabacion(self) -> list[dict[str, typing.Any]]:
        """Lo que da el laboratorio del curso en cada variante (argumentos y resultados)."""
        if self._grabado is None:
            texto = zlib.decompress(base64.b64decode(self.referencia)).decode("utf-8")
            self._grabado = json.loads(texto)
        return self._grabado

    def _tolerancia_del_hueco(self, k: int) -> dict[str, float]:
        """La tolerancia más holgada de las salidas que alimenta el hueco k."""
        propias = [self.tolerancias.get(s, self.tolerancia) for s in self.huecos[k]["salidas"]]
        propias = propias or [self.tolerancia]
        return {clave: max(t[clave] for t in propias) for clave in ("atol", "rtol")}

    @staticmethod
    def _recortar(esperado: typing.Any, suyo: typing.Any) -> tuple[typing.Any, typing.Any]:
        """Los dos valores con cada array grabado en parte (Muestra) reducido, en los dos, a
        sus elementos grabados; si el del alumno tiene otra forma, las dos formas."""
        recortar = Comprobacion._recortar
        if isinstance(esperado, Valores.Muestra):
            try:
                plano = sys.modules["numpy"].asarray(suyo)
            except Exception:
                return esperado.valores, suyo
            if list(plano.shape) != list(esperado.forma):
                return {"forma": list(esperado.forma)}, {"forma": list(plano.shape)}
            return esperado.valores, plano.ravel()[list(esperado.indices)].tolist()
        listas = isinstance(esperado, (list, tuple)) and isinstance(suyo, (list, tuple))
        if listas and len(esperado) == len(suyo):
            pares = [recortar(e, o) for e, o in zip(esperado, suyo)]
            return [e for e, _ in pares], [o for _, o in pares]
        if isinstance(esperado, dict) and isinstance(suyo, dict):
            parejas = {c: recortar(v, suyo[c]) for c, v in esperado.items() if c in suyo}
            recortado = {c: parejas[c][0] if c in parejas else v for c, v in esperado.items()}
            return recortado, {c: parejas[c][1] if c in parejas else v for c, v in suyo.items()}
        return esperado, suyo

    @staticmethod
    def _finitos(valor: typing.Any) -> typing.Any:
        """El valor con cada real no finito como texto («nan», «inf»): se compara exacto."""
        finitos = Comprobacion._finitos
        if type(valor).__module__ == "numpy" and hasattr(valor, "tolist"):
            valor = valor.tolist()
        if isinstance(valor, float) and (math.isnan(valor) or math.isinf(valor)):
            return repr(valor)
        if isinstance(valor, (list, tuple)):
            return [finitos(v) for v in valor]
        if isinstance(valor, dict):
            return {k: finitos(v) for k, v in valor.items()}
        return valor

    def _distintos(self, a: typing.Any, b: typing.Any, tol: dict[str, float]) -> list[typing.Any]:
        """Las diferencias entre dos valores (una sola, inventada, si no se pueden comparar)."""
        a, b = self._recortar(a, b)
        try:
            esperado = {"valor": self.canonico(self._finitos(a), self.decimales)}
            obtenido = {"valor": self.canonico(self._finitos(b), self.decimales)}
        except ValueError as exc:
            return [Reglas.Diferencia("valor", "tipo", str(exc), None)]
        return self.diferencias(esperado, obtenido, tol, {})

    @staticmethod
    def _orden(total: int, siguiente: list[int]) -> list[int]:
        """Los índices de las llamadas grabadas, desde la que toca (el curso las hizo en este
        orden: una iteración que converge no se confunde con la anterior, casi igual)."""
        return [*range(siguiente[0], total), *range(min(siguiente[0], total))]

    def _sustituta(
        self, nombre: str, propia: typing.Any, grabadas: list[typing.Any], tol: dict[str, float]
    ) -> typing.Any:
        """La función de otro hueco como la del curso: con los argumentos que el curso le dio,
        lo que el curso devolvió; con otros, la del alumno."""
        try:
            firma = inspect.signature(propia)
        except (TypeError, ValueError):
            return propia

        siguiente = [0]  # las llamadas llegan en el orden del curso: la próxima, primero

        def sustituta(*args: typing.Any, **kwargs: typing.Any) -> typing.Any:
            try:
                ligados = firma.bind(*args, **kwargs)
            except TypeError:
                return propia(*args, **kwargs)
            ligados.apply_defaults()
            for i in self._orden(len(grabadas), siguiente):
                dados, devuelve = grabadas[i]
                if not self._distintos(self.descifrar(dados), dict(ligados.arguments), tol):
                    siguiente[0] = i + 1
                    return self.descifrar(devuelve)
            return propia(*args, **kwargs)

        return sustituta

    def _tramo(self, k: int, grabados: dict[str, typing.Any], tol: dict[str, float]) -> typing.Any:
        """Lo que deja otro hueco de la misma función: lo que dejó el del curso al recibir lo
        mismo; si recibe otra cosa, el hueco k la cambió (Desvio)."""

        siguiente: dict[int, list[int]] = {}

        def tramo(j: int, ambito: dict[str, typing.Any]) -> tuple[typing.Any, ...]:
            nombres = self.tramos[j]
            entradas = {n: ambito[n] for n in nombres["entradas"] if n in ambito}
            primera = None
            suyos = grabados.get(str(j), [])
            cursor = siguiente.setdefault(j, [0])
            for i in self._orden(len(suyos), cursor):
                recibido, dejado = suyos[i]
                diferencias = self._distintos(self.descifrar(recibido), entradas, tol)
                if not diferencias:
                    cursor[0] = i + 1
                    valores = self.descifrar(dejado)
                    return tuple(valores.get(n, ambito.get(n)) for n in nombres["salidas"])
                primera = primera or diferencias[0]
            detalle = f" ({self._explicada(primera, 'recibe')})" if primera is not None else ""
            raise Comprobacion.Desvio(
                f"tu hueco {k} cambia lo que recibe el hueco {j}, en la misma función{detalle}"
            )

        return tramo

    @staticmethod
    def _explicada(d: typing.Any, como: str) -> str:
        """Una diferencia dicha por el valor: «frecuencias() devuelve, en [2]: esperado …»."""
        ruta = d.ruta.removeprefix("salida.").removeprefix("valor").removeprefix(".")
        return Reglas.explicar(d._replace(ruta=f"{como}, en {ruta}" if ruta else como))

    def _con_tramos(self, funcion: typing.Any, otros: list[int]) -> str | None:
        """El código de la función del alumno con los otros huecos `otros` cambiados por lo que
        dejan los del curso; None si no se puede leer el código de su celda."""
        try:
            lineas = inspect.getsource(funcion).splitlines()
        except (OSError, TypeError):
            return None
        for j in otros:
            abre = [i for i, t in enumerate(lineas) if t.strip() == f"### HUECO {j} ###"]
            cierra = [i for i, t in enumerate(lineas) if t.strip() == f"### FIN DEL HUECO {j} ###"]
            if not abre or not cierra or abre[0] > cierra[0]:
                return None
            sangria = lineas[abre[0]][: len(lineas[abre[0]]) - len(lineas[abre[0]].lstrip())]
            salidas = "".join(f"{n}, " for n in self.tramos[j]["salidas"])
            destino = f"({salidas}) = " if salidas else ""
            lineas[abre[0] + 1 : cierra[0]] = [f"{sangria}{destino}__tramo__({j}, locals())"]
        return "\n".join(lineas) + "\n"

    @contextlib.contextmanager
    def _aislada(
        self, k: int, funcion: typing.Any, llamada: dict[str, typing.Any]
    ) -> typing.Iterator[typing.Any]:
        """La función del hueco k del alumno, sola: mientras dura, las de los otros huecos (en
        el espacio del cuaderno, también para las funciones que las llaman) y los otros huecos
        de su misma función responden como los del curso en esta llamada."""
        nombre = self.huecos[k]["funcion"]
        tol = self._tolerancia_del_hueco(k)
        espacio = funcion.__globals__
        cambiadas = {}
        for otro in sorted({h["funcion"] for h in self.huecos.values()} - {nombre}):
            if callable(espacio.get(otro)):
                grabadas = llamada["anidadas"].get(otro, [])
                cambiadas[otro] = espacio[otro]
                espacio[otro] = self._sustituta(otro, espacio[otro], grabadas, tol)
        try:
            otros = [j for j, h in self.huecos.items() if h["funcion"] == nombre and j != k]
            texto = self._con_tramos(funcion, otros) if otros else None
            if texto is None:
                yield funcion
            else:
                propio = dict(espacio, __tramo__=self._tramo(k, llamada["tramos"], tol))
                exec(compile(texto, f"<hueco {k}: {nombre}>", "exec"), propio)
                yield propio[nombre]
        finally:
            espacio.update(cambiadas)

    def _llamada(self, k: int, funcion: typing.Any, llamada: dict[str, typing.Any]) -> str:
        """Juzga una llamada grabada: "" si da lo mismo que la del curso, o la diferencia."""
        nombre = self.huecos[k]["funcion"]
        argumentos = self.descifrar(llamada["argumentos"])
        with self._aislada(k, funcion, llamada) as aislada:
            obtenido = aislada(**argumentos)
        pares = [(f"{nombre}() devuelve", self.descifrar(llamada["devuelve"]), obtenido)]
        for clave, despues in llamada["cambia"].items():
            pares.append((f"{nombre}() deja {clave}", self.descifrar(despues), argumentos[clave]))
        for como, esperado, suyo in pares:
            diferencias = self._distintos(esperado, suyo, self._tolerancia_del_hueco(k))
            if diferencias:
                return self._explicada(diferencias[0], como)
        return ""

    def juzgar(self, k: int) -> tuple[str, str, str]:
        """(estado, motivo, prints) del hueco k, juzgado solo: su función con los argumentos que
        le dio el laboratorio del curso, con los parámetros por defecto y con cada variante."""
        nombre = self.huecos[k]["funcion"]
        funcion = globals().get(nombre)
        if funcion is None:
            return "sin definir", f"ejecuta antes la celda que define {nombre}()", ""
        if self._abierto(funcion, k):
            return "sin completar", "", ""
        impreso, juzgadas = "", 0
        self.sin_grabar[k] = [  # las variantes en que el cuaderno no lleva llamada que comparar
            i for i, grabado in enumerate(self._grabacion()) if not grabado.get(nombre)
        ]
        for parametros, grabado in zip(self.variantes, self._grabacion()):
            etiqueta = self._etiqueta(parametros)
            for llamada in grabado.get(nombre, []):
                salida = io.StringIO()
                try:
                    with contextlib.redirect_stdout(salida):
                        diferencia = self._llamada(k, funcion, llamada)
                except Comprobacion.Desvio as desvio:
                    return "mal", f"{etiqueta}: {desvio}", salida.getvalue()
                except Exception as exc:  # el error de un hueco mal escrito: se dice, y sigue
                    return "falla", f"{etiqueta}: {type(exc).__name__}: {exc}", salida.getvalue()
                impreso = impreso or salida.getvalue()
                if diferencia:
                    return "mal", f"{etiqueta}: {diferencia}", salida.getvalue()
                juzgadas += 1
        if not juzgadas:  # nada grabado con qué compararlo: nunca un «bien» sin comprobar
            return "sin comprobar", "el cuaderno no lleva con qué; compmath practice lo juzga", ""
        return "bien", "", impreso

    def hueco(self, k: int) -> bool:
        """Juzga el hueco k como `compmath practice`: bien, mal (en qué variante) o sin hacer."""
        estado, motivo, impreso = self.juzgar(k)
        variantes = len(self.variantes) - 1
        fuera = self.sin_grabar.get(k, [])
        if estado == "bien" and fuera:  # dice lo que comprobó, no más
            dichas = ", ".join(self._etiqueta(self.variantes[i]) for i in fuera)
            print(
                f"✓ hueco {k}: bien (da lo mismo que el laboratorio del curso en "
                f"{len(self.variantes) - len(fuera)} de {len(self.variantes)} conjuntos de "
                f"parámetros; {dichas}: demasiado grande para el cuaderno, compmath practice "
                "lo comprueba)"
            )
        elif estado == "bien":
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
