"""What lint checks for the website: TeX-looking text and plain-text sub/superscripts (`x_t`,
`V^π`, `σ*²`) outside math in a class's prose (README.md and class.toml's texts) and bad LaTeX
between their dollars, display formulas estimated wider
than the page's column, and committed notebooks that are not current (and what the build warns
about: the notebooks «Abrir en Colab» would open, missing)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from compmath.course.tree import ClassInfo, Course

if TYPE_CHECKING:
    from compmath.judging.report import LabReport

TEX = re.compile(r"\^\{|_\{|\\frac\b")
# A word of prose that is not mathematics however it is written: an address, a file name
ADDRESS = re.compile(
    r"://|^www\.|@|\w\.(?:py|json|toml|md|ipynb|html|js|css|txt|csv|npy|npz|ya?ml)$"
)
EDGES = "«»\"'“”‘’¿?¡!.,;:()[]"
OPENERS = '([«"“‘¿¡_'
OPERATORS = {"max", "min", "argmax", "argmin", "sup", "inf", "lim", "sum", "prod"}
ASCII_NAME = re.compile(r"[A-Za-z0-9]+$")  # the ASCII run before a `_`: `W` of W_Q, `pesos` of …
# a letter's star: σ*², V*, Q*(s; not `a*b`, a product, nor the `**` of bold text
STAR = re.compile(r"(?<![\w*])[^\W\d_][\u0300-\u036f]*\*(?![*A-Za-z])")
MARGIN = 1.05  # the width estimate's spread over the course's formulas: −14 % … +22 %


def _outside_math(text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every piece of the Markdown that is not math: prose, code spans and
    code blocks (333's equation was an indented code block)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").enable("table")
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False)
    for token in md.parse(text):
        line = token.map[0] + 1 if token.map else 0
        if token.type in ("code_block", "fence"):
            yield line, token.content
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                yield line, child.content


def _scripted(word: str) -> bool:
    """Whether a word of prose writes a sub/superscript as text: `x_t`, `W_Q`, `‖·‖_∞`, `ᾱ_(t−1)`,
    `V^π`, `n^0,8`, `σ*²`, `max_a`; never an identifier such as `pesos_de_atencion`, `top_k` or
    `gqa_2_grupos` (ASCII, its first `_` after a name of two or more characters, or more than one
    `_`) nor TeX's `_{…}`, which TEX reports."""
    if STAR.search(word):
        return True
    for at, mark in enumerate(word):
        if mark not in "^_" or at == 0 or word[at + 1 : at + 2] in ("", "_", "{"):
            continue
        before = word[at - 1]
        if before in OPENERS:  # `(_x`, `«_`, `__init__` are not scripts
            continue
        if mark == "^" or not (before.isascii() and before.isalnum()):
            return True
        name = ASCII_NAME.search(word[:at])
        if name and name.group() in OPERATORS:  # `max_a`, `argmax_a`: an operator's subscript
            return True
        # `x_t`, `W_Q`, `2d_k`: a one-letter name (after its coefficient); `a_escala` inside an
        # identifier is not one
        if (
            name
            and len(name.group().lstrip("0123456789")) == 1
            and word[name.start() - 1 : name.start()] != "_"
        ):
            return word.count("_") == 1 or not word.isascii()
    return False


def text_scripts(text: str) -> list[str]:
    """The words of a prose text (no code, no math) that write sub/superscripts as plain text,
    in order and once each; addresses and file names are not."""
    found: dict[str, None] = {}
    for word in text.split():
        core = word.strip(EDGES)
        if core and not ADDRESS.search(core) and _scripted(core):
            end = word.find(core) + len(core)  # `α_(t−1)` keeps the parenthesis it opened
            while core.count("(") > core.count(")") and word[end : end + 1] == ")":
                core, end = core + ")", end + 1
            found[core.lstrip("*_")] = None
    return list(found)


