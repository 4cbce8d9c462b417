"""Math written in TeX (`$…$` in a class's prose) as plain Unicode, for the terminal, the
search's quotes and a practice lab's comments: `ωᵢ`, `xₜ₋₁`, `D^(−1/2)`, `√d̃`, `e⁻¹`, `L_sym`;
the site renders the same text as MathML. A script is Unicode where Unicode has every character
of it (and no more than two letters), else `_…`/`^(…)`. The plain forms of a class's formulas
(class.toml's `texto`) get the same scripts: `10000^{2i/d}` reads as `10000^(2i/d)`, `V_k` as
`Vₖ`."""

from __future__ import annotations

import re
import unicodedata

GREEK_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi "
    "pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi "
    "Psi Omega"
)
GREEK = dict(zip(GREEK_NAMES.split(" "), "αβγδϵεζηθϑικλμνξπρστυϕφχψωΓΔΘΛΞΠΣΦΨΩ", strict=True))
SYMBOLS = {
    **GREEK,
    "cdot": "·", "times": "×", "approx": "≈", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "neq": "≠", "sim": "~", "mid": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖",
    "|": "‖", "top": "ᵀ", "dots": "…", "ldots": "…", "cdots": "⋯", "infty": "∞", "to": "→",
    "rightarrow": "→", "leftarrow": "←", "mapsto": "↦", "in": "∈", "sum": "Σ", "prod": "Π",
    "partial": "∂", "nabla": "∇", "pm": "±", "propto": "∝", "equiv": "≡", "ell": "ℓ", "langle": "⟨",
    "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "odot": "⊙", "Rightarrow": "⇒", "iff": "⇔", "lvert": "|", "rvert": "|", "perp": "⊥",
    "cup": "∪", "cap": "∩", "int": "∫", "mp": "∓", "setminus": "∖",
    ",": " ", ";": " ", ":": " ", " ": " ", "quad": " ", "qquad": "  ", "!": "",
    "{": "{", "}": "}", "%": "%", "_": "_", "&": "&", "#": "#",
    "left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "displaystyle": "",
}  # fmt: skip
NAMED = {"log", "ln", "exp", "max", "min", "sin", "cos", "tan", "arg", "det", "lim", "sup",
         "inf", "tanh", "softmax", "argmax", "argmin"}  # fmt: skip
ACCENTS = {"tilde": "\u0303", "hat": "\u0302", "widehat": "\u0302", "bar": "\u0304",
           "overline": "\u0304", "vec": "\u20d7", "dot": "\u0307"}  # fmt: skip
