"""What the practice notebook's hole checks compare with: the course's lab recorded at each
variant, as values only (never its code).

For every function that holds a hole, the course's lab runs once at each variant (the defaults
and the class's hidden variants) instrumented to keep that function's smallest call (and its
first, when that one is small too): the arguments, what it returns, the arguments it changes
in place, what the other functions with holes return when it calls them, and, where the
function holds another hole, what that hole's region receives and leaves. Reals are kept
exactly (JSON reads back the same float), so a loop that stops when a change falls under a
threshold stops where the course's did. A record above `CALL_CHARACTERS` keeps of each large
array it returns or changes its shape and `SAMPLE` elements; one still above it is dropped
(the notebook then says it cannot check that hole, never «bien»).

The lab runs through the judging pipeline (the sandbox, its limits) like every lab; the
recordings are cached by the class's files and this module, and a lab that fails is a Spanish
error that names the variant.

The same run returns what lint would otherwise run the course's lab again for: its outputs as
its own process writes them, encoded before any replay (`judged_as` judges them as a plain run
is judged: the mutants' oracles, the exercise checks' solution), and each hole's values at the
defaults written as literals (`captured`, for holes.mutation's hand-written holes).
"""

from __future__ import annotations

import ast
import hashlib
import json
import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError

if TYPE_CHECKING:
    from compmath.judging.case import Case
    from compmath.judging.report import LabReport
from compmath.holes.graft import course_lab, course_tag
from compmath.holes.mutation import assigned, by_hole, capture_call, capture_code
from compmath.holes.regions import Region
from compmath.notebook.labcode import lab_cells

CALL_CHARACTERS = 150_000  # one call's record, as JSON; a larger one is dropped
SAMPLE = 256  # a record above CALL_CHARACTERS keeps this many elements of each large array
CACHE_FOLDER = "cuadernos"
# What the instrumented lab returns (not the class's outputs, whose schema would refuse it):
# one schema for every class, checked against the metaschema once
RECORDING_SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {
            "grabacion": {"type": "string"},
            "salidas": {"type": "string"},
            "segundos": {"type": "number"},
            "capturas": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["grabacion", "segundos", "capturas"],
        "additionalProperties": False,
    }
)

