"""`grade similitud`: a renamed, reformatted copy is found, a near-copy is paired with its
lines marked, the course's own solution and what the whole class writes are not flagged, and
no student's text becomes markup in the page."""

from __future__ import annotations

import io
import re
import textwrap
from typing import Any

import pytest

from compmath.grading.similarity import similarity, to_dict, tokens
from compmath.grading.similarity_html import STYLE, _code, similarity_page

CLASS = "323-positional-encoding"
SOLUTION = """\
    omega = 1.0 / BASE ** (2 * i / d)
"""
ORIGINAL = """\
    # pesos de cada fila
    pesos = np.exp(tabla - tabla.max(axis=1, keepdims=True))
    total = pesos.sum(axis=1)
    salida = []
    for fila in range(len(total)):
        salida.append(pesos[fila] / total[fila])
    return np.array(salida) * 3.5
"""
RENAMED = """\
    w = np.exp(t - t.max(axis=1,keepdims=True))   # otra cosa
    s = w.sum(axis=1)
    out = []
    for k in range(len(s)):
        out.append(w[k]/s[k])
    return np.array(out)*2
"""
NEAR = RENAMED.replace("    return", "    out = out[::-1]\n    out = out[::-1]\n    return")
OTHER = """\
    e = np.exp(t)
    norma = np.sum(e, axis=-1)[:, None]
    while norma.min() < 0:
        norma = norma + 1
    resultado = e / norma
    return resultado
"""


def saved(holes: dict[str, str]) -> dict[str, dict[str, dict[str, str]]]:
    return {student: {CLASS: {"1": text}} for student, text in holes.items()}


def given() -> dict[tuple[str, str], list[str]]:
    return {(CLASS, "1"): [SOLUTION, "    raise NotImplementedError('hueco 1 sin completar')"]}


def test_names_literals_comments_and_layout_do_not_count() -> None:
    assert [t for t, _ in tokens(ORIGINAL)] == [t for t, _ in tokens(RENAMED)]
    assert [t for t, _ in tokens(ORIGINAL)] != [t for t, _ in tokens(OTHER)]
    assert tokens("def (:") == []  # does not parse: compared as nothing


def test_copies_are_found_and_the_course_solution_is_not_flagged() -> None:
    class_holes = {
        "ana": ORIGINAL,
        "luis": RENAMED,
        "marta": NEAR,
        "olga": OTHER,
        "pepe": SOLUTION,
        "rosa": SOLUTION.replace("omega", "w"),
    }
    result = similarity(saved(class_holes), given(), 0.7)
    groups = {tuple(g.students): g.course_solution for g in result.groups}
    assert groups == {("ana", "luis"): False, ("pepe", "rosa"): True}
    paired = {(p.first, p.second) for p in result.pairs}
    assert paired == {("ana", "marta"), ("luis", "marta")}  # the near-copy, of both
    assert all("olga" not in pair for pair in paired)  # another approach: nothing to see
    pair = next(p for p in result.pairs if p.first == "ana")
    assert pair.lines[1] and 1 in pair.lines[1]  # matching lines are known, to be marked
    data = to_dict(result)
    assert data["grupos"][0]["es_la_solucion_del_curso"] is False


def test_what_most_of_the_class_writes_is_not_a_copy() -> None:
    """Twenty students writing the same short natural line are one group at most, never
    twenty pairs: a hole too short to tell is not scored."""
    common = {f"a{k:02d}": f"    x{k} = np.exp(t{k})\n" for k in range(20)}
    result = similarity(saved(common), given(), 0.5)
    assert not result.pairs


def test_the_page_escapes_every_student_text() -> None:
    hostile = "<script>alert(1)</script>"
    code = ORIGINAL + f"    # </pre>{hostile}<img src=x onerror=alert(2)>\n"
    result = similarity(saved({hostile: code, "luis": NEAR}), given(), 0.5)
    page = similarity_page(result)
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;" in page and "<mark>" in page
    assert "no una acusación" in page
    assert not re.search(r"https?://", page)  # offline: nothing loaded from outside


