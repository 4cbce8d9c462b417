"""Details of the screens a student or an instructor reads in a terminal at 60 and 120 columns:
math in the prose, lines a lab printed, paths that are never cut inside a word, help texts that
say the same thing the same way."""

from __future__ import annotations

import re

import pytest

from compmath.mathtext import tex_plain
from compmath.present.layout import cell_width, lay_out, plain_text
from compmath.present.prose import prose_blocks
from tests.conftest import REPO, rejoined
from tests.test_diff import repo, set_key  # noqa: F401  (repo is a fixture)

WIDTHS = (60, 120)
TEX = re.compile(r"\\[a-zA-Z]+|\^\{|_\{|\$")


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"\omega_i = 10000^{-2i/d}", "ωᵢ = 10000^(−2i/d)"),
        (r"e^{-25} \approx 1{,}39 \cdot 10^{-11}", "e⁻²⁵ ≈ 1,39·10⁻¹¹"),
        (r"\hat x = U^\top x", "x̂ = Uᵀ x"),
        (r"\lVert \hat x \rVert = \lVert x \rVert", "‖x̂‖ = ‖x‖"),
        (
            r"\tilde\beta_t = (1 - \bar\alpha_{t-1})/(1 - \bar\alpha_t) \cdot \beta_t",
            "β̃ₜ = (1 − ᾱₜ₋₁)/(1 − ᾱₜ) · βₜ",
        ),
        (
            r"L_\text{simple} = \mathbb{E}_{t, x_0, \varepsilon} \lVert \varepsilon\rVert^2",
            "L_simple = 𝔼_(t, x₀, ε) ‖ε‖²",
        ),
        (r"1/\sqrt{\tilde d_i \tilde d_j}", "1/√(d̃ᵢ d̃ⱼ)"),
        (r"r + \gamma \max_{a'} Q(s', a')", "r + γ max_a' Q(s', a')"),
        (r"\frac{a + b}{2}", "(a + b)/2"),
        (r"\unknown{x}", "unknownx"),
    ],
)
def test_tex_reads_as_plain_unicode(tex: str, plain: str) -> None:
    assert tex_plain(tex) == plain


def test_math_in_the_prose_shows_as_plain_text_not_tex() -> None:
    text = "Con $\\omega_i = 10000^{-2i/d}$ y cuesta $5 y $10.\n\n$$\\hat x = U^\\top x$$\n\nFin."
    out = plain_text(lay_out(prose_blocks(text), 60))
    assert "ωᵢ = 10000^(−2i/d)" in out
    assert "cuesta $5 y $10" in out  # dollars in prose are not math (as on the site)
    assert "\n  x̂ = Uᵀ x\n" in out  # display math on its own, indented like a formula


@pytest.mark.parametrize("number", ["323", "332", "333", "336", "337", "340"])
@pytest.mark.lento  # seconds: out of the quick loop
def test_show_prints_no_tex_and_fits(cli, monkeypatch: pytest.MonkeyPatch, number: str) -> None:
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        result = cli("show", number, "--root", str(REPO), "--no-pager")
        assert result.code == 0, result.err
        # the README's prose (the formulas' plain forms come from class.toml as written)
        prose = result.out.split("\nDesarrollo\n")[1].split("Qué calcula el laboratorio")[0]
        assert not TEX.findall(prose), TEX.findall(prose)
        assert all(cell_width(ln) <= width for ln in result.out.splitlines())


