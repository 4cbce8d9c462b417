"""Inline math in prose (`$…$`, the README's dollarmath rules) and its readable plain text.

The website draws `$…$` as MathML; the terminal, the search's sentences and the comments of a
practice lab show it with this module's Unicode approximation (`\\bar\\alpha_t` → `ᾱ_t`,
`D^{-1/2}` → `D^(−1/2)`). A `$` opens math when it is not escaped, not after a digit and not
before a blank; it closes at the next unescaped `$` when that is not after a blank nor before a
digit: «cuesta $5 y $10» stays prose.
"""

from __future__ import annotations

import re
import unicodedata

GREEK = (
    "alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ iota ι kappa κ "
    "lambda λ mu μ nu ν xi ξ pi π rho ρ sigma σ tau τ phi ϕ varphi φ chi χ psi ψ omega ω "
    "Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Phi Φ Psi Ψ Omega Ω"
)
SYMBOLS = (
    "cdot · times × le ≤ leq ≤ ge ≥ geq ≥ ne ≠ neq ≠ approx ≈ sim ~ mid | in ∈ to → infty ∞ "
    "sum Σ prod Π nabla ∇ partial ∂ top ᵀ lVert ‖ rVert ‖ | ‖ pm ± ldots … dots … cdots ⋯"
)
_PAIRS = (GREEK + " " + SYMBOLS).split()
_WORDS = dict(zip(_PAIRS[::2], _PAIRS[1::2], strict=True))
# an accent on one letter becomes a combining mark: \bar\alpha → ᾱ, \tilde{D} → D̃
_MARKS = {"bar": "\u0304", "overline": "\u0304", "tilde": "\u0303", "hat": "\u0302"}
_ACCENT = re.compile(
    r"\\(bar|overline|tilde|hat)(?![A-Za-z])\s*(?:\{\s*(\\[A-Za-z]+|\w)\s*\}|(\\[A-Za-z]+|\w))"
)
_COMMAND = re.compile(r"\\([A-Za-z]+|.)(\s*)")
_BRACED = re.compile(r"([_^])\{([^{}]*)\}")
_FRAC = re.compile(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_FONT = re.compile(r"\\(?:text|mathrm|mathbf|mathbb|mathcal|operatorname|mathit)\s*\{([^{}]*)\}")
_ATOM = re.compile(r"[^\s()+\-−/=·,]+")  # one symbol with its subscripts, no operator
_TIGHT = re.compile(r" ?([≤≥≠<>=]) ?")  # «_{s \le t}» reads «_(s≤t)»


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    slashes = len(text[:at]) - len(text[:at].rstrip("\\"))
    return slashes % 2 == 1


def _closing(text: str, start: int) -> int:
    """Where the math opened by the `$` at `start` closes, or -1 when that `$` is prose."""
    after = text[start + 1 : start + 2]
    if not after or after.isspace() or text[start - 1 : start].isdigit() or _escaped(text, start):
        return -1
    end = text.find("$", start + 1)
    while end >= 0 and _escaped(text, end):
        end = text.find("$", end + 1)
    if end <= start + 1 or text[end - 1].isspace() or text[end + 1 : end + 2].isdigit():
        return -1
    return end


def math_pieces(text: str) -> list[str]:
    """The text split at its inline math: prose, math, prose, … (odd places: math, no `$`)."""
    pieces: list[str] = []
    start = at = 0
    while (at := text.find("$", at)) >= 0:
        end = _closing(text, at)
        if end < 0:
            at += 1
            continue
        pieces += [text[start:at], text[at + 1 : end]]
        start = at = end + 1
    return [*pieces, text[start:]]


def _accent(match: re.Match[str]) -> str:
    base = match.group(2) or match.group(3)
    letter = _WORDS.get(base[1:], "") if base.startswith("\\") else base
    return letter + _MARKS[match.group(1)] if len(letter) == 1 else match.group(0)


def _command(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in ("frac", "sqrt"):  # their arguments, once known, are grouped below
        return "\\" + name
    if name in _WORDS:  # a symbol keeps the blank after it: «\le \sqrt» → «≤ √»
        return _WORDS[name] + match.group(2)
    if name in ("_", "%", "&", "#"):  # «\text{coef\_x0}»
        return name
    if name in (",", ";", ":", "!", "quad", "qquad", " "):
        return " "
    # an accent on more than a letter (\widehat{Var}) leaves it; \log, \max, \exp stay words
    accents = ("tilde", "hat", "bar", "overline", "widehat", "widetilde")
    return "" if name in (*accents, "left", "right", "big", "Big") else name + " "


def _group(text: str) -> str:
    text = text.strip()
    return text if len(text) == 1 else f"({text})"


def _root(match: re.Match[str]) -> str:
    text = match[1].strip()
    return "√" + (text if _ATOM.fullmatch(text) else _group(text))  # «√α_t», «√(1 − β_t)»


def _script(match: re.Match[str]) -> str:
    text = _TIGHT.sub(r"\1", match[2]).strip()
    return match[1] + (text if text.isalnum() else _group(text))  # «L_{sym}» → «L_sym»


def plain_math(tex: str) -> str:
    """Inline LaTeX as plain text a reader recognises: `D^{-1/2}` → `D^(−1/2)`."""
    text = _FONT.sub(r"\1", tex).replace("{,}", ",").replace("{}", "")
    text = _COMMAND.sub(_command, _ACCENT.sub(_accent, text))
    for _ in range(3):  # nested groups, innermost first
        text = _FRAC.sub(lambda m: f"{_group(m[1])}/{_group(m[2])}", text)
        text = _SQRT.sub(_root, text)
        text = _BRACED.sub(_script, text)
    text = (
        text.replace("\\sqrt", "√")
        .replace("\\", "")
        .replace("{", "")
        .replace("}", "")
        .replace("-", "−")
    )
    text = re.sub(r" (?=[_^])", "", " ".join(text.split()))  # «\max_{a'}» → «max_(a')»
    return unicodedata.normalize("NFC", text)  # ᾱ as one character where Unicode has it


def plain_prose(text: str) -> str:
    """Prose with its `$…$` as plain text, for the terminal: «$\\theta_i$ gira» → «θ_i gira»."""
    if "$" not in text:
        return text
    pieces = math_pieces(text)
    pieces[1::2] = [plain_math(p) for p in pieces[1::2]]
    return "".join(pieces)
