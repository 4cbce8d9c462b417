"""A practice session: the current class, its last attempt, and what each key does.

Kept apart from the terminal and the file watcher (practice.watch), so a test drives it the way
a student does: save a file, call `saved()`, press a key with `key()`, read what was shown. The
terminal's size comes through `size` (a test gives its own); a judged attempt that would not fit
its height is shown with its holes' details folded, until [o] unfolds everything.
"""

from __future__ import annotations

import io
import os
import shutil
import tokenize
from collections.abc import Callable

from compmath.atomic import write_atomic
from compmath.course.tree import ClassInfo
from compmath.errors import CompmathError
from compmath.holes.graft import is_open
from compmath.holes.regions import (
    HoleError,
    Region,
    lines_outside,
    outside_restored,
    student_regions,
)
from compmath.holes.verdict import Attempt, judge_many
from compmath.judging.report import LabReport
from compmath.practice.practice_screen import (
    attempt_blocks,
    hint_blocks,
    keys_help,
    list_blocks,
    progress_bar,
    solution_blocks,
)
from compmath.practice.workspace import Workspace, mark_done
from compmath.present.layout import BLANK, Block, Command, here, lay_out, line, para
from compmath.wording import count

Show = Callable[[list[Block], bool], None]  # (screen, start a fresh screen?)
Size = Callable[[], tuple[int | None, int | None]]  # the screen's (columns, rows); None: a pipe


def no_size() -> tuple[int | None, int | None]:
    """A pipe's size: no width, no height (nothing is folded to fit)."""
    return None, None


