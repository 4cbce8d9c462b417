"""`compmath site`: the course as a static website, numbers verified at build time (no browser
here: tests/test_site_browser.py drives Chromium over the real course's site)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.mathtext import tex_plain
from compmath.site.charts import chart_html, series_of
from compmath.site.markdown import markdown_html
from compmath.site.mathml import LatexError, to_mathml
from compmath.site.mathml_compact import unquote_math
from compmath.site.search import entry, fold, index_script
from compmath.site.sentences import plain_sentences, script_name, sentence_runs, sentences_script
from tests.conftest import FAKE_PART, REPO

README_901 = """# 901 — Un laboratorio que pasa

## Desarrollo

La mitad de $n$ es $\\frac{n}{2}$; cuesta $5 y $10 (eso es prosa). El símbolo «t </w>» es texto.

## Ejemplo trabajado

Con cuatro términos sale 2.
"""
CLASS_901 = ("Fórmulas", "Desarrollo", "Ejemplo trabajado", "Qué calcula el laboratorio",
             "Salidas del laboratorio (3)", "Muestra de la ejecución real", "Errores comunes",
             "Dónde se usa", "Ideas de la parte", "Bibliografía de la clase",
             "Archivos de la clase")  # fmt: skip


def small_course(root: Path, keep: tuple[str, ...] = ("901-pasa",)) -> Path:
    """The fake course with only the labs in `keep` (the rest of its plan stays, as pending)."""
    part = root / "classes" / FAKE_PART
    for folder in part.iterdir():
        if folder.is_dir() and folder.name not in keep:
            shutil.rmtree(folder)
    (part / "901-pasa" / "README.md").write_text(README_901, encoding="utf-8")
    return root


@pytest.fixture
def course(fake_course: Path) -> Path:
    return small_course(fake_course)


def page_901(out: Path) -> str:
    return (out / "clases" / "901-pasa.html").read_text(encoding="utf-8")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_builds_every_page_of_a_course(cli, course: Path, tmp_path: Path) -> None:
    out = tmp_path / "web"
    result = cli("site", "--root", str(course), "--out", str(out))
    assert result.code == 0, result.out + result.err
    assert "1 de 1 clase verificada (1 ejecutada ahora)" in result.out
    assert "Traceback" not in result.out + result.err
    for name in ("index.html", "buscar.html", "parte-90.html", "clases/901-pasa.html",
                 "clases/901-pasa/lab.py.html", "clases/901-pasa/expected.json.html",
                 "assets/estilo.css", "assets/buscar.js", "assets/indice-busqueda.js",
                 "assets/fonts/stixtwo-math.woff2", "assets/fonts/LICENSE-stixtwo-math.txt"):  # fmt: skip
        assert (out / name).is_file(), name
    html = page_901(out)
    assert '<html lang="es">' in html
    headings = re.findall(r'<h2 id="[^"]+">([^<]+)</h2>', html)
    assert headings == list(CLASS_901)  # every section, in the seed page's order
    assert "Números verificados: el laboratorio se ejecutó el" in html
    assert "<math display=block>" in html  # the formula's LaTeX, as MathML (unquoted: HTML)
    assert "<mfrac><mi>n</mi><mn>2</mn></mfrac>" in html  # $…$ in the prose
    assert "cuesta $5 y $10" in html and "«t &lt;/w&gt;»" in html
    assert 'href="../parte-90.html"' in html and 'href="../index.html"' in html
    assert 'href="../clases/901-pasa/lab.py.html"' in html
    assert 'role="img"' in html and "Ver los datos como tabla" in html  # the vector's chart
    assert not re.search(r'(src|href)="(https?:)?//', html.replace('href="https://doi.org/', ""))


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_part_and_home_pages_show_plan_and_status(cli, course: Path, tmp_path: Path) -> None:
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    part = (out / "parte-90.html").read_text(encoding="utf-8")
    assert "Un laboratorio que falla es un resultado" in part  # guiding idea
    assert "Confiar en una instantánea" in part and "Ninguna: es el curso de prueba" in part
    assert re.search(r"<td>909</td>\s*<td>Una clase aún sin escribir</td>", part)
    assert part.count(">pendiente</td>") == 8  # 902-909 are planned without a folder here
    home = (out / "index.html").read_text(encoding="utf-8")
    assert re.search(r"verificada \(\d{4}-\d\d-\d\d\)", home)
    assert "1 de 1 clase con los números verificados" in home


@pytest.mark.lento  # seconds: out of the quick loop
def test_a_stale_lab_fails_the_build_and_is_named(cli, fake_course: Path, tmp_path: Path) -> None:
    course = small_course(fake_course, ("901-pasa", "904-deriva"))
    out = tmp_path / "web"
    result = cli("site", "--root", str(course), "--out", str(out))
    assert result.code == 1
    assert "904-deriva: 1 diferencia; la primera en salida.mitad" in result.out
    assert "1 clase no coincide con su instantánea: la web no se ha escrito" in result.out
    assert "--allow-stale" in result.out
    assert not out.exists()

    result = cli("site", "--root", str(course), "--out", str(out), "--allow-stale")
    assert result.code == 0, result.out
    assert "publicadas como no verificadas (--allow-stale)" in result.out
    stale = (out / "clases" / "904-deriva.html").read_text(encoding="utf-8")
    assert "Números sin verificar: 1 diferencia; la primera en salida.mitad" in stale
    assert "Números verificados" in page_901(out)
    assert "sin verificar" in (out / "index.html").read_text(encoding="utf-8")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_bad_latex_fails_naming_class_and_formula(cli, course: Path, tmp_path: Path) -> None:
    meta = course / "classes" / FAKE_PART / "901-pasa" / "class.toml"
    meta.write_text(meta.read_text().replace("\\cdot \\mathit{escala}", "\\frac{n}{"), "utf-8")
    result = cli("site", "--root", str(course), "--out", str(tmp_path / "web"))
    assert result.code == 2
    assert "error: la fórmula 1 de la clase 901-pasa no es LaTeX válido" in result.err
    assert "corrige su campo latex en classes/part-90-curso-de-prueba/901-pasa/class.toml" in (
        result.err
    )
    assert "Traceback" not in result.err


def test_second_build_is_content_keyed(cli, course: Path, tmp_path: Path) -> None:
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    first = page_901(out)
    again = cli("site", "--root", str(course), "--out", str(out))
    assert "(0 ejecutadas ahora, 1 sin cambios desde su verificación)" in again.out
    assert "0 archivos escritos" in again.out
    assert page_901(out) == first  # the date shown is the run that verified it
    readme = course / "classes" / FAKE_PART / "901-pasa" / "README.md"
    readme.write_text(
        README_901.replace("Con cuatro términos sale 2.", "Con cuatro términos sale dos."), "utf-8"
    )
    changed = cli("site", "--root", str(course), "--out", str(out))
    # the class's page, sources and two notebooks, the home, its part, the search index and the
    # class's sentences for the search; not the assets
    assert "(1 ejecutada ahora)" in changed.out
    assert "9 archivos escritos" in changed.out, changed.out
    assert "sale dos." in (out / "buscar" / "901-pasa.js").read_text("utf-8")
    assert "sale dos." in page_901(out)


def local_links(page: Path) -> list[str]:
    """The files a page links inside the site (anchors and other sites left out)."""
    html = page.read_text(encoding="utf-8")
    targets = re.findall(r'\bhref="([^"#]+)', html)
    return [t for t in targets if not re.match(r"^[a-z]+:", t)]


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_with_pdf_the_home_and_part_pages_link_the_book_and_without_no_page_does(
    cli, course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import compmath.site.book as book

    printed: list[Path] = []

    def print_book(course_: object, out: Path, title: str, subtitle: str) -> Path:
        """Chromium's print, stood in for: the book's two files, where the real one writes."""
        (out / book.BOOK).write_text("<!DOCTYPE html>", encoding="utf-8")
        (out / book.PDF).write_bytes(b"%PDF-1.4")
        printed.append(out)
        return out / book.PDF

    monkeypatch.setattr(book, "chromium", lambda: "chromium")
    monkeypatch.setattr(book, "print_book", print_book)
    out = tmp_path / "web"
    made = cli("site", "--root", str(course), "--out", str(out), "--pdf")
    assert made.code == 0, made.out + made.err
    assert printed == [out.resolve()]
    for name in ("index.html", "parte-90.html"):
        links = local_links(out / name)
        assert {"curso.pdf", "libro.html"} <= set(links), name
        assert [t for t in links if not (out / t).is_file()] == [], name  # no dead link

    again = cli("site", "--root", str(course), "--out", str(out))
    assert again.code == 0, again.out + again.err
    assert printed == [out.resolve()]  # not printed again
    assert not (out / "curso.pdf").exists() and not (out / "libro.html").exists()
    for page in out.rglob("*.html"):
        links = local_links(page)
        assert "curso.pdf" not in " ".join(links) and "libro.html" not in " ".join(links)
        assert [t for t in links if not (page.parent / t).is_file()] == [], page


def test_a_book_that_cannot_be_printed_leaves_no_link_to_it(
    cli, course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import compmath.site.book as book
    from compmath.errors import CompmathError

    def print_book(course_: object, out: Path, title: str, subtitle: str) -> Path:
        (out / book.BOOK).write_text("<!DOCTYPE html>", encoding="utf-8")  # the first print's
        raise CompmathError("Chromium no pudo imprimir el libro (prueba)", "vuelve a probar")

    monkeypatch.setattr(book, "chromium", lambda: "chromium")
    monkeypatch.setattr(book, "print_book", print_book)
    out = tmp_path / "web"
    failed = cli("site", "--root", str(course), "--out", str(out), "--pdf")
    assert failed.code == 2 and "Chromium no pudo imprimir el libro (prueba)" in failed.err
    assert not (out / "libro.html").exists() and not (out / "curso.pdf").exists()
    for name in ("index.html", "parte-90.html"):
        links = local_links(out / name)
        assert "curso.pdf" not in links and "libro.html" not in links, name
        assert [t for t in links if not (out / t).is_file()] == [], name


def test_the_contents_are_printed_again_until_their_page_numbers_hold(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import compmath.site.book as book
    from compmath.errors import CompmathError

    out = tmp_path / "web"
    (out / "clases").mkdir(parents=True)
    loaded = load_course(course)
    page = '<main id="contenido" tabindex="-1"><h1>Mitad</h1></main>'
    (out / "clases" / "901-pasa.html").write_text(page, encoding="utf-8")
    books: list[str] = []
    monkeypatch.setattr(
        book, "print_pdf", lambda b, pdf: books.append(b.read_text(encoding="utf-8"))
    )

    def numbered(found: str) -> str:
        return re.findall(r'<span class="pagina">([^<]*)</span>', found)[0]

    # the second print finds each chapter where the first did: two prints, numbered by the first
    monkeypatch.setattr(book, "chapter_starts", lambda pdf: {901: 3})
    book.print_book(loaded, out, "Curso", "")
    assert [numbered(b) for b in books] == ["", "3"]
    assert numbered((out / "libro.html").read_text(encoding="utf-8")) == "3"

    # the numbers moved the pages: a third print; and where they never hold, an error
    books.clear()
    shifting = iter([{901: 3}, {901: 4}, {901: 4}])
    monkeypatch.setattr(book, "chapter_starts", lambda pdf: next(shifting))
    book.print_book(loaded, out, "Curso", "")
    assert [numbered(b) for b in books] == ["", "3", "4"]
    books.clear()
    never = iter([{901: 3}, {901: 4}, {901: 5}])
    monkeypatch.setattr(book, "chapter_starts", lambda pdf: next(never))
    with pytest.raises(CompmathError, match="cambian en cada impresión"):
        book.print_book(loaded, out, "Curso", "")
    assert len(books) == 3
    # a PDF that does not say where a chapter starts is an error, not a contents left blank
    monkeypatch.setattr(book, "chapter_starts", lambda pdf: {})
    with pytest.raises(CompmathError, match="dónde empiezan los capítulos 901"):
        book.print_book(loaded, out, "Curso", "")


def test_the_books_headings_have_one_space_between_words() -> None:
    from compmath.site.book import book_html, chapter_of

    html = (
        '<main id="contenido" tabindex="-1"><h1>\n  <span class="numero">901</span>\n  Una'
        '   mitad\n</h1><h2 id="formulas">Fórmulas\n de  la\tclase </h2><p>Prosa\n  aparte</p>'
        "</main>"
    )
    chapter = chapter_of(901, "Una mitad", "clases/901-pasa.html", html)
    found = book_html("Curso", "", "", [chapter])
    assert '<h1><span class="numero">901</span> Una mitad</h1>' in found
    assert '<h2 id="c901-formulas">Fórmulas de la clase</h2>' in found
    assert "<p>Prosa\n  aparte</p>" in found  # the prose as it was
    assert "white-space: pre-wrap" in found  # the space kept where a heading wraps


def test_refuses_to_write_into_the_course_root(cli, course: Path) -> None:
    result = cli("site", "--root", str(course), "--out", str(course))
    assert result.code == 2
    assert "es la raíz de un curso" in result.err and "compmath site --out _site" in result.err


def test_every_formula_of_the_course_is_mathml() -> None:
    course = load_course(REPO)
    formulas = [f for c in course.classes for f in c.meta.formulas]
    assert len(formulas) >= 100 and all(f.latex for f in formulas)
    for formula in formulas:
        markup = to_mathml(formula.latex or "")
        assert markup.startswith('<math display="block">') and markup.endswith("</math>")
        assert "&ApplyFunction;" not in markup
        # the Nu checker allows these on <mstyle> only
        assert not re.search(r"<(?!mstyle|math)\w+[^>]* (displaystyle|scriptlevel)=", markup)


def test_bad_latex_raises() -> None:
    with pytest.raises(LatexError, match="closing"):
        to_mathml("\\frac{a}{")


def test_primes_stand_beside_their_letter_at_full_size() -> None:
    # U+2032 is a raised prime already: as a superscript Chromium draws a speck above the letter
    assert '<mrow><mi>s</mi><mo lspace="0" rspace="0">′</mo></mrow>' in to_mathml("P(s')")
    primed = to_mathml(r"h^{\prime}_i")
    assert "<msub><mrow><mi>h</mi><mo" in primed and "msup" not in primed
    assert "<msup><mi>V</mi><mo>∗</mo></msup>" in to_mathml("V^{*}")  # other superscripts stay


def test_a_subscript_under_a_descender_sits_where_it_does_under_x() -> None:
    assert '<msub><mpadded depth="0"><mi>p</mi></mpadded><mi>t</mi></msub>' in to_mathml("p_t")
    assert "<msub><mi>x</mi><mi>t</mi></msub>" in to_mathml("x_t")  # no depth: left alone
    assert "mpadded" not in to_mathml(r"\bar{\alpha}_t")  # not a one-letter base


@pytest.mark.parametrize(
    "latex, fences",
    [
        (r"\left(I - \gamma P^{\pi}\right)", 'stretchy="false"'),  # TeX: the normal size
        (r"\left(\tfrac{1}{2}, 1\right]", 'minsize="1.18em"'),  # \big
        (r"\left(\sqrt{1 - \beta_t}\, x_{t-1}\right)", 'minsize="1.76em"'),  # \Big
        (r"\left(x_t - \frac{\beta_t}{\sqrt{1 - \bar{\alpha}_t}}\right)", 'minsize="2.35em"'),
    ],
)
def test_left_right_fences_take_the_size_tex_gives_them(latex: str, fences: str) -> None:
    markup = to_mathml(latex)
    assert markup.count(fences) == 2, markup  # both fences of the pair, the same size


def test_fences_taller_than_tex_sizes_still_stretch() -> None:
    markup = to_mathml(r"\left(\begin{matrix} a \\ b \\ c \\ d \end{matrix}\right)")
    assert "<mo>(</mo>" in markup and "<mo>)</mo>" in markup


def test_prose_dollars_and_html() -> None:
    html = markdown_html("El precio es $5 y $10; $x^2$ sí. <b>no</b>")
    assert "$5 y $10" in html and "<msup><mi>x</mi><mn>2</mn></msup>" in html
    assert "&lt;b&gt;no&lt;/b&gt;" in html


def test_charts_of_vectors_and_matrices() -> None:
    assert series_of("x", 3.0) is None and series_of("x", [1, 2]) is None
    assert series_of("x", {"a": 1, "b": 2}) is None  # a dict of scalars is no vector
    assert series_of("x", [True, False, True]) is None
    vector = series_of("v", [0.5, -1.0, 2.0])
    assert vector is not None and vector.vector
    html = chart_html(vector, "grafica-v")
    assert '<svg role="img" aria-labelledby="grafica-v-t"' in html
    assert "Gráfico de barras de v: 3 valores, de −1,0 a 2,0" in html
    assert "<td>−1,0</td>" in html  # the data table: the JSON's digits, the course's comma
    assert "índice en el vector</text>" in html and ">v</text>" in html  # axis titles
    matrix = series_of("m", {"f0": [1, 2], "f1": [3, 4]})
    assert matrix is not None and matrix.row_labels == ("f0", "f1")
    heat = chart_html(matrix, "grafica-m")
    assert (
        "Mapa de calor de m: 2 filas y 2 columnas, de 1 a 4</title>" in heat
    )  # the SVG's name: plain text
    assert "<figcaption>Mapa de calor de <code>m</code>: 2 filas y 2 columnas, de 1 a 4" in heat
    assert '<th scope="row"><code>f0</code></th>' not in heat  # no underscore: no code
    keys = series_of("q", {"q_pos3": [1, 2], "k_pos1": [3, 4]})
    assert keys is not None  # keys that look like subscripts are code in the data table
    assert '<th scope="row"><code>q_pos3</code></th>' in chart_html(keys, "grafica-q")
    assert ">columna</text>" in heat and ">clave</text>" in heat and ">valor</text>" in heat
    assert ">2,5</text>" in heat  # the colour scale's middle tick, not only its ends
    line = series_of("l", [float(i) for i in range(100)])
    assert line is not None and "<polyline" in chart_html(line, "grafica-l")


def test_a_chart_says_what_class_toml_says_of_it() -> None:
    from compmath.course.records import ChartSpec
    from compmath.site.charts import look_of

    assert series_of("ceros", [0.0, 0.0, 0.0, 0.0]) is None  # an empty bar chart says nothing
    assert series_of("unos", [[1, 1], [1, 1]]) is None
    q = series_of("q", [[-3.9, -3.2], [-3.7, -2.3], [0.0, 0.0]])
    assert q is not None
    spec = ChartSpec(rows=("s0", "s1", "meta"), columns=("izquierda", "derecha"),
                     axes=("estado", "acción"))  # fmt: skip
    description = "Q* del MDP, con $\\gamma = 0,9$. Se obtiene por iteración de valor."
    html = chart_html(q, "grafica-q", look_of(q, spec, description, None))
    assert ">izquierda</text>" in html and ">derecha</text>" in html and ">meta</text>" in html
    assert ">estado</text>" in html and ">acción</text>" in html  # axis titles by name
    assert (
        '<title id="grafica-q-t">Q* del MDP, con γ = 0,9. Mapa de calor de q: 3 filas y 2 columnas'
        in html
    )
    gamma = to_mathml("\\gamma = 0,9", display=False)  # the caption: the prose's MathML
    assert (
        f"<figcaption>Q* del MDP, con {gamma}. Mapa de calor de <code>q</code>: 3 filas y 2 columnas"
        in html
    )
    assert '<th scope="col">izquierda</th>' in html  # the data table names them too
    # labels whose count does not match the data are left out, never misplaced
    wrong = look_of(q, ChartSpec(rows=("a",), columns=("x", "y", "z")), "", None)
    assert wrong.rows == () and wrong.columns == ()
    # two tables compared on one colour scale: the same ticks on both legends
    other = series_of("r", [[-1.0, -0.5], [-0.2, 0.0]])
    assert other is not None
    shared = (-3.9, 0.0)
    ticks = [re.findall(r'font-size="10">([^<]+)</text>',
                        chart_html(s, f"g-{s.name}", look_of(s, ChartSpec(scale="x"), "", shared)))
             for s in (q, other)]  # fmt: skip
    assert ticks[0] == ticks[1] and "−3,9" in ticks[0]

    # a long first sentence: the caption keeps it whole (it wraps), the SVG's name is cut short
    long = ("La tabla Q de los estados 0 a 2 tras 4000 episodios de Q-learning con una tasa "
            "que baja con las visitas y un comportamiento uniforme; la de la meta no se "
            "actualiza nunca, porque el episodio termina al llegar. El resto se explica abajo.")  # fmt: skip
    html = chart_html(q, "grafica-q", look_of(q, spec, long, None))
    caption = re.search(r"<figcaption>(.*?)</figcaption>", html, re.S)
    assert caption is not None and "…" not in caption.group(1)
    assert "termina al llegar. Mapa de calor de <code>q</code>" in caption.group(1)
    assert "El resto" not in caption.group(1)  # the first sentence only
    name = re.search(r'<title id="grafica-q-t">(.*?)</title>', html)
    assert name is not None and "… Mapa de calor de q" in name.group(1)


@pytest.mark.lento  # two site builds and a lint of the test course
def test_a_chart_declared_false_is_not_drawn_and_a_bad_scale_is_named(
    cli, course: Path, tmp_path: Path
) -> None:
    # 901 alone: the whole fake course would wait out 905-cuelga's 60 s on every build
    meta = next(course.glob("classes/*/901-*/class.toml"))
    text = meta.read_text(encoding="utf-8")
    entry = 'nombre = "vector"\n'
    assert entry in text
    meta.write_text(
        text.replace(entry, entry + 'grafica = { escala = "nada" }\n'), encoding="utf-8"
    )
    lint = cli("lint", "--root", str(course))
    assert (
        "la gráfica de «vector» comparte la escala de «nada», que no está en [[salidas]]"
        in lint.out
    )
    out = tmp_path / "web"
    refused = cli("site", "--root", str(course), "--out", str(out), "--allow-stale")
    assert refused.code == 2 and "comparte la escala de «nada»" in refused.err + refused.out
    meta.write_text(text.replace(entry, entry + 'grafica = { escala = "n" }\n'), encoding="utf-8")
    assert cli("site", "--root", str(course), "--out", str(out), "--allow-stale").code == 0
    assert 'id="grafica-vector"' in page_901(out)
    meta.write_text(text.replace(entry, entry + "grafica = false\n"), encoding="utf-8")
    assert cli("site", "--root", str(course), "--out", str(out), "--allow-stale").code == 0
    assert 'id="grafica-vector"' not in page_901(out)  # declared: a drawing would say nothing


def test_search_folds_accents_and_case() -> None:
    assert fold("Codificación Posicional ÑANDÚ") == "codificacion posicional nandu"
    assert fold("β_t ≤ Λ, ϵ") == "beta_t ≤ lambda, epsilon"  # as LaTeX names them
    found = entry("clases/x.html", "323 Codificación", "Lema", ["tamano"], "Árbol y árbol")
    assert found.titles == "323 codificacion" and found.prose == "arbol y"
    script = index_script([found])
    assert script.startswith("window.COMPMATH_BUSQUEDA = {")
    data = json.loads(script.split(" = ", 1)[1].rstrip(";\n"))
    assert data["paginas"][0] == ["clases/x.html", "323 Codificación", "Lema", "tamano"]
    # the prose's vocabulary, front-coded, with the pages each word is on
    two = index_script([found, entry("b.html", "B", "", [], "arboleda cero ceros y")])
    data = json.loads(two.split(" = ", 1)[1].rstrip(";\n"))
    # «cero» is found through «ceros» (same pages); «arbol» is not on the page of «arboleda»
    assert data["vocabulario"] == "0arbol 5eda 0ceros" and data["donde"] == "0 1 1"
    assert data["comunes"] == "0y"  # on every page: listed once
    # past 36 pages each page's number takes two digits, still one after another
    many = [entry(f"{i}.html", str(i), "", [], "todas" if i else "todas rara") for i in range(40)]
    many[37] = entry("37.html", "37", "", [], "rara")
    data = json.loads(index_script(many).split(" = ", 1)[1].rstrip(";\n"))
    assert data["ancho"] == 2 and data["vocabulario"] == "0rara" and data["donde"] == "0011"


def test_a_lemmas_math_is_shown_as_text_in_the_results() -> None:
    """The results page shows each lemma as text: 332's «$x_t$ … desde $x_0$» was shown with
    its dollars and TeX (as 325's «$\\sqrt{d_k}$» and 339's «$Q^*$»)."""
    lemma = r"Forma cerrada: $x_t$ sale de $\bar\alpha_t$ y $\sqrt{d_k}$, con la `clave`."
    found = entry("a.html", "332 Difusión", lemma, [], "")
    data = json.loads(index_script([found]).split(" = ", 1)[1].rstrip(";\n"))
    shown = data["paginas"][0][2]
    assert shown == "Forma cerrada: xₜ sale de ᾱₜ y √dₖ, con la clave."
    assert found.lemma == fold(shown)  # and it is found by what it shows
    course = load_course(REPO)
    lemmas = [c.meta.lemma for c in course.classes]
    assert sum("$" in lemma for lemma in lemmas) >= 3  # the course has lemmas with math
    assert all("$" not in entry("a", "A", lemma, [], "").summary for lemma in lemmas)


def test_the_index_has_the_words_of_the_formulas_not_their_tex() -> None:
    """«sqrt» found 10 pages of the course and «mathbb» 5, none of them showing the word."""
    prose = r"Con $\sqrt{d_k}$ y $\mathbb{E}[\varepsilon \mid x_t]$ sale $\frac{n}{2}$ raíz."
    words = entry("a.html", "A", "", [], prose).prose.split()
    assert {"d_k", "epsilon", "x_t", "n", "2", "raiz"} <= set(words)
    assert not {"sqrt", "mathbb", "varepsilon", "mid", "frac"} & set(words)
    assert "sqrt" in entry("b.html", "B", "", [], "la orden sqrt de numpy").prose  # as prose


def test_the_index_leaves_out_long_numbers_and_decimal_digits() -> None:
    found = entry("a.html", "A", "", [], "0,001 y 1999 en 2 de 335 vs 01 0")
    other = entry("b.html", "B", "", [], "otra")
    data = json.loads(index_script([found, other]).split(" = ", 1)[1].rstrip(";\n"))
    # «001», «01» (what follows a decimal comma) and «1999» are not words a reader searches
    assert data["vocabulario"] == "00 02 0335 0de 0en 0otra 0vs 0y"


SENTENCES_MD = """Un grafo de **n nodos** se guarda en una matriz: ver
[la 335](../335.html). ¿Por qué $D^{-1/2}$? Haviv et al. (2022) lo
comprueban con `deg**-0.5` y alfa_1_sobre_n; *p. ej.* Adam. Fig. 2 lo muestra.

