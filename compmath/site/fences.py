"""`\\left…\\right` fences sized as TeX sizes them, at build time.

Chromium stretches a fence to cover its content whole; TeX lets it fall short by up to 10 % or
half an em (\\delimiterfactor 901, \\delimitershortfall 5pt) and then takes the first of the
font's sizes that reaches (1, 1.2, 1.8, 2.4, 3 em, then a built-up one). So around `P^{\\pi}`
or a square root Chromium's pair came out a size or two larger than TeX's (and KaTeX's). Each
pair's content is measured here from its MathML with TeX's metrics (Computer Modern's heights,
its script shifts and fraction gaps: an estimate, within a few hundredths of an em for the
course's formulas) and the pair is given TeX's size: `stretchy="false"` for the normal one,
`minsize`/`maxsize` for the larger ones; taller than 3 em it stretches as before.
"""

from __future__ import annotations

from xml.etree import ElementTree

AXIS = 0.25
SIZES = (1.0, 1.2, 1.8, 2.4, 3.0)  # the normal fence and TeX's \big, \Big, \bigg, \Bigg
FACTOR, SHORTFALL = 0.901, 0.5
FENCES = set("()[]{}|‖⟨⟩⌊⌋⌈⌉\u2063")
LARGE_OPERATORS = set("∑∏∐⋃⋂⨁⨂⨀∫∬∭∮⋁⋀")
TALL = set("bdfhijklt0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZβδζθλξΓΔΘΛΞΠΣΥΦΨΩ∂ℓ∞⊤⊥!?'\"/áéíóúÁÉÍÓÚñÑ")
DEEP = set("gjpqyfβγζημξρφχψ,;")
FENCE_LIKE = set("()[]{}|‖⟨⟩∣/")
SCRIPT = 0.7  # a script's size; a script's script: 0.5

Box = tuple[float, float]  # height above the baseline, depth below, in em of the formula


def _token(text: str, tag: str) -> Box:
    text = text.replace("\u2061", "").replace("\u2063", "").strip()
    if not text:
        return (0.0, 0.0)
    if any(c in FENCE_LIKE for c in text):
        return (0.75, 0.25)
    if any(c in LARGE_OPERATORS for c in text):
        return (0.75, 0.25)
    if tag == "mo" and len(text) == 1 and text not in TALL:
        return (0.58, 0.08)  # = + − → ≤ and the like, about the axis
    height = 0.694 if any(c in TALL or c.isupper() for c in text) else 0.431
    depth = 0.194 if any(c in DEEP for c in text) else 0.0
    return (height, depth)


def _scaled(box: Box, scale: float) -> Box:
    return (box[0] * scale, box[1] * scale)