RECORDER = """
import copy as __copia__
import inspect as __inspect__
import json as __json__
import time as __tiempo__
import numpy as __np__
__grabacion__ = {"fase": 1, "activa": None, "vistas": {}, "elegidas": {}}


__SIMPLES__ = frozenset((int, float, bool, str, type(None)))  # one element each


def __tamano__(valor):
    tipo = type(valor)
    if tipo in __SIMPLES__:
        return 1
    if tipo is list or tipo is tuple:  # the usual case first, element by element
        total = 1
        for elemento in valor:
            total += 1 if type(elemento) in __SIMPLES__ else __tamano__(elemento)
        return total
    if hasattr(valor, "size") and hasattr(valor, "dtype"):
        return int(valor.size)
    if isinstance(valor, dict):
        return 1 + sum(__tamano__(v) for v in valor.values())
    if isinstance(valor, (list, tuple)):
        return 1 + sum(__tamano__(v) for v in valor)
    return 1


# True only if the two are the same to the last bit, so their encodings are the same too
# (False may still encode alike: the encodings decide)
def __mismo__(antes, despues):
    tipo = type(antes)
    if tipo is not type(despues):
        return False
    if tipo is float:
        return repr(antes) == repr(despues)  # 0.0 and -0.0 are equal, not the same
    if tipo in __SIMPLES__:
        return antes == despues
    if tipo is list or tipo is tuple:
        return len(antes) == len(despues) and all(map(__mismo__, antes, despues))
    if tipo is dict:
        valores = zip(antes.values(), despues.values())
        return list(antes) == list(despues) and all(__mismo__(a, b) for a, b in valores)
    if tipo is __np__.ndarray and antes.dtype.kind in "biufc":
        return (antes.dtype == despues.dtype and antes.shape == despues.shape
                and antes.tobytes() == despues.tobytes())
    return False


def __huella__(cifrados):
    return __json__.dumps(cifrados, sort_keys=True)


def __envuelta__(nombre, funcion):
    firma = __inspect__.signature(funcion)
    parametros = list(firma.parameters.values())
    # a call's size without binding it, when every parameter is a plain one: the wrapper of a
    # function called thousands of times (332's reverse steps) then costs a loop, not a bind
    llano = all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parametros)
    nombres = [p.name for p in parametros]
    defectos = {p.name: p.default for p in parametros if p.default is not p.empty}

    def ligar(args, kwargs):
        ligados = firma.bind(*args, **kwargs)
        ligados.apply_defaults()
        return dict(ligados.arguments)

    def medida(args, kwargs):
        resto = nombres[len(args):]
        if llano and len(args) <= len(nombres) and all(k in resto for k in kwargs):
            if all(n in kwargs or n in defectos for n in resto):
                total = 1  # the bound arguments' dict, as __tamano__ counts it
                for valor in args:
                    total += 1 if type(valor) in __SIMPLES__ else __tamano__(valor)
                for n in resto:
                    total += __tamano__(kwargs[n] if n in kwargs else defectos[n])
                return total
        return __tamano__(ligar(args, kwargs))

    def envuelta(*args, **kwargs):
        estado = __grabacion__
        if estado["fase"] == 1:
            vista = estado["vistas"].setdefault(nombre, 0)
            estado["vistas"][nombre] = vista + 1
            tamano = medida(args, kwargs)
            elegidas = estado["elegidas"].setdefault(nombre, {})
            pequena = elegidas.get("pequena")
            # Each counted element takes at least a character of the record's JSON: a call
            # whose arguments pass a record's limit would be dropped, so it is not copied
            # (the first call keeps its tenth of the limit, the smallest the whole)
            primera = vista == 0 and tamano <= __LIMITE__ // 10
            nueva = pequena is None or tamano < pequena[0]
            if primera or nueva:
                cabe = tamano <= __LIMITE__
                cifrados = Valores.cifrar(ligar(args, kwargs)) if cabe else None
                if primera:
                    elegidas["primera"] = (tamano, cifrados)
                if nueva:
                    elegidas["pequena"] = (tamano, cifrados)
            return funcion(*args, **kwargs)
        activa = estado["activa"]
        if activa is None or nombre == activa["funcion"]:
            return funcion(*args, **kwargs)
        dados = Valores.cifrar(ligar(args, kwargs))
        devuelve = funcion(*args, **kwargs)
        activa["anidadas"].setdefault(nombre, []).append([dados, Valores.cifrar(devuelve)])
        return devuelve

    return envuelta


def __tramo_entra__(numero, ambito):
    activa = __grabacion__["activa"]
    if activa is not None and numero in activa["propios"]:
        entradas = {n: ambito[n] for n in __TRAMOS__[numero]["entradas"] if n in ambito}
        activa["tramos"].setdefault(str(numero), []).append([Valores.cifrar(entradas), None])


def __tramo_sale__(numero, ambito):
    activa = __grabacion__["activa"]
    if activa is not None and numero in activa["propios"]:
        salidas = {n: ambito[n] for n in __TRAMOS__[numero]["salidas"] if n in ambito}
        activa["tramos"][str(numero)][-1][1] = Valores.cifrar(salidas)


for __nombre__ in __DUENOS__:
    globals()[__nombre__ + "__del_curso__"] = globals()[__nombre__]
    globals()[__nombre__] = __envuelta__(__nombre__, globals()[__nombre__])
__run_del_curso__ = run


def run(**parametros):
    estado = __grabacion__
    estado["fase"] = 1
    if parametros:  # the holes' values are captured at the defaults only
        __por_capturar__.clear()
    comienzo = __tiempo__.perf_counter()
    salidas = __run_del_curso__(**parametros)
    segundos = __tiempo__.perf_counter() - comienzo
    __por_capturar__.clear()  # nor in the replays
    try:  # the outputs as a lab's own process writes them, before a replay can touch them
        from compmath.base.encode import canonical_json

        texto = canonical_json(salidas, __DECIMALES__)
        texto.encode("utf-8")
    except Exception:
        texto = None
    estado["fase"] = 2
    grabadas = {}
    for nombre in sorted(__DUENOS__):
        original = globals()[nombre + "__del_curso__"]
        elegidas = estado["elegidas"].get(nombre, {})
        llamadas, vistos = [], []
        for cual in ("pequena", "primera"):
            if cual not in elegidas or elegidas[cual][1] is None:
                continue
            cifrados = elegidas[cual][1]
            if any(visto is cifrados for visto in vistos):
                continue  # the first call was the smallest too: recorded once
            if any(__huella__(visto) == __huella__(cifrados) for visto in vistos):
                continue  # another call with the same arguments
            vistos.append(cifrados)
            argumentos = Valores.descifrar(cifrados)
            try:  # a copy, encoded only if the call changed the argument
                antes, copiados = __copia__.deepcopy(argumentos), True
            except Exception:  # what cannot be copied is encoded before the call
                antes = {clave: Valores.cifrar(valor) for clave, valor in argumentos.items()}
                copiados = False
            propios = set(__DUENOS__[nombre]) if len(__DUENOS__[nombre]) > 1 else set()
            estado["activa"] = {"funcion": nombre, "anidadas": {}, "tramos": {}, "propios": propios}
            devuelve = original(**argumentos)
            activa, estado["activa"] = estado["activa"], None
            cambia = {}
            for clave, valor in argumentos.items():
                if copiados and __mismo__(antes[clave], valor):
                    continue
                despues = Valores.cifrar(valor)
                if despues != (Valores.cifrar(antes[clave]) if copiados else antes[clave]):
                    cambia[clave] = despues
            # what it returns counted past the limit is past it as JSON too: sampled at once
            grande = __tamano__(devuelve) > __LIMITE__
            registro = {
                "argumentos": cifrados,
                "devuelve": None if grande else Valores.cifrar(devuelve),
                "cambia": cambia,
                "anidadas": activa["anidadas"],
                "tramos": activa["tramos"],
            }
            if grande or len(__json__.dumps(registro)) > __LIMITE__:  # big arrays: a sample
                registro["devuelve"] = Valores.cifrar(devuelve, __MUESTRA__)
                registro["cambia"] = {
                    clave: Valores.cifrar(argumentos[clave], __MUESTRA__) for clave in cambia
                }
            limite = __LIMITE__ if cual == "pequena" else __LIMITE__ // 10
            if len(__json__.dumps(registro)) <= limite:
                llamadas.append(registro)
        grabadas[nombre] = llamadas
    resultado = {
        "grabacion": __json__.dumps(grabadas, sort_keys=True, separators=(",", ":")),
        "segundos": segundos,
        "capturas": {f"hueco_{k}": valores for k, valores in __capturas__.items()},
    }
    if texto is not None:
        resultado["salidas"] = texto
    return resultado
"""