$$
x_t = \\sqrt{1 - \\beta_t}
$$

```python
print("Esto no es prosa.")
```

- Primer punto, con $\\tilde\\beta_t < \\beta_t$ y $L_\\text{sym}$.
  Sigue el punto.
1. Segundo punto.

### Un título

| clave | valor |
| --- | --- |
| normas | 1,0 |

Un grafo de **n nodos** se guarda en una matriz: ver [la 335](../335.html).
"""


def test_a_pages_sentences_are_its_prose_as_plain_text() -> None:
    assert plain_sentences([SENTENCES_MD, "Otra sección. Y otra frase."]) == [
        "Un grafo de n nodos se guarda en una matriz: ver la 335.",
        "¿Por qué D\ue002−1/2\ue003?",  # a script Unicode cannot write, between its marks
        # no sentence ends at an abbreviation; code and a word's underscores are kept
        "Haviv et al. (2022) lo comprueban con deg**-0.5 y alfa_1_sobre_n; p. ej. Adam.",
        "Fig. 2 lo muestra.",
        # display math and code blocks are not sentences; list items and headings are
        "Primer punto, con β̃ₜ < βₜ y L\ue000sym\ue001.",
        "Sigue el punto.",
        "Segundo punto.",
        "Un título",
        "clave · valor",
        "normas · 1,0",
        # the paragraph said twice is quoted once
        "Otra sección.",
        "Y otra frase.",
    ]


def test_inline_math_reads_as_plain_text() -> None:
    assert tex_plain(r"\theta_i = 10000^{-2i/d}") == "θᵢ = 10000^(−2i/d)"
    assert tex_plain(r"x_2 = z_2 e^{s(z_1)} + 0{,}8\, z_1") == "x₂ = z₂ e^(s(z₁)) + 0,8 z₁"
    assert tex_plain(r"\lVert \hat x \rVert \le \sqrt{n}") == "‖x̂‖ ≤ √n"
    assert tex_plain(r"\frac{n}{2} + \sqrt{1 - \beta_t}") == "n/2 + √(1 − βₜ)"
    assert tex_plain(r"\mathbb{E}_{a \sim \pi}[r(a)]") == "𝔼_(a ~ π)[r(a)]"
    assert tex_plain(r"r + \gamma \max_{a'} Q(s', a')") == "r + γ max_a' Q(s', a')"


def _describe_mitad(course: Path, description: str) -> Path:
    meta = course / "classes" / FAKE_PART / "901-pasa" / "class.toml"
    text = meta.read_text(encoding="utf-8")
    assert "'$n$ por la escala.'" in text
    meta.write_text(text.replace("'$n$ por la escala.'", description, 1), encoding="utf-8")
    return meta


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_a_fields_inline_math_is_mathml_like_the_readmes(cli, course: Path, tmp_path: Path) -> None:
    _describe_mitad(course, r"'$\bar\alpha_t = \prod_{s\le t}(1-\beta_s)$ por la <escala>.'")
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    html = page_901(out)
    described = html.split('<dt id="salida-mitad">', 1)[1].split("</dd>", 1)[0]
    readme_math = markdown_html(r"$\bar\alpha_t = \prod_{s\le t}(1-\beta_s)$").strip()
    inline = readme_math.removeprefix("<p>").removesuffix("</p>")
    assert inline.startswith("<math><msub><mover")  # the README's own markup, no wrapper
    # the same markup, its MathML attributes unquoted as every page carries them; the prose escaped
    assert described.endswith(f"<dd>{unquote_math(inline)} por la &lt;escala&gt;.")
    assert "$" not in described


def test_lint_flags_tex_outside_math_in_a_description(fake_course: Path) -> None:
    from compmath.site.checks import site_problems

    course = small_course(fake_course)
    meta = _describe_mitad(course, '"ᾱ_t = Π_{s≤t}(1 − β_s) por la escala."')
    found = [what for p, what, _ in site_problems(load_course(course)) if p == meta]
    assert found[1] == (  # and its ᾱ_t, a subscript written as text
        "la descripción de la salida mitad: «ᾱ_t», «β_s» son subíndices o superíndices escritos"
        " como texto, fuera de una fórmula"
    )
    found = found[:1]
    assert len(found) == 1 and found[0].startswith(
        "la descripción de la salida mitad: «ᾱ_t = Π_{s≤t}"
    )
    assert found[0].endswith(
        "» parece TeX fuera de una fórmula (la web y la terminal lo muestran tal cual)"
    )
    meta.write_text(
        meta.read_text("utf-8").replace(
            '"ᾱ_t = Π_{s≤t}(1 − β_s) por la escala."',
            r"'$\bar\alpha_t = \prod_{s\le t}(1-\beta_s)$ por la escala.'",
        ),
        "utf-8",
    )
    assert [w for p, w, _ in site_problems(load_course(course)) if p == meta] == []


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_bad_latex_in_a_description_is_named_by_lint_and_build(
    cli, course: Path, tmp_path: Path
) -> None:
    from compmath.site.checks import site_problems

    meta = _describe_mitad(course, r"'El doble: $\frac{n}{$.'")
    found = [(w, h) for p, w, h in site_problems(load_course(course)) if p == meta]
    assert len(found) == 1
    what, hint = found[0]
    assert what.startswith(r"la descripción de la salida mitad: $\frac{n}{$ no es LaTeX válido (")
    assert "corrige el LaTeX entre los dólares" in hint
    result = cli("site", "--root", str(course), "--out", str(tmp_path / "web"))
    assert result.code == 2
    assert (
        "error: la descripción de la salida mitad de la clase 901-pasa tiene una fórmula entre"
        " dólares que no es LaTeX válido" in " ".join(result.err.split())
    )
    assert r"corrígela en classes/part-90-curso-de-prueba/901-pasa/class.toml ($\frac{n}{$)" in (
        " ".join(result.err.split())
    )
    assert "Traceback" not in result.err
    linted = cli("lint", "--root", str(course), "--no-run")
    assert "la descripción de la salida mitad" in linted.out + linted.err
    assert "Traceback" not in linted.out + linted.err


def test_a_pages_sentences_come_in_the_runs_a_quote_may_go_on_with() -> None:
    """A run is a stretch of one block's text: a quote that goes on with the next sentence of
    its run quotes the page's own words; a sentence said before ends its run."""
    runs = sentence_runs([SENTENCES_MD, "Otra sección. Y otra frase.", "Una. Otra sección. Dos."])
    assert runs[0] == [  # one paragraph over three lines
        "Un grafo de n nodos se guarda en una matriz: ver la 335.",
        "¿Por qué D\ue002−1/2\ue003?",
        "Haviv et al. (2022) lo comprueban con deg**-0.5 y alfa_1_sobre_n; p. ej. Adam.",
        "Fig. 2 lo muestra.",
    ]
    assert ["Primer punto, con β̃ₜ < βₜ y L\ue000sym\ue001.", "Sigue el punto."] in runs
    assert ["Segundo punto."] in runs and ["Un título"] in runs
    assert runs[-3:] == [["Otra sección.", "Y otra frase."], ["Una."], ["Dos."]]
    assert [s for run in runs for s in run] == plain_sentences(
        [SENTENCES_MD, "Otra sección. Y otra frase.", "Una. Otra sección. Dos."]
    )