def _prose(text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each paragraph, heading, item or cell of the Markdown as it reads, no code
    and no math; an emphasis that opens right after a letter or a symbol keeps its marks
    (`σ*² … μ*` and `‖_∞ … ‖_∞` are scripts Markdown turned into italics)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").enable("table")
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False)
    for token in md.parse(text):
        if token.type != "inline":
            continue
        pieces: list[str] = []
        literal: list[bool] = []  # per open emphasis: was its mark a script Markdown ate?
        for child in token.children or []:
            if child.type == "text":
                pieces.append(child.content)
            elif child.type in ("em_open", "strong_open"):
                # emphasis opens after a blank or an opening mark; after a letter or a symbol
                # (`σ*² … μ*`, `‖_∞ … ‖_∞`) its mark was a superscript or a subscript
                before = "".join(pieces)[-1:]
                literal.append(bool(before.strip()) and before not in OPENERS + "*")
                pieces.append(child.markup if literal[-1] else " ")
            elif child.type in ("em_close", "strong_close"):
                pieces.append(child.markup if literal and literal.pop() else " ")
            else:  # code, math, a break, a link's ends: a space between words
                pieces.append(" ")
        yield (token.map[0] + 1 if token.map else 0), "".join(pieces)


# Mathematical symbols written as text: a Greek letter, a Unicode sub/superscript, an operator
# or relation of the math, a letter with a combining accent (x̂). Left as prose: the minus of a
# number (−1), an arrow between words (→), the middle dot of arithmetic (4·5) and ✓.
SYMBOL = re.compile(
    "[α-ωΑ-Ωϵϑϕϱϖ\u1f00-\u1fff₀-₉₊₋ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵤᵥ⁰¹²³⁴-⁹⁺⁻ⁿⁱᵀᴴ√‖∇≈≃≤≥≠∈∉∞∑∏∂⊙⊗∫≡∓±⊥↦′″∝⟨⟩×]"
)
# a letter with a hat, a bar, a tilde, a dot or an arrow over it (x̂, ȳ, ã), not Spanish's ñ
ACCENT = re.compile("[^\\W\\d_](?<![nN])[\u0302-\u0304\u0307\u20d7]")


def text_symbols(text: str) -> list[str]:
    """The words of a prose text (no code, no math) that hold a mathematical symbol written as
    text: «γ», «λ₂», «‖a‖», «√d», «x̂»; in order and once each."""
    import unicodedata

    found: dict[str, None] = {}
    for word in text.split():
        core = word.strip(EDGES)
        if core and (SYMBOL.search(core) or ACCENT.search(unicodedata.normalize("NFD", core))):
            end = word.find(core) + len(core)  # `O(n²)` keeps the parenthesis it opened
            while core.count("(") > core.count(")") and word[end : end + 1] == ")":
                core, end = core + ")", end + 1
            found[core] = None
    return list(found)


def _named(found: list[str], one: str, several: str) -> str:
    """The words found (the first six of several, and how many more), what they are (`one` or
    `several`), «como texto, fuera de una fórmula»."""
    shown = ", ".join(f"«{f}»" for f in found[:6])
    shown += f" y {len(found) - 6} más" if len(found) > 6 else ""
    return f"{shown} {one if len(found) == 1 else several} como texto, fuera de una fórmula"


SYMBOL_WORDS = ("lleva un símbolo matemático escrito", "llevan símbolos matemáticos escritos")
SYMBOL_HINT = (
    "escribe la expresión entera entre dólares, $\\gamma$, $\\lambda_2$, $\\lVert a \\rVert$,"
    " $\\sqrt{d}$: la web la dibuja como fórmula, con la misma letra que las demás, y la"
    " terminal como texto legible"
)

SCRIPT_WORDS = ("es un subíndice o superíndice escrito", "son subíndices o superíndices escritos")
SCRIPT_HINT = (
    "escríbelo entre dólares, $x_t$, $W_Q$, $V^\\pi$, $\\sigma^{*2}$: la web lo dibuja como"
    " fórmula y la terminal como texto legible; un identificador (una clave como `t_1`, una"
    " variable del laboratorio), entre comillas invertidas"
)


