"""The course's metadata as typed records: what class.toml and part.toml say, once checked.

course.metadata reads and checks the files; these records are what every command receives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DEFAULT_DECIMALS = 6
DEFAULT_ATOL = 1e-6
DEFAULT_RTOL = 1e-6


@dataclass(frozen=True)
class Tolerance:
    """A number matches when |obtained - expected| <= atol + rtol * |expected|.

    Integers are compared exactly unless the output declared its own tolerance (`declared`),
    as a Monte Carlo count does. `strict_type`: the class says the type is part of the lesson
    (`tipo_estricto`), so a student's `2.0` for `2` fails even where the representation of a
    number would not count.
    """

    atol: float = DEFAULT_ATOL
    rtol: float = DEFAULT_RTOL
    declared: bool = False
    strict_type: bool = False

    def allowed(self, expected: float) -> float:
        return self.atol + self.rtol * abs(expected)


@dataclass(frozen=True)
class Formula:
    """One formula of a class: the plain form the terminal shows and its LaTeX source."""

    text: str
    latex: str | None = None


@dataclass(frozen=True)
class ChartSpec:
    """How the site draws an output (class.toml's `grafica`): not at all, or with these names of
    rows and columns, these axis titles, and the colour scale of another output."""

    drawn: bool = True
    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    axes: tuple[str, ...] = ()  # (vertical title, horizontal title)
    scale: str = ""  # the output whose colour scale this one shares


@dataclass(frozen=True)
class OutputSpec:
    """One output as class.toml lists it: name, description, its own tolerance if any, and how
    the site draws it."""

    name: str
    description: str
    tolerance: Tolerance | None = None
    chart: ChartSpec = ChartSpec()


def _chart(entry: Any) -> ChartSpec:
    if entry is None:
        return ChartSpec()
    if entry is False:
        return ChartSpec(drawn=False)
    return ChartSpec(
        rows=tuple(entry.get("filas", ())),
        columns=tuple(entry.get("columnas", ())),
        axes=tuple(entry.get("ejes", ())),
        scale=entry.get("escala", ""),
    )


@dataclass(frozen=True)
class BookReference:
    """One bibliography entry."""

    authors: str
    title: str
    year: int
    venue: str = ""
    doi: str = ""
    isbn: str = ""
    note: str = ""
    unconfirmed: bool = False


@dataclass(frozen=True)
class DeclaredMutant:
    """A student's mistake written into a hole (`mutantes`): which common error it embodies
    (1-based), and either a replacement (`cambia` → `por`) or a whole body (`codigo`)."""

    error: int
    change: str = ""
    to: str = ""
    code: str = ""
    note: str = ""


@dataclass(frozen=True)
class Hole:
    """A hole of the practice mode: its task, the outputs it feeds, hints from nudge to formula."""

    task: str
    outputs: tuple[str, ...]
    hints: tuple[str, ...]
    points: float = 1.0  # what the hole is worth in `compmath grade` (`puntos`)
    mutants: tuple[DeclaredMutant, ...] = ()
    equivalents: tuple[tuple[str, str], ...] = ()  # (standard mutant id, why it is equivalent)


@dataclass(frozen=True)
class OwnParam:
    """A parameter of run() each student gets a value of their own of ([practica.por_alumno]):
    one of `options`, or a number from `low` to `high` (every `step`, when given)."""

    name: str
    options: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None


@dataclass(frozen=True)
class ClassMeta:
    """The structured fields of a class page (class.toml), checked."""

    number: int
    title: str
    level: str = ""
    duration: str = ""
    demo: str = ""
    lemma: str = ""
    formulas: tuple[Formula, ...] = ()
    computes: str = ""
    decimals: int = DEFAULT_DECIMALS
    tolerance: Tolerance = field(default_factory=Tolerance)
    outputs: tuple[OutputSpec, ...] = ()
    common_errors: tuple[str, ...] = ()
    uses: str = ""
    references: tuple[BookReference, ...] = ()
    holes: tuple[Hole, ...] = ()
    variants: tuple[dict[str, Any], ...] = ()  # [practica] variantes: hidden parameter sets
    credit: str = "todo_o_nada"  # [practica] credito: or "proporcional" to the variants passed
    per_student: tuple[OwnParam, ...] = ()  # [practica.por_alumno]: numbers of their own
    without_mutant: tuple[tuple[int, str], ...] = ()  # [practica] sin_mutante: (error, why)
    present: bool = True  # False when the class has no class.toml

    def tolerances(self) -> tuple[Tolerance, dict[str, Tolerance]]:
        """The class's default tolerance and each output's own, when it declares one."""
        return self.tolerance, {o.name: o.tolerance for o in self.outputs if o.tolerance}

    def prose_fields(self) -> list[tuple[str, str]]:
        """(where, text) of every prose field, where it may hold inline `$…$` math; `where`
        names the field for an author: «la descripción de la salida snr», «huecos 1: pista 2»."""
        found = [("lema", self.lemma), ("que_calcula", self.computes)]
        found += [(f"la descripción de la salida {o.name}", o.description) for o in self.outputs]
        found += [(f"errores_comunes {i}", e) for i, e in enumerate(self.common_errors, 1)]
        found.append(("donde_se_usa", self.uses))
        found += [(f"bibliografia {i}: nota", r.note) for i, r in enumerate(self.references, 1)]
        for i, hole in enumerate(self.holes, 1):
            found.append((f"huecos {i}: tarea", hole.task))
            found += [(f"huecos {i}: pista {k}", hint) for k, hint in enumerate(hole.hints, 1)]
        return [(where, text) for where, text in found if text]


@dataclass(frozen=True)
class Link:
    """A class named beyond a part's ends (part.toml's `anterior` / `siguiente`) or in a plan."""

    number: int
    title: str = ""
    slug: str = ""
    demo: str = ""


@dataclass(frozen=True)
class PartMeta:
    """A part's data and its plan of classes (part.toml), checked."""

    number: int
    title: str
    level: str = ""
    duration: str = ""
    guiding_idea: str = ""
    error_to_avoid: str = ""
    ai_connection: str = ""
    blocks: tuple[str, ...] = ()
    before: Link | None = None
    after: Link | None = None
    plan: tuple[Link, ...] = ()
    present: bool = True  # False when the part has no part.toml

    def planned(self, number: int) -> Link | None:
        return next((entry for entry in self.plan if entry.number == number), None)


