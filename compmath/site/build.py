"""`compmath site`: verify the course's numbers, then write its pages, each only when what it is
made of changed (content-keyed: a manifest in the output folder holds each page's key)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.index import part_index
from compmath.course.tree import ClassInfo, Course, PartInfo
from compmath.errors import CompmathError
from compmath.judging.report import Outcome
from compmath.notebook.build import colab_url, notebook_bytes, notebook_path
from compmath.notebook.freshness import up_to_date
from compmath.present.page import ClassPage, class_page
from compmath.site import citations, render
from compmath.site.apart import Apart
from compmath.site.assets import ASSETS, asset_contents
from compmath.site.checks import (
    course_notebooks,
    math_field,
    missing_colab_notebooks,
    record_practising,
)
from compmath.site.markdown import InlineMathError
from compmath.site.mathml_compact import unquote_math
from compmath.site.search import Entry, entry, index_script
from compmath.site.sentences import script_name, sentence_runs, sentences_script
from compmath.site.verify import Verification, class_files, code_fingerprint, files_digest, verify
from compmath.wording import count

MANIFEST = ".compmath-web.json"
TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class BuildResult:
    """What a build did: the verdicts, the pages it wrote or kept, and its timings."""

    verifications: dict[str, Verification]
    written: int = 0
    kept: int = 0
    removed: int = 0
    verify_seconds: float = 0.0
    write_seconds: float = 0.0
    stale: list[Verification] = field(default_factory=list)
    missing_notebooks: list[str] = field(default_factory=list)  # «Abrir en Colab» would 404

    @property
    def published(self) -> bool:
        return self.written + self.kept > 0


@dataclass(frozen=True)
class Target:
    """One file of the site: its path in the output folder, its key and how to make it."""

    path: str
    key: str
    make: Callable[[], str | bytes]
    owner: str = ""  # the class whose files it is made of, if one


def _key(*pieces: str) -> str:
    return hashlib.sha256("\0".join(pieces).encode()).hexdigest()


class Site:
    """The course being built: its pages' keys and, only when a page must be written, its HTML."""

    def __init__(self, course: Course, *, book: bool = False) -> None:
        self.course = course
        self.book = book  # the home and part pages link the book (compmath site --pdf)
        self.found: dict[str, Verification] = {}
        self.meta = course.meta
        self.classes = course.classes
        self.digests = {c.id: files_digest(class_files(c)) for c in self.classes}
        templates = files_digest(sorted(TEMPLATES.iterdir()))
        shared = [course.meta_path, *(p.meta_path for p in course.parts)]
        self._pages: dict[str, ClassPage] = {}
        self._sections: dict[str, dict[str, Any]] = {}
        self._assets: dict[str, bytes] = {}
        self._committed: dict[str, bytes | None] = {}  # see committed()
        # every page's sidebar lists its part's classes: their titles are part of every key
        self.sidebars = {p.number: self._part_view(p.number, {}) for p in course.parts}
        titles = [f"{r.number} {r.title} {r.url}" for v in self.sidebars.values() for r in v.rows]
        self.base = _key(
            code_fingerprint(),
            templates,
            files_digest(shared),
            *(c.id for c in self.classes),
            *titles,
        )

    def page(self, cls: ClassInfo) -> ClassPage:
        if cls.id not in self._pages:
            self._pages[cls.id] = class_page(self.course, cls)
        return self._pages[cls.id]

    def prepare(self, classes: list[ClassInfo]) -> None:
        """Make what the class pages of `classes` show that no verdict changes, and compile the
        judged pages' templates, before the verdicts come (FormulaError on bad LaTeX)."""
        for cls in classes:
            self._sections[cls.id] = render.class_sections(self.page(cls))
        for name in ("class.html", "part.html", "home.html") if classes else ():
            render.environment().get_template(name)

    def verdict(self, class_id: str) -> str:
        found = self.found[class_id]
        return f"{found.outcome}\0{found.when}\0{found.message}"

    def early_targets(self) -> Iterator[Target]:
        """The files that do not depend on any verdict: made while the labs run."""
        yield Target("buscar.html", self.base, partial(render.search_page, self.meta))
        every_class = _key(self.base, *self.digests.values())
        yield Target("assets/indice-busqueda.js", every_class, self.search_index)
        yield from self.sentence_targets()
        for cls in self.classes:
            for name in render.SOURCE_PAGES:
                if (cls.path / name).exists():
                    yield Target(
                        render.source_url(cls.id, name),
                        _key(self.base, self.digests[cls.id]),
                        partial(self.source, cls, name),
                        cls.id,
                    )
        # the .bib files change only with the bibliographies (not with a page's prose)
        bibs = {c.id: _key(self.base, repr(c.meta.references)) for c in self.classes}
        for cls in self.classes:
            yield Target(
                render.bib_url(cls.id),
                bibs[cls.id],
                partial(citations.bibtex, cls.meta.references),
                cls.id,
            )
        yield Target(render.COURSE_BIB, _key(self.base, *bibs.values()), self.course_bib)
        for cls in self.classes:
            for path, practice in self.notebooks(cls):
                committed = (
                    files_digest([self.course.root / notebook_path(cls, practice=True)])
                    if practice
                    else ""
                )
                key = _key(self.base, self.digests[cls.id], path, committed)
                yield Target(path, key, partial(self.notebook, cls, practice), cls.id)
        yield from self.assets()

    def assets(self) -> Iterator[Target]:
        """The static files, keyed by their sources and Pygments' version (the stylesheets hold
        its colours): made by a child, not before the labs start."""
        from pygments import __version__ as pygments

        for path in sorted(p for p in ASSETS.rglob("*") if p.is_file()):
            name = f"assets/{path.relative_to(ASSETS).as_posix()}"
            key = _key(self.base, files_digest([path]), pygments)
            yield Target(name, key, partial(self.asset, name))

    def course_bib(self) -> str:
        return citations.course_bibtex({c.id: c.meta.references for c in self.classes})

    def asset(self, name: str) -> bytes:
        if not self._assets:
            self._assets = dict(asset_contents())
        return self._assets[name]

    def judged_targets(self, found: dict[str, Verification]) -> Iterator[Target]:
        """The pages that show verdicts: the class pages, the parts and the home page."""
        self.found = found
        class_keys = {
            c.id: _key(self.base, self.digests[c.id], self.verdict(c.id)) for c in self.classes
        }
        linked = "libro" if self.book else ""
        yield Target("index.html", _key(self.base, linked, *class_keys.values()), self.home)
        for part in self.course.parts:
            key = _key(self.base, linked, *(class_keys[c.id] for c in part.classes))
            yield Target(render.part_url(part.number), key, partial(self.part, part))
        for cls in self.classes:
            yield Target(
                render.class_url(cls.id), class_keys[cls.id], partial(self.class_html, cls)
            )

    def notebooks(self, cls: ClassInfo) -> list[tuple[str, bool]]:
        """(path in the site, practice?) of the class's notebooks: the whole one when it has a
        snapshot, the practice one when it also has holes."""
        return course_notebooks(cls)

    def notebook(self, cls: ClassInfo, practice: bool) -> bytes:
        committed = self.committed(cls) if practice else None
        if committed is not None:
            return committed
        page = self.page(cls)
        return notebook_bytes(self.course, cls, practice=practice, validate=False, page=page)

    def committed(self, cls: ClassInfo) -> bytes | None:
        """The course's own practice notebook of `cls` (cuadernos/practica/, what «Abrir en
        Colab» opens), when it is today's in everything but what the course's lab recorded: the
        site serves it rather than run every lab at every variant to record it again (lint
        checks the recordings). None: there is none, or it is behind (the site makes its own)."""
        if cls.id not in self._committed:
            path = self.course.root / notebook_path(cls, practice=True)
            found: bytes | None = None
            if path.is_file():
                data = path.read_bytes()
                made = notebook_bytes(
                    self.course,
                    cls,
                    practice=True,
                    validate=False,
                    page=self.page(cls),
                    recorded=False,
                )
                found = data if up_to_date(data, made, recordings=False) else None
            self._committed[cls.id] = found
        return self._committed[cls.id]

    def class_html(self, cls: ClassInfo) -> str:
        page = self.page(cls)
        labels = {False: "el cuaderno (.ipynb)", True: "la versión de práctica (.ipynb)"}
        notebooks = [(labels[practice], path) for path, practice in self.notebooks(cls)]
        colab = colab_url(self.course, notebook_path(cls)) if notebooks else None
        try:
            return render.class_html(
                page,
                self.meta,
                self.found[cls.id],
                notebooks,
                colab,
                self.sidebars[cls.part.number],
                self._sections.get(cls.id),
                {c.number: render.class_url(c.id) for c in self.classes},
            )
        except render.FormulaError as exc:
            raise CompmathError(
                f"la fórmula {exc.index} de la clase {cls.id} no es LaTeX válido: {exc.reason}",
                f"corrige su campo latex en {self.course.rel(cls.meta_path)} ({exc.latex})",
            ) from None
        except InlineMathError as exc:
            raise CompmathError(
                f"{math_field(cls, exc.latex)} de la clase {cls.id} tiene una fórmula entre"
                f" dólares que no es LaTeX válido: {exc}",
                f"corrígela en {self.course.rel(cls.meta_path)} (${exc.latex}$)",
            ) from None

    def source(self, cls: ClassInfo, name: str) -> str:
        text = (cls.path / name).read_text(encoding="utf-8")
        sidebar = self.sidebars[cls.part.number]
        return render.source_html(self.page(cls), self.meta, name, text, sidebar)

    def _part_view(
        self, part_number: int, found: dict[str, Verification] | None = None
    ) -> render.PartView:
        part = self.course.part(part_number)
        index = part_index(part)
        ids = {c.number: c.id for c in part.classes}
        verdicts = self.found if found is None else found
        rows = tuple(render.status_row(r, ids, verdicts) for r in index.rows)
        return render.PartView(index.number, index.heading, part.meta, rows)

    def part(self, part: PartInfo) -> str:
        return render.part_page(self.meta, self._part_view(part.number), book=self.book)

    def home(self) -> str:
        parts = [self._part_view(p.number) for p in self.course.parts]
        verified = [v for v in self.found.values() if v.verified]
        summary = (
            f"{len(verified)} de {count(len(self.found), 'clase', 'clases')} con los números "
            "verificados: cada laboratorio se ejecutó y su salida coincide con su instantánea."
        )
        return render.home_page(self.meta, parts, summary, book=self.book)

    def searchable(self) -> Iterator[tuple[str, str, Callable[[], SearchPage]]]:
        """Every page the search finds: its address, the key of what it is made of, and how to
        read it (only when a file made from it must be written: a class's page costs)."""
        for part in self.course.parts:
            yield render.part_url(part.number), self.base, partial(_part_search_page, part)
        for cls in self.classes:
            key = _key(self.base, self.digests[cls.id])
            yield render.class_url(cls.id), key, partial(self._class_search_page, cls)

    def _class_search_page(self, cls: ClassInfo) -> SearchPage:
        page = self.page(cls)
        texts = [page.development, page.example, page.computes, page.uses]
        texts += [*page.common_errors, *(o.description for o in page.outputs)]
        outputs = [o.name for o in page.outputs]
        title = f"{page.number} {page.title}"
        return SearchPage(render.class_url(cls.id), title, page.lemma, outputs, texts)

    def search_index(self) -> str:
        entries: list[Entry] = []
        for _, _, read in self.searchable():
            found = read()
            prose = " ".join(found.texts)
            entries.append(entry(found.url, found.title, found.lemma, found.outputs, prose))
        return index_script(entries)

    def sentence_targets(self) -> Iterator[Target]:
        """Each searchable page's sentences, which the search page loads for its results."""
        for url, key, read in self.searchable():
            yield Target(script_name(url), _key(key, "frases"), partial(_sentences, read))