def test_each_searchable_page_has_its_sentences_for_the_search(
    cli, course: Path, tmp_path: Path
) -> None:
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    index = (out / "assets" / "indice-busqueda.js").read_text("utf-8")
    pages = json.loads(index.split(" = ", 1)[1].rstrip(";\n"))["paginas"]
    assert [p[0] for p in pages] == ["parte-90.html", "clases/901-pasa.html"]
    for url, *_ in pages:
        script = (out / script_name(url)).read_text("utf-8")
        prefix = f'(window.COMPMATH_FRASES=window.COMPMATH_FRASES||{{}})["{url}"]='
        assert script.startswith(prefix)
        runs = json.loads(script.removeprefix(prefix).rstrip(";\n"))
        assert runs and all(run and all(isinstance(s, str) and s for s in run) for run in runs)
    assert script_name("clases/901-pasa.html") == "buscar/901-pasa.js"
    runs = json.loads((out / "buscar/901-pasa.js").read_text("utf-8").split("=", 2)[2][:-2])
    sentences = [s for run in runs for s in run]
    assert "La mitad de n es n/2; cuesta $5 y $10 (eso es prosa)." in sentences
    assert "Con cuatro términos sale 2." in sentences
    assert "El símbolo «t </w>» es texto." in sentences  # text: the page puts it in text nodes
    # no page links a sentence file: the search page loads one for a result in view
    for page in out.rglob("*.html"):
        assert "buscar/" not in re.sub(r'href="[^"]*buscar\.html', "", page.read_text("utf-8"))
    # a second build from unchanged sources writes the same bytes
    again = tmp_path / "otra"
    assert cli("site", "--root", str(course), "--out", str(again)).code == 0
    for path in (out / "buscar").iterdir():
        assert path.read_bytes() == (again / "buscar" / path.name).read_bytes()
    assert sentences_script("a.html", [["«x»", "Y más."]]) == (
        '(window.COMPMATH_FRASES=window.COMPMATH_FRASES||{})["a.html"]=[["«x»","Y más."]];\n'
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode("utf-8"))


