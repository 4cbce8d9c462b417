"""The whole course as one printable book (`compmath site --pdf`): libro.html, then its PDF.

The book is made from the class pages the build has just written (their `<main>`, which the
site's own templates mark): a cover, a table of contents, and each class on pages of its own,
whose running head names it (a named CSS page per class, with margin boxes) and whose foot
numbers the page («12 de 149»). Chromium prints it, writing the PDF's outline from the headings.
Ids are prefixed per class (every class page has its own `#formulas`), and links between class
pages become links inside the book.

The contents give each chapter's page. Chromium's print has no `target-counter()`, so the book is
printed twice: the first PDF says where each chapter starts (its named destination, the target
of the contents' link), those numbers are written into the contents, and the book is printed
again; the numbers' box has the same width empty or full, so the pages do not move (checked: were
they to move, a third print is made, and they must hold there).
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import subprocess
from dataclasses import dataclass
from html import escape
from pathlib import Path

from compmath.atomic import write_atomic
from compmath.course.tree import Course
from compmath.errors import CompmathError
from compmath.site.render import class_url

BOOK = "libro.html"
PDF = "curso.pdf"
MAIN = re.compile(r'<main id="contenido" tabindex="-1">(.*?)</main>', re.S)
HEADING = re.compile(r"(<h([1-6])\b[^>]*>)(.*?)(</h\2>)", re.S)
IDENT = re.compile(r'\b(id|aria-labelledby|aria-describedby)="([^"]+)"')
LINK = re.compile(r'\b(href|src)="([^"]*)"')
CLASS_PAGE = re.compile(r"^(\d{3})-[a-z0-9-]+\.html$")
PRINT_SECONDS = 300  # Chromium printing ~150 A4 pages takes a few seconds; a hang is an error
PRINTS = 3  # the contents' numbers found by the first print; the others check they held


@dataclass(frozen=True)
class Chapter:
    """A class in the book: its number, its title, and its page's main content."""

    number: int
    title: str
    page: str  # the class page's path in the site, e.g. clases/323-positional-encoding.html
    html: str


def chapter_of(number: int, title: str, page: str, html: str) -> Chapter:
    """The class page's `<main>`, ready to stand inside the book."""
    found = MAIN.search(html)
    if found is None:
        raise CompmathError(
            f"la página {page} no tiene el contenido que genera compmath site",
            "vuelve a construir la web: compmath site",
        )
    return Chapter(number, title, page, found.group(1))


def _inside(chapter: Chapter, numbers: set[int]) -> str:
    """The chapter's HTML with its ids prefixed and its links made from the book's place."""
    prefix = f"c{chapter.number}-"
    html = IDENT.sub(
        lambda m: f'{m.group(1)}="{" ".join(prefix + v for v in m.group(2).split())}"',
        chapter.html,
    )
    # one space between words, none at the ends: the headings keep their spaces when printed
    html = HEADING.sub(lambda m: m.group(1) + " ".join(m.group(3).split()) + m.group(4), html)
    folder = posixpath.dirname(chapter.page)

    def link(match: re.Match[str]) -> str:
        attribute, target = match.groups()
        if target.startswith("#"):
            return f'{attribute}="#{prefix}{target[1:]}"'
        if re.match(r"^[a-z]+:", target):  # https:, mailto:, data:
            return match.group(0)
        path, _, anchor = target.partition("#")
        other = CLASS_PAGE.match(posixpath.basename(path))
        if other and int(other.group(1)) in numbers and posixpath.dirname(path) in ("", "."):
            # another class of the book: its chapter (its section when the link names one)
            number = other.group(1)
            return f'{attribute}="#c{number}{("-" + anchor) if anchor else ""}"'
        place = posixpath.normpath(posixpath.join(folder, path))
        return f'{attribute}="{place}{("#" + anchor) if anchor else ""}"'

    return LINK.sub(link, html)


def _css_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def book_html(
    title: str,
    subtitle: str,
    verified: str,
    chapters: list[Chapter],
    starts: dict[int, int] | None = None,
) -> str:
    """libro.html: cover, contents, every chapter on pages of its own with its running head.
    `starts`: the page where each chapter starts (the contents' numbers; blank without it)."""
    numbers = {c.number for c in chapters}
    heads = {c.number: _css_text(f"{c.number} · {c.title}") for c in chapters}
    pages = "\n".join(
        f'@page c{n} {{ @top-left {{ content: "{head}"; }} }}' for n, head in heads.items()
    )
    found = starts or {}
    contents = "\n".join(
        f'<li><a href="#c{c.number}"><span class="titulo">{c.number} {escape(c.title)}</span>'
        f' <span class="pagina">{found.get(c.number, "")}</span></a></li>'
        for c in chapters
    )
    body = "\n".join(
        f'<section class="capitulo" id="c{c.number}" style="page: c{c.number}">'
        f"{_inside(c, numbers)}</section>"
        for c in chapters
    )
    head = _css_text(title)
    return f"""<!DOCTYPE html>
<html lang="es">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<link rel="stylesheet" href="assets/estilo.css">
<link rel="stylesheet" href="assets/graficas.css">
<style>
@page {{ size: A4; margin: 18mm 14mm 16mm;
  @top-left {{ content: "{head}"; }}
  @bottom-center {{ content: counter(page) " de " counter(pages); }} }}
@page :first {{ @top-left {{ content: none; }} @bottom-center {{ content: none; }} }}
@page {{ @top-left {{ font: 8.5pt system-ui, sans-serif; color: #444; }}
  @bottom-center {{ font: 8.5pt system-ui, sans-serif; color: #444; }} }}
{pages}
.portada {{ break-after: page; padding-top: 30vh; }}
.portada h1 {{ font-size: 2.4rem; }}
.contenido {{ break-after: page; }}
.contenido ol {{ list-style: none; padding: 0; columns: 1; }}
.contenido a {{ display: flex; align-items: baseline; gap: 0.5em; }}
.contenido .titulo {{ flex: 1; }}
/* as wide empty as with its number: the second print lays the pages out as the first */
.contenido .pagina {{ flex: 0 0 4ch; text-align: right; font-variant-numeric: tabular-nums; }}
/* Chromium's outline joins a heading's lines without the space where it wrapped; a space kept
   (pre-wrap: a heading's whitespace is one space, _inside makes sure) is printed, and read */
h1, h2, h3, h4, h5, h6 {{ white-space: pre-wrap; }}
.capitulo {{ break-before: page; }}
.capitulo nav.vecinas {{ display: none; }}
</style>
</head>
<body>
<main id="contenido">
<section class="portada"><h1>{escape(title)}</h1>
<p class="subtitulo">{escape(subtitle)}</p>
<p>{escape(verified)}</p></section>
<nav class="contenido" aria-label="Índice"><h1>Índice</h1><ol>
{contents}
</ol></nav>
{body}
</main>
</body>
</html>
"""