@dataclass(frozen=True)
class SearchPage:
    """What the search knows of a page: the index's fields and the Markdown it quotes."""

    url: str
    title: str
    lemma: str
    outputs: list[str]
    texts: list[str]


def _part_search_page(part: PartInfo) -> SearchPage:
    meta = part.meta
    texts = [meta.guiding_idea, meta.error_to_avoid, meta.ai_connection]
    title = f"Parte {part.number} — {meta.title}"
    return SearchPage(render.part_url(part.number), title, meta.guiding_idea, [], texts)


def _sentences(read: Callable[[], SearchPage]) -> str:
    found = read()
    return sentences_script(found.url, sentence_runs(found.texts))


def _read_manifest(out: Path) -> dict[str, str]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


Content = str | bytes | None  # None: kept, the file on disk has this key
Made = tuple[Target, Content]


def make_changed(targets: Iterator[Target], old: dict[str, str], out: Path) -> list[Made]:
    """Make the targets whose key differs from the previous build's (or whose file is gone)."""
    return [(t, None if _kept(t, old, out) else t.make()) for t in targets]


def _kept(target: Target, old: dict[str, str], out: Path) -> bool:
    """Whether the previous build wrote this file with this key, and it is still there."""
    return old.get(target.path) == target.key and (out / target.path).exists()


