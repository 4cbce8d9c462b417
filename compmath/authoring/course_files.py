"""The files `compmath init` writes around the classes: curso.toml, part.toml, README, CI.

The workflows follow this repository's own (.github/workflows): every action pinned by its
commit, no credentials kept by a checkout, a token that can only read unless a job needs more,
inputs passed through the environment, never interpolated into a script.
"""

from __future__ import annotations

import json

from compmath.course.workflows import (
    CHECKOUT,
    NAMESPACES_STEP,
    RUNNER,
    SETUP_PYTHON,
    UPLOAD,
    setup_steps,
    shards_workflow,
)

UPLOAD_PAGES = "actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9  # v5.0.0"
DEPLOY_PAGES = "actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128  # v5.0.0"

SETUP = setup_steps("pip install -r requirements.txt", "Instalar compmath")


def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes)."""
    return json.dumps(text, ensure_ascii=False)


def course_toml(title: str) -> str:
    return f"""# El curso entero: su nombre, su idioma y dónde vive. La web (compmath site) y los cuadernos
# (compmath notebook) lo usan; lo valida el contrato que trae compmath (course.schema.json).
titulo = {toml_string(title)}
idioma = "es"
# La dirección del repositorio público del curso (GitHub) y su rama: con ellas, cada página
# enlaza su cuaderno en Colab.
# repositorio = "https://github.com/ORGANIZACION/REPOSITORIO"
# rama = "main"
# Los laboratorios importan numpy y la biblioteca estándar; lo que el curso añada, aquí:
# importaciones_permitidas = ["scipy"]
"""


def part_toml(number: int, title: str, first: int, slug: str, class_title: str, demo: str) -> str:
    return f"""# Parte {number}: sus datos y su plan de clases (el índice y los enlaces se derivan de aquí).
numero = {number}
titulo = {toml_string(title)}
nivel = "inicial"
duracion = "1 hora"
idea_rectora = "Cada cálculo se hace en un ejemplo pequeño, a mano, y se comprueba por una segunda vía."
error_a_evitar = "Aplicar una fórmula sin fijar antes sus convenciones: qué divisor, qué índices, qué unidades."
conexion_con_ia = "Las mismas cuentas, a otra escala, son las que hacen los modelos que se entrenan con datos."

[[plan]]
numero = {first}
slug = "{slug}"
titulo = {toml_string(class_title)}
demo = "{demo}"
"""


def course_readme(title: str, first: int) -> str:
    return f"""# {title}

Un curso con laboratorios en Python que se comprueban solos: cada clase tiene su página, sus
fórmulas y un laboratorio cuyas salidas se comparan con una instantánea revisada.

## Instalar

Con Python 3.11 o posterior, en la carpeta del curso:

```
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt
```

## Estudiar

```
compmath list                  # las clases, por parte
compmath show {first}              # la página de una clase
compmath run {first}               # su laboratorio, frente a la instantánea
compmath run {first} --set escala=3  # explorar con otros parámetros
```

## Practicar

```
compmath practice start ../mi-practica   # los ejercicios, fuera de esta carpeta
cd ../mi-practica && compmath practice   # comprueba cada vez que guardas
```

Cada ejercicio es el laboratorio de una clase con huecos; `compmath practice` dice qué hueco
falla, con qué salida, y ofrece pistas.

## Entregar

```
cd ../mi-practica && compmath practice entregar   # TU_ID.zip, junto a la carpeta de práctica
```

El `.zip` es lo que leerá la corrección: la orden vuelve a comprobar los huecos, dice qué contará
y qué no (código fuera de los huecos, clases sin empezar) y escribe su SHA-256, que la corrección
anota en tu informe. Súbelo donde diga tu profesor.
"""


GITIGNORE = """# lo que compmath y Python escriben y no se sube
__pycache__/
*.pyc
.venv/
_site/
notas/
notas-*/
"""


def requirements(version: str) -> str:
    return f"""# compmath, fijado: el mismo ejecutor en cada máquina y en CI. Si lo instalas desde git o
# desde una rueda, cambia esta línea, p. ej.:
#   compmath @ git+https://github.com/ORGANIZACION/compmath@v{version}
compmath=={version}
"""


LABS_WORKFLOW = f"""# CI del curso: cada laboratorio frente a su instantánea, la integridad del curso (compmath
# lint) y, en un pull request, qué instantáneas cambian frente a la rama destino.
name: labs

on:
  push:
  pull_request:

permissions: {{}}  # nothing by default; each job asks for what it needs

concurrency:
  group: ${{{{ github.workflow }}}}-${{{{ github.ref }}}}
  cancel-in-progress: ${{{{ github.event_name == 'pull_request' }}}}

jobs:
  check:
    runs-on: {RUNNER}
    permissions:
      contents: read  # check out the repository
    env:
      CI: "true"
    steps:
{SETUP}{NAMESPACES_STEP}
      - name: Comprobar los laboratorios
        run: compmath check --junit-xml informe-labs.xml
      - name: Con todas las protecciones
        run: >-
          python -c "import sys, xml.etree.ElementTree as t;
          m = [p.get('value') for p in t.parse('informe-labs.xml').iter('property')
          if p.get('name') == 'protecciones_ausentes' and p.get('value')];
          sys.exit('faltan protecciones: ' + ', '.join(m) if m else 0)"
      - name: Integridad del curso
        run: compmath lint
      - name: Publicar el informe JUnit
        if: always()
        uses: {UPLOAD}
        with:
          name: informe-labs
          path: informe-labs.xml

  instantaneas:
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    permissions:
      contents: read  # check out the repository and its history
    steps:
      - uses: {CHECKOUT}
        with:
          fetch-depth: 0  # the base branch's history, for origin/<base>
          persist-credentials: false
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.11"
      - name: Instalar compmath
        run: pip install -r requirements.txt
      - name: Cambios de instantáneas
        env:
          BASE_REF: ${{{{ github.base_ref }}}}  # via env, not interpolated into the script
        run: compmath diff --base "origin/$BASE_REF" --format markdown >> "$GITHUB_STEP_SUMMARY"
"""

SITE_WORKFLOW = f"""# La web del curso: compmath site la construye (cada laboratorio verificado: una instantánea
# desactualizada la hace fallar) y main la publica en GitHub Pages (actívalo en Settings → Pages
# → GitHub Actions).
name: web

on:
  push:
    branches: [main]
  pull_request:
  workflow_dispatch:

permissions: {{}}

concurrency:
  group: web-${{{{ github.ref }}}}
  cancel-in-progress: true

jobs:
  construir:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    env:
      CI: "true"
    steps:
{SETUP}      - name: Construir la web
        run: compmath site --out _site
      - name: La web, para GitHub Pages
        uses: {UPLOAD_PAGES}
        with:
          path: _site

  publicar:
    if: github.event_name != 'pull_request' && github.ref == 'refs/heads/main'
    needs: construir
    runs-on: ubuntu-latest
    permissions:
      pages: write  # deploy to GitHub Pages
      id-token: write  # the OIDC token deploy-pages proves itself with
    environment:
      name: github-pages
      url: ${{{{ steps.despliegue.outputs.page_url }}}}
    steps:
      - id: despliegue
        uses: {DEPLOY_PAGES}
"""

# the grading in 4 shards, as this repository's corregir.yml, installing as the course does
GRADE_WORKFLOW = shards_workflow(4, "pip install -r requirements.txt")

WORKFLOWS = {"labs.yml": LABS_WORKFLOW, "web.yml": SITE_WORKFLOW, "corregir.yml": GRADE_WORKFLOW}