def scripts_outside_math(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """Plain-text sub/superscripts in the class's prose: README.md outside code and math, and
    class.toml's prose fields outside their `$…$`."""
    from compmath.mathtext import CODE_SPAN, math_pieces

    found = []
    if cls.readme.exists():
        text = cls.readme.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        for start, prose in _prose(text):
            for words, message, hint in plain_math(prose):
                # the block starts at `start`; name the line that holds its first fragment
                first = words[0].strip(EDGES + "*_")
                n = next((n for n in range(start, len(lines) + 1) if first in lines[n - 1]), start)
                found.append((cls.readme, f"línea {n}: {message}", hint))
    for where, field in _fields(cls):
        prose = " ".join(CODE_SPAN.sub(" ", piece) for piece in math_pieces(field)[::2])
        found += [
            (cls.meta_path, f"{where}: {message}", hint) for _, message, hint in plain_math(prose)
        ]
    return found


# Math in Latin letters written as text: a one-letter function applied to its arguments
# (`p(x|z)`, `P(s'|s,a)`, `N(0, I)`, `O(n)`) or a one-letter symbol in a relation (`t = 497`,
# `T < 1`, `j > i`). A Spanish word of one letter («y», «a», «o») never touches a parenthesis
# nor stands before a sign; an address's `?q=x` and an identifier's `top_k(` are not prose.
LETTER_CALL = re.compile(r"(?<![\w.\-/\\?&=])[A-Za-z]['′]?\((?=[^\s)])[^()]{0,40}\)")
LETTER_RELATION = re.compile(r"(?<![\w.\-/\\?&=])[A-Za-z]['′]? ?[=<>≤≥≈≠] ?[\w(\[−√-][^\s;]*")


def text_letters(text: str) -> list[str]:
    """The formulas in Latin letters a prose text (no code, no math) writes as text: «p(x)»,
    «t = 497»; in order and once each."""
    found: dict[str, None] = {}
    matches = [*LETTER_CALL.finditer(text), *LETTER_RELATION.finditer(text)]
    for match in sorted(matches, key=lambda m: m.start()):
        piece = match.group()
        if match.re is LETTER_RELATION:
            piece = piece.rstrip(EDGES.replace("(", "").replace(")", ""))
            while piece.count(")") > piece.count("(") and piece.endswith(")"):
                piece = piece[:-1]
        if not ADDRESS.search(piece):
            found[piece] = None
    return list(found)


# A named function applied to its arguments written as text: `PE(0)`, `cos(manzana, pera)`,
# `log(2/7)`, or a call of the lab's code, `default_rng(0)`. A name glued to a parenthesis is no
# Spanish word, but for the endings a word may take in parentheses («valor(es)», «el(los)»).
NAMED_CALL = re.compile(r"(?<![\w.\-/\\?&=])[A-Za-z][A-Za-z0-9_]+['′]?\((?=[^\s)])[^()]{0,60}\)")
WORD_ENDINGS = re.compile(r"\((?:s|es|as|os|a|o|n|en|l[oa]s?)\)$")


def text_functions(text: str, named: list[str] | None = None) -> list[str]:
    """The functions of two or more letters a prose text (no code, no math) writes as text,
    applied to their arguments: «PE(0)», «log(2/7)»; in order and once each, without the
    fragments the rules of scripts and symbols name already (`named`)."""
    found: dict[str, None] = {}
    for match in NAMED_CALL.finditer(text):
        piece = match.group()
        if not (WORD_ENDINGS.search(piece) or ADDRESS.search(piece)):
            found[piece] = None
    return _unnamed(list(found), text, named)


FUNCTION_WORDS = ("es una función escrita", "son funciones escritas")
FUNCTION_HINT = (
    "escribe la expresión entera entre dólares, $\\mathrm{PE}(0)$, $\\cos(a, b)$,"
    " $\\log(2/7)$: la web la dibuja como fórmula; una llamada del código del laboratorio,"
    " entre comillas invertidas, `default_rng(0)`"
)

LETTER_WORDS = ("es una fórmula escrita", "son fórmulas escritas")
LETTER_HINT = (
    "escribe la expresión entera entre dólares, $t = 497$, $p(x \\mid z)$,"
    " $\\mathcal{N}(0, I)$: la web la dibuja en cursiva, como las demás fórmulas; una tupla de"
    " números se queda fuera, $x$ = (0,3; 0,2)"
)


# A symbol of one Latin letter standing alone in the prose: «los estados S», «t pasos», «en s».
# Not flagged: Spanish's words of one letter («y», «a», «o», «e», «u»; a capital one where a
# sentence starts), a letter quoted as text («la «z» de «zoo»»), a unit after a number («2 s»),
# an item's letter alone in parentheses («(b)»), the letter that names an appendix or a table
# («el apéndice B»), an author's initial («Press, O.; Smith, N. A.»), a capital before a name
# («C Users Journal») and «n.º».
LONE_LETTER = re.compile(r"(?<![^\s«\"“‘¿¡(\[])[A-Za-z](?![^\s.,;:!?)\]»\"”’])")
SPANISH_LETTERS = frozenset("yaoeu")
SENTENCE_START = re.compile(r"(?:^|[.!?:;«(\[—–\"“¿¡])\s*$")
QUOTED = re.compile(r"«[^«»]*»")
UNIT_AFTER_NUMBER = re.compile(r"\d\s$")
UNITS = frozenset("smhg")
NAMING = re.compile(r"\b(?:apéndice|anexo|sección|tabla|figura)\s$", re.IGNORECASE)
BEFORE_INITIAL = re.compile(r"(?:^|[,;]\s|[A-Z]\.\s)$")
NAME_AFTER = re.compile(r"\s[A-ZÁÉÍÓÚÑ][a-záéíóúñ]")


def text_lone_letters(text: str) -> list[str]:
    """The one-letter symbols a prose text (no code, no math) writes as text, standing alone:
    «S», «t»; in order and once each. A letter inside a formula the other rules name (`t = 497`,
    `p(x)`, `cos(a, b)`) is theirs."""
    spans = [m.span() for m in QUOTED.finditer(text)]  # quoted as text
    rules = (LETTER_CALL, LETTER_RELATION, NAMED_CALL)
    spans += [m.span() for rule in rules for m in rule.finditer(text)]
    found: dict[str, None] = {}
    for match in LONE_LETTER.finditer(text):
        start = match.start()
        if not any(a <= start < b for a, b in spans) and not _a_word(text, match):
            found[match.group()] = None
    return list(found)


def _a_word(text: str, match: re.Match[str]) -> bool:
    """Whether a letter standing alone is prose: a Spanish word («y», «A posteriori…»), a unit
    after a number, an item's «(b)», a name («el apéndice B», «C Users Journal»), an initial
    («Smith, N. A.») or «n.º»."""
    letter, before = match.group(), text[: match.start()]
    after = text[match.end() : match.end() + 3]
    if letter in SPANISH_LETTERS:
        return True
    if letter.lower() in SPANISH_LETTERS and SENTENCE_START.search(before):
        return True
    if letter in UNITS and UNIT_AFTER_NUMBER.search(before):
        return True
    if before.endswith("(") and after.startswith(")"):
        return True
    if letter.isupper() and (NAMING.search(before) or NAME_AFTER.match(after)):
        return True
    initial = letter.isupper() and BEFORE_INITIAL.search(before) is not None
    return after.startswith(".º") or (after.startswith(".") and initial)


LONE_WORDS = ("es un símbolo de una letra escrito", "son símbolos de una letra escritos")
LONE_HINT = (
    "escribe la letra entre dólares, $S$, $t$, $d$: la web la dibuja en cursiva, como en las"
    " fórmulas; una letra citada como texto, entre comillas («z»); un nombre del laboratorio,"
    " entre comillas invertidas"
)


def symbols_beside_scripts(text: str) -> list[str]:
    """text_symbols, without the words text_scripts names already (`V^π` once, as a script)."""
    scripts = text_scripts(text)
    return [w for w in text_symbols(text) if w not in scripts]


def letters_beside_symbols(text: str, named: list[str] | None = None) -> list[str]:
    """text_letters, without the fragments the other two rules name already (`O(n²)` once, as
    a symbol); `named`: those rules' words, when the caller has them."""
    return _unnamed(text_letters(text), text, named)


def _unnamed(found: list[str], text: str, named: list[str] | None) -> list[str]:
    """`found` without the fragments the rules of scripts and symbols name already in `text`
    (`named`: their words, when the caller has them)."""
    if named is None:
        named = text_scripts(text) + symbols_beside_scripts(text)
    return [w for w in found if not any(w in n or n in w for n in named)]


def plain_math(prose: str) -> list[tuple[list[str], str, str]]:
    """(words, message, hint) for the sub/superscripts, for the other symbols of the math, for
    the formulas in Latin letters, for the named functions and for the one-letter symbols
    standing alone that a prose text writes as text; none when it writes no math as text."""
    scripts, symbols = text_scripts(prose), symbols_beside_scripts(prose)
    letters = letters_beside_symbols(prose, scripts + symbols)
    kinds = (
        (scripts, SCRIPT_WORDS, SCRIPT_HINT),
        (symbols, SYMBOL_WORDS, SYMBOL_HINT),
        (letters, LETTER_WORDS, LETTER_HINT),
        (text_functions(prose, scripts + symbols), FUNCTION_WORDS, FUNCTION_HINT),
        (text_lone_letters(prose), LONE_WORDS, LONE_HINT),
    )
    return [(words, _named(words, *said), hint) for words, said, hint in kinds if words]


def tex_outside_math(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """README.md text such as `D^{−1/2}` that is TeX but is shown as plain text or code."""
    if not cls.readme.exists():
        return []
    found = []
    text = cls.readme.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    for line, piece in _outside_math(text):
        match = TEX.search(piece)
        if match:
            start = max(0, match.start() - 12)
            near = piece[max(0, match.start() - 4) : match.end()]
            # the block starts at `line`; the fragment is on the first line from there holding it
            line = next((n for n in range(line, len(lines) + 1) if near in lines[n - 1]), line)
            found.append(
                (
                    cls.readme,
                    f"línea {line}: «{piece[start : match.end() + 12].strip()}» parece TeX fuera"
                    " de una fórmula (la web lo muestra tal cual)",
                    "escríbelo entre dólares, $D^{-1/2}$, y la web lo dibuja como fórmula",
                )
            )
    return found


def _fields(cls: ClassInfo) -> list[tuple[str, str]]:
    from compmath.errors import CompmathError

    try:
        return cls.meta.prose_fields()
    except CompmathError:
        return []  # a class.toml that does not read: lint reports it already


def math_field(cls: ClassInfo, latex: str) -> str:
    """Which prose field of class.toml holds `$latex$` («la descripción de la salida snr»)."""
    return next((w for w, text in _fields(cls) if f"${latex}$" in text), "un campo de class.toml")


def tex_in_fields(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """class.toml prose such as `Π_{s≤t}` outside `$…$` (the web and the terminal show it as
    typed), and `$…$` whose LaTeX does not convert (the web cannot be built)."""
    from compmath.mathtext import math_pieces
    from compmath.site.mathml import LatexError, to_mathml

    found = []
    for where, text in _fields(cls):
        pieces = math_pieces(text)
        for piece in pieces[::2]:
            match = TEX.search(piece)
            if match:
                near = piece[max(0, match.start() - 12) : match.end() + 12].strip()
                found.append(
                    (
                        cls.meta_path,
                        f"{where}: «{near}» parece TeX fuera de una fórmula (la web y la"
                        " terminal lo muestran tal cual)",
                        r"escríbelo entre dólares, $\prod_{s\le t}$: la web lo dibuja como"
                        " fórmula y la terminal como texto legible",
                    )
                )
        for latex in pieces[1::2]:
            try:
                to_mathml(latex, display=False)
            except LatexError as exc:
                found.append(
                    (
                        cls.meta_path,
                        f"{where}: ${latex}$ no es LaTeX válido ({exc})",
                        "corrige el LaTeX entre los dólares: compmath site no construye la"
                        " página de la clase con él",
                    )
                )
    return found


def wide_formulas(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """Display formulas whose estimated width exceeds the page's column at 1280 px."""
    from compmath.errors import CompmathError
    from compmath.site.mathml import LatexError, to_mathml
    from compmath.site.measure import COLUMN_PX, estimated_px

    try:
        formulas = cls.meta.formulas
    except CompmathError:
        return []
    found = []
    for i, formula in enumerate(formulas, 1):
        if not formula.latex:
            continue
        try:
            width = estimated_px(to_mathml(formula.latex))
        except LatexError:
            continue  # the build reports bad LaTeX, naming the class and the formula
        if width > COLUMN_PX * MARGIN:
            found.append(
                (
                    cls.meta_path,
                    f"la fórmula {i} mide unos {width:.0f} px y la columna de la web {COLUMN_PX}",
                    r"pártela en líneas: \begin{gathered} … \\ … \end{gathered}"
                    r" (o aligned, alineando con &)",
                )
            )
    return found


def course_notebooks(cls: ClassInfo) -> list[tuple[str, bool]]:
    """(path from the course root, practice?) of a class's notebooks: the whole one when it has
    a snapshot and a lab, the practice one when it also has holes."""
    from compmath.errors import CompmathError
    from compmath.notebook.build import notebook_path

    if not cls.snapshot.exists() or not cls.lab.exists():
        return []
    made = [(notebook_path(cls), False)]
    try:
        holes = cls.meta.holes
    except CompmathError:
        return made
    return [*made, (notebook_path(cls, practice=True), True)] if holes else made


def missing_colab_notebooks(course: Course) -> list[str]:
    """With `repositorio` set, the notebooks «Abrir en Colab» links to that the course lacks."""
    from compmath.notebook.build import colab_url

    if not course.classes or colab_url(course, "") is None:
        return []
    return [
        path
        for cls in course.classes
        for path, practice in course_notebooks(cls)
        if not practice and not (course.root / path).is_file()
    ]


def record_practising(classes: list[ClassInfo]) -> dict[str, LabReport]:
    """The recordings the practice notebooks of `classes` compare with, every class's labs at
    once over every core (a notebook made alone would record its class's by itself); the
    runs' reports (notebook.recording.record_all)."""
    from compmath.notebook.recording import record_all
    from compmath.notebook.tools import variants

    practising = [c for c in classes if any(p for _, p in course_notebooks(c))]
    return record_all([(c, variants(c)) for c in practising]) if practising else {}


def notebooks_committed(course: Course) -> bool:
    """Whether lint checks the committed notebooks: the course has their folder, or a
    repository for «Abrir en Colab» to open them from."""
    from compmath.notebook.build import FOLDER, colab_url

    return (course.root / FOLDER).is_dir() or colab_url(course, "") is not None


def stale_notebooks(course: Course) -> list[tuple[Path, str, str]]:
    """Committed notebooks (cuadernos/, the path «Abrir en Colab» opens) that are missing or
    differ from what `compmath notebook` writes today; none to check without the folder or a
    repository."""
    found, _ = notebook_problems(course, course.classes)
    return [problem for cls in course.classes for problem in found.get(cls.id, [])]


def notebook_problems(
    course: Course, classes: list[ClassInfo]
) -> tuple[dict[str, list[tuple[Path, str, str]]], set[str]]:
    """stale_notebooks' problems of each of `classes` (by id), and the ids of those whose
    notebooks could not be made (their own problem, which `compmath notebook` reports)."""
    from compmath.errors import CompmathError
    from compmath.notebook.build import notebook_bytes
    from compmath.notebook.freshness import up_to_date

    if not notebooks_committed(course):
        return {}, set()
    record_practising(classes)
    found: dict[str, list[tuple[Path, str, str]]] = {}
    unmade: set[str] = set()
    for cls in classes:
        for path, practice in course_notebooks(cls):
            target = course.root / path
            flag = " --practice" if practice else ""
            try:
                current = notebook_bytes(course, cls, practice=practice, validate=False)
            except CompmathError:
                unmade.add(cls.id)
                continue
            if not target.is_file():
                what = "falta el cuaderno que enlaza «Abrir en Colab»"
            elif not up_to_date(target.read_bytes(), current):
                what = "el cuaderno no está al día con la clase"
            else:
                continue
            hint = f"regenéralo y súbelo: compmath notebook --all{flag}"
            found.setdefault(cls.id, []).append((target, what, hint))
    return found, unmade


def class_site_problems(cls: ClassInfo) -> list[tuple[Path, str, str]]:
    """The website's problems in one class's prose, fields and formulas."""
    prose = tex_outside_math(cls) + tex_in_fields(cls) + scripts_outside_math(cls)
    return prose + wide_formulas(cls)


def site_problems(course: Course) -> list[tuple[Path, str, str]]:
    """Every website problem lint reports, class by class, then the committed notebooks."""
    found: list[tuple[Path, str, str]] = []
    for cls in course.classes:
        found += class_site_problems(cls)
    return found + stale_notebooks(course)
