"""Similarity of what students wrote, hole by hole: never an accusation, evidence to look at.

Only the holes are compared (the rest of a lab.py is the course's). Each hole is normalised
through `ast` (names numbered in order of appearance, literals, comments, docstrings and
layout gone), so a renamed or reformatted copy collides. Identical normalised holes form
groups (one comment can answer a whole group); near-copies are scored with k-gram winnowing
fingerprints (Schleimer, Wilkerson, Aiken 2003, as Moss) looked up in an inverted index, so
the work grows with the fingerprints, not with the pairs of students. What the course itself
gives or expects is discounted: fingerprints of the course's solution and of the exercise,
and those so common in the class that they are the natural way to write the hole.
Standard library only: the fingerprinting is a few lines of hashing (benchmarks/similitud.py
measures it at 5,000 students), and an external detector would compare whole files.
"""

from __future__ import annotations

import ast
import gc
import json
import textwrap
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compmath.atomic import write_atomic
from compmath.course.syntax import parse
from compmath.course.tree import ClassInfo
from compmath.grading.submissions import Submission
from compmath.grading.written import Written
from compmath.holes.graft import course_lab
from compmath.holes.regions import student_holes, student_regions

HOLES_DIR = "huecos"  # OUT/huecos/<alumno>.json: each class's holes as the student wrote them
K, WINDOW = 6, 4  # k-gram length in tokens, winnowing window
MIN_TOKENS = 12  # a hole shorter than this is what everyone writes: no near-copy score
MIN_PRINTS = 3  # nor a hole with fewer fingerprints of its own (identical ones are a group)
# a fingerprint held by more students than this is the class's norm, not a copy (the cap
# keeps the pairs each fingerprint yields bounded: the work grows linearly with the class)
COMMON_SHARE, COMMON_FLOOR, COMMON_CAP = 0.2, 4, 40
DEFAULT_THRESHOLD = 0.7


def save_holes(out: Path, submission: Submission, stem: str) -> Written:
    """Keep the student's holes (class id -> hole number -> text) for `grade similitud`, in
    OUT/huecos/<stem>.json (stem: the student's file name, grading.names); the folder, as
    written."""
    holes: dict[str, dict[str, str]] = {}
    for class_id, found in submission.files.items():
        if found.source is None:
            continue
        regions, _ = student_holes(found.source)
        holes[class_id] = {str(k): "\n".join(r.body) for k, r in sorted(regions.items())}
    text = json.dumps({"alumno": submission.student, "huecos": holes}, ensure_ascii=False)
    folder = out / HOLES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / f"{stem}.json", text + "\n")
    return _holes_written(out)


def _holes_written(out: Path) -> Written:
    return Written(out / HOLES_DIR, "los huecos de cada alumno (para grade similitud)", True)


def merge_holes(folders: Iterable[Path], out: Path) -> Written | None:
    """`grade merge`: the shards' saved holes into the merged folder (the folder, as written;
    None when no shard saved any)."""
    written = None
    for folder in folders:
        for path in sorted((folder / HOLES_DIR).glob("*.json")):
            target = out / HOLES_DIR / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, path.read_text(encoding="utf-8"))
            written = _holes_written(out)
    return written


def read_holes(out: Path) -> dict[str, dict[str, dict[str, str]]]:
    """Every student's holes saved in a grading folder: student -> class -> hole -> text."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for path in sorted((out / HOLES_DIR).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            holes = {
                str(c): {str(k): str(v) for k, v in hs.items()} for c, hs in data["huecos"].items()
            }
            found[str(data["alumno"])] = holes
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # a damaged file costs that student's comparison, never the report
    return found


def course_texts(classes: Iterable[ClassInfo]) -> dict[tuple[str, str], list[str]]:
    """Per (class, hole), what the course gives or expects there: its solution, the exercise."""
    given: dict[tuple[str, str], list[str]] = {}
    for cls in classes:
        lab = course_lab(cls)
        exercise = {r.number: r for r in student_regions(lab.exercise)}
        for region in lab.regions:
            texts = ["\n".join(region.body)]
            if region.number in exercise:
                texts.append("\n".join(exercise[region.number].body))
            given[(cls.id, str(region.number))] = texts
    return given


# --- normalising -----------------------------------------------------------------------------


CONTEXTS = (ast.Load, ast.Store, ast.Del, ast.Module)


def _children(node: ast.AST) -> list[ast.AST]:
    """A node's children in source order (its fields in order, lists in place)."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, ast.AST))
    return found