def _loaded(region: Region) -> list[str]:
    """The names a region reads (what its replay is matched by)."""
    tree = parse(textwrap.dedent("\n".join(region.body)))
    names = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return sorted(names)


def owners(cls: ClassInfo) -> dict[str, list[int]]:
    """Each function that holds a hole, with its holes' numbers (from the exercise's cells)."""
    lab = course_lab(cls)
    found: dict[str, list[int]] = {}
    for cell in lab_cells(lab.exercise):
        for number in cell.holes:
            found.setdefault(cell.name, []).append(number)
    return found


def regions(cls: ClassInfo) -> dict[int, dict[str, list[str]]]:
    """For each hole that shares its function with another: the names its region reads
    (`entradas`) and binds or changes (`salidas`), for the notebook to replay it."""
    lab = course_lab(cls)
    shared = {n for holes in owners(cls).values() if len(holes) > 1 for n in holes}
    return {
        r.number: {"entradas": _loaded(r), "salidas": assigned(r)}
        for r in lab.regions
        if r.number in shared
    }


def recording_source(cls: ClassInfo) -> str:
    """The course's lab, instrumented: its run(**parameters) returns the recordings as text."""
    from compmath.notebook.toolcode import class_source

    lab = course_lab(cls)
    lines = list(lab.lines)
    replayed = regions(cls)  # a hole alone in its function is recorded by its calls only
    for region in reversed(lab.regions):
        # what the region leaves, the first time it ends at the defaults (holes.mutation)
        lines.insert(region.end, capture_call(region))
        if region.number not in replayed:
            continue
        lines.insert(region.end, f"{region.indent}__tramo_sale__({region.number}, locals())")
        lines.insert(region.begin + 1, f"{region.indent}__tramo_entra__({region.number}, locals())")
    config = (
        f"__DUENOS__ = {owners(cls)!r}\n__TRAMOS__ = {replayed!r}\n"
        f"__LIMITE__ = {CALL_CHARACTERS!r}\n__MUESTRA__ = {SAMPLE!r}\n"
        f"__DECIMALES__ = {cls.meta.decimals!r}\n"
    )
    codec = "import math\nimport sys\nimport typing\n\n\n" + class_source("Valores")
    captures = capture_code(list(lab.regions))
    return "\n".join(lines) + "\n\n" + codec + "\n\n" + config + captures + RECORDER


