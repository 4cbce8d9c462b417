"""The site's pages as HTML: the class page document, the parts and the home page, through the
Jinja templates in templates/ (autoescaped; only MathML, prose, code and charts come in as HTML)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from compmath.course.index import ClassState, IndexRow
from compmath.course.params import SPANISH_TYPES
from compmath.course.records import ChartSpec, CourseMeta, PartMeta
from compmath.present.page import ClassPage, Neighbour, abridge, shown_default
from compmath.present.page_screen import neighbour_text
from compmath.site import citations
from compmath.site.charts import chart_html, extent, look_of, series_of
from compmath.site.crossrefs import link_classes
from compmath.site.highlight import highlight_html, highlight_json
from compmath.site.markdown import inline_html, markdown_html
from compmath.site.mathml import LatexError, to_mathml
from compmath.site.numbering import number_formulas
from compmath.site.verify import Verification
from compmath.wording import count

TEMPLATES = Path(__file__).resolve().parent / "templates"
MONTHS = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)
OUTLINE = (
    ("formulas", "Fórmulas"),
    ("desarrollo", "Desarrollo"),
    ("ejemplo", "Ejemplo trabajado"),
    ("calcula", "Qué calcula"),
    ("salidas", "Salidas"),
    ("muestra", "Muestra de la ejecución"),
    ("errores", "Errores comunes"),
    ("usos", "Dónde se usa"),
    ("ideas", "Ideas de la parte"),
    ("bibliografia", "Bibliografía"),
    ("archivos", "Archivos"),
)
SOURCE_PAGES = {"lab.py": "El laboratorio", "expected.json": "La instantánea de la salida"}


class FormulaError(Exception):
    """A class's formula whose LaTeX does not convert: which one, and why."""

    def __init__(self, index: int, latex: str, reason: str) -> None:
        super().__init__(reason)
        self.index, self.latex, self.reason = index, latex, reason


SAMPLE_OUTPUTS = 8  # the JSON sample's outputs: the whole snapshot is a link away


def class_url(class_id: str) -> str:
    return f"clases/{class_id}.html"


def source_url(class_id: str, name: str) -> str:
    return f"clases/{class_id}/{name}.html"


def bib_url(class_id: str) -> str:
    """The class's bibliography as BibTeX, beside its source pages."""
    return f"clases/{class_id}/bibliografia.bib"


COURSE_BIB = "bibliografia.bib"  # every class's entries, at the site's root


def part_url(number: int) -> str:
    return f"parte-{number}.html"


def spanish_date(iso: str) -> str:
    """An ISO 8601 UTC time as a reader's date: 30 de noviembre de 2025, 05:50 UTC."""
    day, _, time = iso.partition("T")
    year, month, dd = day.split("-")
    return f"{int(dd)} de {MONTHS[int(month) - 1]} de {year}, {time[:5]} UTC"


@cache
def environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["desde"] = relative_to
    env.filters["zip"] = zip
    env.filters["prosa"] = _prose  # a class.toml text with its `$…$` as MathML
    return env


def _prose(text: str) -> Any:
    from markupsafe import Markup

    return Markup(inline_html(text))


def relative_to(target: str, page: str) -> str:
    """A site path as a link from the page at `page` (both from the site's root): the sidebar's
    twenty links stay short on every page of the same folder."""
    import posixpath

    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def render(template: str, depth: int, course: CourseMeta, **context: Any) -> str:
    """Render a template for a page `depth` folders below the site's root."""
    base = "../" * depth
    context.setdefault("sidebar", None)
    context.setdefault("outline", ())
    context.setdefault("url", "")
    context.setdefault("book", False)
    return str(environment().get_template(template).render(base=base, course=course, **context))


@dataclass(frozen=True)
class Row:
    """A class in a table of classes: its link (none while pending) and its status."""

    number: int
    title: str
    level: str
    duration: str
    url: str
    status: str
    css: str


def status_row(row: IndexRow, ids: dict[int, str], verifications: dict[str, Verification]) -> Row:
    """An index row with the verification status the build found for its class."""
    class_id = ids.get(row.number)
    if row.state == ClassState.PENDING or class_id is None:
        return Row(row.number, row.title, row.level, row.duration, "", "pendiente", "pendiente")
    found = verifications.get(class_id)
    if found is None or row.state != ClassState.READY:
        status, css = str(row.state), "rota"
    elif found.verified:
        status, css = f"verificada ({found.when[:10]})", "verificada"
    else:
        status, css = "sin verificar", "no-verificada"
    return Row(row.number, row.title, row.level, row.duration, class_url(class_id), status, css)


@dataclass(frozen=True)
class PartView:
    """A part as the home page and its own page show it."""

    number: int
    heading: str
    meta: PartMeta
    rows: tuple[Row, ...]

    @property
    def url(self) -> str:
        return part_url(self.number)

    @property
    def planned(self) -> str:
        """`12 clases`, `1 clase`: how many classes the part's plan holds."""
        return count(len(self.rows), "clase", "clases")

    @property
    def facts(self) -> str:
        return " · ".join(f for f in (self.meta.level, self.meta.duration, self.planned) if f)


