"""What a verdict depends on, read before a lab runs: a case is ready to run or broken.

`prepare` reads a class's metadata, its outputs schema and its snapshot into a `Ready` case (or
a `Broken` one naming the bad file). `variant` derives from a ready case another lab to run
under the same judge: a spliced exercise in a temporary folder, other parameters, other limits,
another oracle. The oracle (`Expected`) says what the outputs are judged against: a snapshot,
the outputs of another case of the same run (`Reference`), or only the schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compmath.base.validate import load_schema
from compmath.course.params import parse_assignments, specs_from_source
from compmath.course.records import ClassMeta, Tolerance
from compmath.course.tree import ClassInfo, Course
from compmath.errors import CompmathError
from compmath.execution.protocol import DEFAULT_MEMORY, DEFAULT_TIMEOUT, LabRequest
from compmath.judging.snapshot import read_snapshot


@dataclass(frozen=True)
class Snapshot:
    """Compare with these outputs; None when the class has no snapshot yet (`sin_instantanea`)."""

    outputs: dict[str, Any] | None


@dataclass(frozen=True)
class Reference:
    """Compare with the outputs of another case judged in the same call, named by its key
    (a reference solution run with the same parameters, say)."""

    key: str


@dataclass(frozen=True)
class Explore:
    """Only validate: parameters were set by hand (`exploracion`)."""


@dataclass(frozen=True)
class Record:
    """Only validate, and keep the canonical text to write as the snapshot (`update`)."""


Expected = Snapshot | Reference | Explore | Record


@dataclass(frozen=True)
class Ready:
    """One lab ready to run: its request and every input of its verdict, read up front."""

    cls: ClassInfo
    request: LabRequest  # request.key names the case; request.lab may lie outside the course
    meta: ClassMeta
    schema: tuple[str, Any]  # the outputs schema: its text and its body
    expected: Expected
    tolerances: tuple[Tolerance, dict[str, Tolerance]] = field(
        default_factory=lambda: (Tolerance(), {})
    )
    # a student's code: a number's representation (2.0 for 2) does not count unless the class
    # says the type is the lesson; the course's own labs (check, update) keep the exact type
    loose: bool = False

    @property
    def key(self) -> str:
        return self.request.key


@dataclass(frozen=True)
class Broken:
    """A class whose files are broken: reported as `configuracion` without running its lab."""

    cls: ClassInfo
    request: LabRequest
    problem: CompmathError

    @property
    def key(self) -> str:
        return self.request.key


Case = Ready | Broken


def parse_params(course: Course, cls: ClassInfo, assignments: list[str]) -> dict[str, Any]:
    """The typed `--set` values for the class's run(), read from its source (no import)."""
    if not assignments:
        return {}
    specs = specs_from_source(cls.lab)
    if specs is None:
        raise CompmathError(
            f"no se pueden leer los parámetros de run() en {course.rel(cls.lab)}",
            "run() debe declarar parámetros con tipo y valor por defecto",
        )
    return parse_assignments(specs, assignments)


def prepare(
    course: Course,
    cls: ClassInfo,
    params: dict[str, Any] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    memory: int = DEFAULT_MEMORY,
    record: bool = False,
) -> Case:
    """Read everything the verdict on `cls` depends on; a broken file makes the case Broken.

    The oracle is the snapshot; with `params` only the schema (Explore); with `record` (update,
    which replaces the snapshot) only the schema, and the snapshot is not read."""
    request = LabRequest(cls.id, str(cls.lab), params or {}, timeout, memory)
    try:
        if not cls.lab.exists():
            raise CompmathError(
                f"la clase {cls.id} no tiene lab.py", f"créalo en {course.rel(cls.path)}/"
            )
        meta = cls.meta
        cls.part.meta  # noqa: B018  (a broken part.toml makes every class of the part unusable)
        schema = load_schema(cls.schema_path, course.rel(cls.schema_path))
        expected: Expected
        if record:
            expected = Record()
        elif params:
            expected = Explore()
        else:
            found = read_snapshot(cls.snapshot, course.rel(cls.snapshot), cls.number)
            expected = Snapshot(found[1] if found else None)
    except CompmathError as exc:
        return Broken(cls, request, exc)
    return Ready(
        cls,
        replace(request, decimals=meta.decimals),
        meta,
        schema,
        expected,
        meta.tolerances(),
    )


def variant(
    case: Ready,
    *,
    key: str,
    lab: Path | None = None,
    params: dict[str, Any] | None = None,
    expected: Expected | None = None,
    timeout: float | None = None,
    memory: int | None = None,
    tolerances: tuple[Tolerance, dict[str, Tolerance]] | None = None,
) -> Ready:
    """Another lab judged as `case` is: same class, schema and tolerances; whatever is given
    replaces the case's lab file, parameters, oracle, limits or tolerances (default, then per
    output). `key` must be unique among the cases of one call."""
    request = replace(
        case.request,
        key=key,
        lab=str(lab) if lab is not None else case.request.lab,
        params=case.request.params if params is None else params,
        timeout=case.request.timeout if timeout is None else timeout,
        memory=case.request.memory if memory is None else memory,
    )
    return replace(
        case,
        request=request,
        expected=case.expected if expected is None else expected,
        tolerances=case.tolerances if tolerances is None else tolerances,
    )