def _cache_path(cls: ClassInfo) -> Path:
    from compmath import __version__
    from compmath.cache import cache_dir
    from compmath.notebook.toolcode import class_source

    digest = hashlib.sha256(
        "\0".join([__version__, course_tag(cls), RECORDER, class_source("Valores")]).encode()
    )
    return cache_dir() / CACHE_FOLDER / f"{cls.id}-{digest.hexdigest()[:20]}.json"


def _cached(cls: ClassInfo, variants: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    from compmath.cache import read_json

    cached = _cache_path(cls)
    found = read_json(str(cached.relative_to(cached.parent.parent)))
    return found if isinstance(found, list) and len(found) == len(variants) else None


def _keep(cls: ClassInfo, made: list[dict[str, Any]]) -> None:
    try:
        from compmath.atomic import write_atomic

        cached = _cache_path(cls)
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cached, json.dumps(made, sort_keys=True), durable=False)
    except OSError:
        pass  # an unwritable cache only costs time


def recordings(cls: ClassInfo, variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recordings of the course's lab at each of `variants` (in order), from the cache or
    run now; CompmathError when the course's lab fails at one of them."""
    found = _cached(cls, variants)
    if found is not None:
        return found
    made = _record(cls, variants)
    _keep(cls, made)
    return made


def record_all(wanted: list[tuple[ClassInfo, list[dict[str, Any]]]]) -> dict[str, LabReport]:
    """Record, in one run over every core, each (class, variants) the cache lacks, and keep
    what recorded (a class whose lab fails is left to `recordings`, which says why): lint
    building every class's notebook on a cold cache waits for no class's labs alone. The
    runs' reports by `run_key` (for lint's mutants: see `lab_outputs` and `captured`); none
    for a class found in the cache."""
    import os

    from compmath.judging.pipeline import judge_cases

    pending = []
    with tempfile.TemporaryDirectory(prefix="compmath-cuaderno-") as folder:
        cases: list[Case] = []
        for cls, variants in wanted:
            if _cached(cls, variants) is not None:
                continue
            try:
                cases += _cases(cls, variants, Path(folder) / cls.id)
            except (CompmathError, OSError, SyntaxError, ValueError):
                continue  # `recordings` says why, class by class
            pending.append((cls, variants))
        if not cases:
            return {}
        # one lab process each: a recording runs the whole lab, instrumented, and its bytecode
        # is cached for the class's other variants (several to a batch's process, each one
        # compiled again and its result written twice, cost some 10 % more CPU in alternated
        # runs); every class's at once keeps each core busy to the end
        reports = judge_cases(cases, jobs=os.cpu_count() or 1).result().by_key()
    for cls, variants in pending:
        try:
            made = _made(cls, variants, [reports[run_key(cls, i)] for i in range(len(variants))])
        except (CompmathError, KeyError):
            continue
        _keep(cls, made)
    return reports


def run_key(cls: ClassInfo, index: int) -> str:
    """The key of the instrumented run of `cls` at its `index`-th variant."""
    return f"grabacion/{cls.id}/{index}"


def lab_outputs(report: LabReport) -> tuple[str, float] | None:
    """What the course's lab gave in an instrumented run: its outputs as its own process writes
    them (canonical JSON, the class's decimals) and the seconds its run() took; None if it
    gave none the run could encode."""
    from compmath.judging.report import Outcome

    found = report.outputs if report.outcome == Outcome.EXPLORATION else None
    text, seconds = (found or {}).get("salidas"), (found or {}).get("segundos")
    if isinstance(text, str) and isinstance(seconds, (int, float)):
        return text, float(seconds)
    return None


def judged_as(case: Case, report: LabReport | None) -> LabReport | None:
    """The report `case` (the course's lab as some check runs it: its oracle, its parameters,
    its limit) gets when judged from what the instrumented run `report` gave at the same
    parameters: the outputs its own process would have written and its run()'s time. None when
    that run gave no outputs, or took longer than the case allows (the case then runs)."""
    from compmath.execution.protocol import LabReply, ReplyState
    from compmath.judging.case import Ready
    from compmath.judging.judge import judge

    found = lab_outputs(report) if report is not None else None
    if report is None or found is None or not isinstance(case, Ready):
        return None
    text, seconds = found
    if report.duration > case.request.timeout:
        return None
    reply = LabReply(
        key=case.key,
        state=ReplyState.OK,
        output=text,
        run_seconds=seconds,
        total_seconds=report.duration,
    )
    return judge(case, reply)


def captured(report: LabReport) -> dict[int, tuple[str, ...]]:
    """Each hole's values at the defaults, written as Python literals (holes.mutation), from
    the instrumented run at the defaults."""
    found = (report.outputs or {}).get("capturas")
    return by_hole(found) if isinstance(found, dict) else {}


def _cases(cls: ClassInfo, variants: list[dict[str, Any]], folder: Path) -> list[Case]:
    """The instrumented lab of `cls` at each variant, written into `folder`."""
    from compmath.course.tree import load_course
    from compmath.judging.case import Broken, Explore, prepare, variant

    base = prepare(load_course(cls.root), cls)
    if isinstance(base, Broken):
        raise base.problem
    lab = folder / "lab.py"
    folder.mkdir(parents=True, exist_ok=True)
    lab.write_text(recording_source(cls), encoding="utf-8")
    return [
        replace(
            variant(base, key=run_key(cls, i), lab=lab, params=dict(p), expected=Explore()),
            schema=(RECORDING_SCHEMA, json.loads(RECORDING_SCHEMA)),
        )
        for i, p in enumerate(variants)
    ]


def _record(cls: ClassInfo, variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import os

    from compmath.judging.pipeline import judge_cases

    with tempfile.TemporaryDirectory(prefix="compmath-cuaderno-") as folder:
        cases = _cases(cls, variants, Path(folder))
        # the instrumented lab returns its recordings as text (RECORDING_SCHEMA); the variants
        # side by side
        reports = judge_cases(cases, jobs=os.cpu_count() or 1).result().reports
    return _made(cls, variants, reports)


def _made(
    cls: ClassInfo, variants: list[dict[str, Any]], reports: list[LabReport]
) -> list[dict[str, Any]]:
    """The recordings in `reports`; CompmathError naming the first variant that failed."""
    made = []
    for params, report in zip(variants, reports):
        text = (report.outputs or {}).get("grabacion")
        if not isinstance(text, str):
            shown = ", ".join(f"{k} = {v}" for k, v in params.items()) or "por defecto"
            raise CompmathError(
                f"el laboratorio de {cls.id} falla con los parámetros {shown} al grabar lo que "
                f"compara el cuaderno: {report.full_message}",
                f"compruébalo con: compmath lint {cls.number}",
            )
        made.append(json.loads(text))
    return made
