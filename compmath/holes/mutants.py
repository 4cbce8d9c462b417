"""Wrong versions of a hole's solution: the class's declared mutants and the standard ones.

A declared mutant (`[[huecos]] mutantes` in class.toml) is a student's mistake the class names:
the solution with one piece of text replaced (`cambia` → `por`) or a whole body (`codigo`).
The standard mutants are derived from the solution with `ast`, as a mutation tester does: an
operator swapped (+/−, ×/÷, < / ≤, > / ≥), a slice's or range's bound moved by one, a matrix
transposed (`.T` added or removed, the operands of `@` swapped), an `axis` changed, a numeric
constant changed, a statement dropped. Each is an edit of the solution's text (comments and
layout stay), named by a stable, readable id: `hueco 2 · línea 3 · + → -`, lines counted from
the hole's first line. Nothing here runs code.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass

from compmath.course.records import DeclaredMutant
from compmath.course.syntax import parse

SWAPS: dict[type, tuple[str, str, type]] = {
    ast.Add: ("+", "-", ast.Sub),
    ast.Sub: ("-", "+", ast.Add),
    ast.Mult: ("*", "/", ast.Div),
    ast.Div: ("/", "*", ast.Mult),
}
COMPARES: dict[type, tuple[str, str]] = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
}
SHORT = 24  # an expression up to this long is quoted in a mutant's id


@dataclass(frozen=True)
class Mutant:
    """One wrong body for hole `hole`: its id, the body's lines (dedented), and for a declared
    one the common error (1-based) it embodies."""

    hole: int
    ident: str
    body: tuple[str, ...]
    error: int = 0
    note: str = ""
    literal: bool = False  # the values the solution computes at the defaults, written by hand

    @property
    def declared(self) -> bool:
        return self.error > 0


def dedented(body: tuple[str, ...]) -> str:
    """A region's body as one dedented text (what the mutants edit)."""
    return textwrap.dedent("\n".join(body)) + "\n"


def code_lines(body: tuple[str, ...]) -> list[str]:
    """The body's lines of code, stripped: no blank lines, no comment lines."""
    return [s for s in (line.strip() for line in body) if s and not s.startswith("#")]


class DeclarationError(ValueError):
    """A declared mutant that cannot be made (Spanish message)."""


def declared(hole: int, number: int, spec: DeclaredMutant, body: tuple[str, ...]) -> Mutant:
    """The mutant `spec` (the hole's `number`-th, 1-based) made from the solution `body`."""
    text = dedented(body)
    ident = f"hueco {hole} · mutante {number}"
    if spec.code:
        new = textwrap.dedent(spec.code.strip("\n")) + "\n"
    else:
        found = text.count(spec.change)
        if found != 1:
            times = "no aparece" if not found else f"aparece {found} veces"
            raise DeclarationError(
                f"el texto de cambia «{spec.change}» {times} en la solución del hueco"
            )
        new = text.replace(spec.change, spec.to)
    return Mutant(hole, ident, tuple(new.splitlines()), spec.error, spec.note)