PRINTS = """
def run() -> dict:
    print("hola desde el laboratorio " * 7)
    print("x" * 300)
    print("a\\tb\\x1b[31m")
    return {"n": 1, "mitad": 0.5, "vector": []}
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_printed_lines_wrap_under_their_gutter(
    cli, make_lab, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    root = make_lab(950, PRINTS, {"n": 1, "mitad": 0.5, "vector": []})
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli("run", "950", "--root", str(root))
    assert result.code == 0, result.out + result.err
    after = result.out.split("stdout del laboratorio")[1].splitlines()[1:]
    stream = after[: next(k for k, ln in enumerate(after) if not ln.startswith(" "))]
    assert stream and all(ln.startswith("  │ ") for ln in stream), stream  # no bare continuation
    assert all(cell_width(ln) <= width for ln in stream)
    words = " ".join(ln[4:] for ln in stream).split()
    assert words.count("laboratorio") == 7  # wrapped between words, no word split
    assert "x" * 199 + "…" in "".join(ln[4:] for ln in stream)  # cut long lines say so
    assert "a       b\\x1b[31m" in result.out  # a tab as spaces, an escape shown, not obeyed


def test_printed_lines_in_a_pipe_are_not_wrapped(cli, make_lab, monkeypatch) -> None:
    root = make_lab(950, PRINTS, {"n": 1, "mitad": 0.5, "vector": []})
    monkeypatch.delenv("COLUMNS", raising=False)
    out = cli("run", "950", "--root", str(root)).out
    assert "  │ " + "hola desde el laboratorio " * 6 + "hola desde el laboratorio\n" in out


def _help_entries(out: str) -> list[str]:
    """Each argument's and option's description in a help screen, joined across its lines."""
    entries: list[str] = []
    for ln in out.splitlines():
        if re.match(r"  \S", ln):  # `  --out CARPETA  Dónde…`: a new entry
            entries.append(ln.strip())
        elif re.match(r" {4,}\S", ln) and entries:
            entries[-1] += " " + ln.strip()
    return entries


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.lento  # seconds: out of the quick loop
def test_every_help_says_defaults_one_way_in_one_parenthesis(cli, monkeypatch, width) -> None:
    from tests.test_help import every_command

    monkeypatch.setenv("COLUMNS", str(width))
    checked = 0
    for path in every_command():
        out = cli(*path, "--help").out
        assert all(cell_width(ln) <= width for ln in out.splitlines()), path
        for entry in _help_entries(out.split("Argumentos:")[-1].split("Órdenes:")[0]):
            description = re.split(r" {2,}", entry, maxsplit=1)[-1]
            assert ") (" not in description, (path, entry)  # one parenthesis of notes
            assert "por defecto," not in description, (path, entry)  # `por defecto: X`
            assert description[0].isupper() or description[0] in "¿«", (path, entry)
            assert description.endswith("."), (path, entry)
            checked += 1
    assert checked > 60  # every command's arguments and options were read


def test_jobs_reads_the_same_in_every_command(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    said = set()
    for command in ("check", "site", "grade"):
        out = cli(command, "--help").out
        said |= {" ".join(ln.split()) for ln in out.splitlines() if "--jobs" in ln}
    assert said == {
        "-j, --jobs N Laboratorios en paralelo (por defecto: uno por núcleo; al menos 1)."
    }


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
@pytest.mark.parametrize("width", WIDTHS)
def test_practice_reset_shows_the_path_on_lines_of_its_own_never_cut_in_a_word(
    cli, tmp_path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    from compmath.course.tree import load_course
    from compmath.practice import workspace

    space = workspace.create(load_course(REPO), tmp_path / "practica")
    monkeypatch.chdir(space.root)
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli("practice", "reset", "323")
    assert result.code == 0, result.err
    lab = space.course.resolve("323").lab
    shown = lab.relative_to(space.root).as_posix()  # 97 columns: whole at 120, not at 60
    lines = result.out.splitlines()
    assert rejoined(lines)[-1] == "  " + shown  # pasted into a shell, the pieces join back
    first = next(i for i, t in enumerate(lines) if t.startswith("  classes/"))
    pieces = lines[first:]
    assert len(pieces) == (1 if width > len(shown) + 2 else 2), pieces
    # each piece but the last ends after a `/` or a `-` (between words), then the backslash
    assert all(t[-2] in "/-_" for t in pieces[:-1]), pieces
    assert "323-positional-encoding: ejercicio original" in result.out
    assert all(cell_width(ln) <= width for ln in lines), lines


def test_update_of_a_failing_lab_ends_with_the_command_that_shows_why(cli, fake_course) -> None:
    result = cli("update", "901", "902", "--root", str(fake_course))
    assert result.code == 1
    assert result.out.splitlines()[-1] == "siguiente: compmath run 902"
    assert "no se escribe la instantánea" in result.out


@pytest.mark.parametrize("width", WIDTHS)
def test_show_puts_each_neighbour_link_whole_on_a_line(cli, monkeypatch, width) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    out = cli("show", "323", "--root", str(REPO), "--no-pager").out
    if width >= len("← 322 Embeddings y similitud coseno · 324 Query, Key y Value →"):
        assert out.endswith("← 322 Embeddings y similitud coseno · 324 Query, Key y Value →\n")
    else:
        assert out.endswith("← 322 Embeddings y similitud coseno\n324 Query, Key y Value →\n")


def test_grade_names_a_missing_folder_quoted_with_a_hint(cli, tmp_path) -> None:
    result = cli("grade", str(tmp_path / "nada"), "--root", str(REPO))
    assert result.code == 2
    assert (
        f"error: «{tmp_path / 'nada'}» no es una carpeta ni una descarga .zip del LMS: no existe"
        in result.err
    )
    assert "una carpeta o un .zip por alumno" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    "command",
    [
        "compmath check --junit-xml informe-labs.xml",
        "compmath run 323 --set dimension=16",
        'compmath new 341 mi-clase --title "Mi clase"',
        "compmath show positional-encoding",
    ],
)
def test_a_command_in_a_hint_is_never_split(command: str) -> None:
    from compmath.present.layout import line, para

    for width in range(len(command) + 4, 80):  # room for it on a continuation line
        for block in (line("nombra un archivo: " + command + "."), para("x " * 9 + command)):
            out = plain_text(lay_out([block], width))
            assert any(command in ln for ln in out.splitlines()), (width, out)
            assert all(cell_width(ln) <= width for ln in out.splitlines())
    for width in range(20, len(command) + 4):  # too long for any line: split between its words
        out = plain_text(lay_out([line("nombra un archivo: " + command + ".")], width))
        assert not re.search(r"-\n\s*-", out), out  # never inside `--title`


def test_check_says_the_lines_under_a_schema_failure_are_differences(cli, fake_course) -> None:
    out = " ".join(cli("check", "903", "904", "--root", str(fake_course)).out.split())
    assert (
        "903: salida: clave no permitida «sobra» (y 1 regla más del esquema) · "
        "4 diferencias con la instantánea ✗ salida.n: esperado 3, obtenido 1"
    ) in out
    assert "904: 1 diferencia; la primera en salida.mitad ✗ salida.mitad" in out  # as before


def test_a_shaded_heatmap_scale_goes_once_from_lightest_to_darkest() -> None:
    from compmath.present.charts import SHADES, heatmap_lines

    rows = [("0", [0.0, 0.25, 0.5]), ("1", [0.75, 1.0, 1.0])]
    lines = heatmap_lines("m", rows, 60, colour=False)
    scale = "".join(text for text, _ in lines[-1])
    legend = scale[scale.index("[") + 1 : scale.index("]")]
    assert [SHADES.index(ch) for ch in legend] == sorted(SHADES.index(ch) for ch in legend)
    assert set(legend) == set(SHADES)  # every shade a cell can take, the blank minimum too
    assert scale.startswith("escala: mín 0,0 [") and scale.endswith("] máx 1,0")


def test_a_schema_that_cannot_be_read_says_why_in_spanish(tmp_path) -> None:
    from compmath.base.validate import load_schema
    from compmath.errors import CompmathError

    folder = tmp_path / "x.schema.json"
    folder.mkdir()
    with pytest.raises(CompmathError) as caught:
        load_schema(folder, "schemas/x.schema.json")
    assert str(caught.value.args[0]) == "no se puede leer schemas/x.schema.json: es una carpeta"
    with pytest.raises(CompmathError) as missing:
        load_schema(tmp_path / "nada.json", "schemas/nada.json")
    assert "compmath new crea uno en cada clase nueva" in missing.value.hint


def test_diff_with_nothing_changed_says_it_once(cli, repo) -> None:  # noqa: F811
    out = cli("diff", "--root", str(repo)).out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert lines[0].startswith("Cambios de instantáneas frente a HEAD (")
    assert (
        lines[1].startswith("sin cambios: 8 clases") and lines[-1] == "ninguna instantánea cambió"
    )
    assert "base:" not in out and "0 clases cambian" not in out  # the heading names the base


def test_diff_counts_what_changed_without_repeating_the_base(cli, repo) -> None:  # noqa: F811
    from tests.test_diff import edit

    edit(repo, "904-deriva", set_key("mitad", 1.5000001))
    out = " ".join(cli("diff", "--root", str(repo)).out.split())
    assert "1 clase cambia (0 con cambios reales, 1 solo ruido) · 0 nuevas · 0 eliminadas" in out
    assert "base:" not in out


def test_practice_start_help_says_where_the_workspace_goes_by_default(cli) -> None:
    out = " ".join(cli("practice", "start", "--help").out.split())
    assert "(por defecto: compmath-practica en la carpeta actual, o junto al curso" in out


def test_notebook_says_in_spanish_why_it_cannot_make_its_folder(cli, tmp_path) -> None:
    (tmp_path / "archivo").write_text("")
    result = cli(
        "notebook",
        "901",
        "--out",
        str(tmp_path / "archivo" / "sub"),
        "--root",
        str(REPO / "tests" / "fake_course"),
    )
    assert result.code == 2
    assert "una parte de la ruta no es una carpeta" in result.err, result.err
    assert "Not a directory" not in result.err and "Traceback" not in result.err


def test_a_long_output_path_breaks_after_its_underscores_never_inside_a_word() -> None:
    from compmath.present.layout import para

    name = "una_salida_con_un_nombre_muy_largo_que_no_cabe_en_ninguna_columna_estrecha"
    text = f"✗ salida.{name}: esperado 2,5, obtenido 1,5 · Δ 1 (40 %) > tolerancia 3,5·10⁻⁶"
    for width in range(30, 90):
        lines = plain_text(lay_out([para(text, indent=2, hang=2)], width)).splitlines()
        assert all(cell_width(ln) <= width for ln in lines)
        rebuilt = lines[0].strip()
        for ln in lines[1:]:  # a break inside a word only after `_`, `/` or `-`
            rebuilt += ("" if rebuilt[-1] in "_/-" else " ") + ln.strip()
        assert rebuilt == text, (width, lines)


def test_a_long_word_in_a_table_cell_breaks_after_an_underscore() -> None:
    from compmath.present.layout import Cell, Column, Table

    value = '"codificacion_posicional_sinusoidal_del_articulo"'
    table = Table((Column("salida", 6), Column("obtenido", 8)), ((Cell("nombre"), Cell(value)),))
    for width in range(30, 60):
        lines = plain_text(lay_out([table], width)).splitlines()[1:]
        cells = [ln[8:] for ln in lines]
        assert all(cell_width(ln) <= width for ln in lines)
        assert "".join(cells) == value and all(c.endswith("_") for c in cells[:-1]), cells


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("PE(pos, 2i)   = sin(pos / 10000^{2i/d})", "PE(pos, 2i)   = sin(pos / 10000^(2i/d))"),
        ("V^π = (I − γ P^π)^{−1} r^π", "V^π = (I − γ P^π)⁻¹ r^π"),
        ("Σ_{(i,j)∈E} (x_i − x_j)²", "Σ_((i,j)∈E) (xᵢ − xⱼ)²"),
        ("|corpus|_{k+1} = |corpus|_k", "|corpus|ₖ₊₁ = |corpus|ₖ"),
        ("x_{2i} y Σ_{j=1}^{d/2}", "x₂ᵢ y Σⱼ₌₁^(d/2)"),
        # a bare script after a one-letter name, a number or an operator; never in a name
        ("‖V_k − V*‖_∞ ≤ γ^k, max_a 10^9", "‖Vₖ − V*‖_∞ ≤ γᵏ, maxₐ 10⁹"),
        ("d_model, top_k, Σ_s' P, n^0,8", "d_model, top_k, Σ_s' P, n^0,8"),
        ("sin cerrar ^{2", "sin cerrar ^{2"),
    ],
)
def test_formula_plain_forms_write_scripts_as_the_prose_does(text: str, shown: str) -> None:
    from compmath.mathtext import plain_scripts

    assert plain_scripts(text) == shown


def test_show_writes_no_tex_braces_in_its_formulas_or_descriptions(cli) -> None:
    for number in ("323", "328", "332", "335", "336", "338"):
        out = cli("show", number, "--root", str(REPO), "--no-pager").out
        page = out.split("Muestra de la ejecución")[0]  # the JSON sample is data, as written
        assert "^{" not in page and "_{" not in page, number


def test_a_markdown_heading_in_a_hint_keeps_its_hashes() -> None:
    from compmath.present.layout import para

    text = "falta README.md (la prosa de la página) — escribe ## Desarrollo y ## Ejemplo trabajado"
    for width in range(30, 90):
        out = plain_text(lay_out([para(text, hang=4)], width))
        assert not re.search(r"#\n", out), (width, out)
        assert all(cell_width(ln) <= width for ln in out.splitlines())


def test_checks_live_line_says_what_it_awaits_and_time_as_every_screen_does() -> None:
    from io import StringIO

    from compmath.present.output import still_running
    from compmath.present.terminal import spinner

    assert still_running([]) == ""
    assert still_running(["905-cuelga"]) == "espera a 905-cuelga"
    assert (
        still_running(["905-cuelga", "906-imprime", "907-nan"]) == "espera a 905-cuelga (y 2 más)"
    )
    stream = StringIO()
    with spinner(stream, 3, "laboratorios", colour=False) as advance:
        advance(still_running(["905-cuelga"]))
    drawn = stream.getvalue()
    assert "espera a 905-cuelga" in drawn and "1/3" in drawn
    assert "0:00:0" not in drawn and re.search(r"\d+ ms|\d+,\d+ s", drawn), drawn


def test_schema_messages_show_values_as_people_read_them() -> None:
    import json

    from compmath.base.validate import validate

    schema = {
        "type": "object",
        "properties": {
            "x": {"type": "number", "minimum": 0.5},
            "v": {"type": "array", "maxItems": 2},
        },
    }
    for instance, message in [
        ({"x": 0.25}, "0,25 es menor que el mínimo 0,5"),  # decimal comma, as the table
        ({"v": list(range(30))}, "[0; 1; 2; 3; 4; 5; 6; 7; 8; 9; … (30)] tiene más de 2 elementos"),
    ]:
        issues = validate(
            json.dumps(schema), schema, instance, json.dumps(instance), "s", use_cache=False
        )
        assert [i.message for i in issues] == [message]  # never cut mid-number without a mark


def test_new_names_the_class_folder_once_with_its_files(cli, fake_course, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    result = cli(
        "new", "911", "otra-clase", "--title", "Otra", "--part", "90", "--root", str(fake_course)
    )
    assert result.code == 0, result.err
    out = " ".join(result.out.split())
    assert "✓ classes/part-90-curso-de-prueba/911-otra-clase/: lab.py, class.toml, README.md" in out
    assert "✓ schemas/911-otra-clase.schema.json ✓ classes/part-90-curso-de-prueba/part.toml" in out
    assert all(cell_width(ln) <= 60 for ln in result.out.splitlines())


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.lento  # seconds: out of the quick loop
def test_a_terminal_without_utf8_gets_question_marks_not_a_traceback(encoding: str) -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING=encoding, COLUMNS="60")
    for args in (["run", "323"], ["run", "999"], ["--help"], ["run", "323", "--json"]):
        done = subprocess.run(
            [sys.executable, "-m", "compmath.entry", *args, "--root", str(REPO)]
            if args != ["--help"]
            else [sys.executable, "-m", "compmath.entry", "--help"],
            capture_output=True,
            env=env,
            timeout=120,
        )
        text = (done.stdout + done.stderr).decode(encoding)
        assert "Traceback" not in text and "UnicodeEncodeError" not in text, text[-500:]
        assert done.returncode == (2 if "999" in args else 0), text[-500:]


def test_a_matrix_in_the_run_table_reads_one_row_a_line_when_rows_fit(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    out = cli("run", "339", "--root", str(REPO), "--plain").out
    start = out.splitlines().index(next(ln for ln in out.splitlines() if ln.startswith("q_optimo")))
    cells = [ln[30:72].strip() for ln in out.splitlines()[start : start + 4]]
    assert cells == [
        "[[-3,907459; -3,23051];",
        "[-3,738222; -2,290303];",
        "[-2,868531; -1,219512];",
        "[0,0; 0,0]]",
    ], cells
    monkeypatch.setenv("COLUMNS", "60")  # rows wider than the cell: wrapped at spaces, as text
    narrow = cli("run", "339", "--root", str(REPO), "--plain").out
    assert all(cell_width(ln) <= 60 for ln in narrow.splitlines())
    assert "[[-3,907459;" in narrow and "[0,0; 0,0]]" in narrow


LONG_PART = "part-16-matematica-de-transformers-modelos-generativos-grafos-y-rl"  # 66 columns


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "path",
    [
        f"../../tmp/i40/pa/classes/{LONG_PART}/324-query-key-value/lab.py",
        f"classes/{LONG_PART}/323-positional-encoding/lab.py",
        "/tmp/i40/pa/classes/part-03-algebra-lineal/305-normas-y-distancias-entre-vectores/lab.py",
        "/home/estudiante/practica/classes/part-05-probabilidad/312-cadenas-de-markov/lab.py",
    ],
)
def test_a_path_goes_on_at_a_slash_inside_a_name_only_when_the_name_fills_a_line(
    width: int, path: str
) -> None:
    """`…/324-query-key-\\` / `value/lab.py` no more: a path goes on after a `/`; only a folder's
    name wider than a line by itself (the 66 columns of part 16's) goes on at a `-`."""
    from compmath.present.layout import path_lines

    lines = path_lines(path, "  ", width)
    assert rejoined(lines) == ["  " + path]  # pasted, the shell joins the pieces back
    assert all(cell_width(t) <= width for t in lines), lines
    assert len(lines) == 1 or width < len(path) + 2
    names = path.split("/")
    for piece in lines[:-1]:
        assert piece.endswith("\\"), lines
        if not piece.endswith("/\\"):  # inside a name: only one wider than a line
            inside = next(n for n in names if piece.rstrip("\\").split("/")[-1] in n)
            assert len(inside) + 1 > width - 1 and piece[-2] in "-_", (inside, lines)
    for name in names:  # a name that fits a line is on one line
        if len(name) + 1 <= width - 1:
            assert any(name in t for t in lines), (name, lines)


def test_a_name_with_nowhere_to_break_stays_whole() -> None:
    """A folder's name wider than the line with no `-` or `_` is left for the terminal to fold,
    after the `/` before it: never cut inside its word."""
    from compmath.present.layout import path_lines

    word = "x" * 70
    lines = path_lines(f"classes/{word}/lab.py", "  ", 60)
    assert lines == ["  classes/\\", f"{word}/lab.py"]
