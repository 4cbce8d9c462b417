"""The course as a static website (`compmath site`), built from the same class page document
that `compmath show` draws in the terminal (compmath.present.page).

build (what is written, content-keyed) · verify (every lab through the `check` judge, cached by
content) · render and templates/ (the pages) · mathml (LaTeX to MathML) · markdown (the prose) ·
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

Primes come out small and high with Latin Modern Math in all three. math-core is the only one
that is both in process (the README's `pip install` is enough: no Node) and correct on every
formula; it raises on bad LaTeX, which the build reports naming the class and the formula.

Math font: Latin Modern Math ships with the site (assets/fonts, 392 KB WOFF2, GUST Font
License) and `math { font-family: "Latin Modern Math", math }` uses it. Naming only the
browser's `math` font would depend on the reader's system: a machine without an OpenType math
font draws radicals, big operators and stretchy brackets from a text font, badly. The font is a
local file of the site, so nothing is fetched from outside it.
"""