class _Text:
    """The dedented body as bytes (ast's columns are UTF-8 byte offsets), edited by span."""

    def __init__(self, text: str) -> None:
        self.raw = text.encode("utf-8")
        self.starts = [0]
        for line in self.raw.split(b"\n")[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def at(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.at(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return start, self.at(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def get(self, start: int, end: int) -> str:
        return self.raw[start:end].decode("utf-8")

    def edit(self, start: int, end: int, new: str) -> str:
        return (self.raw[:start] + new.encode("utf-8") + self.raw[end:]).decode("utf-8")

    def find(self, start: int, end: int, token: str, avoid: str = "") -> int:
        """Where `token` is in raw[start:end], outside comments (and not followed by `avoid`),
        or -1."""
        gap = self.get(start, end)
        i, comment = 0, False
        while i < len(gap):
            char = gap[i]
            if char == "#":
                comment = True
            elif char == "\n":
                comment = False
            elif not comment and gap.startswith(token, i):
                after = gap[i + len(token) : i + len(token) + 1]
                if not (avoid and after in avoid) and gap[i - 1 : i] not in ("*", "/", "<", ">"):
                    return start + len(gap[:i].encode("utf-8"))
            i += 1
        return -1


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHORT else ""


class _Deriver:
    """Collects (line, start offset, what, new text) for every standard mutation of a body."""

    def __init__(self, text: str) -> None:
        self.text = _Text(text)
        self.tree = parse(text)
        self.found: list[tuple[int, int, str, str]] = []

    def add(self, line: int, at: int, what: str, new: str) -> None:
        self.found.append((line, at, what, new))

    def swap(self, node: ast.AST, token: str, new: str, what: str, avoid: str = "") -> None:
        start, end = self.text.span(node)
        at = self.text.find(start, end, token, avoid)
        if at >= 0:
            self.add(node.lineno, at, what, self.text.edit(at, at + len(token), new))  # type: ignore[attr-defined]

    def replace(self, node: ast.AST, new: str, what: str) -> None:
        start, end = self.text.span(node)
        self.add(node.lineno, start, what, self.text.edit(start, end, new))  # type: ignore[attr-defined]

    def source(self, node: ast.AST) -> str:
        return self.text.get(*self.text.span(node))

    def derive(self) -> list[tuple[int, int, str, str]]:
        for node in ast.walk(self.tree):
            self.visit(node)
        for stmt in (n for n in ast.walk(self.tree) if isinstance(n, ast.stmt)):
            self.drop(stmt)
        return sorted(self.found, key=lambda f: (f[0], f[1], f[2]))

    def visit(self, node: ast.AST) -> None:
        """One node's mutations. Complexity C: one case per kind of node, read as a table."""
        if isinstance(node, ast.BinOp):
            self.binop(node)
        elif isinstance(node, ast.AugAssign) and type(node.op) in SWAPS:
            old, new, _ = SWAPS[type(node.op)]
            self.swap(node, old + "=", new + "=", f"{old}= → {new}=")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, before, after in zip(node.ops, sides, sides[1:]):
                if type(op) in COMPARES:
                    old, new = COMPARES[type(op)]
                    start, end = self.text.span(before)[1], self.text.span(after)[0]
                    at = self.text.find(start, end, old, avoid="=" if len(old) == 1 else "")
                    if at >= 0:
                        edited = self.text.edit(at, at + len(old), new)
                        self.add(node.lineno, at, f"{old} → {new}", edited)
        elif isinstance(node, ast.Slice):
            for bound in (node.lower, node.upper):
                if bound is not None:
                    self.off_by_one(bound, "corte")
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.Attribute) and node.attr == "T":
            value = self.source(node.value)
            what = f"{value}.T → {value}" if _short(value) else ".T quitada"
            self.replace(node, value, what)
        elif isinstance(node, ast.Constant):
            self.constant(node)

    def binop(self, node: ast.BinOp) -> None:
        left_end = self.text.span(node.left)[1]
        right_start = self.text.span(node.right)[0]
        if type(node.op) in SWAPS:
            old, new, _ = SWAPS[type(node.op)]
            at = self.text.find(left_end, right_start, old, avoid="*/=" if old in "*/" else "=")
            if at >= 0:
                self.add(node.lineno, at, f"{old} → {new}", self.text.edit(at, at + 1, new))
        elif isinstance(node.op, ast.MatMult):
            left, right = self.source(node.left), self.source(node.right)
            self.replace(node, f"{right} @ {left}", "@ con los operandos al revés")
            sides = (("izquierda", node.left, left), ("derecha", node.right, right))
            for side, operand, text in sides:
                simple = isinstance(operand, (ast.Name, ast.Subscript, ast.Call, ast.Attribute))
                transposed = isinstance(operand, ast.Attribute) and operand.attr == "T"
                if simple and not transposed:
                    what = f"{text} → {text}.T" if _short(text) else f".T añadida ({side})"
                    self.replace(operand, f"{text}.T", what)

    def call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if name == "range" and node.args:
            self.off_by_one(node.args[1] if len(node.args) > 1 else node.args[0], "range")
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg != "axis":
                continue
            number = value.operand if isinstance(value, ast.UnaryOp) else value
            if isinstance(number, ast.Constant) and isinstance(number.value, int):
                old = self.source(value)
                new = "0" if old not in ("0", "+0") else "-1"
                self.replace(value, new, f"axis={old} → axis={new}")

    def off_by_one(self, bound: ast.expr, where: str) -> None:
        text = self.source(bound)
        shown = _short(text) or "límite"
        simple = isinstance(bound, (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call))
        inner = text if simple else f"({text})"
        for sign in ("+", "-"):
            self.replace(bound, f"{inner} {sign} 1", f"{where}: {shown} → {shown} {sign} 1")

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return
        if self._is_axis(node):
            return  # the axis mutation covers it
        new: int | float = value + 1 if isinstance(value, int) else (value * 1.5 if value else 1.0)
        self.replace(node, repr(new), f"{self.source(node)} → {new!r}")

    def _is_axis(self, node: ast.Constant) -> bool:
        for call in ast.walk(self.tree):
            if isinstance(call, ast.Call):
                for keyword in call.keywords:
                    value = keyword.value
                    value = value.operand if isinstance(value, ast.UnaryOp) else value
                    if keyword.arg == "axis" and value is node:
                        return True
        return False

    def drop(self, stmt: ast.stmt) -> None:
        lines = self.text.get(0, len(self.text.raw)).split("\n")
        first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
        indent = lines[first - 1][: stmt.col_offset]
        if lines[first - 1][stmt.col_offset :] != lines[first - 1].lstrip() or any(
            ";" in line for line in lines[first - 1 : last]
        ):
            return  # a statement sharing its line with another: not dropped alone
        kept = [*lines[: first - 1], f"{indent}pass", *lines[last:]]
        self.add(first, -1, "sentencia quitada", "\n".join(kept))


def standard(hole: int, body: tuple[str, ...]) -> list[Mutant]:
    """The standard mutants of a hole's solution, in a stable order (by line, then position);
    [] when the solution does not parse on its own."""
    text = dedented(body)
    try:
        found = _Deriver(text).derive()
    except SyntaxError:
        return []
    made: list[Mutant] = []
    seen: dict[str, int] = {}
    for line, _, what, new in found:
        if new == text:
            continue
        ident = f"hueco {hole} · línea {line} · {what}"
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            ident = f"{ident} ({seen[ident]})"
        made.append(Mutant(hole, ident, tuple(new.rstrip("\n").split("\n"))))
    return made


def grafted(
    lines: tuple[str, ...], begin: int, end: int, indent: str, body: tuple[str, ...]
) -> str:
    """The lab `lines` with the region between marker lines `begin` and `end` (0-based) holding
    `body` (dedented lines) at `indent`."""
    placed = [f"{indent}{line}" if line.strip() else "" for line in body]
    return "\n".join([*lines[: begin + 1], *placed, *lines[end:]]) + "\n"


def diff_lines(before: tuple[str, ...], after: tuple[str, ...]) -> Iterator[str]:
    """The changed lines of a mutant against the solution: `- old` and `+ new`."""
    import difflib

    for line in difflib.ndiff(list(before), list(after)):
        if line.startswith(("- ", "+ ")):
            yield line[:2] + without_comment(line[2:])


def without_comment(line: str) -> str:
    """A line of code without its trailing comment and its alignment spaces (for a screen)."""
    import io
    import tokenize

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return line.strip()
    comment = next((t for t in tokens if t.type == tokenize.COMMENT), None)
    code = line.strip()[: comment.start[1]] if comment else line.strip()
    return code.rstrip()