class Session:
    """The student's session over a workspace; `show` prints a screen (or records it in tests):
    a judged attempt starts a fresh screen, anything else (a hint, the list) goes below it."""

    def __init__(
        self,
        workspace: Workspace,
        show: Show,
        timeout: float = 10.0,
        *,
        manual: bool = False,
        size: Size = no_size,
    ) -> None:
        self.workspace = workspace
        self.show = show
        self.size = size
        self.timeout = timeout
        self.manual = manual
        self.course = workspace.origin()  # where the reference labs are (never the workspace)
        self.progress = workspace.load_progress()
        self.classes = workspace.classes()
        self.attempt: Attempt | None = None
        self.confirm_reset = False
        self.prints = False  # [o]: the student's prints and the holes' details unfolded
        self.memo: dict[str, LabReport] = {}  # verdicts by content: an unchanged hole is not rerun
        self.current = self._class(self.progress.current) or self._next_unfinished(None)

    def _class(self, class_id: str) -> ClassInfo | None:
        return next((c for c in self.classes if c.id == class_id), None)

    def _next_unfinished(self, after: ClassInfo | None) -> ClassInfo:
        start = self.classes.index(after) + 1 if after in self.classes else 0
        ordered = self.classes[start:] + self.classes[:start]
        for cls in ordered:
            if not self.progress.classes[cls.id].done:
                return cls
        return ordered[0]

    @property
    def lab(self) -> str:
        """The file the student edits now (absolute path)."""
        return str(self.current.lab)

    def judge(self, cls: ClassInfo | None = None, source: str | None = None) -> Attempt:
        """Judge the student's lab.py of `cls` (default: the current class), or `source` as
        its text; shows nothing, so the watch loop may run it in a thread of its own."""
        cls = cls or self.current
        if source is None:
            source = self.source(cls)
        reference = self.workspace.reference(cls, self.course)
        jobs = os.cpu_count() or 1
        items = [(reference, source)]
        own = [self.workspace.own(reference, self.course)]
        hide = self.workspace.out_of_sight(self.course)  # private, as grade runs a hole
        return judge_many(
            items, timeout=self.timeout, jobs=jobs, memo=self.memo, own=own, hide=hide
        )[0]

    def source(self, cls: ClassInfo | None = None) -> str:
        """The text of the student's lab.py ("" when it is gone), in the encoding it declares
        (PEP 263: `# -*- coding: latin-1 -*-`), UTF-8 otherwise."""
        try:
            data = (cls or self.current).lab.read_bytes()
        except OSError:
            return ""
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            return data.decode(encoding, errors="replace").removeprefix("\ufeff")
        except (SyntaxError, LookupError):
            return data.decode("utf-8", errors="replace")

    def shown(self, attempt: Attempt) -> Attempt:
        """Take a judged attempt of the current class: record it when done, show it."""
        self.attempt = attempt
        if attempt.done:
            mark_done(self.workspace, self.progress, self.current)
        self.redraw()
        return attempt

    def redraw(self) -> None:
        if self.attempt is not None:
            self.show(self._attempt_screen(self.attempt), True)

    def _attempt_screen(self, attempt: Attempt) -> list[Block]:
        """The attempt's screen, its holes' details folded when it would not fit the height
        (a row kept for the cursor: a screen as tall as the terminal scrolls its title off)."""

        def screen(details: bool) -> list[Block]:
            blocks = attempt_blocks(
                attempt, self.progress, self.current.lab, prints=self.prints, details=details
            )
            if self.manual:
                blocks.append(line(("modo manual: Intro comprueba de nuevo", "dim")))
            return blocks

        full = screen(True)
        width, height = self.size()
        if self.prints or height is None or len(lay_out(full, width)) < height:
            return full
        return screen(False)

    def check(self) -> Attempt:
        """Judge the current class and show the result; record it when it is done."""
        return self.shown(self.judge())

    def saved(self, path: str) -> bool:
        """A file changed: judge again if it is the current lab. True if it was."""
        if path != self.lab:
            return False
        self.confirm_reset = False
        self.check()
        return True

    def key(self, key: str) -> bool:
        """Act on one key; False when the student asked to quit."""
        pressed, confirming = key.strip().lower()[:1], self.confirm_reset
        self.confirm_reset = False
        if pressed == "q":
            self.show([line("hasta luego: tu progreso queda guardado en practica.json")], False)
            return False
        if pressed == "p":
            self._hint()
        elif pressed == "s":
            self._move(self._next_unfinished(self.current))
        elif pressed == "l":
            self.show(list_blocks(self.workspace, self.progress), False)
        elif pressed == "r":
            self._reset(confirming)
        elif pressed == "v":
            self._solution()
        elif pressed == "o":
            self.prints = not self.prints
            self.redraw()
        elif pressed in ("", "c"):
            self.check()
        else:
            self.show([keys_help()], False)
        return True

    def _hint(self) -> None:
        attempt = self.attempt if self.attempt is not None else self.check()
        blocks = hint_blocks(attempt, self.progress)
        self.workspace.save_progress(self.progress)
        self.show(blocks, False)

    def _move(self, cls: ClassInfo) -> None:
        self.current = cls
        self.progress.current = cls.id
        self.workspace.save_progress(self.progress)
        self.check()

    def _reset(self, confirmed: bool) -> None:
        """`r`: with the holes intact, what lies outside them goes back to the exercise and every
        hole stays as written; with nothing changed outside, the class starts over; either way
        the first `r` shows what would be lost, and the file as it was is kept a copy of."""
        cls = self.current
        student = self.source()
        exercise = self.workspace.exercise(cls).read_text(encoding="utf-8")
        restored = outside_restored(exercise, student)
        outside = restored is not None and restored != student
        if not confirmed:
            self.confirm_reset = True
            self.show(self._reset_question(student, exercise, restored), False)
            return
        copy = self.workspace.keep_copy(cls, student) if student != exercise else None
        kept = f" (tu archivo anterior: {here(copy)})" if copy is not None else ""
        if outside and restored is not None:
            write_atomic(cls.lab, restored)
            self.check()
            done = "restaurado fuera de los huecos: tus huecos siguen como los escribiste"
            self.show([para(("✓ ", "green"), done + kept)], False)
            return
        self.workspace.reset(cls)
        self.progress = self.workspace.load_progress()
        self.check()
        done = "reiniciada: el ejercicio original, sin progreso"
        self.show([para(("✓ ", "green"), done + kept)], False)

    def _reset_question(self, student: str, exercise: str, restored: str | None) -> list[Block]:
        """What the first `r` asks: what goes, what stays, and that a second `r` does it."""
        where = here(self.current.lab)
        if restored is not None and restored != student:
            lost = _lost_lines(lines_outside(student), lines_outside(exercise))
            blocks: list[Block] = [
                para(
                    ("¿restaurar lo de fuera de los huecos? ", "bold yellow"),
                    f"tus huecos se quedan como están; de {where} se pierde lo que cambiaste "
                    "fuera de ellos; pulsa r otra vez",
                )
            ]
            return blocks + [line(("  − ", "red"), text) for text in lost]
        written = [h.number for h in self._written_holes(student)]
        if restored is None:
            what = "las marcas de los huecos están dañadas: se vuelve al ejercicio original"
        elif written:
            which = "los huecos" if len(written) > 1 else "el hueco"
            what = f"se borra lo que escribiste en {which} {', '.join(map(str, written))}"
        else:
            what = "vuelve el ejercicio original"
        copy = " (se guarda una copia de tu archivo)" if student != exercise else ""
        return [
            para(
                ("¿reiniciar? ", "bold yellow"),
                f"{what} de {where} y el progreso de la clase{copy}; pulsa r otra vez",
            )
        ]

    @staticmethod
    def _written_holes(student: str) -> list[Region]:
        try:
            return [r for r in student_regions(student) if not is_open(r)]
        except HoleError:
            return []

    def _solution(self) -> None:
        if not self.progress.classes[self.current.id].done:
            self.show(
                [
                    para(
                        "La solución se muestra cuando la clase está hecha: cada hueco debe "
                        "dar lo mismo que el del curso, también en las variantes ocultas."
                    )
                ],
                False,
            )
            return
        attempt = self.attempt if self.attempt is not None else self.check()
        copied = self.workspace.solution(self.current)
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(attempt.cls.lab, copied)  # the course's lab, only now in the workspace
        self.show(solution_blocks(attempt, copied), False)

    def welcome(self) -> list[Block]:
        """The first lines of a session: where the student is and how to go on."""
        return [
            line(("Modo práctica de compmath", "bold")),
            progress_bar(self.progress),
            BLANK,
            para(
                "Escribe tu código en los huecos del laboratorio y pulsa Intro para comprobarlo."
                if self.manual
                else "Escribe tu código en los huecos del laboratorio y guarda: se comprueba solo."
            ),
            Command(here(self.current.lab), whole=True),
            BLANK,
        ]


LOST_SHOWN = 8  # lines outside the holes that the first `r` lists


def _lost_lines(student: list[str], exercise: list[str]) -> list[str]:
    """The student's lines outside the holes that the exercise does not have (what `r` drops)."""
    import difflib

    gone = [d[2:] for d in difflib.ndiff(exercise, student) if d.startswith("+ ")]
    shown = [text.strip() or "(línea en blanco)" for text in gone[:LOST_SHOWN]]
    if len(gone) > LOST_SHOWN:
        shown.append(f"… y {count(len(gone) - LOST_SHOWN, 'línea', 'líneas')} más")
    return shown


def open_class(session: Session, name: str) -> None:
    """Make the class a student named the current one."""
    cls = session.workspace.course.resolve(name)
    if cls not in session.classes:
        raise CompmathError(
            f"la clase {cls.number} no tiene ejercicio", "prueba: compmath practice list"
        )
    session.current = cls
    session.progress.current = cls.id