def home_page(
    course: CourseMeta, parts: list[PartView], summary: str, *, book: bool = False
) -> str:
    """The home page; with `book`, it links the whole course as a book (libro.html, curso.pdf)."""
    return render("home.html", 0, course, parts=parts, summary=summary, book=book)


def part_page(course: CourseMeta, part: PartView, *, book: bool = False) -> str:
    """A part's page; with `book`, it links the whole course as a book."""
    return render("part.html", 0, course, part=part, sidebar=part, url=part.url, book=book)


def search_page(course: CourseMeta) -> str:
    return render("search.html", 0, course)


def _neighbour(link: Neighbour | None, arrow: str) -> dict[str, str]:
    text = neighbour_text(link, arrow).strip("←→ ")
    if link is None:
        return {"label": text, "url": "index.html" if arrow == "←" else ""}
    return {"label": text, "url": class_url(link.class_id) if link.in_course else ""}


def formulas(page: ClassPage) -> list[dict[str, str]]:
    """Each formula as MathML (its LaTeX form) or as its plain text; FormulaError on bad LaTeX."""
    shown = []
    for i, formula in enumerate(page.formulas, 1):
        mathml = ""
        if formula.latex:
            try:
                mathml = to_mathml(formula.latex)
            except LatexError as exc:
                raise FormulaError(i, formula.latex, str(exc)) from None
        shown.append({"text": formula.text, "mathml": mathml})
    return shown


def class_sections(page: ClassPage) -> dict[str, Any]:
    """What a class page shows that no verdict changes (made while the labs run): formulas as
    MathML, the prose, the parameters, the JSON sample, the charts, the files; FormulaError on
    bad LaTeX."""
    charts, charted = [], []
    specs = {o.name: o for o in page.outputs}
    drawn = {}
    for name, value in (page.sample or {}).items():
        spec = specs.get(name)
        series = series_of(name, value)
        if series is not None and (spec is None or spec.chart.drawn):
            drawn[name] = series
    for name, series in drawn.items():
        spec = specs.get(name)
        chart, description = (spec.chart, spec.description) if spec else (ChartSpec(), "")
        # two tables compared share one colour scale: the extent of both
        partner = drawn.get(chart.scale)
        scale = None
        if partner is not None:
            ends = (*extent(series), *extent(partner))
            scale = (min(ends), max(ends))
        look = look_of(series, chart, description, scale)
        charts.append(chart_html(series, f"grafica-{name}", look))
        charted.append(name)
    files = [
        {
            "name": name,
            "role": role,
            "url": source_url(page.class_id, name) if name in SOURCE_PAGES else "",
        }
        for name, role in page.files
    ]
    parameters = [
        {
            "name": s.name,
            "kind": f"{s.type_name or '?'} ({SPANISH_TYPES.get(s.type_name, 'sin tipo')})",
            "default": shown_default(s),
        }
        for s in page.parameters.specs
    ]
    return {
        "formulas": formulas(page),
        "development": markdown_html(page.development, "desarrollo") if page.development else "",
        "example": markdown_html(page.example, "ejemplo") if page.example else "",
        "parameters": parameters,
        "sample": (
            highlight_json(abridge(page.sample, outputs=SAMPLE_OUTPUTS))
            if page.sample is not None
            else None
        ),
        "charts": charts,
        "charted": charted,
        "files": files,
    }


def class_html(
    page: ClassPage,
    course: CourseMeta,
    found: Verification,
    notebooks: Sequence[tuple[str, str]] = (),
    colab: str | None = None,
    sidebar: PartView | None = None,
    sections: dict[str, Any] | None = None,
    classes: Mapping[int, str] | None = None,
) -> str:
    """The class page: every section of the document, in the seed page's order; `notebooks`
    are (label, path in the site) of its Jupyter notebooks, `colab` the «Abrir en Colab» link,
    `sections` its class_sections when they were made beforehand, `classes` the site path of
    every class page by number (its «clase 3NN» mentions link there)."""
    url = class_url(page.class_id)
    links = {number: relative_to(path, url) for number, path in (classes or {}).items()}
    html = render(
        "class.html",
        1,
        course,
        page=page,
        url=url,
        part_url=part_url(page.part.number),
        verification=found,
        verified_on=spanish_date(found.when),
        snapshot_url=source_url(page.class_id, "expected.json"),
        notebooks=[{"label": label, "url": url} for label, url in notebooks],
        colab=colab,
        previous=_neighbour(page.previous, "←"),
        next=_neighbour(page.next, "→"),
        sidebar=sidebar,
        outline=OUTLINE,
        reference_keys=citations.keys(page.references),
        bib_url=bib_url(page.class_id),
        **(class_sections(page) if sections is None else sections),
    )
    html = citations.link_citations(link_classes(html, links, page.number), page.references)
    return number_formulas(html)


def source_html(
    page: ClassPage, course: CourseMeta, name: str, text: str, sidebar: PartView | None = None
) -> str:
    """A class's file as a page of highlighted code."""
    return render(
        "source.html",
        2,
        course,
        page=page,
        name=name,
        role=SOURCE_PAGES[name],
        code=highlight_html(text, name),
        lines=count(text.count("\n"), "línea", "líneas") if text.count("\n") else "",
        url=source_url(page.class_id, name),
        class_url=class_url(page.class_id),
        part_url=part_url(page.part.number),
        sidebar=sidebar,
    )
