"""Solution regions in a lab, and the exercise made by turning each region into a hole.

An instructor marks the heart of a lab with the nbgrader pair, inside a function body:

    ### BEGIN SOLUTION
    angulos = np.outer(posiciones, frecuencias(d))  # (posiciones, d/2)
    ### END SOLUTION

Python reads the markers as comments, so `python lab.py` and `compmath run` ignore them. The
exercise keeps everything else and replaces each region by a numbered hole that raises until
the student fills it in; the hole's markers stay, so a student's answer can be put back into the
solution one hole at a time.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from compmath.course.syntax import parsed, statements
from compmath.mathtext import plain_prose
from compmath.wording import count

BEGIN = re.compile(r"^(?P<indent>[ \t]*)### BEGIN SOLUTION[ \t]*$")
END = re.compile(r"^(?P<indent>[ \t]*)### END SOLUTION[ \t]*$")
HOLE_BEGIN = re.compile(r"^(?P<indent>[ \t]*)### HUECO (?P<k>\d+) ###[ \t]*$")
HOLE_END = re.compile(r"^(?P<indent>[ \t]*)### FIN DEL HUECO (?P<k>\d+) ###[ \t]*$")
NOT_DONE = "sin completar"  # in the exercise's NotImplementedError: how a hole says it is open


class HoleError(ValueError):
    """Markers that do not make well-formed regions; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"línea {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Region:
    """One marked region: the marker lines (0-based indices), their indentation, the body."""

    number: int
    begin: int
    end: int
    indent: str
    body: tuple[str, ...]


def _regions(lines: list[str], begin: re.Pattern[str], end: re.Pattern[str]) -> list[Region]:
    found: list[Region] = []
    opened: tuple[int, str] | None = None
    for i, line in enumerate(lines):
        if match := begin.match(line):
            if opened is not None:
                raise HoleError(i + 1, "una región se abre antes de cerrar la anterior")
            opened = (i, match.group("indent"))
        elif match := end.match(line):
            if opened is None:
                raise HoleError(i + 1, "una marca de cierre sin su marca de apertura")
            start, indent = opened
            if match.group("indent") != indent:
                raise HoleError(i + 1, "la marca de cierre no tiene la sangría de la de apertura")
            if "k" in match.groupdict() and begin is HOLE_BEGIN:
                opening = HOLE_BEGIN.match(lines[start])
                if opening and opening.group("k") != match.group("k"):
                    raise HoleError(
                        i + 1, f"el hueco {opening.group('k')} se cierra con otro número"
                    )
            found.append(Region(len(found) + 1, start, i, indent, tuple(lines[start + 1 : i])))
            opened = None
    if opened is not None:
        raise HoleError(opened[0] + 1, "una región se abre y no se cierra")
    return found


