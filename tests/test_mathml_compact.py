"""The MathML compaction removes only what MathML Core makes a no-op (W3C MathML Core: mrow
and inferred mrows, the operator's form rule, mstyle as mrow), and unquotes attribute values
only where the HTML parser reads them the same (WHATWG HTML, unquoted attribute value syntax).
That the pages draw the same is tests/test_mathml_pixels.py's job, over the whole course."""

from __future__ import annotations

from html.parser import HTMLParser

from compmath.site.mathml import to_mathml
from compmath.site.mathml_compact import compact, unquote_math


def test_a_one_child_mrow_in_a_script_or_alone_in_a_root_goes() -> None:
    assert compact("<math><msub><mi>x</mi><mrow><mi>t</mi></mrow></msub></math>") == (
        "<math><msub><mi>x</mi><mi>t</mi></msub></math>"
    )
    nested = "<math><msqrt><mrow><mrow><mn>1</mn></mrow></mrow></msqrt></math>"
    assert compact(nested) == "<math><msqrt><mn>1</mn></msqrt></math>"


def test_a_row_alone_in_a_root_or_a_display_is_spliced_into_it() -> None:
    root = "<math><msqrt><mrow><mn>1</mn><mo>−</mo><mi>x</mi></mrow></msqrt></math>"
    assert compact(root) == "<math><msqrt><mn>1</mn><mo>−</mo><mi>x</mi></msqrt></math>"
    display = '<math display="block"><mrow><mo>(</mo><mi>b</mi><mo>)</mo></mrow></math>'
    assert compact(display) == '<math display="block"><mo>(</mo><mi>b</mi><mo>)</mo></math>'


def test_an_mrow_that_groups_stays() -> None:
    # a row of several children groups them: flattening it into the outer row would change
    # which operator is first or last there (prefix / postfix) and what a fence stretches to
    kept = "<math><mi>a</mi><mrow><mo>(</mo><mi>b</mi><mo>)</mo></mrow></math>"
    assert compact(kept) == kept
    # a one-child mrow among siblings in a row: not unwrapped either (it could hold an operator
    # whose form its place decides)
    among = "<math><mi>a</mi><mrow><mo>−</mo></mrow><mi>b</mi></math>"
    assert compact(among) == among
    # an mrow with an attribute is not a bare group
    styled = '<math><msub><mi>x</mi><mrow intent="t"><mi>t</mi></mrow></msub></math>'
    assert compact(styled) == styled


def test_a_form_equal_to_the_place_goes_and_a_different_one_stays() -> None:
    row = (
        '<math><mo form="prefix">‖</mo><mi>x</mi><mo form="infix">∼</mo><mi>y</mi>'
        '<mo form="postfix">‖</mo></math>'
    )
    assert compact(row) == "<math><mo>‖</mo><mi>x</mi><mo>∼</mo><mi>y</mi><mo>‖</mo></math>"
    # the first operator of a row written as infix: the attribute is what makes it infix
    first = '<math><mo form="infix">∼</mo><mi>y</mi></math>'
    assert compact(first) == first
    # an operator alone in a row (with a space beside it, or without) is embellished: the outer
    # row decides its form, so the attribute stays; the empty space has no size and goes
    alone = '<math><mi>a</mi><mrow><mspace/><mo form="infix">∼</mo></mrow><mi>b</mi></math>'
    assert compact(alone) == '<math><mi>a</mi><mrow><mo form="infix">∼</mo></mrow><mi>b</mi></math>'
    sized = '<math><mi>a</mi><mrow><mspace width="1em"/><mo>∼</mo></mrow><mi>b</mi></math>'
    assert compact(sized) == sized


