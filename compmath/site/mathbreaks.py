"""An inline formula as pieces a line may break between, where TeX would break it.

Chromium lays a `<math>` out as one unbreakable box: a chain of figures in a sentence
(`β_{500} = 0{,}0001 + 499 · 0{,}0199/999 = 0{,}01004`) pushes a phone's page sideways. TeX
breaks an inline formula after a relation or a binary operator of its top-level row; the page
does the same by writing the formula as consecutive `<math>` elements, each ending with the
operator after which the line may break, joined by `<wbr>`. Unbroken, the pieces draw as the
whole did: an operator that ends its piece keeps its spacing (MathML Core looks `=` or `+` up
as infix when the last place of a row has no entry of its own), and nothing is put between them.
tests/test_mathbreaks.py measures both in Chromium.
"""

from __future__ import annotations

from xml.etree import ElementTree

from compmath.site.measure import estimated_px

RELATIONS = set("=≈≠≤≥<>≡∼≃≅∝⇔⟺⇒⟹⇐⟸→←↦⟶∈∉⊂⊆⊃⊇≔")
BINARY = set("+−±∓·⋅×∗")
# after these a sign is a prefix (`= −1`, `(−x`, `, −2`); after a closing fence it is infix
OPERATOR_BEFORE = RELATIONS | BINARY | set("([{⟨⌊⌈,;")
# narrower than half a phone's column (about 320 px at 360 px) a formula never leaves much of a
# line empty by moving whole to the next: it stays one element (each cut costs the page bytes)
NARROWEST_BROKEN_PX = 160


def _row(root: ElementTree.Element) -> list[ElementTree.Element] | None:
    """The children of the formula's top-level row, or None when it is not a plain row (one
    element with attributes, a style, a table: splitting it would change what it means)."""
    node = root
    while len(node) == 1 and node[0].tag == "mrow" and not node[0].attrib:
        node = node[0]
    if len(node) == 1 and node[0].tag != "mrow":
        return None
    return list(node)


def _breaks_after(row: list[ElementTree.Element], i: int) -> bool:
    """May the line break after the row's child i: an infix relation or binary operator (a
    sign after another operator or an opening fence, `= −1`, is prefix), neither first nor
    last."""
    node = row[i]
    if node.tag != "mo" or len(node) or not 0 < i < len(row) - 1:
        return False
    text, before = (node.text or "").strip(), row[i - 1]
    after_operator = before.tag == "mo" and (before.text or "").strip() in OPERATOR_BEFORE
    return (text in RELATIONS or text in BINARY) and not after_operator


def pieces(root: ElementTree.Element) -> list[ElementTree.Element]:
    """The inline `<math>` `root` as the `<math>` elements a line may break between (itself
    alone when it has no such place)."""
    row = _row(root)
    if row is None or estimated_px(root) < NARROWEST_BROKEN_PX:
        return [root]
    cuts = [i + 1 for i in range(len(row)) if _breaks_after(row, i)]
    if not cuts:
        return [root]
    found = []
    for start, end in zip([0, *cuts], [*cuts, len(row)], strict=True):
        piece = ElementTree.Element("math", root.attrib)
        piece.extend(row[start:end])
        found.append(piece)
    return found