def _function_lines(source: str) -> list[tuple[int, int]]:
    """The (first, last) 1-based lines of every function after its `def` line, its trailing
    comments included (an END marker after the last statement is still inside)."""
    lines = source.splitlines()
    spans = []
    for node in statements(parsed(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        last = node.end_lineno or node.lineno
        while last < len(lines):
            text = lines[last]  # the line after `last` (0-based index)
            stripped = text.lstrip()
            indent = len(text) - len(stripped)
            if stripped and not (stripped.startswith("#") and indent > node.col_offset):
                break
            last += 1
        spans.append((node.lineno + 1, last))
    return spans


def solution_regions(source: str) -> list[Region]:
    """The instructor's regions, checked: paired, not nested, inside a function, not empty."""
    lines = source.splitlines()
    regions = _regions(lines, BEGIN, END)
    try:
        spans = _function_lines(source)
    except SyntaxError as exc:
        from compmath.errors_es import syntax_problem

        what = syntax_problem(exc).what
        raise HoleError(exc.lineno or 1, f"el laboratorio no es Python válido: {what}") from None
    for region in regions:
        if not any(line.strip() and not line.strip().startswith("#") for line in region.body):
            raise HoleError(region.begin + 1, "la región no contiene código")
        if not any(a <= region.begin + 1 and region.end + 1 <= b for a, b in spans):
            raise HoleError(
                region.begin + 1, "la región debe estar dentro del cuerpo de una función"
            )
    return regions


OPERATORS = set("=+-−/·×*^<>≤≥≈≠|∘@")
OPENING, CLOSING = "([{", ")]}"


def _phrases(task: str) -> list[str]:
    """The task's words, with every expression glued into one piece: a space inside brackets
    or next to an operator never becomes a line break (`ω_i = 1 / 10000^(2i/d)` stays whole)."""
    pieces: list[str] = []
    depth = 0
    for word in task.split():
        glue = bool(pieces) and (
            (depth > 0 and len(pieces[-1]) < 30)
            or word[0] in OPERATORS
            or pieces[-1][-1] in OPERATORS
            or (len(word) == 1 and word in OPERATORS)
        )
        if glue:
            pieces[-1] += " " + word
        else:
            pieces.append(word)
        depth = max(0, depth + sum(word.count(c) for c in OPENING))
        depth = max(0, depth - sum(word.count(c) for c in CLOSING))
    return pieces


def task_lines(task: str, width: int) -> list[str]:
    """The task wrapped at `width` without cutting an expression (a longer one overflows)."""
    lines: list[str] = []
    for piece in _phrases(task):
        if lines and len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return lines


def _hole_lines(number: int, indent: str, task: str) -> list[str]:
    wrapped = task_lines(plain_prose(task), max(40, 92 - len(indent)))
    return [
        f"{indent}### HUECO {number} ###",
        *(
            f"{indent}# TODO: {line}" if i == 0 else f"{indent}#       {line}"
            for i, line in enumerate(wrapped)
        ),
        f'{indent}raise NotImplementedError("hueco {number} {NOT_DONE}: escribe tu código aquí")',
        f"{indent}### FIN DEL HUECO {number} ###",
    ]


def exercise_source(source: str, tasks: list[str]) -> str:
    """The lab with region k replaced by hole k (its task as a TODO); tasks pair with regions."""
    regions = solution_regions(source)
    if len(tasks) != len(regions):
        raise HoleError(
            1,
            f"hay {count(len(regions), 'región', 'regiones')} de solución y "
            f"{count(len(tasks), 'hueco', 'huecos')} en class.toml",
        )
    lines = source.splitlines()
    out: list[str] = []
    last = 0
    for region, task in zip(regions, tasks):
        out += lines[last : region.begin]
        out += _hole_lines(region.number, region.indent, task)
        last = region.end + 1
    out += lines[last:]
    text = "\n".join(out) + ("\n" if source.endswith("\n") else "")
    parsed(text)  # a hole must leave valid Python behind
    return text


def student_regions(source: str) -> list[Region]:
    """The holes of an exercise as the student has filled them (markers kept)."""
    return _regions(source.splitlines(), HOLE_BEGIN, HOLE_END)


def student_holes(source: str) -> tuple[dict[int, Region], dict[int, str]]:
    """The holes a student's file still marks well, by number, and why each other hole's
    marks are damaged (Spanish): a damaged mark costs the holes it breaks, never the rest.

    Hole k is well marked when its opening and closing marks appear once each, in that order,
    with the same indentation and no other hole's mark between them."""
    lines = source.splitlines()
    marks: dict[int, dict[str, list[int]]] = {}
    every: list[int] = []
    for i, line in enumerate(lines):
        for kind, pattern in (("begin", HOLE_BEGIN), ("end", HOLE_END)):
            if found := pattern.match(line):
                marks.setdefault(int(found.group("k")), {"begin": [], "end": []})[kind].append(i)
                every.append(i)
    regions: dict[int, Region] = {}
    damaged: dict[int, str] = {}
    for k, seen in sorted(marks.items()):
        why = _damage(k, seen["begin"], seen["end"], lines, every)
        if why:
            damaged[k] = why
            continue
        start, stop = seen["begin"][0], seen["end"][0]
        indent = HOLE_BEGIN.match(lines[start]).group("indent")  # type: ignore[union-attr]
        regions[k] = Region(k, start, stop, indent, tuple(lines[start + 1 : stop]))
    return regions, damaged


def _damage(k: int, begins: list[int], ends: list[int], lines: list[str], every: list[int]) -> str:
    """Why hole k's marks (their 0-based lines) do not make one region, or ""."""
    opening, closing = f"### HUECO {k} ###", f"### FIN DEL HUECO {k} ###"
    if not begins or not ends:
        return f"falta la marca {opening if not begins else closing}"
    if len(begins) > 1 or len(ends) > 1:
        return f"las marcas del hueco {k} están repetidas"
    start, stop = begins[0], ends[0]
    if stop < start:
        return f"{closing} está antes que {opening}"
    if any(start < i < stop for i in every):
        return f"entre {opening} y {closing} hay marcas de otro hueco"
    begin, end = HOLE_BEGIN.match(lines[start]), HOLE_END.match(lines[stop])
    if begin and end and begin.group("indent") != end.group("indent"):
        return f"{closing} no tiene la sangría de {opening}"
    return ""


def without_markers(source: str) -> str:
    """The instructor's lab with its solution markers removed (what a reader of the answer sees)."""
    lines = source.splitlines()
    kept = [line for line in lines if not (BEGIN.match(line) or END.match(line))]
    return "\n".join(kept) + ("\n" if source.endswith("\n") else "")


def splice(student: str, solution: str, open_holes: set[int]) -> str:
    """The student's file with every hole not in `open_holes` filled with the solution's code.

    Used to judge one hole at a time: the student's answer for hole k, the solution elsewhere.
    """
    answers = {r.number: r for r in student_regions(student)}
    model = {r.number: r for r in solution_regions(solution)}
    lines = student.splitlines()
    out: list[str] = []
    last = 0
    for number in sorted(answers):
        region = answers[number]
        out += lines[last : region.begin + 1]
        if number in open_holes or number not in model:
            out += list(region.body)
        else:
            out += list(model[number].body)
        out.append(lines[region.end])
        last = region.end + 1
    out += lines[last:]
    return "\n".join(out) + ("\n" if student.endswith("\n") else "")


def outside_restored(exercise: str, student: str) -> str | None:
    """The exercise with each hole's body as the student wrote it: what lies outside the holes
    back as it was, every hole kept (re-indented to the exercise's markers). None when the
    student's holes cannot all be told apart (markers missing, damaged or renumbered)."""
    try:
        theirs = student_regions(student)
    except HoleError:
        return None
    ours = student_regions(exercise)
    student_lines, lines = student.splitlines(), exercise.splitlines()
    numbers = [HOLE_BEGIN.match(student_lines[r.begin]) for r in theirs]
    if len(theirs) != len(ours) or any(
        m is None or int(m.group("k")) != r.number for m, r in zip(numbers, theirs)
    ):
        return None
    for mine, target in reversed(list(zip(theirs, ours))):
        body = [
            target.indent + text[len(mine.indent) :] if text.startswith(mine.indent) else text
            for text in mine.body
        ]
        lines[target.begin + 1 : target.end] = body
    return "\n".join(lines) + ("\n" if exercise.endswith("\n") else "")


def lines_outside(source: str) -> list[str]:
    """The lines of a student's file outside its holes (all of them when markers are damaged)."""
    lines = source.splitlines()
    try:
        regions = student_regions(source)
    except HoleError:
        return lines
    inside = {i for r in regions for i in range(r.begin + 1, r.end)}
    return [text for i, text in enumerate(lines) if i not in inside]