def test_a_row_goes_into_its_row_when_no_operator_in_it_can_tell() -> None:
    """math-core groups `\\log p` as an mrow in the formula's row; spliced, every operator in
    it keeps its form (by its place) and its size (none that Core stretches)."""
    log = (
        "<math><mrow><mrow><mspace/><mi>log</mi></mrow><mo>\u2061</mo><mi>p</mi></mrow>"
        '<mo stretchy="false">(</mo><mi>x</mi><mo stretchy="false">)</mo></math>'
    )
    assert compact(log) == (
        '<math><mi>log</mi><mo>\u2061</mo><mi>p</mi><mo stretchy="false">(</mo><mi>x</mi>'
        '<mo stretchy="false">)</mo></math>'
    )
    kept = (
        # a sign first in its group would be infix in the outer row
        "<math><mi>a</mi><mrow><mo>−</mo><mi>b</mi></mrow></math>",
        # a fence stretches to its row: moved to a taller row it could grow
        "<math><mfrac><mi>a</mi><mi>b</mi></mfrac><mrow><mi>f</mi><mo>|</mo></mrow></math>",
        # an embellished operator (a script on a large operator) counts as the one it holds
        "<math><mi>a</mi><mrow><msub><mo>∑</mo><mi>i</mi></msub><mi>b</mi></mrow></math>",
    )
    assert [compact(group) for group in kept] == list(kept)  # each group stays


def test_a_sign_that_opens_its_row_loses_its_zero_spaces() -> None:
    """A prefix + or − has no space on either side in Core's dictionary (measured in Chromium:
    the same box); math-core writes them out."""
    assert compact('<math><mo lspace="0" rspace="0">−</mo><mn>1</mn></math>') == (
        "<math><mo>−</mo><mn>1</mn></math>"
    )
    inside = '<math><mi>a</mi><mo lspace="0" rspace="0">−</mo><mn>1</mn></math>'  # infix: stays
    assert compact(inside) == inside
    other = '<math><mo lspace="0" rspace="0">±</mo><mn>1</mn></math>'  # not measured: stays
    assert compact(other) == other


def test_attributes_that_change_the_layout_stay() -> None:
    # Core's defaults differ: a fence stretches, an over script is not an accent, a minus in a
    # script keeps its spaces: math-core writes these because they matter
    bar = to_mathml(r"\bar\alpha_{t-1}", display=False)
    assert compact(bar) == bar
    for kept in ('accent="true"', 'stretchy="false"', 'lspace="0" rspace="0"'):
        assert kept in bar
    assert 'stretchy="false"' in compact(to_mathml("q(x)"))


def test_blank_text_between_elements_goes_and_a_tokens_text_stays() -> None:
    spaced = "<math>\n  <mi>a</mi>\n  <mtext> y </mtext>\n</math>"
    assert compact(spaced) == "<math><mi>a</mi><mtext> y </mtext></math>"


def test_a_plain_mstyle_is_an_mrow_and_a_styled_one_stays() -> None:
    # an mrow, then one with no operator in it: spliced into its row
    assert compact("<math><mi>c</mi><mstyle><mi>a</mi><mi>b</mi></mstyle></math>") == (
        "<math><mi>c</mi><mi>a</mi><mi>b</mi></math>"
    )
    styled = '<math><mstyle displaystyle="false"><mi>a</mi></mstyle></math>'
    assert compact(styled) == styled


def test_nothing_to_remove_returns_the_same_text() -> None:
    markup = to_mathml("x^2 + y^2", display=False)
    assert compact(markup) == markup


class Attributes(HTMLParser):
    """Every start tag's name and attributes, as the HTML parser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def parsed(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = Attributes()
    parser.feed(html)
    return parser.tags


def test_unquoted_math_attributes_read_the_same() -> None:
    page = (
        '<p class="lema">texto <math display="block"><mo stretchy="false">(</mo>'
        '<mspace width="1em"/><mo lspace="0" rspace="0.1667em">−</mo>'
        '<mpadded style="padding-right:0.1667em;"><mi>a</mi></mpadded>'
        '<mspace style="margin-left:-0.16666667em;"/></math> <a href="x.html">y</a></p>'
    )
    out = unquote_math(page)
    assert parsed(out) == parsed(page)  # the same elements with the same attribute values
    assert "<math display=block>" in out and "<mo lspace=0 rspace=0.1667em>" in out
    assert '<mspace width="1em"/>' in out  # unquoted, the slash would join the value
    assert 'style="padding-right:0.1667em;"' not in out  # no blank: it may go unquoted
    assert '<p class="lema">' in out and 'href="x.html"' in out  # outside <math>: untouched


def test_a_value_the_parser_would_read_otherwise_keeps_its_quotes() -> None:
    tricky = '<math><mi mathvariant="a b">x</mi><mi title="a=b">y</mi><mi title="">z</mi></math>'
    assert unquote_math(tricky) == tricky