def _tolerance(entry: dict[str, Any] | None, base: Tolerance, *, declared: bool) -> Tolerance:
    """An output's tolerance (`declared` when it names atol or rtol of its own) over `base`."""
    entry = entry or {}
    return Tolerance(
        float(entry.get("atol", base.atol)),
        float(entry.get("rtol", base.rtol)),
        declared and ("atol" in entry or "rtol" in entry),
        bool(entry.get("tipo_estricto", base.strict_type)),
    )


def class_record(data: dict[str, Any]) -> ClassMeta:
    """The typed record of a class.toml that passed its checks; it raises nothing on such data
    (a check belongs in metadata.class_checks, which `list` runs too: course.soundness)."""
    default = _tolerance(data.get("tolerancia"), Tolerance(), declared=False)
    return ClassMeta(
        number=data["numero"],
        title=data["titulo"],
        level=data.get("nivel", ""),
        duration=data.get("duracion", ""),
        demo=data.get("demo", ""),
        lemma=data.get("lema", ""),
        formulas=tuple(Formula(f["texto"], f.get("latex")) for f in data.get("formulas", [])),
        computes=data.get("que_calcula", ""),
        decimals=data.get("decimales", DEFAULT_DECIMALS),
        tolerance=default,
        outputs=tuple(
            OutputSpec(
                o["nombre"],
                o["descripcion"],
                _tolerance(o["tolerancia"], default, declared=True) if "tolerancia" in o else None,
                _chart(o.get("grafica")),
            )
            for o in data.get("salidas", [])
        ),
        common_errors=tuple(data.get("errores_comunes", [])),
        uses=data.get("donde_se_usa", ""),
        references=tuple(
            BookReference(
                authors=r["autores"],
                title=r["titulo"],
                year=r["anio"],
                venue=r.get("publicacion", ""),
                doi=r.get("doi", ""),
                isbn=r.get("isbn", ""),
                note=r.get("nota", ""),
                unconfirmed=r.get("sin_confirmar", False),
            )
            for r in data.get("bibliografia", [])
        ),
        holes=tuple(
            Hole(
                h["tarea"],
                tuple(h["salidas"]),
                tuple(h["pistas"]),
                float(h.get("puntos", 1)),
                tuple(
                    DeclaredMutant(
                        m["error"],
                        m.get("cambia", ""),
                        m.get("por", ""),
                        m.get("codigo", ""),
                        m.get("nota", ""),
                    )
                    for m in h.get("mutantes", [])
                ),
                tuple((e["mutante"], e["razon"]) for e in h.get("equivalentes", [])),
            )
            for h in data.get("huecos", [])
        ),
        variants=tuple(dict(v) for v in data.get("practica", {}).get("variantes", [])),
        credit=data.get("practica", {}).get("credito", "todo_o_nada"),
        per_student=tuple(
            OwnParam(
                name,
                tuple(entry.get("opciones", ())),
                entry.get("min"),
                entry.get("max"),
                entry.get("paso"),
            )
            for name, entry in data.get("practica", {}).get("por_alumno", {}).items()
        ),
        without_mutant=tuple(
            (e["error"], e["razon"]) for e in data.get("practica", {}).get("sin_mutante", [])
        ),
    )


