"""Count, on built sites, what issue 38 measured: plain-text scripts, cut phone formulas, contrast.

Usage: python benchmarks/site_counts.py SITE [SITE ...] [--no-browser]

Each SITE is a folder `compmath site --out` wrote, of this tree or of an older one
(`git worktree add --detach /tmp/antes 2e4ad74`, then build there with its own code): every
count is taken with this tree's rules, so an old site and a new one are measured alike.
For each site it prints

- the plain-text sub/superscripts left in the rendered prose (`x_t`, `V^π`, `‖·‖_∞`): the rule
  lint uses (compmath.site.checks.text_scripts) over the text tests/test_site_browser.py calls
  prose (outside code, MathML, scripts and charts), in total, per page, and the first words;
  and the same for the other symbols of the math written as text (`γ`, `λ₂`, `‖a‖`:
  compmath.site.checks.text_symbols), for the formulas in Latin letters (`p(x)`, `t = 497`:
  compmath.site.checks.letters_beside_symbols), for the named functions (`PE(0)`, `log(2/7)`:
  compmath.site.checks.text_functions) and for the symbols of one letter standing alone
  («los estados S»: compmath.site.checks.text_lone_letters);
- the heaviest pages, each HTML with the CSS and JS it links (the math font apart), and how many
  pass 60 KB;
- with Chromium (Debian's; Playwright drives it): the display formulas of the class pages wider
  than their column at 390 px once the math font is in (and the line breaker, where there is
  one), with the median of what they hide;
- with axe-core too (.ci/navegador): the serious colour-contrast failures of every page at
  1280 px in light and dark, with the scroll cue's gradients replaced by the solid colour they
  cover (as the browser test does), and the nodes axe still leaves undecided.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from compmath.site.checks import (  # noqa: E402
    letters_beside_symbols,
    symbols_beside_scripts,
    text_functions,
    text_lone_letters,
    text_scripts,
)
from tests.test_site_browser import (  # noqa: E402
    FLAGS,
    SOLID,
    chromium_path,
    node_package,
    rendered_prose,
)

CUT = """() => [...document.querySelectorAll('.formula')]
  .map(box => box.scrollWidth - box.clientWidth)"""
WEIGHT_LIMIT = 60_000


def page_weight(path: Path) -> int:
    """The page's HTML and every stylesheet and script it links, in bytes."""
    html = path.read_text(encoding="utf-8")
    total = len(html.encode())
    for link in re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', html):
        total += (path.parent / link).resolve().stat().st_size
    return total


def _plain_math(site: Path, pages: list[Path], rule: Any, what: str, shown: int) -> None:
    """How many words `rule` finds in the rendered prose of the pages: in total, on the pages
    with most, and the first ones."""
    per_page: Counter[str] = Counter()
    words: list[str] = []
    for path in pages:
        found = [w for text in rendered_prose(path.read_text(encoding="utf-8")) for w in rule(text)]
        if found:
            per_page[str(path.relative_to(site))] = len(found)
            words += found
    print(f"  {what} como texto en la prosa: {sum(per_page.values())} en {len(per_page)} páginas")
    for name, n in per_page.most_common(shown):
        print(f"    {name}: {n}")
    if words:
        print(f"    primeros: {', '.join(words[:12])}")


def static_counts(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    print(f"  páginas: {len(pages)}")
    _plain_math(site, pages, text_scripts, "sub/superíndices", 5)
    _plain_math(site, pages, symbols_beside_scripts, "símbolos matemáticos (γ, λ₂, ‖a‖)", 3)
    letters = "fórmulas con letras latinas (p(x), t = 497)"
    _plain_math(site, pages, letters_beside_symbols, letters, 3)
    _plain_math(site, pages, text_functions, "funciones (PE(0), log(2/7))", 3)
    _plain_math(site, pages, text_lone_letters, "letras sueltas (los estados S, t pasos)", 3)
    weights = sorted(((page_weight(p), str(p.relative_to(site))) for p in pages), reverse=True)
    over = sum(1 for w, _ in weights if w > WEIGHT_LIMIT)
    print(f"  páginas de más de 60 KB (HTML + CSS + JS, sin la fuente): {over}")
    for weight, name in weights[:3]:
        print(f"    {name}: {weight / 1000:.1f} KB")


def browser_counts(browser: Any, site: Path, axe: Path | None) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 900})
    hidden: list[float] = []
    boxes = 0
    for path in sorted(site.glob("clases/3*.html")):
        page.goto(path.as_uri())
        page.evaluate("document.fonts.ready")
        page.wait_for_function("document.documentElement.dataset.lineas !== 'cargando'")
        over = page.evaluate(CUT)
        boxes += len(over)
        hidden += [o for o in over if o > 1]
    page.close()
    median = f", mediana oculta {statistics.median(hidden):.0f} px" if hidden else ""
    print(f"  fórmulas en display cortadas a 390 px: {len(hidden)} de {boxes}{median}")
    if axe is None:
        print("  contraste: falta axe-core (npm ci --prefix .ci/navegador --ignore-scripts)")
        return
    source = axe.read_text(encoding="utf-8")
    for scheme in ("light", "dark"):
        page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        failing: Counter[str] = Counter()
        undecided = 0
        pages = sorted(site.rglob("*.html"))
        for path in pages:
            page.goto(path.as_uri())
            page.evaluate("document.fonts.ready")
            page.add_style_tag(content=SOLID)
            page.add_script_tag(content=source)
            result = page.evaluate(
                "axe.run(document, {runOnly: ['color-contrast'], resultTypes: ['violations']})"
            )
            nodes = sum(
                len(v["nodes"])
                for v in result["violations"]
                if v["impact"] in ("serious", "critical")
            )
            if nodes:
                failing[str(path.relative_to(site))] = nodes
            undecided += sum(len(v["nodes"]) for v in result["incomplete"])
        page.close()
        word = "claro" if scheme == "light" else "oscuro"
        print(
            f"  contraste grave (axe, fondos sólidos, 1280 px, {word}): {sum(failing.values())}"
            f" nodos en {len(failing)} de {len(pages)} páginas;"
            f" sin decidir {undecided} ({undecided / len(pages):.0f} por página)"
        )
        for name, n in failing.most_common(3):
            print(f"    {name}: {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path, help="carpetas de webs construidas")
    parser.add_argument("--no-browser", action="store_true", help="solo lo que no pide Chromium")
    args = parser.parse_args()
    executable = None if args.no_browser else chromium_path()
    if not args.no_browser and executable is None:
        raise SystemExit("error: no se encuentra Chromium (apt-get install chromium)")
    axe = node_package("axe-core", "axe.min.js")
    if executable is None:
        for site in args.sites:
            print(site)
            static_counts(site)
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=FLAGS)
        for site in args.sites:
            print(site)
            static_counts(site)
            browser_counts(browser, site, axe)
            sys.stdout.flush()
        browser.close()


if __name__ == "__main__":
    main()
