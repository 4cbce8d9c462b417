"""The worked example class `compmath init` writes: a small lab with one hole, and its page.

It passes `check`, `lint`, `practice` and `site` as written: the hole has hints, a mutant for
each common error and hidden variants that reject copied numbers. The instructor reads it as
the model of a class, then replaces it (or keeps it as the course's first one).
"""

from __future__ import annotations

import json

SLUG = "media-y-varianza"
TITLE = "Media y varianza muestral"
DEMO = "media_y_varianza"

LAB = '''"""Media y varianza muestral.

    x̄ = (1/n) Σ x_i        s² = Σ (x_i − x̄)² / (n − 1)        s = √s²

El ejemplo trabajado del curso: un laboratorio pequeño, con un hueco para el modo práctica.

Referencia: Welford, B. P., «Note on a Method for Calculating Corrected Sums of Squares and
Products», Technometrics 4(3), 1962 (DOI 10.1080/00401706.1962.10490022).
"""

import numpy as np

DATOS = (2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0)  # el ejemplo fijo: media 5, ocho datos


def varianza_muestral(x: np.ndarray) -> float:
    """s² con el divisor n − 1 (la corrección de Bessel)."""
    n = len(x)
    ### BEGIN SOLUTION
    media = float(np.sum(x)) / n
    s2 = float(np.sum((x - media) ** 2)) / (n - 1)
    ### END SOLUTION
    return s2


def run(escala: float = 1.0, desplazamiento: float = 0.0) -> dict:
    # Los datos del ejemplo, escalados y desplazados: x = escala · DATOS + desplazamiento.
    x = escala * np.array(DATOS) + desplazamiento  # (n,)
    s2 = varianza_muestral(x)
    return {
        "datos": x,
        "media": float(np.mean(x)),
        "varianza_muestral": s2,
        "desviacion_tipica": float(np.sqrt(s2)),
        # numpy calcula lo mismo con ddof=1: la afirmación sale de los números, no es un literal
        "coincide_con_numpy": bool(np.isclose(s2, np.var(x, ddof=1))),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo: pip install -r requirements.txt"
        raise SystemExit(aviso) from None

    main(run)
'''

OUTPUTS: list[tuple[str, str, dict[str, object]]] = [
    (
        "datos",
        "Los datos del ejemplo: escala · (2, 4, 4, 4, 5, 5, 7, 9) + desplazamiento.",
        {"type": "array", "minItems": 2, "items": {"type": "number"}},
    ),
    ("media", "$\\bar x$, la suma de los datos entre $n$.", {"type": "number"}),
    (
        "varianza_muestral",
        "$s^2$, la suma de los cuadrados de las desviaciones entre $n - 1$.",
        {"type": "number", "minimum": 0},
    ),
    (
        "desviacion_tipica",
        "$s = \\sqrt{s^2}$, en las unidades de los datos.",
        {"type": "number", "minimum": 0},
    ),
    (
        "coincide_con_numpy",
        "Verdadero si $s^2$ coincide con `np.var(x, ddof=1)`, la misma fórmula hecha por numpy.",
        {"type": "boolean"},
    ),
]


