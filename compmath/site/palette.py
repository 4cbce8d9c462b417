"""The heatmaps' colour levels, one pair per level (light page, dark page), every colour at 3:1
or more against its page's background (WCAG's contrast for graphics), drawn through CSS classes
whose `fill` is `light-dark(…)`, so the reader's theme picks the column.

A white "zero" or a pale top level would vanish into a light page (and a near-black one into a
dark page): here a level's lightness is chosen for its contrast, and the hue carries the rest.
"""

from __future__ import annotations

import colorsys

LEVELS = 9
LIGHT_BACKGROUND, DARK_BACKGROUND = "#ffffff", "#15171a"  # estilo.css's --fondo
LIGHT_BOX, DARK_BOX = "#f4f5f7", "#1f2328"  # estilo.css's --caja: the background of code


def luminance(colour: str) -> float:
    """WCAG relative luminance of #rrggbb."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colour(hue: float, saturation: float, target: float) -> str:
    """The colour of this hue and saturation whose luminance is `target` (by bisection)."""
    low, high = 0.0, 1.0
    for _ in range(40):
        mid = (low + high) / 2
        r, g, b = colorsys.hls_to_rgb(hue / 360, mid, saturation)
        found = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
        low, high = (mid, high) if luminance(found) < target else (low, mid)
    return found


def readable(colour: str, background: str, least: float = 4.6) -> str:
    """`colour` (#rgb or #rrggbb) with its hue and saturation kept and its lightness moved away
    from `background` just enough for `least`:1 (WCAG's 4.5:1 for text, with a margin for
    rounding); a colour that already reads is returned as it is."""
    if len(colour) == 4:
        colour = "#" + "".join(ch * 2 for ch in colour[1:])
    if contrast(colour, background) >= least:
        return colour
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, saturation = colorsys.rgb_to_hls(r, g, b)
    darker = luminance(background) > 0.18  # a light background: move towards black
    low, high = (0.0, light) if darker else (light, 1.0)
    found = colour
    for _ in range(40):
        mid = (low + high) / 2
        r, g, b = colorsys.hls_to_rgb(hue, mid, saturation)
        candidate = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
        if contrast(candidate, background) >= least:
            found = candidate
            low, high = (mid, high) if darker else (low, mid)
        else:
            low, high = (low, mid) if darker else (mid, high)
    return found


def _between(a: float, b: float, k: int) -> float:
    return a + (b - a) * k / (LEVELS - 1)


def sequential(dark: bool) -> tuple[str, ...]:
    """Low to high: amber to deep red-brown on a light page (darker is more), the reverse
    lightness on a dark page (brighter is more)."""
    lums = (0.29, 0.022) if not dark else (0.135, 0.78)
    return tuple(
        _colour(_between(50, -10, k) % 360, 0.85, _between(*lums, k)) for k in range(LEVELS)
    )


def diverging(dark: bool) -> tuple[str, ...]:
    """Negative (blue) through a grey zero to positive (red): the farther from zero, the farther
    the lightness from the page's."""
    centre, edge = (0.29, 0.03) if not dark else (0.135, 0.7)
    middle = LEVELS // 2
    colours = []
    for k in range(LEVELS):
        distance = abs(k - middle) / middle
        hue = 215 if k < middle else 5
        colours.append(_colour(hue, 0.75 * distance, centre + (edge - centre) * distance))
    return tuple(colours)


def palette_css() -> str:
    """The `.sN` (sequential) and `.dN` (diverging) fill classes of the heatmaps."""
    rules = []
    for prefix, make in (("s", sequential), ("d", diverging)):
        for k, (light, dark) in enumerate(zip(make(False), make(True))):
            rules.append(f".grafica .{prefix}{k}{{fill:light-dark({light},{dark})}}")
    return "\n".join(rules) + "\n"
