"""The real course's site in a real browser: Debian's Chromium driven by Playwright, headless.

Needs `apt-get install chromium` (Playwright's own browser download does not work on these
machines) and, for the validator and the accessibility checker, Java plus the npm packages
vnu-jar and axe-core at the versions .ci/navegador locks
(`npm ci --prefix .ci/navegador --ignore-scripts`). Without them these tests skip saying
so; `.ci/run` installs them all and sets COMPMATH_REQUIRE_BROWSER=1, which turns a skip into a
failure. Screenshots of class 323 and of the search's results go to $COMPMATH_ARTIFACTS/capturas
(default artifacts/).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from compmath.course.tree import load_course
from compmath.site.charts import series_of
from compmath.site.search import fold
from tests.conftest import REPO

pytestmark = pytest.mark.lento  # a real browser over the built site

REQUIRE = os.environ.get("COMPMATH_REQUIRE_BROWSER", "").strip() not in ("", "0")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]  # fmt: skip
CHROMIUM_HINT = "instala Chromium (apt-get install chromium) y pip install -e '.[test]'"
NODE_HINT = "instala Java y npm ci --prefix .ci/navegador --ignore-scripts"
CLASS_323 = "clases/323-positional-encoding.html"


def missing(reason: str) -> None:
    """Skip for lack of a tool, or fail when CI asked for every browser test to run."""
    if REQUIRE:
        pytest.fail(f"COMPMATH_REQUIRE_BROWSER está definido y falta algo: {reason}")
    pytest.skip(reason)


def chromium_path() -> str | None:
    explicit = os.environ.get("COMPMATH_CHROMIUM")
    candidates = [explicit] if explicit else ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    candidates += [shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def node_package(name: str, relative: str) -> Path | None:
    """A file of an npm package: under COMPMATH_NODE_MODULES, .ci/navegador or the global ones."""
    roots = [os.environ.get("COMPMATH_NODE_MODULES", ""), str(REPO / ".ci/navegador/node_modules")]
    if shutil.which("npm"):
        found = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, check=False)
        roots.append(found.stdout.strip())
    for root in filter(None, roots):
        path = Path(root) / name / relative
        if path.is_file():
            return path
    return None


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real course's site, built once per run (its labs verified) into a temporary folder
    the run's workers share: the slow tests of this file run on several workers
    (tests/scheduling.py), and the first to need the site builds it while the others wait on the
    lock. The tests only read it."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out, done = shared / "web-del-curso", shared / "web-del-curso.hecha"
    with open(shared / "web-del-curso.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a build an earlier worker left unfinished
            cache = tmp_path_factory.mktemp("cache")
            env = {**os.environ, "COMPMATH_CACHE": str(cache), "NO_COLOR": "1"}
            env.pop("CI", None)
            built = subprocess.run(
                [sys.executable, "-m", "compmath.entry", "site", "--root", str(REPO), "--out",
                 str(out)],
                cwd=REPO, env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert built.returncode == 0, built.stdout + built.stderr
            done.touch()
    return out


def pages(site: Path) -> list[Path]:
    """Every page of the site (63 for the real course)."""
    return sorted(site.rglob("*.html"))


# The sweeps that run axe-core on every page in five views take minutes: by default they look at
# pages of every kind and the classes with the widest formulas, code and charts; CI sets
# COMPMATH_NAVEGADOR=todas and they look at every page.
ALL_PAGES = os.environ.get("COMPMATH_NAVEGADOR", "") == "todas"
SAMPLE = (
    "index.html", "buscar.html", "parte-16.html",
    "clases/323-",  # its page, its lab.py and its expected.json
    "clases/328-rope-y-alibi.html", "clases/332-difusion-proceso-directo.html",
    "clases/333-gan-juego-minimax.html", "clases/339-q-learning.html",
)  # fmt: skip


def swept(site: Path) -> list[Path]:
    """The pages the slow sweeps look at: every page with COMPMATH_NAVEGADOR=todas, else a sample."""
    found = pages(site)
    if ALL_PAGES:
        return found
    return [p for p in found if str(p.relative_to(site)).startswith(SAMPLE)]


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, closed on the way out; without either the test
    is skipped saying how to get it (a failure with COMPMATH_REQUIRE_BROWSER)."""
    executable = chromium_path()
    if executable is None:
        missing(f"no se encuentra Chromium: {CHROMIUM_HINT}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing(f"falta el paquete playwright: {CHROMIUM_HINT}")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium per worker for the whole run: this file's tests are spread over the
    workers one by one (tests/scheduling.py), so a worker comes back to them between others."""
    with chromium() as launched:
        yield launched


def open_page(browser: Any, width: int = 1280, scheme: str = "light") -> Any:
    return browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)


def test_every_page_loads_with_no_error_and_no_outside_request(browser: Any, site: Path) -> None:
    problems: list[str] = []
    page = open_page(browser)
    page.on("console", lambda m: problems.append(f"consola: {m.text}") if m.type == "error" else 0)
    page.on("pageerror", lambda e: problems.append(f"excepción: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"petición fallida: {r.url}"))
    page.on("request", lambda r: r.url.startswith("file://") or problems.append(f"fuera: {r.url}"))
    for path in pages(site):
        page.goto(path.as_uri())
        # judge requests only once the math font has loaded: it may still be on its way at
        # "load", and leaving the page then would report it as a failed request
        page.evaluate("document.fonts.ready")
    page.close()
    assert len(pages(site)) >= 60 and problems == []


def test_every_internal_link_resolves(site: Path) -> None:
    broken = []
    for path in pages(site):
        html = path.read_text(encoding="utf-8")
        for link in re.findall(r'(?:href|src|action)="([^"]+)"', html):
            if re.match(r"(https?:|mailto:|data:)", link):
                continue
            parts = urlsplit(link)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file():
                broken.append(f"{path.relative_to(site)} → {link}")
            elif parts.fragment and f'id="{parts.fragment}"' not in target.read_text("utf-8"):
                broken.append(f"{path.relative_to(site)} → {link} (sin ese id)")
    assert broken == []


def test_every_formula_is_mathml_with_a_box(browser: Any, site: Path) -> None:
    page = open_page(browser)
    for cls in load_course(REPO).classes:
        page.goto((site / f"clases/{cls.id}.html").as_uri())
        boxes = page.eval_on_selector_all(
            "#formulas ~ .ec > .formula math",
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height] })",
        )
        expected = sum(1 for f in cls.meta.formulas if f.latex)
        assert len(boxes) == expected > 0, cls.id
        assert all(w > 0 and h > 0 for w, h in boxes), cls.id
    page.close()


def test_every_chart_is_present(browser: Any, site: Path) -> None:
    page = open_page(browser)
    total = 0
    for cls in load_course(REPO).classes:
        snapshot = json.loads(cls.snapshot.read_text(encoding="utf-8"))
        undrawn = {o.name for o in cls.meta.outputs if not o.chart.drawn}  # grafica = false
        expected = [
            k for k, v in snapshot.items() if series_of(k, v) is not None and k not in undrawn
        ]
        page.goto((site / f"clases/{cls.id}.html").as_uri())
        drawn = page.eval_on_selector_all(
            ".grafica svg[role=img]",
            "els => els.map(e => [e.closest('.grafica').id, e.getBoundingClientRect().height,"
            " e.querySelector('title').textContent])",
        )
        assert [d[0] for d in drawn] == [f"grafica-{k}" for k in expected], cls.id
        assert all(height > 0 and title for _, height, title in drawn), cls.id
        total += len(drawn)
    page.close()
    assert total >= 30  # 38 today


def test_search_works_from_file_without_accents(browser: Any, site: Path) -> None:
    page = open_page(browser)
    page.goto((site / "buscar.html").as_uri() + "?q=codificacion")
    page.wait_for_selector("#resultados li")
    found = page.eval_on_selector_all("#resultados li a", "els => els.map(e => e.textContent)")
    assert "323 Positional encoding" in found
    # from any page's header: the form leads to the search page, which finds the class
    page.goto((site / CLASS_323).as_uri())
    page.fill("#q-cabecera", "LAPLACIANO Normalizado")
    page.press("#q-cabecera", "Enter")
    page.wait_for_selector("#resultados li")
    assert page.url.split("?")[1] == "q=LAPLACIANO+Normalizado"
    first = page.eval_on_selector("#resultados li a", "e => e.textContent")
    assert first.startswith("335 ")
    assert "páginas encontradas" in page.inner_text("#resumen")
    # the result leads to the page with the words marked there
    page.click("#resultados li a")
    page.wait_for_selector("main mark")
    marked = page.eval_on_selector_all(
        "main mark", "els => els.map(e => e.textContent.toLowerCase())"
    )
    assert "laplaciano" in marked and "normalizado" in marked
    page.close()


SHIFTS = """() => new Promise(done => { let total = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput)
    total += e.value; }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => done(total), 1500); })"""


def test_search_shows_whole_words_first_and_no_internal_tokens(browser: Any, site: Path) -> None:
    page = open_page(browser)
    page.goto((site / "buscar.html").as_uri() + "?q=lambda")
    page.wait_for_selector("#resultados li .frase:not(.pendiente)")
    where = page.eval_on_selector_all("#resultados .coincide", "els => els.map(e => e.textContent)")
    assert where and all("(" not in w for w in where)  # «(5lambda, lambda1, …)» no more
    assert all(w.startswith("Aparece en ") for w in where)
    # every mark a quote shows is a whole word «lambda» (or λ's name) first: the first result's
    marks = page.eval_on_selector_all(
        "#resultados li:first-child mark", "els => els.map(e => e.textContent.toLowerCase())"
    )
    assert marks and all(m in ("lambda", "λ") for m in marks)
    # a word inside another ranks after the pages that have the whole word
    page.goto((site / "buscar.html").as_uri() + "?q=codificacion")
    page.wait_for_selector("#resultados li")
    titles = page.eval_on_selector_all("#resultados li > a", "els => els.map(e => e.textContent)")
    assert titles[0].startswith("323 ")
    assert page.evaluate(SHIFTS) < 0.05  # the quotes arrive into room kept for them
    folder = Path(os.environ.get("COMPMATH_ARTIFACTS") or REPO / "artifacts") / "capturas"
    folder.mkdir(parents=True, exist_ok=True)
    page.goto((site / "buscar.html").as_uri() + "?q=lambda")
    page.wait_for_selector("#resultados li .frase:not(.pendiente)")
    page.screenshot(path=str(folder / "buscar-lambda.png"))
    page.close()


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP, as a static host serves it: its address."""
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


