"""The documentation: a landing README, one page per reader in docs/, links that lead somewhere.

README.md is what GitHub and PyPI show first: the three commands at the very top, a students'
install, the requirements, the commands, and links to the rest, under 12,000 bytes. Every
relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file that exists and, when
it names an anchor, at a heading of that file (anchors as GitHub makes them from headings).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

README = REPO / "README.md"
PAGES = [README, REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
READERS = ("estudiantes", "profesores", "autores", "referencia", "integridad", "arquitectura")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation out, spaces to hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found: set[str] = set()
    for m in re.finditer(r"^#{1,6} (.+?)\s*#*\s*$", text, re.MULTILINE):
        base = slug(m[1])
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def broken(page: Path) -> list[str]:
    found = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            found.append(f"{page.name}: {target} (no existe {path})")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            found.append(f"{page.name}: {target} (no hay encabezado #{anchor})")
    return found


def test_the_readme_is_a_landing_page() -> None:
    size = len(README.read_bytes())
    assert size <= 12_000, f"README.md ocupa {size} bytes: lo demás va a docs/"


def test_the_three_commands_are_at_the_very_top_one_each() -> None:
    text = README.read_text(encoding="utf-8")
    first = text.split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", first, re.DOTALL)
    assert block is not None
    assert block[1].splitlines() == ["pip install -e '.[test]'", "compmath run 323", "pytest"]
    assert text.index("```bash") < 40  # right under the title


def test_the_readme_says_how_to_install_for_students_and_what_is_needed() -> None:
    text = README.read_text(encoding="utf-8")
    for needed in (
        "pip install .",
        "Python ≥ 3.11",
        "venv",
        "Linux",
        "apt-get install chromium default-jre-headless poppler-utils",
        "npm ci --prefix .ci/navegador --ignore-scripts",
        "se saltan",
    ):
        assert needed in text, needed
    for reader in READERS:
        assert f"(docs/{reader}.md)" in text, reader
    assert "(CONTRIBUTING.md)" in text


def test_each_reader_has_a_page_in_spanish() -> None:
    for reader in READERS:
        text = (REPO / "docs" / f"{reader}.md").read_text(encoding="utf-8")
        words = re.findall(r"\b(el|la|los|las|de|que|y|en|un|una)\b", text)
        assert len(words) > 200, reader  # Spanish prose, not a stub


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert broken(page) == []


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    (tmp_path / "otra.md").write_text("# Otra\n\n## Una sección\n", encoding="utf-8")
    page = tmp_path / "pagina.md"
    page.write_text(
        "[bien](otra.md#una-sección) [falta](nada.md) [ancla](otra.md#ninguna) "
        "`[en código](nada.md)` [fuera](https://example.org/x)\n",
        encoding="utf-8",
    )
    assert broken(page) == [
        "pagina.md: nada.md (no existe nada.md)",
        "pagina.md: otra.md#ninguna (no hay encabezado #ninguna)",
    ]


def test_the_project_cites_no_shared_design_file() -> None:
    """The design and style notes are the project's brief, not its documentation."""
    cited = re.compile(r"DESIGN\s*§|DESIGN\.md|STYLE\.md|\bDESIGN\b")
    found = []
    for folder in ("compmath", "tests", "benchmarks", "docs", ".ci", ".github"):
        for path in sorted((REPO / folder).rglob("*")):
            if not path.is_file() or path.suffix not in (".py", ".md", ".toml", ".yml", ""):
                continue
            if path == Path(__file__) or "fake_course" in path.parts:
                continue
            for n, row in enumerate(
                path.read_text(encoding="utf-8", errors="replace").splitlines()
            ):
                if cited.search(row):
                    found.append(f"{path.relative_to(REPO)}:{n + 1}")
    for page in (README, REPO / "CONTRIBUTING.md", REPO / "pyproject.toml"):
        if cited.search(page.read_text(encoding="utf-8")):
            found.append(page.name)
    assert found == []


def test_the_layers_table_is_the_programs() -> None:
    """docs/integridad.md: one row per layer compmath knows, «sí» where grading requires it."""
    from compmath.execution.facilities import FACILITIES
    from compmath.grading.protection import REQUIRED, WANTED

    text = (REPO / "docs" / "integridad.md").read_text(encoding="utf-8")
    start = text.index("## Las capas, de un vistazo")
    section = text[start : text.index("\n## ", start + 1)]
    rows = re.findall(r"^\| `(\w+)` \|.*\| (sí|no)[^|]*\|$", section, re.MULTILINE)
    assert sorted(name for name, _ in rows) == sorted(FACILITIES)
    required = {name for name, said in rows if said == "sí"}
    assert tuple(n for n in WANTED if n in required) == REQUIRED


# Paths the pages name that are not in this repository on purpose: what `compmath new 341`
# writes in the example, a placeholder, the workflow `practice start --classroom50` writes in a
# student's workspace.
ELSEWHERE = {
    "schemas/341-mi-clase.schema.json",
    "tests/classes/test_NNN_slug.py",
    ".github/workflows/compmath.yml",
}


def test_every_file_of_the_project_the_pages_name_exists() -> None:
    named = re.compile(r"`((?:compmath|tests|benchmarks|schemas|\.ci|\.github)/[^`\s]+)`")
    missing = sorted(
        {
            f"{page.name}: {path}"
            for page in PAGES
            for path in named.findall(page.read_text(encoding="utf-8"))
            if path not in ELSEWHERE and not (REPO / path.rstrip("/")).exists()
        }
    )
    assert missing == []