def test_earlier_terms_are_compared_and_only_what_involves_this_term_is_kept(tmp_path, cli) -> None:
    """`--archivo`: a student copying an earlier term's hole (renamed) is paired with it;
    two earlier students alike are no news; the earlier term is read from its grading's
    huecos/ or from its submissions folder, and a grading without holes is one Spanish line."""
    import json
    from pathlib import Path

    from compmath.grading.similarity_archive import read_archive, with_archive
    from tests.conftest import REPO, error_lines, no_traceback
    from tests.test_grade import C323, hand_in, with_hole

    earlier = tmp_path / "2025"
    (earlier / "huecos").mkdir(parents=True)
    for student, text in (("vieja", ORIGINAL), ("otra", NEAR), ("sola", OTHER)):
        data = {"alumno": student, "huecos": {CLASS: {"1": text}}}
        (earlier / "huecos" / f"{student}.json").write_text(json.dumps(data), encoding="utf-8")
    archive = read_archive([earlier], [C323])
    assert sorted(archive) == ["2025/otra", "2025/sola", "2025/vieja"]
    now = saved({"nuevo": RENAMED, "honesta": SOLUTION})
    result = similarity(with_archive(now, archive), given(), 0.7, frozenset(archive))
    assert result.students == 2 and result.archived == 3
    paired = {frozenset((p.first, p.second)) for p in result.pairs}
    assert frozenset(("2025/vieja", "2025/otra")) not in paired  # both earlier: no news
    assert all({p.first, p.second} - set(archive) for p in result.pairs)
    copied = [g for g in result.groups if "nuevo" in g.students]
    assert copied and "2025/vieja" in copied[0].students  # the renamed copy, identical
    assert "de otros cursos" in similarity_page(result)

    submissions = tmp_path / "entregas-2024"  # an earlier term kept as its submissions
    body = textwrap.dedent(ORIGINAL).rstrip("\n")
    hand_in(submissions, "antigua", {C323: with_hole(C323, 1, body)})
    from_folder = read_archive([submissions], [C323])
    assert "pesos" in from_folder["entregas-2024/antigua"][C323.id]["1"]

    graded = tmp_path / "notas-2023"
    graded.mkdir()
    (graded / "informe.json").write_text("{}", encoding="utf-8")
    out = tmp_path / "notas"
    hand_in(tmp_path / "ahora", "nuevo", {C323: with_hole(C323, 1, body)})
    args = ["grade", str(tmp_path / "ahora"), "--root", str(REPO), "--out", str(out)]
    assert cli(*args, "--clases", "323", "--sin-aislamiento-completo").code == 0
    refused = cli("grade", "similitud", str(out), "--root", str(REPO), "--archivo", str(graded))
    assert refused.code == 2 and "no guardó los huecos" in error_lines(refused)[0]
    done = cli(
        "grade", "similitud", str(out), "--root", str(REPO), "--json",
        "--archivo", str(submissions), "--archivo", str(earlier),
    )  # fmt: skip
    assert done.code == 0, no_traceback(done)
    report = json.loads(done.out)
    assert report["alumnos"] == 1 and report["alumnos_de_otros_cursos"] == 4
    together = [g["alumnos"] for g in report["grupos"] if "nuevo" in g["alumnos"]]
    assert together and {"entregas-2024/antigua", "2025/vieja"} <= set(together[0])
    misplaced = cli(*args, "--archivo", str(earlier))
    assert misplaced.code == 2 and "--archivo son de grade" in error_lines(misplaced)[0]
    assert Path(out / "similitud.html").exists()


@pytest.mark.lento  # a real browser
@pytest.mark.parametrize("scale", [1, 2])
def test_a_marked_line_never_hides_the_underscores_of_the_line_above(scale: int) -> None:
    """In Chromium at device scale 1 each <mark> painted over the bottom of the marked line
    above, and `masa_i` read `masa i`. The page's own style and code markup: a marked line
    with underscores over a marked line of spaces has as many text pixels (darker than both
    backgrounds) as with the line below unmarked (with the old style, fewer at scale 1)."""
    from tests.test_site_browser import chromium

    image = pytest.importorskip("PIL.Image", reason="falta Pillow: pip install pillow")

    def dark_pixels(page: Any, marked: set[int]) -> int:
        code = _code("masa_i = np.zeros_like(p_q)\n" + " " * 30, marked)
        page.set_content(
            f'<!doctype html><html lang="es"><head><meta charset="utf-8"><style>{STYLE}</style>'
            f"</head><body>{code}</body></html>"
        )
        shot = image.open(io.BytesIO(page.locator("pre").screenshot())).convert("L")
        return sum(1 for value in shot.tobytes() if value < 190)  # backgrounds: 226, 246

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 300}, device_scale_factor=scale)
        plain, marked = dark_pixels(page, {1}), dark_pixels(page, {1, 2})
    assert plain > 0 and marked == plain, (plain, marked)
