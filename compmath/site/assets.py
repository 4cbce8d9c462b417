"""The site's static files: the stylesheet (with the code colours), the search script and the
math font, copied from assets/ into the output's assets/ folder."""

from __future__ import annotations

from pathlib import Path

from compmath.site.highlight import highlight_css
from compmath.site.palette import palette_css

ASSETS = Path(__file__).resolve().parent / "assets"


def asset_contents() -> list[tuple[str, bytes]]:
    """(path in the site, bytes) of every static file; the stylesheet gains the code and
    heatmap colours."""
    found = []
    for path in sorted(ASSETS.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.name == "estilo.css":
            data += (highlight_css() + palette_css()).encode("utf-8")
        found.append((f"assets/{path.relative_to(ASSETS).as_posix()}", data))
    return found