def class_toml(number: int) -> str:
    """The example's class.toml (valid against the class contract compmath carries)."""
    outputs = "".join(
        f'\n[[salidas]]\nnombre = "{name}"\ndescripcion = {json.dumps(text, ensure_ascii=False)}\n'
        for name, text, _ in OUTPUTS
    )
    return f"""# Ficha de la clase {number}: los campos estructurados de su página. La valida el
# contrato que trae compmath (class.schema.json); compmath lint dice qué falta o sobra.
numero = {number}
titulo = "{TITLE}"
nivel = "inicial"
duracion = "1 hora"
demo = "{DEMO}"
lema = "La varianza mide cuánto se alejan los datos de su media; la muestral divide entre $n - 1$ porque la media ya se estimó con los mismos datos."
que_calcula = "La media, la varianza muestral y la desviación típica de ocho datos fijos (que se pueden escalar y desplazar), y si la varianza coincide con la de numpy."
errores_comunes = [
  "Dividir entre $n$ en lugar de $n - 1$: da la varianza de la población, que con pocos datos subestima la de la muestra.",
  "Sumar los cuadrados de los datos sin restarles antes la media.",
]
donde_se_usa = "En cualquier resumen de datos, en la normalización de las capas de una red (LayerNorm) y en los intervalos de confianza."

[[formulas]]
texto = "x̄ = (1/n) Σ x_i"
latex = '\\bar{{x}} = \\frac{{1}}{{n}} \\sum_{{i=1}}^{{n}} x_i'

[[formulas]]
texto = "s² = Σ (x_i − x̄)² / (n − 1)"
latex = 's^2 = \\frac{{1}}{{n-1}} \\sum_{{i=1}}^{{n}} (x_i - \\bar{{x}})^2'
{outputs}
# El hueco del modo práctica: la región ### BEGIN/END SOLUTION de lab.py. Cada mutante es un
# error común escrito en el hueco: lint exige que alguna variante lo rechace.
[[huecos]]
tarea = "Calcula la media de $x$ y, con ella, la varianza muestral `s2` (divisor $n - 1$)."
salidas = ["varianza_muestral", "desviacion_tipica", "coincide_con_numpy"]
pistas = [
  "Primero la media: la suma de los datos entre $n$.",
  "Resta la media a cada dato, eleva al cuadrado y suma; divide entre $n - 1$, no entre $n$.",
]
mutantes = [
  {{ error = 1, cambia = "/ (n - 1)", por = "/ n", nota = "divisor n" }},
  {{ error = 2, cambia = "(x - media) ** 2", por = "x ** 2", nota = "sin restar la media" }},
]

# Las variantes ocultas: cada hueco se comprueba también con estos parámetros de run(), para
# que un hueco con los números copiados de la instantánea no pase.
[practica]
variantes = [{{ escala = 3.0 }}, {{ escala = 0.5, desplazamiento = -2.0 }}]

[[bibliografia]]
autores = "Welford, B. P."
titulo = "Note on a Method for Calculating Corrected Sums of Squares and Products"
publicacion = "Technometrics 4(3), 419–420"
anio = 1962
doi = "10.1080/00401706.1962.10490022"
nota = "cómo calcular la varianza en una pasada sin perder precisión"
"""


def output_schema(class_id: str, number: int) -> str:
    """The outputs contract of the example lab (the course's own schema)."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://compmath.example/schemas/{class_id}.schema.json",
        "title": f"Salidas del laboratorio {number} — {TITLE}",
        "type": "object",
        "additionalProperties": False,
        "required": [name for name, _, _ in OUTPUTS],
        "properties": {name: rule for name, _, rule in OUTPUTS},
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def readme(number: int) -> str:
    """The example's page prose: the two sections every class has."""
    return f"""# {number} — {TITLE}

## Desarrollo

La media resume dónde están los datos; la varianza, cuánto se alejan de ella. Se restan la
media a cada dato, se elevan al cuadrado las desviaciones (así no se cancelan las de signo
contrario) y se promedian. Con una muestra se divide entre $n - 1$ y no entre $n$: la media se
calculó con los mismos datos y queda más cerca de ellos que la media verdadera, de modo que
las desviaciones salen algo pequeñas; el divisor $n - 1$ (la corrección de Bessel) lo compensa.

La desviación típica, la raíz de la varianza, vuelve a las unidades de los datos. Si los datos
se multiplican por una escala, la desviación típica se multiplica por ella; si se les suma una
constante, no cambia.

## Ejemplo trabajado

Los ocho datos son 2, 4, 4, 4, 5, 5, 7 y 9. Suman 40, así que la media es 40 / 8 = 5. Las
desviaciones son −3, −1, −1, −1, 0, 0, 2 y 4; sus cuadrados suman 9 + 1 + 1 + 1 + 0 + 0 + 4 +
16 = 32. La varianza muestral es $32/7 \\approx 4{{,}}571429$ y la desviación típica,
$\\sqrt{{32/7}} \\approx 2{{,}}13809$.
Dividir entre $n$ daría 32 / 8 = 4: el primero de los errores comunes.

Con `--set escala=3` los datos se triplican: la media pasa a 15 y la varianza se multiplica
por 9 ($\\approx 41{{,}}142857$). Con `--set desplazamiento=100` la media sube a 105 y la varianza no
cambia.
"""