def tokens(code: str) -> list[tuple[str, int]]:
    """A hole's code as normalised tokens with their line (1-based in the hole), in source
    order: node kinds, operators, every literal alike, names numbered by first use; [] when
    the code does not parse (it is compared as nothing: a syntax error says little).

    Complexity D, on purpose: one branch per kind of node normalised, in one walk."""
    try:
        tree = parse(textwrap.dedent(code))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    names: dict[str, str] = {}
    out: list[tuple[str, int]] = []
    stack: list[tuple[ast.AST | str, int]] = [(tree, 1)]
    while stack:
        node, line = stack.pop()
        if isinstance(node, str):  # an attribute's name, after its object
            out.append((node, line))
            continue
        line = getattr(node, "lineno", line)
        kind = type(node)
        if kind is ast.Expr and isinstance(node.value, ast.Constant):  # type: ignore[attr-defined]
            continue  # a docstring or a bare literal: says nothing about the code
        if kind is ast.Name or kind is ast.arg:
            name = node.id if kind is ast.Name else node.arg  # type: ignore[attr-defined]
            out.append((names.setdefault(name, f"v{len(names)}"), line))
            continue
        if kind is ast.Constant:
            out.append(("C", line))  # any literal: 2 for 3.5, "a" for "b"
            continue
        if kind is ast.Attribute:
            attr = node.attr  # type: ignore[attr-defined]
            stack.append(("." + names.setdefault(attr, f"v{len(names)}"), line))
            stack.append((node.value, line))  # type: ignore[attr-defined]
            continue
        if kind is ast.FunctionDef or kind is ast.ClassDef:
            names.setdefault(node.name, f"v{len(names)}")  # type: ignore[attr-defined]
        if not isinstance(node, CONTEXTS):
            out.append((kind.__name__, line))
        stack.extend((child, line) for child in reversed(_children(node)))
    return out


def fingerprints(toks: list[tuple[str, int]]) -> dict[int, set[int]]:
    """Winnowed k-gram hashes of a token list, each with the lines it covers."""
    if len(toks) < K:
        return {}
    words = [t for t, _ in toks]
    hashes = [zlib.crc32("\0".join(words[i : i + K]).encode()) for i in range(len(words) - K + 1)]
    chosen: dict[int, set[int]] = {}
    last = -1
    for start in range(max(1, len(hashes) - WINDOW + 1)):
        window = hashes[start : start + WINDOW]
        low = min(window)
        at = start + max(i for i, h in enumerate(window) if h == low)  # the rightmost minimum
        if at != last:
            lines = {line for _, line in toks[at : at + K]}
            chosen.setdefault(hashes[at], set()).update(lines)
            last = at
    return chosen


# --- comparing -------------------------------------------------------------------------------


@dataclass
class Pair:
    class_id: str
    hole: str
    first: str
    second: str
    score: float
    lines: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))


@dataclass
class Group:
    class_id: str
    hole: str
    students: list[str]
    course_solution: bool  # the group wrote exactly the course's own solution


@dataclass
class Similarity:
    pairs: list[Pair]
    groups: list[Group]
    holes: dict[tuple[str, str], dict[str, str]]  # (class, hole) -> student -> text
    students: int
    threshold: float
    archived: int = 0  # students of earlier terms compared against (--archivo)


def _discounted(given: Iterable[str]) -> set[int]:
    return {h for code in given for h in fingerprints(tokens(code))}


Prints = dict[str, dict[int, set[int]]]  # student -> fingerprint -> its lines in the hole


def _read(texts: Mapping[str, str]) -> tuple[dict[str, tuple[str, ...]], Prints]:
    """Each student's normalised form of the hole and, when long enough, its fingerprints."""
    forms: dict[str, tuple[str, ...]] = {}
    prints: Prints = {}
    for student, code in texts.items():
        toks = tokens(code)
        if toks:
            forms[student] = tuple(t for t, _ in toks)
            if len(toks) >= MIN_TOKENS:
                prints[student] = fingerprints(toks)
    return forms, prints