@pytest.mark.lento  # seconds: out of the quick loop
def test_serve_rebuilds_when_a_class_changes(course: Path, tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "COMPMATH_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "compmath.entry", "site", "--serve", "--port", str(port),
         "--root", str(course), "--out", str(tmp_path / "web")],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/clases/901-pasa.html"
    try:
        assert server.stdout is not None
        for text in server.stdout:  # the build's summary, then the address
            if f"http://127.0.0.1:{port}/" in text:
                break
        assert "Un laboratorio que pasa" in _get(url)
        meta = course / "classes" / FAKE_PART / "901-pasa" / "class.toml"
        meta.write_text(meta.read_text().replace("Todo cuadra.", "Todo vuelve a cuadrar."), "utf-8")
        deadline = time.monotonic() + 60
        while "Todo vuelve a cuadrar." not in _get(url):
            assert time.monotonic() < deadline, "la web no se rehízo en 60 s"
            time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_each_class_page_offers_its_notebooks_and_colab_when_configured(
    cli, course: Path, tmp_path: Path
) -> None:
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    html = page_901(out)
    assert 'href="../cuadernos/901-pasa.ipynb" download>el cuaderno (.ipynb)</a>' in html
    assert 'href="../cuadernos/practica/901-pasa.ipynb" download' in html  # 901 has a hole
    assert "Abrir en Colab" not in html  # no repository configured
    notebook = json.loads((out / "cuadernos" / "901-pasa.ipynb").read_text(encoding="utf-8"))
    assert (
        notebook["nbformat"] == 4 and (out / "cuadernos" / "practica" / "901-pasa.ipynb").is_file()
    )
    (course / "curso.toml").write_text(
        'titulo = "Curso de prueba"\nrepositorio = "https://github.com/uni/curso"\n',
        encoding="utf-8",
    )
    built = cli("site", "--root", str(course), "--out", str(out))
    assert built.code == 0
    assert (
        'href="https://colab.research.google.com/github/uni/curso/blob/main/'
        'cuadernos/901-pasa.ipynb">Abrir en Colab</a>'
    ) in page_901(out)
    # the link would 404 until the notebooks are in the repository: the build says so
    assert "«Abrir en Colab» lleva a cuadernos/901-pasa.ipynb" in built.out
    assert "compmath notebook --all" in built.out
    assert cli("notebook", "--all", "--root", str(course)).code == 0
    built = cli("site", "--root", str(course), "--out", str(out))
    assert built.code == 0 and "Abrir en Colab" not in built.out


