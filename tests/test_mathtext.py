"""Inline `$…$` in prose: where math is (the README's dollarmath rules, as markdown-it reads them),
its plain text for the terminal, and what class.toml's texts show in `compmath show`, practice and
the notebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from compmath.course.tree import load_course
from compmath.mathtext import math_pieces, plain_prose, tex_plain
from tests.conftest import FAKE_PART, REPO

PROSE = [
    "cuesta $5 y $10; $x^2$ sí",
    "$a$ y $b$, 2$x$ no, x$y$ sí",
    "\\$a$ escapado, $ a$ con blanco, $a $ también",
    "$a$1 seguido de cifra, $$ vacío, $x",
    "varios: $\\bar\\alpha_t = \\prod_{s \\le t}(1 - \\beta_s)$, fin.",
    "sin dólares",
    "$e^{-c}$",
]


def _dollarmath(text: str) -> list[str]:
    """The inline math markdown-it's dollarmath finds, as the website's README prose reads it."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("zero").use(dollarmath_plugin, allow_space=False, allow_digits=False)
    tokens = md.parse(text)[1].children or []
    return [t.content for t in tokens if t.type == "math_inline"]


@pytest.mark.parametrize("text", PROSE)
def test_math_is_where_the_readmes_dollarmath_finds_it(text: str) -> None:
    pieces = math_pieces(text)
    assert len(pieces) % 2 == 1
    assert pieces[1::2] == _dollarmath(text)
    # nothing lost: the pieces and their dollars are the text
    rebuilt = "".join(p if i % 2 == 0 else f"${p}$" for i, p in enumerate(pieces))
    assert rebuilt == text


def test_inline_math_reads_as_unicode() -> None:
    assert tex_plain(r"\bar\alpha_t = \prod_{s \le t}(1 - \beta_s)") == "ᾱₜ = Π_(s≤t)(1 − βₛ)"
    assert tex_plain(r"S_j = \sum_{i<j} e^{i r \theta_i}") == "Sⱼ = Σ_(i<j) e^(i r θᵢ)"
    assert tex_plain(r"\hat A = \tilde D^{-1/2} \tilde A") == "Â = D̃^(−1/2) Ã"
    assert tex_plain(r"L_{\text{sym}} = \|V_k - V_{k-1}\|_\infty") == "L_sym = ‖Vₖ − Vₖ₋₁‖_∞"
    assert tex_plain(r"m_t = \sqrt{\alpha_t}\, m_{t-1}") == "mₜ = √αₜ mₜ₋₁"
    assert tex_plain(r"\sqrt{\bar\alpha_{t-1}}") == "√ᾱₜ₋₁"  # one symbol: no parentheses
    assert tex_plain(r"\sqrt{\bar\alpha_{s \le t}}") == "√(ᾱ_(s≤t))"
    assert tex_plain(r"\text{coef\_x0} + \widehat{Var}") == "coef_x0 + Var"


@pytest.mark.parametrize(
    "tex",
    [r"\text{pos}\cdot \omega_i", r"\text{pos}\cdot\omega_i", r"\text{pos} \cdot \omega_i",
     r"\text{pos}  \cdot\omega_i"],
)  # fmt: skip
def test_a_binary_operator_has_a_space_each_side_however_it_was_typed(tex: str) -> None:
    """TeX drops the spaces typed in math and sets its own around a binary operator: 323's
    hole 2 read «pos· ω_i» (the space after `\\cdot` kept, the one before it never typed)."""
    assert tex_plain(tex) == "pos · ωᵢ"


def test_operators_are_spaced_in_a_line_and_tight_in_a_script() -> None:
    assert tex_plain(r"(h\cdot d_h)\times d") == "(h · dₕ) × d"
    assert tex_plain(r"k\cdot \omega_i \le \pi") == "k · ωᵢ ≤ π"
    # a power of ten as every number reads (wording.number): tight
    assert tex_plain(r"\theta_{63} = 1{,}15478\cdot 10^{-4}") == "θ₆₃ = 1,15478·10⁻⁴"
    assert tex_plain(r"2\cdot 10") == "2 · 10"  # ten itself is no power of ten
    assert tex_plain(r"e^{2\cdot i}") == "e^(2·i)"  # a script stays tight
    assert tex_plain(r"\prod_{s \le t}") == "Π_(s≤t)"
    assert tex_plain(r"\mathbb{E}_{a \sim \pi}") == "𝔼_(a ~ π)"
    assert tex_plain(r"\cdot x") == "· x"  # nothing before it: no space at the start