def write_book(
    course: Course, out: Path, title: str, subtitle: str, starts: dict[int, int] | None = None
) -> Path:
    """libro.html in the built site `out`, from its class pages (the contents' page numbers
    from `starts`, blank without it); its path."""
    chapters = []
    for cls in course.classes:
        page = class_url(cls.id)
        path = out / page
        if path.is_file():
            chapters.append(
                chapter_of(cls.number, cls.title, page, path.read_text(encoding="utf-8"))
            )
    note = (
        "Cada número de este libro se comprobó contra la instantánea de su laboratorio al "
        "construir la web (compmath site)."
    )
    book = out / BOOK
    write_atomic(book, book_html(title, subtitle, note, chapters, starts).encode("utf-8"))
    return book


def require_pypdf() -> None:
    """pypdf reads where each chapter starts in the first print (the `pdf` extra)."""
    try:
        import pypdf  # noqa: F401
    except ImportError:
        raise CompmathError(
            "--pdf numera el índice con pypdf, y no está instalado",
            "instálalo con el extra pdf: pip install 'compmath[pdf]'",
        ) from None


def chapter_starts(pdf: Path) -> dict[int, int]:
    """Class number → the page (1 is the cover) where its chapter starts in the printed PDF:
    its named destination, which Chromium writes for the contents' link to it."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    starts = {}
    for name, destination in reader.named_destinations.items():
        found = re.fullmatch(r"/?c(\d+)", name)
        index = reader.get_destination_page_number(destination) if found else None
        if found and index is not None:
            starts[int(found.group(1))] = index + 1
    return starts


def print_book(course: Course, out: Path, title: str, subtitle: str) -> Path:
    """libro.html and its PDF, the contents numbered with the page of each chapter; the PDF."""
    pdf = out / PDF
    chapters = {c.number for c in course.classes if (out / class_url(c.id)).is_file()}
    starts: dict[int, int] = {}
    for _ in range(PRINTS):
        book = write_book(course, out, title, subtitle, starts)
        print_pdf(book, pdf)
        printed = {n: page for n, page in chapter_starts(pdf).items() if n in chapters}
        if printed.keys() != chapters:
            lost = ", ".join(str(n) for n in sorted(chapters - printed.keys()))
            raise CompmathError(
                f"el PDF no dice dónde empiezan los capítulos {lost} (Chromium no los marcó)",
                "comprueba la versión de Chromium: chromium --version; libro.html sigue ahí",
            )
        if printed == starts:
            return pdf
        starts = printed
    raise CompmathError(
        f"las páginas de los capítulos cambian en cada impresión ({PRINTS} impresiones)",
        "avisa a quien mantiene compmath; libro.html sigue ahí para imprimirlo desde el navegador",
    )


def chromium() -> str:
    """The Chromium that prints the book: COMPMATH_CHROMIUM, or the usual names on PATH."""
    explicit = os.environ.get("COMPMATH_CHROMIUM")
    names = [explicit] if explicit else ["chromium", "chromium-browser", "google-chrome"]
    for name in names:
        found = shutil.which(name) if name else None
        if found:
            return found
    raise CompmathError(
        "--pdf imprime el libro con Chromium, y no se encuentra",
        "instálalo (apt-get install chromium) o indica su ruta en COMPMATH_CHROMIUM",
    )


def print_pdf(book: Path, pdf: Path) -> None:
    """Print libro.html to the PDF with Chromium, headless, the outline from the headings."""
    flags = ["--headless", "--disable-gpu", "--no-pdf-header-footer", "--no-first-run"]
    if os.geteuid() == 0:  # Chromium refuses to run as root inside its own sandbox
        flags.append("--no-sandbox")
    partial = pdf.with_name(pdf.name + ".parcial")
    command = [
        chromium(),
        *flags,
        "--generate-pdf-document-outline",
        f"--print-to-pdf={partial}",
        book.resolve().as_uri(),
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=PRINT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        partial.unlink(missing_ok=True)
        raise CompmathError(
            f"Chromium no terminó de imprimir el libro en {PRINT_SECONDS} s",
            "vuelve a probar; si se repite, imprime libro.html desde el navegador",
        ) from None
    if done.returncode != 0 or not partial.is_file() or partial.stat().st_size == 0:
        partial.unlink(missing_ok=True)
        last = (done.stderr.strip().splitlines() or ["sin mensaje"])[-1][:200]
        raise CompmathError(
            f"Chromium no pudo imprimir el libro ({last})",
            "comprueba que Chromium abre páginas sin pantalla: chromium --headless --version",
        )
    partial.replace(pdf)  # the PDF appears whole or not at all