def test_the_site_serves_the_committed_practice_notebook_unless_it_is_behind(
    cli, course: Path, tmp_path: Path
) -> None:
    """A committed practice notebook (what «Abrir en Colab» opens) that is today's in everything
    but its recordings is served as it is: the site runs no lab to record it again (here its
    recorded reals are all off by half, which only lint can tell, and does). One left behind
    (a hint changed since) is made again, recordings and all, and served in its place."""
    from compmath.notebook.build import notebook_bytes
    from compmath.notebook.freshness import up_to_date
    from compmath.site.checks import stale_notebooks
    from tests.test_notebook_freshness import _reals, _repacked

    assert cli("notebook", "--all", "--practice", "--root", str(course)).code == 0
    committed = course / "cuadernos" / "practica" / "901-pasa.ipynb"
    off = _repacked(committed.read_bytes(), lambda r: _reals(r, lambda x: x * 1.5 + 1.0))
    committed.write_bytes(off)
    out = tmp_path / "web"
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    served = out / "cuadernos" / "practica" / "901-pasa.ipynb"
    assert served.read_bytes() == off
    found = [
        (p.relative_to(course).as_posix(), w) for p, w, _ in stale_notebooks(load_course(course))
    ]
    assert ("cuadernos/practica/901-pasa.ipynb", "el cuaderno no está al día con la clase") in found
    toml = load_course(course).classes[0].meta_path
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('"Multiplica."', '"Multiplica n."'),
        encoding="utf-8",
    )
    assert cli("site", "--root", str(course), "--out", str(out)).code == 0
    cls = load_course(course).classes[0]
    today = notebook_bytes(load_course(course), cls, practice=True, validate=False)
    assert served.read_bytes() != off and up_to_date(served.read_bytes(), today)
    assert "Multiplica n." in served.read_text(encoding="utf-8")


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_lint_flags_committed_notebooks_that_are_not_current(cli, course: Path) -> None:
    from compmath.site.checks import stale_notebooks

    assert stale_notebooks(load_course(course)) == []  # no cuadernos/ and no repository
    assert cli("notebook", "--all", "--root", str(course)).code == 0
    assert cli("notebook", "--all", "--practice", "--root", str(course)).code == 0
    assert stale_notebooks(load_course(course)) == []
    readme = load_course(course).classes[0].readme
    readme.write_text(readme.read_text(encoding="utf-8") + "\nOtra frase.\n", encoding="utf-8")
    found = stale_notebooks(load_course(course))
    assert [(p.relative_to(course).as_posix(), what) for p, what, _ in found] == [
        ("cuadernos/901-pasa.ipynb", "el cuaderno no está al día con la clase"),
        ("cuadernos/practica/901-pasa.ipynb", "el cuaderno no está al día con la clase"),
    ]
    linted = cli("lint", "--root", str(course))
    assert "no está al día" in linted.out + linted.err


