"""`list`'s quick readers: quicktoml says what tomllib says or nothing, quickschema says `valid`
only where jsonschema finds nothing, and `list` still says `rota` for every broken class.toml.

Hostile side: thousands of seeded mutations of the course's own class.toml files (characters
TOML gives meaning to, dropped, doubled, moved; values of the wrong type, bounds, extra keys),
hand-written corners of the TOML grammar, schemas with keywords the quick reader does not know,
and a sound listing remembered, then the file, the outputs schema or the class schema broken.
"""

from __future__ import annotations

import copy
import json
import os
import random
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from compmath.course import quicktoml
from compmath.course.quickschema import QuickSchema
from tests.conftest import FAKE_PART, REPO

COURSE_TOML = sorted(REPO.glob("classes/*/*/class.toml")) + sorted(REPO.glob("classes/*/part.toml"))
CLASS_SCHEMA = json.loads((REPO / "schemas" / "class.schema.json").read_text(encoding="utf-8"))
ALPHABET = "\"'[]{}=,.#\\\n \t0123456789-+_eExuUtrfalsn:é\r\x01"


def same(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) or (a != a and b != b)


def agrees(text: str) -> bool | None:
    """True when quicktoml read the text as tomllib does, None when it declined; an assertion
    error when it read something tomllib refuses or reads otherwise."""
    quick = quicktoml.loads(text)
    if quick is None:
        return None
    try:
        reference = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AssertionError(f"quicktoml read what tomllib refuses ({exc}):\n{text!r}") from None
    assert same(quick, reference), text
    return True


@pytest.mark.parametrize("path", COURSE_TOML, ids=lambda p: p.parent.name[:3] + "/" + p.name)
def test_every_course_file_is_read_by_the_quick_reader_as_tomllib_reads_it(path: Path) -> None:
    # all of them, so that a cold `list` never pays tomllib for a sound course
    assert agrees(path.read_text(encoding="utf-8")) is True


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        at = rng.randrange(len(text) + 1)
        if kind == 0:
            text = text[:at] + rng.choice(ALPHABET) + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + 1 :]
        elif kind == 2:
            text = text[:at] + text[at : at + rng.randint(1, 12)] * 2 + text[at + 12 :]
        else:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if kind == 3:
                lines.insert(j, lines[i])
            elif kind == 4:
                lines[i], lines[j] = lines[j], lines[i]
            else:
                del lines[i]
            text = "\n".join(lines)
        lines = text.split("\n")
    return text


SEEDS = sorted({p.parent.name for p in COURSE_TOML if p.name == "class.toml"})[::4] + [
    "338-mdp-bellman-iteracion-de-valor",  # multi-line strings
    "339-q-learning",
]


@pytest.mark.parametrize("name", sorted(set(SEEDS)))
def test_mutated_class_files_are_read_as_tomllib_reads_them_or_declined(name: str) -> None:
    (path,) = REPO.glob(f"classes/*/{name}/class.toml")
    original = path.read_text(encoding="utf-8")
    rng = random.Random(name)
    read = declined = 0
    for _ in range(300):
        outcome = agrees(_mutate(original, rng))
        read += outcome is True
        declined += outcome is None
    assert read > 50 and declined > 50  # both sides exercised, not a reader that declines all