def _shared(prints: Prints, ignored: set[int]) -> tuple[dict[tuple[str, str], list[int]], set[int]]:
    """The fingerprints each pair of students shares, through an inverted index, and those
    that count (neither the course's nor held by so many that they are the class's norm)."""
    index: dict[int, list[str]] = defaultdict(list)
    for student, fps in prints.items():
        for h in fps.keys() - ignored:
            index[h].append(student)
    common = min(COMMON_CAP, max(COMMON_FLOOR, int(COMMON_SHARE * len(prints))))
    rare = {h for h, holders in index.items() if len(holders) <= common}
    shared: dict[tuple[str, str], list[int]] = defaultdict(list)
    for h in rare:
        holders = index[h]
        for i, a in enumerate(holders):
            for b in holders[i + 1 :]:
                shared[(a, b) if a < b else (b, a)].append(h)
    return shared, rare


def compare_hole(
    texts: Mapping[str, str], given: Iterable[str], threshold: float
) -> tuple[list[tuple[str, str, float, set[int], set[int]]], list[tuple[list[str], bool]]]:
    """One hole of one class across students: the near-copy pairs at or above `threshold`
    and the groups of identical normalised code. `given`: the course's solution and the
    exercise's text for the hole, whose fingerprints never count."""
    given = list(given)
    solution = {tuple(t for t, _ in tokens(code)) for code in given}
    forms, prints = _read(texts)
    by_form: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for student, form in forms.items():
        by_form[form].append(student)
    groups = [(sorted(s), form in solution) for form, s in by_form.items() if len(s) > 1]
    shared, rare = _shared(prints, _discounted(given))
    counted = {s: len(fps.keys() & rare) for s, fps in prints.items()}
    pairs = []
    for (a, b), hs in shared.items():
        least = min(counted[a], counted[b])
        score = len(hs) / max(1, least)
        if least >= MIN_PRINTS and score >= threshold and forms[a] != forms[b]:
            lines_a = set().union(*(prints[a][h] for h in hs))
            lines_b = set().union(*(prints[b][h] for h in hs))
            pairs.append((a, b, min(1.0, score), lines_a, lines_b))
    return pairs, groups


def similarity(
    saved: Mapping[str, Mapping[str, Mapping[str, str]]],
    given: Mapping[tuple[str, str], list[str]],
    threshold: float = DEFAULT_THRESHOLD,
    earlier: frozenset[str] = frozenset(),
) -> Similarity:
    """Compare every hole of every class across students (`saved`: read_holes); `given`:
    per (class, hole), the texts the course gives or expects (solution, exercise).
    `earlier`: the students of `saved` who belong to earlier terms (--archivo): they count
    towards what is common, and a pair or group is kept only if it has someone else."""
    holes: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for student, classes in saved.items():
        for class_id, hs in classes.items():
            for number, text in hs.items():
                holes[(class_id, number)][student] = text
    pairs: list[Pair] = []
    groups: list[Group] = []
    collecting = gc.isenabled()
    gc.disable()  # millions of small acyclic tuples: the cycle collector would rescan them all
    try:
        for (class_id, number), texts in sorted(holes.items()):
            found, same = compare_hole(texts, given.get((class_id, number), []), threshold)
            pairs += [
                Pair(class_id, number, a, b, s, (la, lb))
                for a, b, s, la, lb in found
                if not {a, b} <= earlier
            ]
            groups += [Group(class_id, number, s, sol) for s, sol in same if not set(s) <= earlier]
    finally:
        if collecting:
            gc.enable()
    pairs.sort(key=lambda p: (-p.score, p.class_id, int(p.hole), p.first, p.second))
    groups.sort(key=lambda g: (g.course_solution, -len(g.students), g.class_id, int(g.hole)))
    return Similarity(
        pairs, groups, dict(holes), len(saved) - len(earlier), threshold, len(earlier)
    )


def to_dict(result: Similarity) -> dict[str, Any]:
    """The comparison as data (`grade similitud --json`)."""
    return {
        "alumnos": result.students,
        "alumnos_de_otros_cursos": result.archived,
        "umbral": result.threshold,
        "grupos": [
            {
                "clase": g.class_id,
                "hueco": int(g.hole),
                "alumnos": g.students,
                "es_la_solucion_del_curso": g.course_solution,
            }
            for g in result.groups
        ],
        "parejas": [
            {
                "clase": p.class_id,
                "hueco": int(p.hole),
                "alumnos": [p.first, p.second],
                "parecido": round(p.score, 3),
                "lineas": [sorted(p.lines[0]), sorted(p.lines[1])],
            }
            for p in result.pairs
        ],
    }
