"""`grade similitud`: a renamed, reformatted copy is found, a near-copy is paired with its
lines marked, the course's own solution and what the whole class writes are not flagged, and
no student's text becomes markup in the page."""

from __future__ import annotations

import re

from compmath.grading.similarity import similarity, to_dict, tokens
from compmath.grading.similarity_html import similarity_page

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