QUOTES = """els => els.map(e => [e.closest('li').querySelector('a').textContent, e.textContent,
  [...e.querySelectorAll('mark')].map(m => m.textContent)])"""
FILLED = "e => [e.scrollHeight, e.clientHeight, parseFloat(getComputedStyle(e).lineHeight)]"
WHERE = """() => { const e = document.activeElement, r = e.getBoundingClientRect();
  const block = e.closest('p, li, dd, dt, td, th, h2, h3, figcaption');
  return [e.tagName, e.textContent, block ? block.textContent.replace(/\\s+/g, ' ') : '',
          r.top, r.bottom, innerHeight]; }"""


def watched(page: Any, base: str) -> tuple[list[str], list[str]]:
    """The page's problems (console errors, exceptions, failed or outside requests) and the
    sentence files it asked for, as they happen."""
    problems: list[str] = []
    asked: list[str] = []
    page.on("console", lambda m: problems.append(f"consola: {m.text}") if m.type == "error" else 0)
    page.on("pageerror", lambda e: problems.append(f"excepción: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"petición fallida: {r.url}"))
    page.on("request", lambda r: r.url.startswith(base) or problems.append(f"fuera: {r.url}"))
    page.on("request", lambda r: "/buscar/" in r.url and asked.append(r.url))
    return problems, asked


@pytest.mark.parametrize("over", ["file", "http"])
def test_a_result_quotes_its_sentence_and_leads_to_it(
    browser: Any, site: Path, served: str, over: str
) -> None:
    base = site.as_uri() + "/" if over == "file" else served
    page = open_page(browser)
    problems, asked = watched(page, base)
    page.goto(base + "buscar.html")
    # no accent: the pages write «codificación»; the word in one input event, as a paste: typed
    # a key at a time, a loaded machine may show (and fetch the sentences of) a shorter prefix's
    # results first, which this test would count as its own
    page.fill("#q", "codificacion")
    page.wait_for_selector("#resultados .frase mark")
    quotes = page.eval_on_selector_all("#resultados .frase", QUOTES)
    title, quote, marks = quotes[0]
    assert title == "323 Positional encoding" and "codificación" in quote
    assert marks and all(fold(m).startswith("codificacion") for m in marks)
    # the sentence is the page's own, whole or cut around the word with an ellipsis: its text
    # as the page shows it (a citation in it is a link, its tags are not the sentence's)
    shown = unescape(re.sub(r"<[^>]+>", "", (site / CLASS_323).read_text("utf-8")))
    text = " ".join(shown.split())
    assert all(piece in text for piece in quote.split("…") if piece)
    assert len(quote) <= 360
    # its paragraph goes on past the sentence: the quote fills the three lines kept for it
    # (before, a short sentence left an empty line under it)
    content, room, line = page.eval_on_selector("#resultados .frase", FILLED)
    assert room == pytest.approx(3 * line, abs=1) and content >= room - 1, (content, room, line)
    # only the sentences of the results were loaded, not every page's
    results = page.eval_on_selector_all("#resultados li", "els => els.length")
    assert 0 < len(set(asked)) <= results < 21
    # with the keyboard: Tab from the field to the first result, Enter follows it
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#resultados')"):
            break
    assert page.evaluate("document.activeElement.textContent") == "323 Positional encoding"
    page.keyboard.press("Enter")
    page.wait_for_selector("main mark")
    assert "resaltar=codificacion" in page.url and "frase=" in page.url
    # the target page marks the word, scrolls to it and focuses it, in the quoted sentence
    tag, word, block, top, bottom, height = page.evaluate(WHERE)
    assert tag == "MARK" and fold(word) == "codificacion"
    assert 0 <= top < bottom <= height
    assert parse_qs(urlsplit(page.url).query)["frase"][0] in block
    assert quote.strip("…")[:30] in block
    page.close()
    assert problems == []


def test_long_sentences_are_cut_around_the_words_and_marked(browser: Any, site: Path) -> None:
    page = open_page(browser, 390)
    page.goto((site / "buscar.html").as_uri() + "?q=laplaciano%20normalizado")
    page.wait_for_selector("#resultados .frase mark")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # every result in view
    page.wait_for_function(
        "[...document.querySelectorAll('#resultados li')].every(li =>"
        " !li.querySelector('.frase') || li.querySelector('.frase mark'))"
    )
    quotes = page.eval_on_selector_all("#resultados .frase", QUOTES)
    assert len(quotes) >= 3
    assert all(len(q) <= 360 for _, q, _ in quotes)
    assert any(q.startswith("…") or q.endswith("…") for _, q, _ in quotes)
    marked = {fold(m) for _, _, marks in quotes for m in marks}
    assert marked == {"laplaciano", "normalizado"}
    # 335 names the words long before the quoted sentence: the page goes to that one, not to
    # its first mark
    page.click("#resultados li a")
    page.wait_for_selector("main mark")
    tag, _, block, top, bottom, height = page.evaluate(WHERE)
    before = page.evaluate(
        "[...document.querySelectorAll('main mark')].indexOf(document.activeElement)"
    )
    sentence = parse_qs(urlsplit(page.url).query)["frase"][0]
    page.close()
    assert tag == "MARK" and before > 0 and sentence in block and 0 <= top < bottom <= height


def test_a_greek_letter_is_searched_by_its_name(browser: Any, site: Path) -> None:
    page = open_page(browser)
    page.goto((site / "buscar.html").as_uri() + "?q=lambda")
    page.wait_for_selector("#resultados .frase mark")
    marks = page.eval_on_selector_all(
        "#resultados .frase mark", "els => els.map(e => e.textContent)"
    )
    page.close()
    assert "λ" in marks and {fold(m) for m in marks} == {"lambda"}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_results_pass_axe(browser: Any, site: Path, width: int, scheme: str) -> None:
    axe = node_package("axe-core", "axe.min.js")
    if axe is None:
        missing(f"falta axe-core: {NODE_HINT}")
    page = open_page(browser, width, scheme)
    page.goto((site / "buscar.html").as_uri() + "?q=atencion%20mascara")
    page.wait_for_selector("#resultados .frase mark")
    page.add_script_tag(content=axe.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    page.close()
    assert [f"{v['id']} ({v['impact']})" for v in result["violations"]] == []
    assert scroll <= width


CONTRAST = """els => els.map(e => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = e, back = 'rgba(0, 0, 0, 0)';
  while (bg && (back = getComputedStyle(bg).backgroundColor) === 'rgba(0, 0, 0, 0)') {
    bg = bg.parentElement; }
  const a = lum(rgb(getComputedStyle(e).color)), b = lum(rgb(back));
  return [e.tagName + '.' + e.className, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), b];
})"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_text_keeps_its_contrast(browser: Any, site: Path, scheme: str) -> None:
    page = open_page(browser, scheme=scheme)
    page.goto((site / CLASS_323).as_uri())
    measured = page.eval_on_selector_all(
        "p, a, h1, h2, li, dt, dd, figcaption, code, math, td, th, summary, text", CONTRAST
    )
    page.close()
    assert len(measured) > 100
    weak = [(name, round(ratio, 2)) for name, ratio, _ in measured if ratio < 4.5]
    assert weak == []
    background = measured[0][2]
    assert background < 0.05 if scheme == "dark" else background > 0.9


def test_readable_from_360_to_1440_px(browser: Any, site: Path) -> None:
    narrow = open_page(browser, width=360)
    for path in [site / "index.html", site / "parte-16.html", *sorted(site.glob("clases/*.html"))]:
        narrow.goto(path.as_uri())
        assert narrow.evaluate("document.documentElement.scrollWidth") <= 360, path.name
    narrow.close()
    wide = open_page(browser, width=1440)
    wide.goto((site / CLASS_323).as_uri())
    measure = wide.evaluate(
        "document.querySelector('#desarrollo + p').getBoundingClientRect().width"
    )
    assert 500 < measure < 800  # a line of prose stays readable on a wide screen
    wide.close()


def test_keyboard_and_print(browser: Any, site: Path) -> None:
    page = open_page(browser)
    page.goto((site / CLASS_323).as_uri())
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Saltar al contenido"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "contenido"
    page.emulate_media(media="print")
    assert page.eval_on_selector(".herramientas", "e => getComputedStyle(e).display") == "none"
    assert page.eval_on_selector(".lateral", "e => getComputedStyle(e).display") == "none"
    page.close()


def test_screenshots_of_323(browser: Any, site: Path) -> None:
    folder = Path(os.environ.get("COMPMATH_ARTIFACTS") or REPO / "artifacts") / "capturas"
    folder.mkdir(parents=True, exist_ok=True)
    page = open_page(browser)  # one page, set to each view before it opens 323 again
    for width in (1280, 390):
        for scheme, word in (("light", "claro"), ("dark", "oscuro")):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(color_scheme=scheme)
            page.goto((site / CLASS_323).as_uri())
            target = folder / f"323-{width}-{word}.png"
            page.screenshot(path=str(target), full_page=True)
            # and the search page with its results quoting their sentences
            page.goto((site / "buscar.html").as_uri() + "?q=laplaciano%20normalizado")
            page.wait_for_selector("#resultados .frase mark")
            found = folder / f"buscar-{width}-{word}.png"
            page.screenshot(path=str(found), full_page=True)
            assert target.stat().st_size > 20_000 and found.stat().st_size > 20_000
    page.close()


VIEWS = (
    (1280, "light", "screen"),
    (1280, "dark", "screen"),
    (390, "light", "screen"),
    (390, "dark", "screen"),
    (703, "light", "print"),
)  # fmt: skip  (703 px: A4's text width)


# the scroll cue's gradients (estilo.css) hide the boxes' background from axe, which then leaves
# their text's contrast «incomplete»: replaced by the solid colour they cover, axe can judge it
SOLID = ".formula, .tabla-ancha, main pre { background: var(--tapa) !important; }"


@pytest.mark.lento
@pytest.mark.parametrize(("width", "scheme", "media"), VIEWS, ids=lambda v: str(v))
def test_no_serious_accessibility_violation(
    browser: Any, site: Path, width: int, scheme: str, media: str
) -> None:
    """Every page at 1280 px and 390 px, light and dark, and in print: no serious or critical
    violation, contrast included as it is seen (the gradients behind the boxes as their solid
    colour), and what axe cannot decide is text over a chart or a picture, not over a box."""
    axe = node_package("axe-core", "axe.min.js")
    if axe is None:
        missing(f"falta axe-core: {NODE_HINT}")
    page = open_page(browser, width, scheme)
    page.emulate_media(media=media)
    page.add_init_script(script=axe.read_text(encoding="utf-8"))  # in every page it opens
    found, undecided, checked = [], 0, 0
    for path in swept(site):
        page.goto(path.as_uri())  # waits for the load event: the page and its styles
        page.evaluate("document.fonts.ready")  # the math font, the one later request
        page.add_style_tag(content=SOLID)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        checked += 1
        found += [
            f"{path.relative_to(site)}: {v['id']} ({v['impact']}) {node['target']} "
            + (node["any"][0]["message"] if node["any"] else "")
            for v in result["violations"] if v["impact"] in ("serious", "critical")
            for node in v["nodes"]
        ]  # fmt: skip
        undecided += sum(
            len(v["nodes"]) for v in result["incomplete"] if v["id"] == "color-contrast"
        )
    page.close()
    assert checked >= (60 if ALL_PAGES else 10)
    assert found == [], f"{len(found)} nodos: " + "\n".join(found[:40])
    assert undecided < 200 * checked


BOXES = """() => {
  const wide = [];
  for (const box of document.querySelectorAll('.formula, main pre, .tabla-ancha')) {
    if (box.closest('details:not([open])') || box.scrollWidth <= box.clientWidth + 1) continue;
    const style = getComputedStyle(box);
    wide.push({
      kind: box.classList.contains('formula') ? 'formula' : box.tagName.toLowerCase(),
      cue: box.classList.contains('desborda') && style.backgroundImage.includes('gradient'),
      focusable: box.tabIndex >= 0,
      named: box.tagName !== 'DIV' || !box.classList.contains('formula') || !!box.getAttribute('aria-label'),
      scrolls: style.overflowX === 'auto' || style.overflowX === 'scroll',
    });
  }
  return {page: document.documentElement.scrollWidth, wide};
}"""


@pytest.mark.lento
@pytest.mark.parametrize("width, media", [(1280, "screen"), (390, "screen"), (703, "print")])
def test_no_box_wider_than_its_column_without_the_cue(
    browser: Any, site: Path, width: int, media: str
) -> None:
    page = open_page(browser, width)
    page.emulate_media(media=media)
    problems, formulas_cut, boxes = [], [], 0
    for path in swept(site):
        page.goto(path.as_uri())  # the load event; then the math font, which sets the widths
        page.evaluate("document.fonts.ready")
        found = page.evaluate(BOXES)
        name = str(path.relative_to(site))
        if found["page"] > width:
            problems.append(f"{name}: la página se desplaza de lado ({found['page']} px)")
        for box in found["wide"]:
            boxes += 1
            if media == "print" or (width >= 1280 and box["kind"] == "formula"):
                formulas_cut.append(f"{name}: {box['kind']}")  # must fit: no scrolling there
            elif not (box["cue"] and box["focusable"] and box["named"] and box["scrolls"]):
                problems.append(f"{name}: {box}")
    page.close()
    assert problems == []
    # in print nothing scrolls and at 1280 px every formula fits; code keeps its scroll at 1280
    assert [f for f in formulas_cut if media == "print" or "formula" in f] == []


CUT = """() => [...document.querySelectorAll('.formula')].map(box => ({
  over: box.scrollWidth - box.clientWidth,
  lines: box.querySelectorAll('mtable.partida > mtr').length,
  size: parseFloat(getComputedStyle(box.querySelector('math')).fontSize),
  body: parseFloat(getComputedStyle(document.body).fontSize),
}))"""


@pytest.mark.lento
def test_phone_formulas_are_broken_into_lines_before_they_scroll(browser: Any, site: Path) -> None:
    """At 390 px a display formula too wide for the column is broken into lines (at its
    relations, commas and \\quad; a `gathered` row by row), drawn smaller only down to 72 %,
    and scrolls only when even that does not fit: 6 of the course's 109 still do (15 before
    the rows of a `gathered` were broken, 68 with shrinking alone, 71 before STIX Two), each
    hiding a little."""
    page = open_page(browser, 390)
    boxes = []
    for path in sorted(site.glob("clases/3*.html")):
        page.goto(path.as_uri())
        page.evaluate("document.fonts.ready")  # sitio.js measures again once the font is in
        # and once more when lineas.js, loaded for the first formula that needs lines, is in
        page.wait_for_function("document.documentElement.dataset.lineas !== 'cargando'")
        boxes += page.evaluate(CUT)
    page.close()
    cut = sorted(b["over"] for b in boxes if b["over"] > 1)
    broken = [b for b in boxes if b["lines"] > 1]
    assert len(boxes) >= 100
    assert len(cut) <= 6, cut
    assert len(broken) >= 40  # the ones that fit thanks to their lines
    # never smaller than 72 % of the formulas' size (1.15 × the text's)
    assert all(b["size"] >= 0.72 * 1.15 * b["body"] - 0.5 for b in boxes)
    # 338's (4), a `gathered` of two rows, fits a phone in more rows of its own
    rows = "() => document.querySelectorAll('.formula')[3].querySelectorAll('mtr').length"
    bellman = site / "clases/338-mdp-bellman-iteracion-de-valor.html"
    page = open_page(browser, 390)
    page.goto(bellman.as_uri())
    page.evaluate("document.fonts.ready")
    page.wait_for_function("document.documentElement.dataset.lineas !== 'cargando'")
    assert page.evaluate(rows) > 2 and page.evaluate(CUT)[3]["over"] <= 1
    # wider again, it is put back whole: its two rows, every child in its place
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(f"({rows})() === 2")
    assert page.evaluate(CUT)[3]["over"] <= 1
    markup = "() => document.querySelectorAll('.formula math')[3].outerHTML"
    restored = page.evaluate(markup)
    page.close()
    # and at 1280 px no formula is broken: they fit whole, a gathered in its own rows
    wide = open_page(browser, 1280)
    wide.goto((site / "clases/332-difusion-proceso-directo.html").as_uri())
    wide.evaluate("document.fonts.ready")
    assert all(b["lines"] == 0 for b in wide.evaluate(CUT))
    wide.goto(bellman.as_uri())
    wide.evaluate("document.fonts.ready")
    assert wide.evaluate(rows) == 2
    assert wide.evaluate(markup).replace(' style=""', "") == restored.replace(' style=""', "")
    wide.close()


def test_the_phone_index_shows_each_class_status(browser: Any, site: Path) -> None:
    page = open_page(browser, 390)
    page.goto((site / "index.html").as_uri())
    stamps = page.eval_on_selector_all(
        "table.clases tbody td:last-child",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.textContent, r.left, r.right, getComputedStyle(e).display] })",
    )
    page.close()
    assert len(stamps) >= 20
    assert all(shown != "none" and left >= 0 and right <= 390 for _, left, right, shown in stamps)
    assert sum(text.startswith("verificada") for text, *_ in stamps) == 20


FILLS = """() => {
  const lum = c => { const v = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(x => { x /= 255;
    return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const back = lum(getComputedStyle(document.body).backgroundColor);
  return [...document.querySelectorAll('.grafica svg path[class], .grafica svg rect[class]')]
    .map(e => { const f = lum(getComputedStyle(e).fill);
      return [e.getAttribute('class'), (Math.max(f, back) + 0.05) / (Math.min(f, back) + 0.05)]; });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_chart_colour_keeps_3_to_1(browser: Any, site: Path, scheme: str) -> None:
    page = open_page(browser, scheme=scheme)
    measured = []
    for path in sorted(site.glob("clases/*.html")):
        page.goto(path.as_uri())
        measured += [(path.stem[:3], name, ratio) for name, ratio in page.evaluate(FILLS)]
    page.close()
    assert len(measured) > 100
    assert [m for m in measured if m[2] < 3] == []


def test_theme_switch_is_remembered_and_defaults_to_the_system(browser: Any, site: Path) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto((site / CLASS_323).as_uri())
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.inner_text("button.tema") == "Tema: sistema"
    dark = page.evaluate(background)
    page.click("button.tema")  # sistema → claro
    assert page.inner_text("button.tema") == "Tema: claro" and page.evaluate(background) != dark
    page.goto((site / "index.html").as_uri())  # another page remembers it
    assert page.get_attribute("html", "data-tema") == "claro"
    page.click("button.tema")
    page.click("button.tema")  # claro → oscuro → sistema
    page.reload()
    assert page.get_attribute("html", "data-tema") is None and page.evaluate(background) == dark
    context.close()


def test_sidebar_outline_and_copy_buttons(browser: Any, site: Path) -> None:
    wide = open_page(browser, 1280)
    wide.goto((site / CLASS_323).as_uri())
    classes = wide.eval_on_selector_all(".lateral nav[aria-label^='Clases'] a", "els => els.length")
    outline = wide.eval_on_selector_all("nav[aria-label='En esta página'] a", "els => els.length")
    assert classes == 20 and outline == 11
    assert wide.is_visible("nav[aria-label='En esta página'] a[href='#formulas']")
    assert wide.eval_on_selector_all("main pre + button.copiar", "els => els.length") >= 3
    wide.close()
    phone = open_page(browser, 390)
    phone.goto((site / CLASS_323).as_uri())
    folded = phone.eval_on_selector_all("details.plegable", "els => els.map(d => d.open)")
    assert folded == [False, False]  # one line each on a phone, opened on request
    phone.close()


def test_the_outline_is_above_the_fold_and_marks_the_section_read(browser: Any, site: Path) -> None:
    page = open_page(browser, 1280)  # a 900-px-high window
    page.goto((site / CLASS_323).as_uri())
    last = page.eval_on_selector(".indice li:last-child a", "a => a.getBoundingClientRect().bottom")
    assert last < 900  # the whole outline is on the first screen, before the list of classes
    current = (
        "() => [...document.querySelectorAll('.indice a[aria-current=location]')].map(a => a.hash)"
    )
    assert page.evaluate(current) == ["#formulas"]
    page.evaluate("document.getElementById('errores').scrollIntoView()")
    page.wait_for_function(
        "() => document.querySelector('.indice a[aria-current=location]').hash === '#errores'"
    )
    assert page.evaluate(current) == ["#errores"]  # one section marked at a time
    page.close()


def test_the_copy_button_covers_no_code(browser: Any, site: Path) -> None:
    overlaps = """() => [...document.querySelectorAll('.con-copia')].filter(box => {
      const b = box.querySelector('button.copiar').getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(box.querySelector('pre'));
      return [...range.getClientRects()].some(r => r.width > 0 && r.left < b.right
        && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
    }).length"""
    for width in (390, 1280):
        page = open_page(browser, width)
        for name in (CLASS_323, "clases/332-difusion-proceso-directo.html"):
            page.goto((site / name).as_uri())
            assert page.evaluate("document.querySelectorAll('.con-copia').length") >= 3
            assert page.evaluate(overlaps) == 0, (width, name)
        page.close()


def test_the_index_has_one_brand_and_unsplit_dates(browser: Any, site: Path) -> None:
    page = open_page(browser, 1280)
    page.goto((site / "index.html").as_uri())
    shown = page.inner_text("header.sitio") + page.inner_text("main h1")
    assert shown.count("compmath") == 1
    line = page.eval_on_selector_all(
        "table.clases td.estado",
        "els => els.map(e => { const r = document.createRange();"
        " r.selectNodeContents(e); return new Set([...r.getClientRects()].map(x => x.top)).size })",
    )
    page.close()
    assert len(line) == 20 and set(line) == {1}  # «verificada (2026-12-01)» on one line


def test_class_mentions_are_links_to_their_pages(site: Path) -> None:
    found = 0
    for path in sorted(site.glob("clases/3*.html")):
        html = path.read_text(encoding="utf-8")
        for target in re.findall(r'<a class="ref-clase" href="([^"]+)">', html):
            assert (path.parent / target).is_file(), (path.name, target)
            assert not target.startswith(path.stem[:3])  # never a link to itself
            found += 1
    assert found >= 30  # the prose and the class.toml fields mention other classes 30+ times


def outline_tree(pdf: Any) -> list[tuple[str, int, list[str]]]:
    """The PDF's outline: each top entry's title, its page (1 is the cover) and its children's
    titles."""
    tree: list[tuple[str, int, list[str]]] = []
    for entry in pdf.outline:
        if isinstance(entry, list):  # the children of the entry before it
            title, page, _ = tree[-1]
            tree[-1] = (title, page, [e["/Title"] for e in entry if isinstance(e, dict)])
        else:
            tree.append((entry["/Title"], pdf.get_destination_page_number(entry) + 1, []))
    return tree


def site_headings(page: Path) -> list[str]:
    """The text of a site page's h2 headings, as a reader sees them."""
    html = page.read_text(encoding="utf-8")
    found = re.findall(r"<h2\b[^>]*>(.*?)</h2>", html, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", h)).split()) for h in found]


def test_the_course_prints_as_one_book_with_its_outline(site: Path, tmp_path: Path) -> None:
    if chromium_path() is None:
        missing(f"no se encuentra Chromium: {CHROMIUM_HINT}")
    pypdf = pytest.importorskip("pypdf", reason="falta pypdf: pip install -e '.[test]'")
    from compmath.site.book import print_book
    from compmath.site.render import class_url

    out = tmp_path / "web"
    shutil.copytree(site, out)  # the module's site stays as it was built
    course = load_course(REPO)
    os.environ.setdefault("COMPMATH_CHROMIUM", chromium_path() or "")
    print_book(course, out, "compmath", "")
    book = out / "libro.html"
    pdf = pypdf.PdfReader(out / "curso.pdf")
    pages = len(pdf.pages)
    assert 100 < pages < 300  # twenty classes on A4, each from a page of its own
    tree = outline_tree(pdf)
    assert [t for t, _, _ in tree[:2]] == ["compmath", "Índice"]
    # every chapter's title whole, as the course names it (a title that wraps keeps its spaces),
    # and its sections as the class's page on the site heads them
    chapters = tree[2:]
    assert [t for t, _, _ in chapters] == [f"{c.number} {c.title}" for c in course.classes]
    for cls, (_, _, sections) in zip(course.classes, chapters):
        assert sections == site_headings(site / class_url(cls.id)), cls.id
    assert all("Fórmulas" in sections for _, _, sections in chapters)
    # the contents give the page where each chapter starts: in libro.html, on the printed
    # contents page, and at the foot of that page, which the running head names
    html = book.read_text(encoding="utf-8")
    listed = re.findall(
        r'<a href="#c(\d+)"><span class="titulo">[^<]*</span> <span class="pagina">(\d+)</span>',
        html,
    )
    starts = [page for _, page, _ in chapters]
    assert [(int(n), int(p)) for n, p in listed] == [
        (c.number, page) for c, page in zip(course.classes, starts)
    ]
    assert starts == sorted(starts) and len(set(starts)) == 20 and starts[0] == 3
    contents = [" ".join(line.split()) for line in pdf.pages[1].extract_text().splitlines()]
    for cls, page in zip(course.classes, starts):
        assert f"{cls.number} {cls.title} {page}" in contents, (cls.number, contents)
        first = pdf.pages[page - 1].extract_text()
        assert f"{page} de {pages}" in first and f"{cls.number} · " in first
        assert f"{cls.number} · " not in pdf.pages[page - 2].extract_text()  # it starts there
    # running heads and page numbers, as the text of a page in the middle of the book
    middle = pdf.pages[pages // 2].extract_text()
    assert f"{pages // 2 + 1} de {pages}" in middle
    assert re.search(r"3[2-4]\d · ", middle)  # the running head names the class
    assert html.count('class="capitulo"') == 20
    assert len(re.findall(r'\bid="formulas"', html)) == 0  # every id is its class's own
    assert 'href="#c322"' in html  # «clase 322» leads to its chapter, not to another file


def test_pdf_without_chromium_is_refused_in_spanish(tmp_path: Path) -> None:
    env = {**os.environ, "COMPMATH_CHROMIUM": str(tmp_path / "no-hay-chromium"), "NO_COLOR": "1"}
    env.pop("CI", None)
    done = subprocess.run(
        [sys.executable, "-m", "compmath.entry", "site", "--root", str(REPO),
         "--out", str(tmp_path / "web"), "--pdf"],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "error: --pdf imprime el libro con Chromium, y no se encuentra" in done.stderr
    assert "apt-get install chromium" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "web").exists()  # said before any lab ran


PROSE_SKIP = {"code", "pre", "math", "script", "style", "svg"}  # where `_` and `^` are not prose


def rendered_prose(html: str) -> list[str]:
    """The text a reader sees as prose: every text node outside code, preformatted blocks,
    MathML, scripts, styles and charts (an SVG's labels and the row names of its table of data,
    `<th scope="row">`, are the data's keys)."""
    from html.parser import HTMLParser

    def skipped(tag: str, attrs: Any) -> bool:
        return tag in PROSE_SKIP or (tag == "th" and ("scope", "row") in attrs)

    class Prose(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.inside = 0
            self.open: list[bool] = []  # per open <th>: skipped?
            self.texts: list[str] = []

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            if tag == "th":
                self.open.append(skipped(tag, attrs))
            self.inside += skipped(tag, attrs)

        def handle_startendtag(self, tag: str, attrs: Any) -> None:
            pass  # <mspace/>, <path/>: nothing opens

        def handle_endtag(self, tag: str) -> None:
            if tag == "th":
                self.inside -= self.open.pop() if self.open else False
            else:
                self.inside -= tag in PROSE_SKIP

        def handle_data(self, data: str) -> None:
            if not self.inside:
                self.texts.append(data)

    parser = Prose()
    parser.feed(html)
    return parser.texts


def test_no_plain_text_math_is_left_in_the_prose(site: Path) -> None:
    """Issue #38 counted 623 `x_t`, `V^π`, `‖·‖_∞` in the prose as text beside its MathML, and
    after them 577 symbols («la razón γ», «λ₂», «‖a‖») and some 400 formulas in Latin letters
    («log p(x)», «t = 497»); the same rules as lint (compmath.site.checks.plain_math: scripts,
    symbols, letters) over what the built pages show."""
    from compmath.site import checks

    def plain_math(text: str) -> list[str]:
        return [w for words, _, _ in checks.plain_math(text) for w in words]

    left = {}
    for path in pages(site):
        found = [w for text in rendered_prose(path.read_text(encoding="utf-8"))
                 for w in plain_math(text)]  # fmt: skip
        if found:
            left[str(path.relative_to(site))] = found
    assert left == {}
    # the rules and the parser see the old notation: a page written the old way is counted
    old = (
        "<p>la media <em>x_t</em> con V^π, la razón γ, log p(x) en t = 497 y <code>x_t</code>"
        " <math><mi>x_t</mi><mi>γ</mi><mi>p</mi><mo>(</mo><mi>x</mi><mo>)</mo></math></p>"
    )
    found = [w for t in rendered_prose(old) for w in plain_math(t)]
    assert found == ["x_t", "V^π", "γ", "p(x)", "t = 497"]


def test_no_page_weighs_over_60_kb_beyond_the_math_font(site: Path) -> None:
    heavy = []
    for path in pages(site):
        html = path.read_text(encoding="utf-8")
        total = len(html.encode())
        for link in re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', html):
            total += (path.parent / link).resolve().stat().st_size
        if total > 60_000:
            heavy.append(f"{path.relative_to(site)}: {total // 1000} KB")
    assert heavy == []
    # the search's sentence files (buscar/NOMBRE.js) are data, not pages: no page links one, and
    # the search page loads one per result in view (tests/test_site.py, the test above); each
    # stays small
    sentences = {p.name: p.stat().st_size for p in (site / "buscar").glob("*.js")}
    assert len(sentences) >= 21
    assert [f"{name}: {size // 1000} KB" for name, size in sentences.items() if size > 20_000] == []


def test_valid_html_for_the_nu_checker(site: Path) -> None:
    vnu = node_package("vnu-jar", "build/dist/vnu.jar")
    java = shutil.which("java")
    if vnu is None or java is None:
        missing(f"falta el Nu HTML Checker (vnu.jar) o Java: {NODE_HINT}")
    checked = subprocess.run(
        [java, "-jar", str(vnu), "--errors-only", "--skip-non-html", str(site)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr[:3000]


# The site's math beside KaTeX's rendering of the same TeX (KaTeX follows TeX's layout rules and
# its fonts are Computer Modern's): each feature is painted red (and a reference letter blue) in
# both, and its ink is measured from a screenshot, at device scale 1 and 2.
KATEX_FEATURES = (
    ("prima 338.2", "prime", r"P(s' \mid s,a)\, V(s')"),
    ("prima 336.2", "prime", r"H^{\prime} = h^{\prime}_i"),
    ("barra 332.2", "bar", r"\bar{\alpha}_t"),
    ("subíndice x", "sub", r"x\, x_t"),
    ("subíndice p", "sub", r"x\, p_t"),
    ("subíndice q", "sub", r"x\, q_t"),
    ("subíndice β", "sub", r"x\, \beta_t"),
)  # fmt: skip
PAINT = r"""n => {
  // every cell painted at once, each by its own case's feature (its n-th \left…\right pair's
  // for a fence); returns each cell's box in the page and the number of KaTeX's pairs
  const leaves = root => [...root.querySelectorAll('*')].filter(e => e.children.length === 0);
  const paint = (e, colour) => { if (e) e.style.color = colour; };
  const found = {};
  for (const cell of document.querySelectorAll('.celda')) {
    cell.querySelectorAll('*').forEach(e => { e.style.color = ''; });
    const katex = cell.classList.contains('katex-celda'), feature = cell.dataset.rasgo;
    let pairs = 0;
    if (feature === 'prime') (katex ? leaves(cell) : [...cell.querySelectorAll('mo, mi')])
      .filter(e => e.textContent === '′').forEach(e => paint(e, 'red'));
    if (feature === 'bar') (katex ? leaves(cell).filter(e => /^[ˉ¯‾]$/.test(e.textContent))
      : [...cell.querySelectorAll('mover > mo')]).forEach(e => paint(e, 'red'));
    if (feature === 'sub') {
      (katex ? [...cell.querySelectorAll('.msupsub')]
        : [...cell.querySelectorAll('msub > :nth-child(2)')]).forEach(e => paint(e, 'red'));
      paint(katex ? cell.querySelector('.mord.mathnormal') : cell.querySelector('mi'), 'blue');
    }
    if (feature === 'fence') {  // the n-th \left…\right pair's opening fence (or its closing one)
      const all = katex ? [...cell.querySelectorAll('.minner')] : [...cell.querySelectorAll('mrow.par')];
      pairs = all.length;
      const pair = all[n];
      if (pair && pair.firstElementChild) {
        const first = pair.firstElementChild, text = first.textContent.trim();
        paint(text === '' || text === '\u2063' ? pair.lastElementChild : first, 'red');
      }
    }
    const r = cell.getBoundingClientRect();
    found[cell.id] = {box: [r.x + scrollX, r.y + scrollY, r.width, r.height], pairs};
  }
  return found;
}"""


def ink(image: Any, box: list[float], dpr: int) -> dict[str, Any]:
    """The red and blue ink inside one cell's box of a screenshot (an RGB array), in CSS px:
    each colour's rows from top to bottom, its mass (the sum of its cover) and its darkest
    pixel's cover. The box is cut as Playwright cuts an element's screenshot."""
    import math

    import numpy as np

    x, y, width, height = box
    left, top = math.floor(x + 1e-3), math.floor(y + 1e-3)
    right, bottom = math.ceil(x + width - 1e-3), math.ceil(y + height - 1e-3)
    rgb = image[top * dpr : bottom * dpr, left * dpr : right * dpr, :3] / 255
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    boxes: dict[str, Any] = {}
    for colour, cover in (("red", red - (green + blue) / 2), ("blue", blue - (red + green) / 2)):
        inked = cover > 0.15
        rows = np.flatnonzero(inked.any(axis=1))
        if rows.size == 0:
            boxes[colour] = None
            continue
        first, last = int(rows[0]), int(rows[-1]) + 1
        boxes[colour] = {"top": first / dpr, "bottom": last / dpr, "height": (last - first) / dpr,
                         "mass": float(cover[inked].sum()) / dpr / dpr,
                         "peak": float(cover[inked].max())}  # fmt: skip
    return boxes


SIZE_PX = 20


def katex_page(
    folder: Path, site: Path, katex: Path, cases: list[tuple[str, str, str]], name: str
) -> Path:
    """A table: each case as the site writes it (its stylesheet and math font) and as KaTeX."""
    from xml.etree import ElementTree

    from compmath.site.fences import is_pair
    from compmath.site.mathml import adjust, converted

    def ours(tex: str) -> str:
        """The site's MathML, its \\left…\\right pairs marked to be found in the page."""
        root = converted(tex)
        for row in root.iter("mrow"):
            if is_pair(row):
                row.set("class", "par")
        adjust(root)
        return ElementTree.tostring(root, encoding="unicode")

    rows = []
    for i, (label, feature, tex) in enumerate(cases):
        quoted = tex.replace("&", "&amp;").replace('"', "&quot;")
        rows.append(
            f"<tr><th>{label}</th><td><div class=celda id=n{i} data-rasgo={feature}>{ours(tex)}</div></td>"
            f'<td><div class="celda katex-celda" id=k{i} data-rasgo={feature}'
            f' data-tex="{quoted}"></div></td></tr>'
        )
    page = folder / f"{name}.html"
    page.write_text(
        f"""<!doctype html><html lang="es"><head><meta charset="utf-8">
<link rel="stylesheet" href="{(site / "assets/estilo.css").as_uri()}">
<link rel="stylesheet" href="{(katex.parent / "katex.min.css").as_uri()}">
<style>body {{ background: #fff; color: #000; margin: 8px; }} td, th {{ padding: 2px 8px; text-align: left; }}
.celda {{ display: inline-block; font-size: {SIZE_PX}px; padding: 6px 4px; }}
.celda math {{ font-size: 1em; }} .katex {{ font-size: 1em; }} .katex-display {{ margin: 0; }}</style>
</head><body><table><tr><th></th><th>compmath (MathML)</th><th>KaTeX</th></tr>{"".join(rows)}</table>
<script src="{katex.as_uri()}"></script>
<script>for (const c of document.querySelectorAll('.katex-celda'))
  katex.render(c.dataset.tex, c, {{displayMode: true, throwOnError: true}});</script></body></html>""",
        encoding="utf-8",
    )
    return page


def fence_cases() -> list[tuple[str, str, str]]:
    """Every course formula with a \\left…\\right pair, named class.n (338.2)."""
    return [
        (f"{cls.id[:3]}.{n}", "fence", formula.latex)
        for cls in load_course(REPO).classes
        for n, formula in enumerate(cls.meta.formulas, 1)
        if formula.latex and r"\left" in formula.latex
    ]


def measured_against_katex(browser: Any, page_path: Path, cases: list[Any], dpr: int,
                           folder: Path) -> dict[tuple[int, int], tuple[Any, Any]]:  # fmt: skip
    """{(case, pair): (our ink, KaTeX's ink)}, each {'red': box, 'blue': box}; a screenshot of
    the whole table (unpainted) saved in `folder`. Each pass paints every cell at once (a fence's
    n-th pair in the n-th pass) and takes one screenshot, measured inside each cell's box."""
    import io

    import numpy as np
    from PIL import Image

    context = browser.new_context(device_scale_factor=dpr, viewport={"width": 1500, "height": 900})
    page = context.new_page()
    page.goto(page_path.as_uri())
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(folder / f"{page_path.stem}-dpr{dpr}.png"), full_page=True)
    found: dict[tuple[int, int], tuple[Any, Any]] = {}
    pair = 0
    while True:
        cells = page.evaluate(PAINT, pair)
        shot = page.screenshot(full_page=True)
        image = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=float)
        for i in range(len(cases)):
            if pair < max(1, cells[f"k{i}"]["pairs"]):  # as many passes as KaTeX's pairs
                ours, theirs = (ink(image, cells[f"{side}{i}"]["box"], dpr) for side in "nk")
                found[(i, pair)] = (ours, theirs)
        pair += 1
        if pair >= max(cells[f"k{i}"]["pairs"] for i in range(len(cases))):
            break
    context.close()
    return found


@pytest.mark.parametrize("dpr", [1, 2])
def test_math_reads_as_katex_draws_it(browser: Any, site: Path, dpr: int) -> None:
    """Primes, ᾱ's bar, subscripts under p, q, β and the \\left…\\right fences of the course
    measured beside KaTeX's rendering of the same TeX, at device scale 1 and 2."""
    katex = node_package("katex", "dist/katex.min.js")
    if katex is None:
        missing(f"falta KaTeX: {NODE_HINT}")
    folder = Path(os.environ.get("COMPMATH_ARTIFACTS") or REPO / "artifacts") / "capturas/katex"
    folder.mkdir(parents=True, exist_ok=True)
    features = list(KATEX_FEATURES)
    found = measured_against_katex(
        browser, katex_page(folder, site, katex, features, "rasgos"), features, dpr, folder
    )
    ink = {features[i][0]: pair for (i, _), pair in found.items()}
    for name in ("prima 338.2", "prima 336.2"):  # before: a speck, 38 % of KaTeX's ink
        ours, theirs = ink[name]
        assert ours["red"]["mass"] >= 0.7 * theirs["red"]["mass"], (name, ours, theirs)
    ours, theirs = ink["barra 332.2"]  # before: a faint line, 61 % dark at scale 1
    assert ours["red"]["peak"] >= 0.9 and ours["red"]["mass"] >= 0.8 * theirs["red"]["mass"]

    def drop(box: Any) -> float:  # the subscript's foot below the reference x's, in em
        return float(box["red"]["bottom"] - box["blue"]["bottom"]) / SIZE_PX

    for letter in ("p", "q", "β"):  # before: 0.2 em lower than under x; TeX: the same
        ours, theirs = ink[f"subíndice {letter}"]
        assert abs(drop(ours) - drop(ink["subíndice x"][0])) <= 0.05, letter
        assert abs(drop(theirs) - drop(ink["subíndice x"][1])) <= 0.05, letter  # the ruler
    # every \left…\right pair of the course as tall as KaTeX's, within 10 % (STIX Two's sizes
    # are not Computer Modern's; before: 29 of 60 pairs a size or more larger); one built-up
    # pair (336.2's second) may stretch further
    fences = fence_cases()
    sized = measured_against_katex(
        browser, katex_page(folder, site, katex, fences, "delimitadores"), fences, dpr, folder
    )
    heights = [
        (fences[i][0], pair, ours["red"]["height"], theirs["red"]["height"])
        for (i, pair), (ours, theirs) in sized.items()
        if ours["red"] and theirs["red"]
    ]
    larger = [h for h in heights if h[2] > 1.1 * h[3]]
    smaller = [h for h in heights if h[2] < h[3] / 1.1]
    assert len(heights) >= 50 and len(larger) <= 1 and len(smaller) <= 2, (larger, smaller)
