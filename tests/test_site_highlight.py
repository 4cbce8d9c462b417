"""The site's highlighted code: Pygments' own HTML, less the spans of plain tokens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compmath.site.highlight import highlight_html
from tests.conftest import REPO

PLAIN_SPAN = re.compile(r'<span class="(?:n|p|w)">([^<]*)</span>')
FILES = sorted(REPO.glob("classes/*/*/lab.py")) + sorted(REPO.glob("classes/*/*/expected.json"))


def _pygments_html(source: str, filename: str) -> str:
    """What the site showed before it wrote the lines itself: HtmlFormatter(nowrap=True),
    line by line, with the plain tokens' spans removed by a regular expression."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers.data import JsonLexer
    from pygments.lexers.python import PythonLexer

    lexer = (JsonLexer if filename.endswith(".json") else PythonLexer)(stripnl=False)
    lines = str(highlight(source, lexer, HtmlFormatter(nowrap=True))).split("\n")
    if lines and not lines[-1]:
        lines.pop()
    lines = [PLAIN_SPAN.sub(r"\1", line) for line in lines]
    body = "\n".join(f'<span id="L{i}">{text}</span>' for i, text in enumerate(lines, 1))
    return f'<pre class="highlight" tabindex="0"><code>{body}\n</code></pre>'


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.lento  # seconds: out of the quick loop
def test_each_file_of_the_course_is_highlighted_as_pygments_does(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert highlight_html(source, path.name) == _pygments_html(source, path.name)


@pytest.mark.parametrize(
    "source",
    [
        "",
        "\n",
        "x = 1",  # no final newline
        'def f(a: int) -> str:\n    """Una\n\n    cadena de <varias> líneas & \'comillas\'."""\n',
        "s = f'{a!r:>{w}}' + r\"\\d\"  # comentario\n\n\n",
        "@decorador\nclass C:\n\tpass\n",
    ],
)
def test_edge_cases_match_pygments(source: str) -> None:
    assert highlight_html(source, "lab.py") == _pygments_html(source, "lab.py")
