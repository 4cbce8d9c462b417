"""Compacting the MathML changes no pixel: every formula of the course (class.toml's formulas,
every `$…$` and `$$…$$` of its READMEs, class.toml's prose fields and part.toml), drawn by
headless Chromium at device scale 1 with the site's stylesheet and math font, as math-core
writes it and as the page carries it (compacted, its attributes unquoted), pixel by pixel.

The report, with how many formulas were compared and the bytes saved, goes to
$COMPMATH_ARTIFACTS/compactacion-mathml.json (default artifacts/)."""

from __future__ import annotations

import io
import json
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compmath.course.tree import load_course
from compmath.mathtext import math_pieces
from compmath.site import mathml
from compmath.site.assets import asset_contents
from compmath.site.markdown import inline_html, markdown_html
from compmath.site.mathml_compact import unquote_math
from tests.conftest import REPO
from tests.test_site_browser import chromium, chromium_path

pytestmark = pytest.mark.lento  # a real browser over some six hundred formulas

PER_PAGE = 80  # formulas per screenshot: a page stays under Chromium's 16 384 px
STEADY = 4  # further shots of a page until two in a row are the same


class Recorder:
    """math-core's converter, keeping every (LaTeX, display) it is asked for."""

    def __init__(self, real: Any) -> None:
        self.real, self.seen = real, dict[tuple[str, bool], None]()

    def convert_with_local_state(self, latex: str, *, displaystyle: bool) -> str:
        self.seen[(latex, displaystyle)] = None
        return str(self.real.convert_with_local_state(latex, displaystyle=displaystyle))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def course_formulas(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every formula the site converts, found by converting the course's text as the site
    does (class.toml's formulas, its prose fields, the READMEs, part.toml's strings)."""
    recorder = Recorder(mathml._converter())
    monkeypatch.setattr(mathml, "_converter", lambda: recorder)
    course = load_course(REPO)
    for cls in course.classes:
        for formula in cls.meta.formulas:
            if formula.latex:
                mathml.to_mathml(formula.latex)
        for _, text in cls.meta.prose_fields():
            inline_html(text)
        markdown_html(cls.readme.read_text(encoding="utf-8"))
    for part in course.parts:
        for path in sorted(part.path.glob("*.toml")):
            for text in _strings(tomllib.loads(path.read_text(encoding="utf-8"))):
                for latex in math_pieces(text)[1::2]:
                    mathml.to_mathml(latex, display=False)
        for path in sorted(part.path.glob("*.md")):
            markdown_html(path.read_text(encoding="utf-8"))
    return list(recorder.seen)


def both_forms(pairs: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """(LaTeX, display, as math-core writes it, as the page carries it) for each formula."""
    found = []
    for latex, display in pairs:
        compacted = mathml.to_mathml(latex, display=display)
        with monkeypatch.context() as m:
            m.setattr(mathml, "compact", lambda markup: markup)
            plain = mathml.to_mathml(latex, display=display)
        found.append((latex, display, plain, unquote_math(compacted)))
    return found


def sheet(markups: list[tuple[bool, str]]) -> str:
    """A page of formulas in the site's stylesheet: a display one in the class page's
    `.formula` box, an inline one inside a line of text."""
    body = []
    for i, (display, markup) in enumerate(markups):
        if display:
            body.append(f'<div class="ec"><div class="formula" id="f{i}">{markup}</div></div>')
        else:
            body.append(f'<p id="f{i}">texto {markup} texto</p>')
    return (
        '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="assets/estilo.css"><title>fórmulas</title></head><body>'
        '<main class="columna" style="width:860px">' + "\n".join(body) + "</main></body></html>"
    )


def shot(page: Any, path: Path) -> tuple[Any, list[list[float]]]:
    import numpy as np
    from PIL import Image

    page.goto(path.as_uri())
    # every face the stylesheet declares loaded (`fonts.ready` alone resolves before a face
    # nothing has asked for yet starts to load: `font-display: swap` would then show the
    # fallback), then two frames, so the page is laid out and painted with them
    page.evaluate(
        "Promise.all([...document.fonts].map(f => f.load()))"
        ".then(() => document.fonts.ready)"
        ".then(() => new Promise(done => requestAnimationFrame(() =>"
        " requestAnimationFrame(() => done(true)))))"
    )
    boxes = page.eval_on_selector_all(
        "[id^=f] math",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.x, r.y + window.scrollY, r.width, r.height]; })",
    )
    data = page.screenshot(full_page=True, animations="disabled")
    for _ in range(STEADY):  # a page still painting under load shows it in a second shot
        again = page.screenshot(full_page=True, animations="disabled")
        if again == data:
            break
        data = again
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")), boxes


def test_compacted_mathml_draws_the_same_pixels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    for name, data in asset_contents():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    formulas = both_forms(course_formulas(monkeypatch), monkeypatch)
    assert len(formulas) > 300  # the course's formulas, not a handful
    differing: list[dict[str, Any]] = []
    pixels = 0
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 900}, device_scale_factor=1)
        for start in range(0, len(formulas), PER_PAGE):
            chunk = formulas[start : start + PER_PAGE]
            shots = []
            for side, column in (("antes", 2), ("despues", 3)):
                path = tmp_path / f"{side}-{start}.html"
                path.write_text(sheet([(f[1], f[column]) for f in chunk]), encoding="utf-8")
                shots.append(shot(page, path))
            (before, boxes_before), (after, boxes_after) = shots
            pixels += before.shape[0] * before.shape[1]
            if before.shape != after.shape or boxes_before != boxes_after:
                differing.append({"desde": start, "motivo": "otra caja u otro tamaño"})
                continue
            for i, (x, y, w, h) in enumerate(boxes_before):
                area = (slice(int(y), int(y + h) + 2), slice(int(x), int(x + w) + 2))
                count = int(np.any(before[area] != after[area], axis=-1).sum())
                if count:
                    differing.append({"latex": chunk[i][0], "pixeles": count})
            whole = int(np.any(before != after, axis=-1).sum())
            if whole and not differing:
                differing.append({"desde": start, "pixeles_fuera_de_las_formulas": whole})
    saved = sum(len(f[2].encode()) - len(f[3].encode()) for f in formulas)
    report = {
        "formulas_comparadas": len(formulas),
        "en_bloque": sum(1 for f in formulas if f[1]),
        "en_linea": sum(1 for f in formulas if not f[1]),
        "escala": 1,
        "pixeles_comparados": pixels,
        "formulas_distintas": differing,
        "bytes_antes": sum(len(f[2].encode()) for f in formulas),
        "bytes_despues": sum(len(f[3].encode()) for f in formulas),
        "bytes_ahorrados": saved,
        "chromium": chromium_path(),
    }
    folder = Path(os.environ.get("COMPMATH_ARTIFACTS") or REPO / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "compactacion-mathml.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    assert saved > 0  # the pass did something to compare
    assert differing == [], json.dumps(differing[:5], ensure_ascii=False)