CORNERS = [
    'a = "x"\na = "y"\n', "[t]\n[t]\n", "[[t]]\n[t]\n", "[t]\n[[t]]\n", "t = [1]\n[[t]]\n",
    "t = 1\n[t]\n", "a = 1.\n", "a = .5\n", "a = 01\n", "a = 1_000\n", "a = 0x10\n", "a = +0\n",
    "a = -0.0\n", "a = 1e5\n", "a = 1E-05\n", "a = 1979-05-27\n", "a = 07:32:00\n", "a = inf\n",
    "a = nan\n", 'a = "\\ud800"\n', 'a = "\\U0001F600"\n', 'a = "\\u00e9"\n', 'a = "\\x41"\n',
    'a = "\\/"\n', 'a = "\\e"\n', "a = '''x''''\n", "a = '''x'''''\n", "a = '''\nx''\n'''\n",
    'a = """x\\\n  y"""\n', 'a = """\nx\n"""\n', 'a = """x""""\n', "a.b = 1\n", '"a" = 1\n',
    "a = {b = [1]}\n", "a = { b = 1, }\n", "a = { b = 1 }\n", "a = {}\n", "a = { b = 1, b = 2 }\n",
    'a = "x"b\n', 'a = "é"\n', 'a = "tab\there"\n', 'a = "\x01"\n', "a = 1\r\n", "# c", "# c\na = 1 # c",
    "a = [1, 2,]\n", "a = [\n 1, # c\n 2\n]\n", "a = [,]\n", "a = [1 2]\n", "a = [[1], ['x']]\n",
    "a = true\nb = false\nc = truex\n", "[ t ]\nx = 1\n", "[[ t ]]\nx = 1\n", "[ [t]]\n", "[t]]\n",
    "[[t]\n", "a =\n", "= 1\n", "a = 1 = 2\n", "\ufeffa = 1\n", "a = 'x' # 'y'\n", "a = ''\n",
    "a = \"\"\n", "a = 1\nb = 2", "  a = 1\n\n\n  [t]  # c\n  b = 'x'\n", "a = 99999999999999999999\n",
]


@pytest.mark.parametrize("text", CORNERS)
def test_corners_of_the_grammar_are_read_as_tomllib_reads_them_or_declined(text: str) -> None:
    agrees(text)