def _box(node: ElementTree.Element, display: bool) -> Box:
    """The height and depth of `node` at the formula's size (its scripts already scaled).

    Complexity D, on purpose: one branch per element, each TeX's rule for its box, read
    together as TeX's appendix G is."""
    tag, kids = node.tag, list(node)
    if node.get("displaystyle") is not None:
        display = node.get("displaystyle") == "true"
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        if tag == "mo" and node.get("minsize", "").endswith("em"):
            half = float(node.get("minsize", "1")[:-2]) / 2
            return (AXIS + half, half - AXIS)
        return _token(node.text or "", tag)
    if tag in ("mspace",):
        return (0.0, 0.0)
    if tag == "mtable":
        rows = len(kids)
        return (AXIS + 0.6 * rows, 0.6 * rows - AXIS)
    if tag in ("msub", "msup", "msubsup") and kids:
        base = _box(kids[0], display)
        scripts = [_scaled(_box(k, False), SCRIPT) for k in kids[1:]]
        height, depth = base
        if tag in ("msub", "msubsup"):
            sub = scripts[0]
            shift = max(0.247 if tag == "msubsup" else 0.15, sub[0] - 0.345)
            depth = max(depth, shift + sub[1])
        if tag in ("msup", "msubsup"):
            sup = scripts[-1]
            shift = max(0.413 if display else 0.363, sup[1] + 0.108, base[0] - 0.386)
            height = max(height, shift + sup[0])
        return (height, depth)
    if tag in ("mover", "munder", "munderover") and kids:
        base = _box(kids[0], display)
        large = kids[0].tag == "mo" and (kids[0].text or "").strip() in LARGE_OPERATORS
        if large and display:
            base = (1.0, 0.5)
        height, depth = base
        if tag == "mover" and node.get("accent") == "true":
            return (max(height, 0.431) + (0.26 if height > 0.5 else 0.14), depth)
        under = kids[1] if tag in ("munder", "munderover") and len(kids) > 1 else None
        over = kids[-1] if tag in ("mover", "munderover") and len(kids) > 1 else None
        if under is not None:
            h, d = _scaled(_box(under, False), SCRIPT)
            depth += 0.167 + h + d + 0.1  # TeX's gap to a limit and the kern below it
        if over is not None:
            h, d = _scaled(_box(over, False), SCRIPT)
            height += 0.111 + h + d + 0.1
        return (height, depth)
    if tag in ("msqrt", "mroot") and kids:
        inner = _inner(kids[:1] if tag == "mroot" else kids, display)
        gap = 0.148 if display else 0.09
        return (max(inner[0], 0.431) + gap + 0.16, max(inner[1], 0.2))
    if tag == "mfrac" and len(kids) == 2:
        scale = 1.0 if display else SCRIPT
        num = _scaled(_box(kids[0], False), scale)
        den = _scaled(_box(kids[1], False), scale)
        up, down = (0.677, 0.686) if display else (0.394, 0.345)
        return (up + num[0], down + den[1])
    if tag == "mpadded":
        inner = _inner(kids, display)
        return (inner[0], 0.0 if node.get("depth") == "0" else inner[1])
    if tag == "mphantom" or tag in ("mrow", "mstyle", "math", "semantics", "menclose"):
        return _inner(kids, display)
    return _inner(kids, display)


def _inner(kids: list[ElementTree.Element], display: bool) -> Box:
    boxes = [_box(k, display) for k in kids]
    return (max((b[0] for b in boxes), default=0.0), max((b[1] for b in boxes), default=0.0))


def is_pair(node: ElementTree.Element) -> bool:
    """An `mrow` as math-core writes `\\left…\\right`: a stretchy fence first and last."""
    return (
        node.tag == "mrow"
        and len(node) >= 2
        and node[0].tag == "mo"
        and node[-1].tag == "mo"
        and (node[0].text or "").strip() in FENCES
        and (node[-1].text or "").strip() in FENCES
        and node[0].get("stretchy") is None
        and node[0].get("minsize") is None
    )


def tex_size(content: Box) -> float | None:
    """The fence TeX puts around `content`: one of SIZES, or None for a built-up one."""
    height, depth = content
    needed = 2 * max(height - AXIS, depth + AXIS)
    target = max(needed * FACTOR, needed - SHORTFALL)
    return next((size for size in SIZES if size >= target - 1e-9), None)


def size_fences(root: ElementTree.Element) -> None:
    """Give every `\\left…\\right` pair under `root` the size TeX gives it (see the module)."""
    display = root.get("display") == "block"
    for node in reversed(list(root.iter("mrow"))):  # inner pairs first: the outer see them
        if not is_pair(node):
            continue
        size = tex_size(_inner(list(node)[1:-1], display))
        for fence in (node[0], node[-1]):
            if size == SIZES[0]:
                fence.set("stretchy", "false")
            elif size is not None:
                # a little under the size: Chromium takes the font's first variant that reaches it
                fence.set("minsize", f"{size * 0.98:.3g}em")
                fence.set("maxsize", f"{size * 0.98:.3g}em")
