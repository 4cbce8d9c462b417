"""In-text citations linked to the class's bibliography, and the .bib files the site writes.

The .bib files are read back with bibtexparser (a BibTeX parser other tools use), following the
format of Patashnik's «BibTeXing» (entries `@type{key, field = {value}, …}`, «and» between
authors, «others» for et al.)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from compmath.site.citations import bibtex, course_bibtex, keys, link_citations

bibtexparser = pytest.importorskip("bibtexparser", reason="pip install -e '.[test]' lo instala")


@dataclass(frozen=True)
class Ref:
    authors: str
    title: str
    year: int
    venue: str = ""
    doi: str = ""
    isbn: str = ""
    note: str = ""


HO = Ref("Ho, J.; Jain, A.; Abbeel, P.", "Denoising Diffusion", 2020, "NeurIPS", "10.1/ho")
PRESS_17 = Ref("Press, O.; Wolf, L.", "Output Embedding", 2017, "EACL", "10.1/p17")
PRESS_22 = Ref("Press, O.; Smith, N. A.; Lewis, M.", "ALiBi", 2022, "ICLR", "10.1/p22")
SHAW = Ref("Shaw, P.; Uszkoreit, J.; Vaswani, A.", "Relative", 2018, "NAACL", "10.1/shaw")
GAGE = Ref("Gage, P.", "Compression", 1994, "C Users Journal")
BELLMAN = Ref("Bellman, R.", "Dynamic Programming", 1957, isbn="978-0-691-14668-3")
VASWANI = Ref("Vaswani, A. et al.", "Attention", 2017, "NeurIPS", "10.1/v")
ENTRIES = (HO, PRESS_17, PRESS_22, SHAW, GAGE, BELLMAN, VASWANI)


def linked(text: str) -> list[tuple[str, str]]:
    html = link_citations(f"<p>{text}</p>", ENTRIES)
    return re.findall(r'<a class="cita" href="#ref-([a-z0-9]+)">([^<]*)</a>', html)


def test_keys_are_surname_and_year_with_a_letter_where_two_agree() -> None:
    twin = Ref("Ho, J.; Salimans, T.", "Guidance", 2020)
    assert keys([HO, twin, PRESS_17]) == ["ho2020a", "ho2020b", "press2017"]
    assert keys([Ref("von Luxburg, U.", "Tutorial", 2007)]) == ["vonluxburg2007"]


@pytest.mark.parametrize(
    "text, found",
    [
        ("como probaron Ho et al. con dos varianzas", [("ho2020", "Ho et al.")]),
        ("Press et al. (2022) miden", [("press2022", "Press et al. (2022)")]),
        ("atar los pesos (Press y Wolf, 2017)", [("press2017", "Press y Wolf, 2017")]),
        (
            "Shaw, Uszkoreit y Vaswani (2018) aprenden",
            [("shaw2018", "Shaw, Uszkoreit y Vaswani (2018)")],
        ),
        ("el algoritmo de bytes (Gage, 1994).", [("gage1994", "Gage, 1994")]),
        ("Vaswani et al. escalan", [("vaswani2017", "Vaswani et al.")]),
    ],
)
def test_a_citation_links_to_its_entry(text: str, found: list[tuple[str, str]]) -> None:
    assert linked(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "la ecuación de Bellman fija V",  # an eponym, no year: not a citation
        "Press et al. lo miden",  # two Press entries in the class, no year: which one?
        "Press et al. (2019) lo miden",  # a year no entry has
        "Kingma et al. (2014) lo proponen",  # not in this class's bibliography
        "Desde 2017 se usa",  # a capitalised word and a year
    ],
)
def test_what_is_not_a_citation_of_the_class_stays_text(text: str) -> None:
    assert linked(text) == []


def test_code_math_links_headings_and_the_bibliography_are_left_alone() -> None:
    html = (
        "<h2>Ho et al. (2020)</h2><p><code>Ho et al.</code> <math><mi>Ho et al.</mi></math>"
        '<a href="x">Ho et al.</a></p><h2 id="bibliografia">Bibliografía</h2>'
        "<ol><li>Ho et al. (2020)</li></ol>"
    )
    assert link_citations(html, ENTRIES) == html
    assert 'href="#ref-ho2020"' in link_citations("<p>Ho et al.</p>" + html, ENTRIES)


def test_the_bib_reads_back_with_a_bibtex_parser_even_with_special_characters() -> None:
    hostile = Ref(
        "O'Neil, C.; Ruiz, Á. et al.", "Costs {of} 100% & $x_t$ ~ #1", 2021, "J_x", "10.1/%"
    )
    text = bibtex([HO, BELLMAN, hostile])
    database = bibtexparser.loads(text)
    by_key = {e["ID"]: e for e in database.entries}
    assert list(by_key) == ["ho2020", "bellman1957", "oneil2021"]
    assert by_key["ho2020"]["ENTRYTYPE"] == "article" and by_key["ho2020"]["doi"] == "10.1/ho"
    assert by_key["bellman1957"]["ENTRYTYPE"] == "book"
    assert by_key["ho2020"]["author"] == "Ho, J. and Jain, A. and Abbeel, P."
    assert by_key["oneil2021"]["author"].endswith("and others")
    assert by_key["oneil2021"]["title"] == r"Costs \{of\} 100\% \& \$x\_t\$ \~{} \#1"


def test_the_course_bib_keeps_one_entry_per_doi_and_keys_unique() -> None:
    other = Ref("Ho, J.; Salimans, T.", "Guidance", 2020, doi="10.1/guide")
    text = course_bibtex({"332": [HO, PRESS_22], "323": [PRESS_22, other]})
    database = bibtexparser.loads(text)
    ids = [e["ID"] for e in database.entries]
    assert len(ids) == len(set(ids)) == 3
    assert sorted(e["doi"] for e in database.entries) == ["10.1/guide", "10.1/ho", "10.1/p22"]


@pytest.mark.lento  # builds the course's site (seconds)
def test_the_built_site_links_citations_numbers_formulas_and_writes_bibs(
    tmp_path: Path, cli
) -> None:
    from tests.test_notebook import COURSE

    out = tmp_path / "web"
    result = cli("site", "--out", str(out))
    assert result.code == 0, result.err
    cited = 0
    for cls in COURSE.classes:
        page = (out / "clases" / f"{cls.id}.html").read_text(encoding="utf-8")
        targets = re.findall(r'class="cita" href="#(ref-[a-z0-9]+)"', page)
        assert all(f'id="{t}"' in page for t in targets), cls.id
        cited += len(targets)
        numbers = [int(n) for n in re.findall(r'<div class="ec" id="ec-(\d+)">', page)]
        assert numbers == list(range(1, len(numbers) + 1)) and numbers, cls.id
        assert page.count('<div class="formula">') == len(numbers), cls.id  # none unnumbered
        database = bibtexparser.loads(
            (out / "clases" / cls.id / "bibliografia.bib").read_text(encoding="utf-8")
        )
        assert [e["ID"] for e in database.entries] == keys(cls.meta.references)
        assert {e.get("doi", "") for e in database.entries} == {r.doi for r in cls.meta.references}
    assert cited >= 20  # the course's prose cites its sources by name in about thirty places
    course = bibtexparser.loads((out / "bibliografia.bib").read_text(encoding="utf-8"))
    dois = {r.doi for c in COURSE.classes for r in c.meta.references if r.doi}
    assert {e["doi"] for e in course.entries if "doi" in e} == dois


def test_display_formulas_are_numbered_in_page_order_with_anchors() -> None:
    from compmath.site.numbering import number_formulas

    html = (
        '<div class="formula"><math display="block"><mi>a</mi></math></div><p>texto</p>'
        '<div class="formula"><p><code>b = 2</code></p></div>'
    )
    done = number_formulas(html)
    assert re.findall(r'<div class="ec" id="(ec-\d)">', done) == ["ec-1", "ec-2"]
    assert re.findall(r'<a class="num-ec" href="#(ec-\d)">\((\d)\)</a>', done) == [
        ("ec-1", "1"),
        ("ec-2", "2"),
    ]
    assert done.count('<div class="formula">') == 2 and "<p>texto</p>" in done