def test_prose_keeps_its_words_and_loses_the_dollars() -> None:
    assert plain_prose("el factor $e^{-c}$ se cancela; cuesta $5") == (
        "el factor e⁻ᶜ se cancela; cuesta $5"
    )
    assert plain_prose("sin fórmulas") == "sin fórmulas"


def test_no_field_of_the_course_has_tex_outside_math_and_its_math_converts() -> None:
    from compmath.site.checks import tex_in_fields

    course = load_course(REPO)
    assert [w for cls in course.classes for _, w, _ in tex_in_fields(cls)] == []
    math = [
        m for c in course.classes for _, t in c.meta.prose_fields() for m in math_pieces(t)[1::2]
    ]
    assert len(math) >= 30  # issue #27: the fields' TeX is now between dollars


def _plant(root: Path, old: str, new: str) -> Path:
    meta = root / "classes" / FAKE_PART / "901-pasa" / "class.toml"
    text = meta.read_text(encoding="utf-8")
    assert old in text
    meta.write_text(text.replace(old, new, 1), encoding="utf-8")
    return meta


MATH_DESCRIPTION = r"'$\bar\alpha_t = \prod_{s\le t}(1-\beta_s)$ por la escala.'"


def test_show_draws_a_fields_math_as_unicode(cli, fake_course: Path) -> None:
    _plant(fake_course, "'$n$ por la escala.'", MATH_DESCRIPTION)
    _plant(
        fake_course, "'Sumar $n$ y la escala en lugar de multiplicarlos.'", r"'Olvidar $e^{-c}$.'"
    )
    result = cli("show", "901", "--root", str(fake_course))
    assert result.code == 0, result.err
    text = " ".join(result.out.split())
    assert "mitad: ᾱₜ = Π_(s≤t)(1−βₛ) por la escala." in text
    assert "• Olvidar e⁻ᶜ." in text
    assert "$" not in result.out and "\\bar" not in result.out


def test_the_practice_lab_and_its_hints_read_the_math_as_unicode(fake_course: Path) -> None:
    from compmath.holes.regions import exercise_source

    _plant(fake_course, "'Calcula mitad: $n$ por la escala.'", r"'Calcula $\bar\alpha_t$ y mitad.'")
    cls = load_course(fake_course).classes[0]
    source = exercise_source(cls.lab.read_text(encoding="utf-8"), [h.task for h in cls.meta.holes])
    assert "# TODO: Calcula ᾱₜ y mitad." in source


def test_the_notebook_keeps_a_fields_math_for_jupyter_and_escapes_a_dollar() -> None:
    from compmath.notebook.markdown import text

    field = r"el factor $e^{-c}$ cuesta $5 y $10"
    assert text(field) == r"el factor $e^{-c}$ cuesta \$5 y \$10"
    readme = "Antes\n\n$$x_t = \\sqrt{1 - \\beta_t}$$\n\ny $m_t$, \\$ ya escapado."
    assert text(readme) == readme  # a README's display and inline math stay math


def test_show_draws_the_readmes_math_as_unicode_and_keeps_dollars_that_are_prose() -> None:
    from compmath.present.layout import lay_out, plain_text
    from compmath.present.prose import prose_blocks

    readme = (
        "Con $\\bar\\alpha_t = \\prod_{s \\le t}(1 - \\beta_s)$ y **$D^{-1/2}$**; cuesta $5 y $10.\n"
        "\n$$\nx_t = \\sqrt{1 - \\beta_t}\\, x_{t-1}\n$$\n\nFin.\n"
    )
    shown = plain_text(lay_out(prose_blocks(readme), 100))
    assert shown == (
        "Con ᾱₜ = Π_(s≤t)(1 − βₛ) y D^(−1/2); cuesta $5 y $10.\n\n  xₜ = √(1 − βₜ) xₜ₋₁\n\nFin.\n"
    )