AS_IS = {"text", "mathrm", "operatorname", "mathit", "mathbf", "boldsymbol", "textrm"}
DOUBLE_STRUCK = {"E": "𝔼", "R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "P": "ℙ"}
SCRIPT = {"N": "𝒩", "L": "ℒ", "D": "𝒟", "O": "𝒪", "F": "ℱ", "H": "ℋ"}
SUPERSCRIPT = str.maketrans(
    "0123456789+−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθφχ",
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᵠᵡ",
)
# the subscripts Unicode has (no b, c, d, f, g, q, w, y, z, no capital, few Greek letters)
SUBSCRIPT = str.maketrans(
    "0123456789+−=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"
)
# A script Unicode cannot write, between marks while the text is made (the search's quotes keep
# them and show <sub>/<sup>; everywhere else they become `_t`, `_(s≤t)`, `^π`, `^(i r θ)`)
SUB_OPEN, SUB_CLOSE, SUP_OPEN, SUP_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
MARKED = re.compile("([\ue000\ue002])([^\ue000-\ue003]*)[\ue001\ue003]")
ATOM = re.compile(r"[^\s()+\-−/=·,]+")  # one symbol with its scripts, no operator: √α_t
# Binary operators and relations written as commands: TeX drops the spaces typed around them
# and sets its own, so the plain text puts one on each side whatever was typed (`pos\\cdot
# \\omega_i` reads «pos · ωᵢ», never «pos· ωᵢ»); a script keeps them tight.
SPACED = {"cdot", "times", "approx", "le", "leq", "ge", "geq", "ne", "neq", "sim", "equiv",
          "propto", "in", "to", "mapsto", "rightarrow", "leftarrow", "Rightarrow", "iff",
          "odot", "perp", "cup", "cap", "setminus"}  # fmt: skip
TIGHT = re.compile(r"\s*([≤≥≠<>=·×])\s*")
POWER_OF_TEN = re.compile(r"(\d) · (10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?![\w(])")  # wording.number's form
INSIDE = re.compile(r"(?<=[(\[]) +| +(?=[)\]])")
OPENING = {"lVert", "langle", "lfloor", "lceil"}  # no space after an opening delimiter,
CLOSING = {"rVert", "rangle", "rfloor", "rceil"}  # none before a closing one: ‖x̂‖


def tex_plain(tex: str, *, marked: bool = False) -> str:
    """A TeX math fragment as readable plain text (an unknown command shows its name); with
    `marked`, the scripts Unicode has no letters for stay between the SUB_/SUP_ marks."""
    text, _ = _sequence(tex, 0)
    text = POWER_OF_TEN.sub(r"\1·\2", " ".join(text.split()))  # 1,15478·10⁻⁴, as numbers read
    text = INSIDE.sub("", text)  # «Q(s', ·)»: no blank inside a bracket, as TeX sets it
    text = unicodedata.normalize("NFC", text)  # ᾱ as one character
    return text if marked else unmarked(text)


def unmarked(text: str) -> str:
    """Marked scripts as the prose writes them: `x_t`-like `_sym`, `_(s≤t)`, `^π`, `^(2i/d)`,
    the innermost first."""
    while MARKED.search(text):
        text = MARKED.sub(lambda m: _written(m.group(1), m.group(2)), text)
    return text


def _written(opening: str, body: str) -> str:
    mark = "_" if opening == SUB_OPEN else "^"
    if len(body) == 1 or (mark == "_" and body.replace("'", "").isalnum()):
        return mark + body
    return f"{mark}({body})"


# a script written without braces in a formula's plain form: one or two letters or digits
# after a one-letter name, a number, an operator's name or a closing mark, ending there (`V_k`,
# `γ^k`, `A_ij`, `10^9`, `max_a`, `‖x‖_2`; not `d_model`, `top_k` nor `Σ_s'`)
BARE = re.compile(
    r"((?<![^\W\d_])[^\W\d_]|\d|(?<![^\W\d_])(?:max|min|argmax|argmin|sup|inf|lim)|[)\]}|‖*′])"
    r"([_^])([^\W_]{1,2})(?![\w'′]|[,.]\d)"
)


def plain_scripts(text: str) -> str:
    """A formula's plain form with its scripts written as the prose writes them: `^{…}` and
    `_{…}` groups (`^(2i/d)`, `⁻¹`, `ₖ₊₁`, `_(s≤t)`) and the bare `_k`, `^k` (`ₖ`, `ᵏ`) in
    Unicode where it has them; everything else, spacing included, as it is."""

    def bare(found: re.Match[str]) -> str:
        return found.group(1) + unmarked(_script(found.group(2) + found.group(3)))

    return BARE.sub(bare, _grouped_scripts(text))


def _grouped_scripts(text: str) -> str:
    out = ""
    i = 0
    while i < len(text):
        if text[i] in "^_" and text.startswith("{", i + 1):
            depth, end = 0, i + 1
            while end < len(text):
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                if depth == 0:
                    break
                end += 1
            if depth == 0:  # a closed group; an unclosed one stays as written
                out += unmarked(_script(text[i] + plain_scripts(text[i + 2 : end])))
                i = end + 1
                continue
        out += text[i]
        i += 1
    return out


def _sequence(tex: str, i: int) -> tuple[str, int]:
    """Everything up to the closing brace of the current group (or the end)."""
    out = ""
    while i < len(tex) and tex[i] != "}":
        script = tex[i] in "^_"
        closing = tex.startswith(tuple(f"\\{name}" for name in CLOSING), i)
        piece, i = _atom(tex, i)
        out = out.rstrip() if closing else out
        out += _script(piece) if script else piece
    return out, i + 1


def _script(piece: str) -> str:
    """A script in Unicode when every character has one (`10⁹`, `e⁻¹`, `Uᵀ`, `ωᵢ`, `x₀`,
    `xₜ₋₁`), a star as a star (`μ*`, `σ*²`), else the script between its marks (unmarked writes
    `L_sym`, `W_Q`, `V^π`)."""
    mark, body = piece[0], piece[1:]
    body = TIGHT.sub(r"\1", body.strip())  # «_{s \le t}» reads «_(s≤t)», «^{2\cdot i}» «^(2·i)»
    if mark == "^" and body.startswith("*"):  # a star as the prose writes it: μ*, σ*², V*
        return "*" + (_script("^" + body[1:]) if body[1:] else "")
    letters = SUPERSCRIPT if mark == "^" else SUBSCRIPT
    # `_simple` reads better so than `ₛᵢₘₚₗₑ`, `^(top)` than `ᵗᵒᵖ`
    word = sum(ch.isalpha() for ch in body) > 2
    if body and not word and all(ord(ch) in letters or (mark, ch) == ("^", "ᵀ") for ch in body):
        return body.translate(letters)
    return (SUP_OPEN + body + SUP_CLOSE) if mark == "^" else (SUB_OPEN + body + SUB_CLOSE)


def _atom(tex: str, i: int) -> tuple[str, int]:
    """One unit: a character, a group, a command with its arguments, or a script mark with its
    argument (returned as `^…` / `_…` for _script)."""
    ch = tex[i]
    if ch == "{":
        return _sequence(tex, i + 1)
    if ch in "^_":
        body, i = _argument(tex, i + 1)
        return ch + body, i
    if ch == "\\":
        return _command(tex, i + 1)
    if ch == "-":
        return "−", i + 1
    if ch == "~":
        return " ", i + 1
    return ch, i + 1


def _argument(tex: str, i: int) -> tuple[str, int]:
    """The argument of a command or script: a group, a command or one character."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    return _atom(tex, i)


def _command(tex: str, i: int) -> tuple[str, int]:
    end = i
    while end < len(tex) and tex[end].isalpha():
        end += 1
    name = tex[i:end] if end > i else tex[i : i + 1]
    i = max(end, i + 1)
    if name in OPENING:
        while i < len(tex) and tex[i] == " ":
            i += 1
    if name in SPACED:
        return f" {SYMBOLS[name]} ", i
    if name in SYMBOLS:
        return SYMBOLS[name], i
    if name in NAMED:
        return name, i
    if name in AS_IS:
        return _argument(tex, i)
    if name in ACCENTS:  # on one letter a combining mark (ᾱ, D̃); over several, no mark
        body, i = _argument(tex, i)
        return (body + ACCENTS[name] if len(body) == 1 else body), i
    if name in ("mathbb", "mathcal"):
        body, i = _argument(tex, i)
        letters = DOUBLE_STRUCK if name == "mathbb" else SCRIPT
        return "".join(letters.get(ch, ch) for ch in body), i
    if name == "sqrt":
        body, i = _argument(tex, i)
        return ("√" + body if ATOM.fullmatch(unmarked(body)) else f"√({body})"), i
    if name in ("frac", "dfrac", "tfrac"):
        top, i = _argument(tex, i)
        bottom, i = _argument(tex, i)
        return f"{_grouped(top)}/{_grouped(bottom)}", i
    return name, i


def _grouped(text: str) -> str:
    """A fraction's side, in parentheses when it holds an operator or a space."""
    return f"({text})" if any(op in unmarked(text) for op in " +−·/") else text


# Where inline math is in prose: the README's dollarmath rules (allow_space=False,
# allow_digits=False). A `$` opens math when it is not escaped, not after a digit and not
# before a blank; it closes at the next unescaped `$` that is not after a blank nor before a
# digit: «cuesta $5 y $10» stays prose.


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


CODE_SPAN = re.compile(r"`([^`\n]+)`")  # an identifier in a field's prose: `t_1`, `pesos`


def plain_prose(text: str) -> str:
    """Prose with its `$…$` as plain text, for the terminal: «$\\theta_i$ gira» → «θ_i gira»;
    a `clave` between backticks loses them (the site sets it as code)."""
    if "$" not in text and "`" not in text:
        return text
    pieces = math_pieces(text)
    pieces[1::2] = [tex_plain(p) for p in pieces[1::2]]
    pieces[::2] = [CODE_SPAN.sub(r"\1", p) for p in pieces[::2]]
    return "".join(pieces)