def _link(entry: dict[str, Any] | None) -> Link | None:
    if entry is None:
        return None
    return Link(
        entry["numero"], entry.get("titulo", ""), entry.get("slug", ""), entry.get("demo", "")
    )


def part_record(data: dict[str, Any]) -> PartMeta:
    """The typed record of a part.toml that passed its checks."""
    return PartMeta(
        number=data["numero"],
        title=data["titulo"],
        level=data.get("nivel", ""),
        duration=data.get("duracion", ""),
        guiding_idea=data["idea_rectora"],
        error_to_avoid=data["error_a_evitar"],
        ai_connection=data["conexion_con_ia"],
        blocks=tuple(data.get("bloques", [])),
        before=_link(data.get("anterior")),
        after=_link(data.get("siguiente")),
        plan=tuple(
            Link(e["numero"], e["titulo"], e["slug"], e.get("demo", "")) for e in data["plan"]
        ),
    )


@dataclass(frozen=True)
class CourseMeta:
    """The course as a whole (curso.toml): its name and where its repository lives."""

    title: str = "compmath"
    subtitle: str = ""
    description: str = ""
    repository: str = ""  # https://github.com/OWNER/NAME: enables the «Abrir en Colab» links
    branch: str = "main"
    language: str = "es"  # the site's lang: a Spanish variant (es, es-MX, es-419…)
    allowed_imports: tuple[str, ...] = ()  # modules labs may import beyond numpy and the stdlib
    delivery: dict[str, Any] | None = field(default=None, hash=False)  # [entrega], for grading


def course_record(data: dict[str, Any]) -> CourseMeta:
    """The typed record of a curso.toml that passed its checks."""
    return CourseMeta(
        title=data["titulo"],
        subtitle=data.get("subtitulo", ""),
        description=data.get("descripcion", ""),
        repository=data.get("repositorio", ""),
        branch=data.get("rama", "main"),
        language=data.get("idioma", "es"),
        allowed_imports=tuple(data.get("importaciones_permitidas", ())),
        delivery=data.get("entrega"),
    )
