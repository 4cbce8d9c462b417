"""Inline formulas a line may break inside (compmath/site/mathbreaks.py): where the pieces are
cut, and in Chromium that unbroken they draw as the whole formula did, pixel by pixel, while
on a phone they wrap where the whole formula pushed the page sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from compmath.site import mathml
from compmath.site.assets import asset_contents
from compmath.site.mathbreaks import pieces
from compmath.site.mathml_compact import unquote_math
from tests.test_site_browser import chromium

CHAIN = r"\beta_{500} = 0{,}0001 + 499 \cdot 0{,}0199/999 = 0{,}01004"


def _pieces_text(latex: str) -> list[str]:
    root = mathml.converted(latex, display=False)
    mathml.adjust(root)
    return ["".join(node.itertext()) for node in pieces(root)]


def test_a_chain_of_figures_breaks_after_its_relations_and_operators() -> None:
    assert _pieces_text(CHAIN) == ["β500=", "0,0001+", "499⋅", "0,0199/999=", "0,01004"]


def test_a_sign_after_an_operator_stays_with_its_number() -> None:
    found = _pieces_text(r"-\log 4 + 2 \cdot 0{,}050672 = -1{,}386294 + 0{,}101344 = -1{,}284951")
    assert all(not text.endswith("=−") for text in found)
    assert found[0].startswith("−log")  # a leading sign is no place to break
    assert "−1,386294+" in found


def test_an_operator_after_a_closing_fence_is_a_place_to_break() -> None:
    latex = r"\log p_X(x) = \log \mathcal{N}(f(x); 0, I) + \log |\det \partial f/\partial x|"
    assert [text[-1] for text in _pieces_text(latex)[:-1]] == ["=", "+"]
    assert _pieces_text(r"f(x) = (-x + 1)(x - 2) + 3 + 4 + 5 + 6 + 7")[1].startswith("(−x+")


def test_a_short_formula_stays_one_element() -> None:
    assert _pieces_text(r"\sigma_t^2 = \beta_t") == ["σt2=βt"]
    assert mathml.to_mathml(r"\sigma_t^2 = \beta_t", display=False).count("<math") == 1


def test_a_display_formula_is_never_cut() -> None:
    assert mathml.to_mathml(CHAIN).count("<math") == 1


def test_a_formula_in_a_style_or_a_table_is_not_cut() -> None:
    latex = r"\begin{aligned} a &= b + c + d + e + f + g + h \\ x &= y \end{aligned}"
    assert mathml.to_mathml(latex, display=False).count("<math") == 1


def test_the_pieces_hold_every_element_of_the_formula_once() -> None:
    root = mathml.converted(CHAIN, display=False)
    mathml.adjust(root)
    whole = ElementTree.tostring(root, encoding="unicode")
    joined = "".join(
        ElementTree.tostring(child, encoding="unicode") for piece in pieces(root) for child in piece
    )
    assert whole == f"<math>{joined}</math>"
    assert mathml.to_mathml(CHAIN, display=False).count("<wbr>") == 4


def _page(tmp_path: Path, name: str, width: int, paragraphs: list[str]) -> Path:
    for asset, data in asset_contents():
        (tmp_path / asset).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / asset).write_bytes(data)
    body = "\n".join(
        f'<p id="f{i}">texto {markup} texto</p>' for i, markup in enumerate(paragraphs)
    )
    path = tmp_path / name
    path.write_text(
        '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="assets/estilo.css"><title>fórmulas</title></head><body>'
        f'<main class="columna" style="width:{width}px">{body}</main></body></html>',
        encoding="utf-8",
    )
    return path


def _whole_and_cut() -> list[tuple[str, str]]:
    """(whole, cut) page markup of the course's inline formulas that the build cuts."""
    from tests.test_mathml_pixels import course_formulas

    with pytest.MonkeyPatch.context() as m:
        inline = [latex for latex, display in course_formulas(m) if not display]
    found = []
    for latex in inline:
        cut = mathml.to_mathml(latex, display=False)
        if "<wbr>" in cut:
            with pytest.MonkeyPatch.context() as m:
                m.setattr(mathml, "pieces", lambda root: [root])
                whole = mathml.to_mathml(latex, display=False)
            found.append((unquote_math(whole), unquote_math(cut)))
    return found


@pytest.mark.lento  # a real browser over the course's long inline formulas
def test_cut_formulas_draw_as_the_whole_and_wrap_on_a_phone(tmp_path: Path) -> None:
    import numpy as np

    from tests.test_mathml_pixels import shot

    formulas = _whole_and_cut()
    assert len(formulas) >= 3  # the course's chains of figures, not none
    with chromium() as browser:
        page: Any = browser.new_page(viewport={"width": 2000, "height": 900}, device_scale_factor=1)
        # wide enough for any of them on one line: the cut draws exactly as the whole
        before, _ = shot(page, _page(tmp_path, "antes.html", 1900, [w for w, _ in formulas]))
        after, _ = shot(page, _page(tmp_path, "despues.html", 1900, [c for _, c in formulas]))
        assert before.shape == after.shape
        assert int(np.any(before != after, axis=-1).sum()) == 0
        # a phone's column: the whole pushes its paragraph sideways, the cut wraps inside it
        page.set_viewport_size({"width": 360, "height": 900})
        overflow = "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).length"
        page.goto(_page(tmp_path, "antes-movil.html", 320, [w for w, _ in formulas]).as_uri())
        wide_whole = page.eval_on_selector_all("p", overflow)
        page.goto(_page(tmp_path, "despues-movil.html", 320, [c for _, c in formulas]).as_uri())
        wide_cut = page.eval_on_selector_all("p", overflow)
    assert wide_whole > 0  # the measure sees an overflow when there is one
    assert wide_cut == 0