@pytest.mark.lento  # builds every notebook; cold (no recordings cached) it runs the labs
def test_the_courses_committed_notebooks_are_current() -> None:
    """cuadernos/ (what «Abrir en Colab» opens) is what `compmath notebook --all` writes today."""
    from compmath.site.checks import stale_notebooks

    found = [f"{p.name}: {what}" for p, what, _ in stale_notebooks(load_course(REPO))]
    assert found == [], "compmath notebook --all && compmath notebook --all --practice"


def test_every_heatmap_colour_keeps_3_to_1_on_both_backgrounds() -> None:
    from compmath.site.palette import (
        DARK_BACKGROUND,
        LIGHT_BACKGROUND,
        contrast,
        diverging,
        sequential,
    )  # fmt: skip

    for make in (sequential, diverging):
        assert all(contrast(c, LIGHT_BACKGROUND) >= 3 for c in make(False))
        assert all(contrast(c, DARK_BACKGROUND) >= 3 for c in make(True))
        assert len(set(make(False))) == len(make(False))  # nine distinct levels


def test_lint_flags_tex_in_prose_and_a_formula_wider_than_the_column(fake_course: Path) -> None:
    from compmath.site.checks import site_problems

    course = small_course(fake_course)
    cls = load_course(course).classes[0]
    readme = cls.readme.read_text(encoding="utf-8")
    cls.readme.write_text(
        readme + "\nEl laplaciano L_sym = D^{−1/2} L D^{−1/2}; y en math $D^{-1/2}$ está bien.\n"
        "\n    V = E_{x~p}[f]\n",
        encoding="utf-8",
    )
    meta = cls.meta_path.read_text(encoding="utf-8")
    wide = " + ".join(f"x_{{{i}}}" for i in range(80))
    cls.meta_path.write_text(meta + f"\n[[formulas]]\ntexto = \"x\"\nlatex = '{wide}'\n")
    found = [(p.name, what) for p, what, _ in site_problems(load_course(course))]
    tex = [what for name, what in found if name == "README.md" and "parece TeX" in what]
    assert len(tex) == 2 and "D^{−1/2}" in tex[0] and "E_{x~p}" in tex[1]
    assert any(name == "class.toml" and "mide unos" in what for name, what in found)
    assert "D^{-1/2}" not in " ".join(tex)  # the one between dollars is math


def test_prose_code_blocks_are_focusable() -> None:
    assert '<pre tabindex="0"><code>' in markdown_html("Antes:\n\n    x = 1\n")


def test_the_json_sample_keeps_its_text_and_gains_colours() -> None:
    from html import unescape

    from compmath.site.highlight import highlight_json

    text = '{\n  "a<": [1.5, -2e-05, "x", true, … (9 en total)],\n  "b\\"c": null\n}'
    html = highlight_json(text)
    assert unescape(re.sub(r"<[^>]+>", "", html)) == text  # the same characters, only coloured
    assert '<span class="nt">"a&lt;"</span>' in html and '<span class="m">-2e-05</span>' in html
    assert (
        '<span class="kc">null</span>' in html and '<span class="c">… (9 en total)</span>' in html
    )


def test_class_mentions_link_outside_code_and_links() -> None:
    from compmath.site.crossrefs import link_classes

    urls = {321: "321-a.html", 322: "322-b.html", 323: "323-c.html"}
    html = (
        "<p>Como en la clase 321 y en las clases 322 y 321, pero no la clase 999 ni esta, la"
        " clase 323.</p><pre><code>clase 321</code></pre><p><a href='x'>clase 322</a>"
        " <code>clase 322</code> Clase 322.</p>"
    )
    out = link_classes(html, urls, own=323)
    links = re.findall(r'<a class="ref-clase" href="([^"]+)">(\d+)</a>', out)
    assert links == [("321-a.html", "321"), ("322-b.html", "322"), ("321-a.html", "321"),
                     ("322-b.html", "322")]  # fmt: skip
    assert "la clase 999" in out and "clase 323." in out  # unknown, and its own page
    assert "<code>clase 321</code>" in out and "<a href='x'>clase 322</a>" in out
    assert re.sub(r"<a class=\"ref-clase\"[^>]*>(\d+)</a>", r"\1", out) == html  # text kept