def _shares(early: list[Target]) -> list[list[Target]]:
    """The early files in two shares of about equal work, one per forked child, where there
    are two cores (else one share): the notebooks (the class pages follow them); the
    highlighted sources, the search and the assets."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cores or 1) < 2:
        return [early]
    notebooks = [t for t in early if t.path.endswith(".ipynb")]
    return [notebooks, [t for t in early if not t.path.endswith(".ipynb")]]


def _write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, content, durable=False)  # a page can be made again: no fsync


def write_made(made: list[Made], out: Path) -> int:
    """Write what was made (the rest is kept); how many files were written."""
    written = 0
    for target, content in made:
        if content is not None:
            if isinstance(content, str) and target.path.endswith(".html"):
                content = unquote_math(content)  # HTML only: after every XML reader of it
            _write(out / target.path, content)
            written += 1
    return written


def end_site(targets: list[Target], old: dict[str, str], out: Path) -> int:
    """Remove the files of a previous build that are gone, write the manifest; how many went."""
    current = {t.path: t.key for t in targets}
    gone = old.keys() - current.keys()
    for path in gone:
        (out / path).unlink(missing_ok=True)
    _write(out / MANIFEST, json.dumps(current, indent=1, sort_keys=True))
    return len(gone)


def _remove_book(out: Path) -> int:
    """Remove the book and its PDF a `compmath site --pdf` left in `out`; how many there were."""
    from compmath.site.book import BOOK, PDF

    gone = [out / name for name in (BOOK, PDF) if (out / name).is_file()]
    for path in gone:
        path.unlink()
    return len(gone)


Child = Apart[list[Made], int]  # a forked child: what it made first, then how many it wrote


def _children(site: Site, early: list[Target], old: dict[str, str], out: Path) -> list[Child]:
    """The forked children of a build, started: none when every early file is kept (the
    judged pages that changed are then made in this process)."""
    shares = _shares(early)
    # the classes whose pages are made again (all, the first time): their class pages are
    # made once, here, for both children
    again = {t.owner for t in early if t.owner and not _kept(t, old, out)}
    remade = [c for c in site.classes if c.id in again or render.class_url(c.id) not in old]
    if not remade and all(_kept(t, old, out) for t in early):
        return []
    for cls in remade:
        site.page(cls)

    def start(share: int) -> list[Made]:
        notebooks = {
            t.owner for t in shares[share] if t.path.endswith(".ipynb") and not _kept(t, old, out)
        }
        # a committed practice notebook that is today's needs no recording (Site.committed)
        record_practising(
            [c for c in site.classes if c.id in notebooks and site.committed(c) is None]
        )
        made = make_changed(iter(shares[share]), old, out)
        if share == 0:  # the class pages are the first child's
            site.prepare(remade)
        return made

    def publish(share: int, made: list[Made], verdicts: dict[str, Verification]) -> int:
        """A child's part once the verdicts let the site be written: the judged pages made
        (the first child), and its files written."""
        judged = list(site.judged_targets(verdicts)) if share == 0 else []
        return write_made(made + make_changed(iter(judged), old, out), out)

    return [Apart(partial(start, k), partial(publish, k)) for k in range(len(shares))]


def _written(
    children: list[Child],
    answers: list[int | None],
    targets: list[Target],
    old: dict[str, str],
    out: Path,
) -> int:
    """How many files the children wrote; when there was none, or one failed, the files are
    made and written here (where a page's error is reported)."""
    counts = [n for n in answers if n is not None]
    if children and len(counts) == len(answers):
        return sum(counts)
    return write_made(make_changed(iter(targets), old, out), out)


def build_site(
    course: Course,
    out: Path,
    jobs: int,
    timeout: float,
    memory: int,
    *,
    allow_stale: bool = False,
    book: bool = False,
    on_done: Callable[[str], None] | None = None,
) -> BuildResult:
    """Verify every lab, then write the site; a stale lab stops the build before anything is
    written, unless `allow_stale` (its page then says it is not verified). With `book` its home
    and part pages link the book the caller writes next (book.py); without, a book a previous
    build left is removed (no page links it, and it is not this build's).

    While the labs run on the worker, two forks of this process (apart.py) make the files no
    verdict changes: one the notebooks and what the class pages show beside their verdict,
    the other the highlighted sources, the search and the assets. Sent the verdicts, the
    first makes the judged pages; each writes its files. This process judges the labs, then
    writes the manifest.
    """
    course.require_unique()
    started = time.perf_counter()
    site = Site(course, book=book)
    old = _read_manifest(out)
    early = list(site.early_targets())
    children = _children(site, early, old, out)
    try:
        found = verify(course, course.classes, site.digests, jobs, timeout, memory, on_done)
        verify_seconds = time.perf_counter() - started
        setup = [v for v in found.values() if v.outcome == Outcome.SETUP]
        if setup:
            raise CompmathError(f"la clase {setup[0].class_id}: {setup[0].message}", setup[0].hint)
        stale = [v for v in found.values() if not v.verified]
        if stale and not allow_stale:
            return BuildResult(found, verify_seconds=verify_seconds, stale=stale)
        for child in children:
            child.send(found)
        answers = [child.finish(found) for child in children]
    finally:
        for child in children:
            child.close()
    judged = list(site.judged_targets(found))
    written = _written(children, answers, [*early, *judged], old, out)
    removed = end_site([*early, *judged], old, out)
    if not book:
        removed += _remove_book(out)
    return BuildResult(
        found,
        written,
        len(early) + len(judged) - written,
        removed,
        verify_seconds,
        time.perf_counter() - started - verify_seconds,
        stale,
        missing_colab_notebooks(course),
    )
