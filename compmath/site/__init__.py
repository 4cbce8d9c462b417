"""The course as a static website (`compmath site`), built from the same class page document
that `compmath show` draws in the terminal (compmath.present.page).

build (what is written, content-keyed) · verify (every lab through the `check` judge, cached by
content) · render and templates/ (the pages) · mathml (LaTeX to MathML) · fences (its
`\\left…\\right` sizes) · markdown (the prose) ·
charts (inline SVG) · highlight (Pygments) · search (the index as a plain script) · sentences
(each page's sentences, which search results quote) · assets/ (the stylesheet, the search
script, the math font) · screen (what the command prints) · serve.

Math converter, chosen by what Chromium 156 shows for the course's own 106 formulas (every
`latex` of the 20 class.toml files), rendered side by side with Latin Modern Math and judged
from screenshots:

| converter                 | runs                       | broken | cosmetic                     |
| ------------------------- | -------------------------- | ------ | ---------------------------- |
| math-core 0.9 (PyPI, Rust) | in process, ~0.1 ms each  | 0      | matrix parentheses padded    |
| temml 0.13 (npm)          | one `node` call            | 1      | cases centred; loose limits  |
| latex2mathml 3.81 (PyPI)  | in process                 | 10+    | a space before every "("     |

temml's broken one: 325.2, `\\widehat{Var}` puts the hat beside the word. latex2mathml's:
argmax as "*argmax", limits of max/min at the side, `\\widehat` off centre, the spacing of ⟺
lost. math-core's cosmetic one: padded parentheses around the matrix of 334.4.

Primes came out small and high with every font (`′` superscripted): mathml sets them beside
their base. math-core is the only one
that is both in process (the README's `pip install` is enough: no Node) and correct on every
formula; it raises on bad LaTeX, which the build reports naming the class and the formula.

Math font: STIX Two Math 2.13 ships with the site (assets/fonts, 552 KB WOFF2 as its authors
publish it, SIL Open Font License, LICENSE beside it) and `math { font-family: "STIX Two Math",
math }` uses it. Chosen by measurement beside KaTeX's rendering of the same TeX in Chromium
(tests/test_site_browser.py, 20 px, ink painted and measured from screenshots at scale 1):

| measured                               | Latin Modern Math | STIX Two Math | KaTeX |
| -------------------------------------- | ----------------- | ------------- | ----- |
| ᾱ's bar: darkest pixel, ink (px²)      | 61 %, 4.4         | 100 %, 6.4    | 92 %, 6.7 |
| two primes of 338.2, ink (px²)         | 14.4              | 15.8          | 18.3  |
| subscript's foot under x, in em        | 0.20              | 0.25          | 0.15  |
| \\left pairs as tall as KaTeX's (±8 %)  | 58 of 60          | 57 of 60      |       |

(primes, subscripts and fences after mathml's adjustments; before them the primes had 7–8 px²
of ink in either font and a subscript under p, q or β fell 0.2 em lower than under x). Latin
Modern's bar is 0.03 em thick, less than a pixel on a 1× screen. Naming only the
browser's `math` font would depend on the reader's system: a machine without an OpenType math
font draws radicals, big operators and stretchy brackets from a text font, badly. The font is a
local file of the site, so nothing is fetched from outside it.
"""