def _data_mutations(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The parsed class.toml with one to three values made wrong, odd or borderline."""
    data = copy.deepcopy(data)
    odd: list[Any] = ["", "x", 0, -1, 1, 1.0, 2.5, True, False, [], ["x"], {}, {"x": 1}, 1000,
                      1600, 2101, "4 horas", "4 días", "otro", "experto", "a-b", "Mayus", [1, 1],
                      ["a", "a"], {"atol": -1}, {"atol": 0.1}, {"rtol": 0}, {"otra": 1}]
    for _ in range(rng.randint(1, 3)):
        holder: Any = data
        while True:
            keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
            if not keys:
                break
            key = rng.choice(keys)
            if isinstance(holder[key], (dict, list)) and holder[key] and rng.random() < 0.6:
                holder = holder[key]
                continue
            action = rng.randrange(4)
            if action == 0 and isinstance(holder, dict):
                del holder[key]
            elif action == 1 and isinstance(holder, dict):
                holder[rng.choice(["extra", "tolerancia", "latex", "puntos", "nivel"])] = rng.choice(odd)
            else:
                holder[key] = rng.choice(odd)
            break
    return data


def test_quickschema_says_valid_only_where_jsonschema_finds_nothing() -> None:
    quick = QuickSchema(CLASS_SCHEMA)
    reference = jsonschema.Draft202012Validator(CLASS_SCHEMA)
    yes = no = 0
    for path in sorted(REPO.glob("classes/*/*/class.toml"))[::3]:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert quick.valid(data)  # the course itself: the quick yes is not always no
        rng = random.Random(path.parent.name)
        for _ in range(150):
            mutated = _data_mutations(data, rng)
            if quick.valid(mutated):
                yes += 1
                errors = [e.message for e in reference.iter_errors(mutated)]
                assert not errors, (path.parent.name, errors)
            else:
                no += 1
    assert yes > 40 and no > 300  # both verdicts exercised


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["properties"]["titulo"].update(maxLength=3),  # a keyword it does not know
        lambda s: s["properties"]["titulo"].update(format="email"),
        lambda s: s["properties"]["nivel"].update(enum="experto"),  # not what the metaschema allows
        lambda s: s["properties"].update(numero={"type": "entero"}),
        lambda s: s["properties"]["salidas"].update(minItems=-1),
        lambda s: s["properties"].update(tolerancia={"$ref": "#/$defs/nada"}),
        lambda s: s["properties"].update(tolerancia={"$ref": "https://example.org/t.json"}),
        lambda s: s["$defs"].update(sobra={"type": "strin"}),  # even where nothing refers to it
        lambda s: s["properties"]["demo"].update(pattern="(sin cerrar"),
        lambda s: s.update(patternProperties={"^x": {}}),
    ],
)
def test_a_schema_it_cannot_fully_read_is_never_vouched_for(change: Any) -> None:
    schema = copy.deepcopy(CLASS_SCHEMA)
    change(schema)
    (path,) = REPO.glob("classes/*/323-*/class.toml")
    assert QuickSchema(schema).valid(tomllib.loads(path.read_text(encoding="utf-8"))) is False


# --- list: a sound listing remembered, then something it rests on broken ------------------------

CLASS = f"classes/{FAKE_PART}/901-pasa/class.toml"


def _row(cli: Any, root: Path) -> str:
    out = cli("list", "--root", str(root)).out
    return next(ln for ln in out.splitlines() if ln.startswith("901 ")).split()[-1]


def _reason(cli: Any, root: Path) -> str:
    listed = json.loads(cli("list", "--json", "--root", str(root)).out)
    (entry,) = [c for p in listed["partes"] for c in p["clases"] if c["numero"] == 901]
    return str(entry.get("motivo", ""))


@pytest.mark.parametrize(
    ("where", "rewrite", "phrase"),
    [
        (CLASS, lambda t: t.replace("numero = 901", "numero = 9_01\nnivel = 3"), "nivel"),
        (CLASS, lambda t: t.replace("numero = 901", "numero = 901\r\nnumero = 901"), "repetida"),
        (CLASS, lambda t: t.replace("numero = 901", 'numero = "901"'), "numero"),
        (CLASS, lambda t: t.replace("numero = 901", "numero = 902"), "numero = 902"),
        (CLASS, lambda t: t + '\n[[huecos]]\ntarea = "t"\nsalidas = ["nada"]\npistas = ["p"]\n',
         "«nada»"),
        ("schemas/901-pasa.schema.json", lambda t: json.dumps({"type": "object", "properties": {}}),
         "«mitad»"),
        ("schemas/class.schema.json",
         lambda t: t.replace('"minLength": 1}', '"minLength": 1, "maxLength": 3}', 1), "titulo"),
    ],
)
def test_list_says_rota_after_a_sound_listing_when_a_file_breaks(
    cli: Any, fake_course: Path, where: str, rewrite: Any, phrase: str
) -> None:
    meta = fake_course / CLASS
    meta.write_text(meta.read_text(encoding="utf-8").replace(
        'descripcion = "n por la escala."', 'descripcion = "n por la escala."\ntolerancia = { atol = 0.1 }'
    ), encoding="utf-8")
    assert _row(cli, fake_course) == "lista"
    assert _row(cli, fake_course) == "lista"  # remembered
    path = fake_course / where
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert _row(cli, fake_course) == "rota"
    assert phrase in _reason(cli, fake_course)


def _big_course(tmp_path: Path) -> Path:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", REPO / "benchmarks" / "run.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return Path(bench.big_course(tmp_path / "curso", parts=8, per_part=20))  # classes 100-259


def _states(cli: Any, root: Path) -> dict[int, str]:
    listed = json.loads(cli("list", "--json", "--root", str(root)).out)
    return {c["numero"]: c["estado"] for p in listed["partes"] for c in p["clases"]}


@pytest.mark.parametrize("child_fails", [False, True])
def test_a_cold_listing_of_many_classes_vouches_in_two_processes_and_misses_no_broken_one(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, child_fails: bool
) -> None:
    from compmath.course import soundness

    root = _big_course(tmp_path)
    broken = {
        101: lambda t: t.replace('nivel = "experto"', 'nivel = "facil"'),  # the parent's half
        250: lambda t: t.replace("numero = 250", "numero = 250\nnumero = 250"),  # the child's
        255: lambda t: t.replace("[[salidas]]", "[[salidas]]\ntolerancia = {}", 1),
    }
    for number, rewrite in broken.items():
        (meta,) = root.glob(f"classes/*/{number}-*/class.toml")
        meta.write_text(rewrite(meta.read_text(encoding="utf-8")), encoding="utf-8")
    forks = []
    real_fork = os.fork

    def fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(soundness.os, "fork", fork)
    if child_fails:  # whatever the child said is then not trusted: its half takes run's path
        monkeypatch.setattr(soundness.os, "waitstatus_to_exitcode", lambda status: 1)
    states = _states(cli, root)
    assert forks == [1]
    assert {n for n, s in states.items() if s == "rota"} == set(broken)
    assert len(states) == 160 and set(states.values()) == {"lista", "rota"}
    assert _states(cli, root) == states and forks == [1]  # warm: nothing left to vouch for
