"""Fewer bytes for the same formula: what MathML Core makes redundant in math-core's output, and
the quotes the HTML parser does not need around the MathML's attribute values.

Two passes, both proved on the whole course by tests/test_mathml_pixels.py (headless Chromium,
every formula before and after, pixel by pixel):

- `compact` works on the MathML as XML and removes only what MathML Core defines as no-op: an
  `<mrow>` with one child where the parent lays each child out as one argument (a script, a
  fraction's part); an `<mrow>` that is the only child of an element that lays its children
  out as a row already (`<msqrt>`, `<math>`, `<mstyle>`); an `<mrow>` around one `<mi>` or
  `<mn>` anywhere; an `<mspace/>` with no attribute, which has no size; an `<mstyle>` with no
  attribute, which is an `<mrow>`; an `<mrow>` spliced into its row when every operator in
  it keeps its form and its size; an operator's `form` equal to the form its place in the row
  gives it, and a prefix sign's zero spaces; blanks between elements.
  An attribute that changes the layout by Core's defaults (`stretchy="false"` on a fence, even
  in a row of letters: Chromium draws the row otherwise, measured; `accent="true"`, an
  `lspace` in a script) stays.
- `unquote_math` works on the page's HTML: inside `<math>` an attribute value the HTML
  parser reads the same without quotes loses them (the DOM is the same tree, so is the page).
  The result is HTML, not XML: it runs when the page is written, after every XML reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from xml.etree import ElementTree

# elements whose children are separate arguments: a one-child mrow there is its child
ARGUMENTS = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mfrac", "mroot"}
# elements that lay their children out as a row (MathML Core's inferred mrow)
ROWS = {"math", "mrow", "mstyle", "msqrt", "mpadded", "mphantom", "merror", "mtd"}
SPACE_LIKE = {"mspace", "mtext"}
TOKENS = {"mi", "mn", "mo", "ms", "mtext"}


def compact(markup: str) -> str:
    """The same `<math>` with what MathML Core makes redundant removed."""
    root = ElementTree.fromstring(markup)
    changed = _blanks(root)
    changed |= _plain_mstyles(root)
    changed |= _empty_spaces(root)
    while _single_rows(root) | _lone_rows(root):  # an unwrapped mrow's child may be one more
        changed = True
    while _spliced_rows(root):
        changed = True
    changed |= _implied_forms(root)
    changed |= _prefix_spaces(root)
    return ElementTree.tostring(root, encoding="unicode") if changed else markup


def _blanks(root: ElementTree.Element) -> bool:
    """Whitespace between elements (a token's text is content and stays)."""
    changed = False
    for node in root.iter():
        if node.tag not in TOKENS and node.text is not None and not node.text.strip():
            node.text, changed = None, True
        if node is not root and node.tail is not None and not node.tail.strip():
            node.tail, changed = None, True
    return changed


def _plain_mstyles(root: ElementTree.Element) -> bool:
    """An `<mstyle>` without attributes: Core lays it out as an `<mrow>` (two bytes less)."""
    changed = False
    for node in root.iter("mstyle"):
        if not node.attrib:
            node.tag, changed = "mrow", True
    return changed


def _empty_spaces(root: ElementTree.Element) -> bool:
    """An `<mspace/>` with no attribute: no width, height or depth, and space-like, so no
    operator's form counts it (math-core writes one before a function's name: `\\log`)."""
    changed = False
    for parent in list(root.iter()):
        if parent.tag not in ROWS:
            continue
        for child in list(parent):
            if child.tag == "mspace" and not child.attrib and len(child) == 0 and not child.text:
                if (child.tail or "").strip():
                    continue
                parent.remove(child)
                changed = True
    return changed


def _single_rows(root: ElementTree.Element) -> bool:
    """Unwrap an attribute-free `<mrow>` with one child in an argument or row slot.

    In an argument slot the child is the argument either way. In a row slot the parent lays its
    children out as an mrow, so one mrow inside is the same row (an embellished operator in it
    is the same embellished operator: an mrow of one is embellished when its child is)."""
    changed = False
    for parent in list(root.iter()):
        if parent.tag not in ARGUMENTS and parent.tag not in ROWS:
            continue
        for i, child in enumerate(list(parent)):
            if child.tag != "mrow" or child.attrib or len(child) != 1 or (child.text or "").strip():
                continue
            inner = child[0]
            if parent.tag in ROWS and len(parent) != 1 and inner.tag not in ("mi", "mn"):
                continue  # flattening a row into a longer one moves operators' forms: no
            # (an identifier or a number in a row is the same box with its mrow or without)
            if (inner.tail or "").strip():
                continue
            inner.tail = child.tail
            parent[i] = inner
            changed = True
    return changed


def _lone_rows(root: ElementTree.Element) -> bool:
    """Splice an attribute-free `<mrow>` that is the only child of an element laying its
    children out as a row (`<msqrt><mrow>1 − x</mrow></msqrt>`): the same children in the same
    row, the same first and last for the operators' forms, the same siblings for a fence to
    stretch to; an embellished operator stays one (the element holds what the mrow held)."""
    changed = False
    for parent in list(root.iter()):
        if parent.tag not in ROWS or len(parent) != 1 or (parent.text or "").strip():
            continue
        row = parent[0]
        if row.tag != "mrow" or row.attrib or len(row) == 0 or (row.text or "").strip():
            continue
        if (row.tail or "").strip():
            continue
        children = list(row)
        children[-1].tail = row.tail
        parent[:] = children
        changed = True
    return changed


# operators MathML Core's dictionary never stretches: moved to another row they keep their size
STEADY = set("=+−,;:\u2061\u2062·×<>≤≥≈≠∈!′…⋯~")
EMBELLISHING = ARGUMENTS | {"mrow", "mstyle", "mpadded", "mphantom"}


def _form(at: int, length: int) -> str:
    return "prefix" if at == 0 else "postfix" if at == length - 1 else "infix"


def _core_operator(node: ElementTree.Element) -> ElementTree.Element | None:
    """The `<mo>` a child may be an embellished operator around (conservatively: its first
    descendant), or None."""
    while node.tag in EMBELLISHING and len(node):
        node = node[0]
    return node if node.tag == "mo" else None


def _spliced_rows(root: ElementTree.Element) -> bool:
    """Splice an attribute-free `<mrow>` of two or more children into the row it is in
    (`log p` in `<mrow>log ⁡ p</mrow> (x)`), when nothing in it can tell: every operator in it
    (or that one of its children embellishes) keeps the form its place gave it (Core's form
    rule) and is one Core never stretches (a fence's size depends on its row)."""
    for parent in list(root.iter()):
        if parent.tag not in ROWS:
            continue
        children = list(parent)
        if sum(c.tag not in SPACE_LIKE for c in children) < 2:
            continue
        for i, row in enumerate(children):
            if row.tag != "mrow" or row.attrib or (row.text or "").strip():
                continue
            inner = list(row)
            if sum(c.tag not in SPACE_LIKE for c in inner) < 2 or (row.tail or "").strip():
                continue
            length = len(children) - 1 + len(inner)
            if all(_moves_unchanged(c, j, len(inner), i + j, length) for j, c in enumerate(inner)):
                inner[-1].tail = row.tail
                parent[i : i + 1] = inner
                return True  # the parent's children changed: look again from the top
    return False


def _moves_unchanged(
    child: ElementTree.Element, at: int, length: int, moved: int, moved_length: int
) -> bool:
    operator = _core_operator(child)
    if operator is None:
        return True
    steady = (operator.text or "").strip() in STEADY or operator.get("stretchy") == "false"
    if not steady or {"minsize", "maxsize", "largeop", "movablelimits"} & set(operator.attrib):
        return False
    return "form" in operator.attrib or _form(at, length) == _form(moved, moved_length)


def _rows_of_several(root: ElementTree.Element) -> Iterator[list[ElementTree.Element]]:
    """The children of each row that is not itself an embellished operator (two or more
    children that are not space-like): there an operator's place gives its form."""
    for parent in root.iter():
        children = list(parent)
        if parent.tag in ROWS and sum(c.tag not in SPACE_LIKE for c in children) >= 2:
            yield children


def _prefix_spaces(root: ElementTree.Element) -> bool:
    """Drop `lspace="0" rspace="0"` from a sign that opens a row (`−1`, `−s(x)`, `g⁻¹`): its
    place makes it prefix, and Core's dictionary spaces a prefix + or − by 0 on each side
    (measured in Chromium: the same box with the attributes and without)."""
    changed = False
    for children in _rows_of_several(root):
        sign = children[0]
        zero = {k: v.strip() for k, v in sign.attrib.items()} == {"lspace": "0", "rspace": "0"}
        if sign.tag == "mo" and (sign.text or "").strip() in ("+", "−") and zero:
            sign.attrib.clear()
            changed = True
    return changed


def _implied_forms(root: ElementTree.Element) -> bool:
    """Drop an `<mo>`'s `form` when its place gives the same form (MathML Core's form rule).

    Only for an operator directly in a row that is not itself an embellished operator (two or
    more children that are not space-like): then the operator is the outermost embellished one,
    and its form is prefix when first of several children, postfix when last, else infix."""
    changed = False
    for children in _rows_of_several(root):
        for i, child in enumerate(children):
            if child.tag != "mo" or "form" not in child.attrib:
                continue
            if child.attrib["form"].strip().lower() == _form(i, len(children)):
                del child.attrib["form"]
                changed = True
    return changed


# a MathML start tag's attribute with a quoted value the parser reads the same unquoted
# (HTML's unquoted-attribute-value syntax: no blank, quote, =, <, >, backtick; not empty)
MATH = re.compile(r"<math[\s>].*?</math>", re.S)
TAG = re.compile(r"<[a-z][a-z0-9]*(?:\s+[a-z-]+=\"[^\"]*\")*\s*/?>")
ATTRIBUTE = re.compile(r'(\s[a-z-]+=)"([^\s"\'=<>`]+)"(?!\s*/>)')


def unquote_math(html: str) -> str:
    """The page with its MathML attribute values unquoted where HTML allows it (same DOM).

    A value before `/>` keeps its quotes (unquoted, the slash would join the value)."""
    if "<math" not in html:
        return html

    def tag(found: re.Match[str]) -> str:
        return ATTRIBUTE.sub(r"\1\2", found.group(0))

    return MATH.sub(lambda m: TAG.sub(tag, m.group(0)), html)