def test_readme_subheadings_get_ids_of_their_section() -> None:
    from compmath.site.markdown import markdown_html

    html = markdown_html(
        "### Por qué la raíz de d\n\ntexto\n\n### Por qué la raíz de d\n", "ejemplo"
    )
    assert re.findall(r'<h3 id="([^"]+)"', html) == [
        "ejemplo-por-que-la-raiz-de-d", "ejemplo-por-que-la-raiz-de-d-1"]  # fmt: skip


def test_every_code_colour_reads_at_4_5_to_1_on_the_code_background() -> None:
    """WCAG 2.x contrast (relative luminance, computed here again) of every token colour the
    site's stylesheets use, on the code box's background (estilo.css --caja) light and dark."""
    from compmath.site.highlight import highlight_css

    def lum(colour: str) -> float:
        c = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    def ratio(a: str, b: str) -> float:
        high, low = sorted((lum(a), lum(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    css = (REPO / "compmath/site/assets/estilo.css").read_text(encoding="utf-8")
    light_box, dark_box = re.search(r"--caja: light-dark\((#\w+), (#\w+)\)", css).groups()
    pairs = re.findall(r"light-dark\((#[0-9a-fA-F]{6}),(#[0-9a-fA-F]{6})\)", highlight_css())
    assert len(pairs) >= 10
    assert [(a, b) for a, b in pairs if ratio(a, light_box) < 4.5 or ratio(b, dark_box) < 4.5] == []


PLAIN_SCRIPTS = """## Desarrollo

La consulta q_t mira las claves W_Q de la entrada, el valor V^π, la norma ‖V − U‖_∞ y la a posteriori σ*² con
media μ* (Markdown haría cursiva de lo que hay entre las dos estrellas).

- **Convergencia.** Con n^0,8 y α_(t−1) también.
"""
HONEST_PROSE = """## Ejemplo trabajado

La salida pesos_de_atencion, top_k, gqa_2_grupos y `x_t` (código) no son fórmulas; $x_t$ y
$V^\\pi$ sí, entre dólares. *ver* y **Top-k** son énfasis, `__init__` y lab.py son nombres, y
https://ejemplo.org/a_b/c^d una dirección.

    x_t = W_Q · h_t
"""


def test_lint_flags_plain_text_scripts_outside_math(fake_course: Path) -> None:
    from compmath.site.checks import site_problems

    course = small_course(fake_course)
    cls = load_course(course).classes[0]
    cls.readme.write_text(README_901 + "\n" + PLAIN_SCRIPTS + "\n" + HONEST_PROSE, encoding="utf-8")
    meta = _describe_mitad(course, '"W_Q por la escala de V^π, con la clave `t_1` y n_capas."')
    found = [(p, what, hint) for p, what, hint in site_problems(load_course(course))]
    readme = [what for p, what, _ in found if p == cls.readme]
    lines = cls.readme.read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines, 1) if "q_t" in line)
    assert readme == [
        f"línea {first}: «q_t», «W_Q», «V^π», «U‖_∞», «σ*²», «μ*» son subíndices o superíndices"
        " escritos como texto, fuera de una fórmula",
        f"línea {first}: «‖V» lleva un símbolo matemático escrito como texto, fuera de una"
        " fórmula",  # the norm's other end: the rule of symbols (the next test)
        f"línea {first + 3}: «n^0,8», «α_(t−1)» son subíndices o superíndices escritos como"
        " texto, fuera de una fórmula",
    ]
    fields = [(what, hint) for p, what, hint in found if p == meta]
    assert fields == [
        (
            "la descripción de la salida mitad: «W_Q», «V^π», «n_capas» son subíndices o"
            " superíndices escritos como texto, fuera de una fórmula",
            "escríbelo entre dólares, $x_t$, $W_Q$, $V^\\pi$, $\\sigma^{*2}$: la web lo dibuja"
            " como fórmula y la terminal como texto legible; un identificador (una clave como"
            " `t_1`, una variable del laboratorio), entre comillas invertidas",
        )
    ]
    # written as math, and the identifiers as code, lint has nothing to say
    cls.readme.write_text(README_901 + "\n" + HONEST_PROSE, encoding="utf-8")
    meta.write_text(
        meta.read_text("utf-8").replace(
            '"W_Q por la escala de V^π, con la clave `t_1` y n_capas."',
            r"'$W_Q$ por la escala de $V^\pi$, con la clave `t_1` y `n_capas`.'",
        ),
        "utf-8",
    )
    left = [w for p, w, _ in site_problems(load_course(course)) if p in (cls.readme, meta)]
    assert left == []


# Math written as text in a class's prose, each kind: what the README and an output's description
# hold, the line found, the messages, a hint's example, the rule's words for prose it must leave
# alone, and the same written as math (after which nothing is said).
WRITTEN_AS_TEXT = {
    # «la razón γ» beside a rendered $\gamma$: two notations for one symbol. Every Greek letter,
    # Unicode script, operator and accented letter of the math outside `$…$` is flagged
    "símbolos": (
        "Con la razón γ, el hueco λ₂, la norma ‖a‖ entre √d, la media x̂ y la matriz 3×3, cuesta"
        " O(n²).",
        "Entre −1 y 1, [−1, 1], 4·5 = 20, de «a» → «b» ✓; el año, un pingüino, Über, el código"
        " `γ` y la fórmula $\\gamma \\le 1$ no se señalan.",
        ("La mitad con γ = 0,9 y ‖x‖.", "La mitad con $\\gamma = 0{,}9$ y $\\lVert x \\rVert$."),
        "«γ», «λ₂», «‖a‖», «√d», «x̂», «3×3» y 1 más llevan símbolos matemáticos escritos como"
        " texto, fuera de una fórmula",
        "«γ», «‖x‖» llevan símbolos matemáticos escritos como texto, fuera de una fórmula",
        "$\\gamma$",
        "text_symbols",
        "Con la razón $\\gamma$, el hueco $\\lambda_2$, la norma $\\lVert a \\rVert$ entre"
        " $\\sqrt{d}$, la media $\\hat x$ y la matriz $3 \\times 3$, cuesta $O(n^2)$.",
    ),
    # «log p(x)» and «t = 497» beside a rendered $p(x \mid z)$ (332, 338, 331): a one-letter
    # function applied to its arguments and a one-letter symbol in a relation are flagged;
    # Spanish's words of one letter, addresses and code are not; a tuple of numbers stays prose
    "letras": (
        "La cota de log p(x) vale con x = (0,3; 0,2), con P(s'|s,a) y N(0, I); la SNR cruza 1"
        " en t = 497, y T < 1 afila.",
        "De 0 a 1, y a la vez (a) o (b); https://ejemplo.org/?q=x, el código `p(x)` y la fórmula"
        " $t = 497$ no se señalan.",
        ("La mitad de p(x) con d = 4.", "La mitad de $p(x)$ con $d = 4$."),
        "«p(x)», «x = (0,3», «P(s'|s,a)», «N(0, I)», «t = 497», «T < 1» son fórmulas escritas"
        " como texto, fuera de una fórmula",
        "«p(x)», «d = 4» son fórmulas escritas como texto, fuera de una fórmula",
        "$t = 497$",
        "text_letters",
        "La cota de $\\log p(x)$ vale con $x$ = (0,3; 0,2), con $P(s' \\mid s, a)$ y"
        " $\\mathcal{N}(0, I)$; la SNR cruza 1 en $t = 497$, y $T < 1$ afila.",
    ),
    # «los estados S», «t pasos» beside a rendered $S$ and $t$: a symbol of one letter standing
    # alone is flagged; Spanish's words of one letter (a capital one where a sentence starts),
    # an item's «(b)», a letter quoted as text, a unit after a number, an appendix's name, an
    # author's initials, a capital before a name, «n.º» and code are not
    "solas": (
        "Los estados S y las acciones, con d dimensiones y t pasos; la matriz E de la clase 322"
        " y su fila i.",
        "Y así, a la vez, o bien (b); la «z» de «zoo», tarda 2 s, el código `d` y la fórmula $S$"
        " no se señalan. A veces, e incluso u otras, tampoco; ni el apéndice B, ni Smith, N. A.,"
        " en el C Users Journal, n.º 2.",
        ("La mitad de d con E.", "La mitad de $d$ con $E$."),
        "«S», «d», «t», «E», «i» son símbolos de una letra escritos como texto, fuera de una"
        " fórmula",
        "«d», «E» son símbolos de una letra escritos como texto, fuera de una fórmula",
        "$S$",
        "text_lone_letters",
        "Los estados $S$ y las acciones, con $d$ dimensiones y $t$ pasos; la matriz $E$ de la"
        " clase 322 y su fila $i$.",
    ),
    "funciones": (
        "Con PE(0) y cos(manzana, pera), y el log(2/7) de la tabla.",
        "Los valor(es) y el(los) de la tabla, la llamada `default_rng(0)`, la fórmula $\\cos(a, b)$"
        " y https://a.org/f(x) no se señalan.",
        ("La mitad de exp(1) con top_k(x).", "La mitad de $\\exp(1)$ con `top_k(x)`."),
        "«PE(0)», «cos(manzana, pera)», «log(2/7)» son funciones escritas como texto, fuera de una"
        " fórmula",
        "«exp(1)», «top_k(x)» son funciones escritas como texto, fuera de una fórmula",
        "$\\mathrm{PE}(0)$",
        "text_functions",
        "Con $\\mathrm{PE}(0)$ y $\\cos(\\text{manzana}, \\text{pera})$, y el $\\log(2/7)$ de la"
        " tabla.",
    ),
}


@pytest.mark.parametrize("kind", sorted(WRITTEN_AS_TEXT))
def test_lint_flags_math_written_as_text_in_prose(fake_course: Path, kind: str) -> None:
    """Math written as text in README.md and in class.toml's texts is flagged, on its line and
    in its field, with a hint that shows it as math; the prose's own signs are not."""
    from compmath.site import checks

    flagged, prose, (said, said_as_math), readme, field, example, rule, as_math = WRITTEN_AS_TEXT[
        kind
    ]
    course = small_course(fake_course)
    cls = load_course(course).classes[0]
    write = cls.readme.write_text
    write(f"{README_901}\n## Desarrollo\n\n{flagged}\n\n## Ejemplo\n\n{prose}\n", encoding="utf-8")
    meta = _describe_mitad(course, f'"{said}"')
    found = checks.site_problems(load_course(course))
    line = len(f"{README_901}\n## Desarrollo\n\n".splitlines()) + 1
    assert [what for p, what, _ in found if p == cls.readme] == [f"línea {line}: {readme}"]
    assert [what for p, what, _ in found if p == meta] == [
        f"la descripción de la salida mitad: {field}"
    ]
    assert all(example in hint for p, _, hint in found if p in (cls.readme, meta))
    words = getattr(checks, rule)
    assert [w for _, text in checks._prose(prose) for w in words(text)] == []  # code is code
    # the same written as math: nothing to say
    write(f"{README_901}\n## Desarrollo\n\n{as_math}\n\n## Ejemplo\n\n{prose}\n", encoding="utf-8")
    meta.write_text(meta.read_text("utf-8").replace(f'"{said}"', f"'{said_as_math}'"), "utf-8")
    left = checks.site_problems(load_course(course))
    assert [w for p, w, _ in left if p in (cls.readme, meta)] == []


def test_the_words_that_are_and_are_not_scripts() -> None:
    from compmath.site.checks import text_scripts

    scripts = "x_t W_Q ‖·‖_∞ ᾱ_(t−1) V^π n^0,8 σ*² V* Q*(s, h'_4 d_model 2^10 ε_θ(x_t (2d_k² max_a"
    assert text_scripts(scripts) == [
        "x_t", "W_Q", "‖·‖_∞", "ᾱ_(t−1)", "V^π", "n^0,8", "σ*²", "V*", "Q*(s", "h'_4",
        "d_model", "2^10", "ε_θ(x_t", "2d_k²", "max_a",
    ]  # fmt: skip
    names = ("pesos_de_atencion top_k gqa_2_grupos coseno_invariante_a_escala __init__ lab_x.py"
             " https://a.org/x_t www.b.org/y_z a*b 3 * 4 _énfasis_ **negrita** (_x) 10_000")  # fmt: skip
    assert text_scripts(names) == []


def test_markdown_leaves_the_stars_and_underscores_of_math_alone() -> None:
    """The five places issue #38 found eaten: 331's σ*² and μ*, 338's three ‖·‖_∞."""
    from compmath.site.checks import _prose, text_scripts

    course = load_course(REPO)
    readmes = {c.number: c.readme.read_text(encoding="utf-8") for c in course.classes}
    vae = next(p for p in readmes[331].split("\n\n") if "\\sigma^{*2}" in p and "\\mu^*" in p)
    bellman = next(p for p in readmes[338].split("\n\n") if p.count("\\|_\\infty") >= 3)
    for paragraph, mark, times in ((vae, "∗</mo>", 3), (bellman, "<mi>∞</mi>", 3)):
        html = markdown_html(paragraph)
        assert "$" not in html  # every formula rendered, none italicised
        assert all("<math" not in em for em in re.findall(r"<em>(.*?)</em>", html, re.S))
        assert html.count(mark) >= times  # σ*² twice and μ* once; ‖·‖_∞ three times
    sigma = markdown_html(r"con $\sigma^{*2} = 1$ y media $\mu^* = \sigma^{*2} w$ fin")
    assert "<em>" not in sigma and sigma.count("∗") == 3  # three stars, no italics
    norms = markdown_html(
        r"$\|V_k - V^*\|_\infty \le \gamma^k \|V_0 - V^*\|_\infty$, $\|T V^* - V^*\|_\infty$"
    )
    assert "<em>" not in norms and norms.count("<mi>∞</mi>") == 3
    # the same text as plain prose is what Markdown ate: lint names it
    eaten = "varianza σ*² = 1/(1 + w²/s²) y media μ* = σ*² w; ‖V_k − V*‖_∞ ≤ γ^k ‖V_0 − V*‖_∞"
    assert "<em>" in markdown_html(eaten)
    prose = " ".join(text for _, text in _prose(eaten))
    assert {"σ*²", "μ*", "V*‖_∞"} <= set(text_scripts(prose))


def test_a_fields_identifiers_between_backticks_are_code() -> None:
    from compmath.mathtext import plain_prose
    from compmath.site.markdown import inline_html

    field = r"Claves `t_1` … `t_1000` de $\bar\alpha_t$ <y> `a<b`."
    html = inline_html(field)
    assert html.startswith("Claves <code>t_1</code> … <code>t_1000</code> de <math>")
    assert html.endswith(" &lt;y&gt; <code>a&lt;b</code>.")
    assert plain_prose(field) == "Claves t_1 … t_1000 de ᾱₜ <y> a<b."
