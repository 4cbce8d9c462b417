"""The course as a book: each display formula of a class page numbered, (1), (2)…, in page
order, with an anchor of its own (`#ec-3`) that the number links to, so a reader can point to
«la ecuación (3) de la clase 332».

A pass over the page's HTML, like crossrefs: a formula is the box the templates and the Markdown
pass give it (`<div class="formula">`, which holds its math and nothing of block level), wrapped
with its number beside it, outside the box that scrolls.
"""

from __future__ import annotations

import re

BOX = re.compile(r'<div class="formula">(.*?)</div>', re.DOTALL)


def number_formulas(html: str) -> str:
    """`html` with every display formula numbered and given the id `ec-N`."""
    count = 0

    def one(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return (
            f'<div class="ec" id="ec-{count}">{match.group()}'
            f'<a class="num-ec" href="#ec-{count}">({count})</a></div>'
        )

    return BOX.sub(one, html)
