"""Class 322: cosines recomputed in plain Python (and with scipy); claims from emitted numbers."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "dimension",
    "busqueda_one_hot",
    "matriz_coseno",
    "vecino_mas_cercano",
    "analogia_rey_menos_hombre_mas_mujer",
    "coseno_de_la_analogia",
    "analogia_pera_menos_manzana_mas_rey",
    "coseno_invariante_a_escala",
    "producto_escalar_cambia_con_escala",
    "coseno_con_vector_nulo",
]
VECTORS = {
    "rey": (0.95, 0.90, 0.02, 0.30),
    "reina": (0.93, -0.88, 0.01, 0.28),
    "hombre": (0.05, 0.92, 0.03, 0.20),
    "mujer": (0.04, -0.90, 0.02, 0.22),
    "manzana": (0.01, 0.02, 0.97, 0.10),
    "pera": (0.02, -0.01, 0.91, 0.15),
}


def dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b))


def cos(a, b) -> float:
    return dot(a, b) / math.sqrt(dot(a, a) * dot(b, b))


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(322)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert out["dimension"] == 4 and isinstance(out["dimension"], int)


def test_cosine_matrix_in_plain_python(out: dict) -> None:
    for a, va in VECTORS.items():
        assert list(out["matriz_coseno"][a]) == list(VECTORS)
        for b, vb in VECTORS.items():
            assert out["matriz_coseno"][a][b] == pytest.approx(cos(va, vb), abs=1e-6)
    m = out["matriz_coseno"]
    assert m["manzana"]["pera"] == pytest.approx(0.997607, abs=1e-6)
    assert m["rey"]["hombre"] == pytest.approx(0.739078, abs=1e-6)
    assert m["hombre"]["mujer"] == pytest.approx(-0.893053, abs=1e-6)
    assert m["rey"]["reina"] == pytest.approx(0.099839, abs=1e-6)


def test_cosine_matrix_against_scipy(out: dict) -> None:
    distance = pytest.importorskip("scipy.spatial.distance")
    E = np.array(list(VECTORS.values()))
    reference = 1.0 - distance.cdist(E, E, "cosine")
    emitted_matrix = np.array([list(row.values()) for row in out["matriz_coseno"].values()])
    assert np.max(np.abs(emitted_matrix - reference)) < 1e-6


def test_nearest_neighbours_recomputed_from_the_matrix(out: dict) -> None:
    m = out["matriz_coseno"]
    for word, row in m.items():
        best = max((other for other in row if other != word), key=row.__getitem__)
        assert out["vecino_mas_cercano"][word] == best
    assert out["vecino_mas_cercano"]["manzana"] == "pera"


def test_analogy_by_brute_force(out: dict) -> None:
    target = [r - h + m for r, h, m in zip(VECTORS["rey"], VECTORS["hombre"], VECTORS["mujer"])]
    candidates = {
        w: cos(target, v) for w, v in VECTORS.items() if w not in ("rey", "hombre", "mujer")
    }
    best = max(candidates, key=candidates.__getitem__)
    assert out["analogia_rey_menos_hombre_mas_mujer"] == best == "reina"
    assert out["coseno_de_la_analogia"] == pytest.approx(candidates[best], abs=1e-6)
    assert out["coseno_de_la_analogia"] == pytest.approx(0.999592, abs=1e-6)


def test_excluding_the_query_decides_the_fruit_analogy(out: dict) -> None:
    target = [p - m + r for p, m, r in zip(VECTORS["pera"], VECTORS["manzana"], VECTORS["rey"])]
    everyone = {w: cos(target, v) for w, v in VECTORS.items()}
    others = {w: c for w, c in everyone.items() if w not in ("manzana", "pera", "rey")}
    best = max(others, key=others.__getitem__)
    got = out["analogia_pera_menos_manzana_mas_rey"]
    assert got["respuesta"] == best == "hombre"
    assert got["coseno"] == pytest.approx(others[best], abs=1e-6)
    assert got["sin_excluir_la_consulta"] == max(everyone, key=everyone.__getitem__) == "rey"


def test_scale_claims_recomputed(out: dict) -> None:
    products = out["producto_escalar_cambia_con_escala"]
    assert products["rey_reina"] == pytest.approx(dot(VECTORS["rey"], VECTORS["reina"]), abs=1e-6)
    assert products["rey_reina"] == pytest.approx(0.1757, abs=1e-6)
    assert products["3rey_reina"] == pytest.approx(0.5271, abs=1e-6)
    assert products["3rey_reina"] == pytest.approx(3 * products["rey_reina"], abs=1e-5)
    scaled = [3 * x for x in VECTORS["rey"]]
    invariant = abs(cos(scaled, VECTORS["reina"]) - cos(VECTORS["rey"], VECTORS["reina"])) < 1e-12
    assert out["coseno_invariante_a_escala"] == invariant
    assert out["coseno_invariante_a_escala"]


def test_one_hot_lookup_claim() -> None:
    lab = lab_module(322)
    for i in range(6):
        row = lab.buscar(lab.E, i)
        assert row.tolist() == list(VECTORS[lab.PALABRAS[i]])
        shown = emitted(322, indice_busqueda=i)["busqueda_one_hot"]
        assert shown["palabra"] == lab.PALABRAS[i]
        assert shown["onehot_por_E"] == shown["fila_de_E"] == list(VECTORS[lab.PALABRAS[i]])


def test_scale_invariance_needs_norms_above_the_floor() -> None:
    big_floor = emitted(322, epsilon=10.0)
    floored = [3 * x for x in VECTORS["rey"]]
    a = dot(floored, VECTORS["reina"]) / (max(math.sqrt(dot(floored, floored)), 10.0) * 10.0)
    b = dot(VECTORS["rey"], VECTORS["reina"]) / 100.0
    assert big_floor["coseno_invariante_a_escala"] == (abs(a - b) < 1e-12) is False


def test_zero_vector_convention(out: dict) -> None:
    assert out["coseno_con_vector_nulo"] == 0.0
    lab = lab_module(322)
    assert lab.coseno(np.zeros(4), np.zeros(4)) == 0.0
    distance = pytest.importorskip("scipy.spatial.distance")
    with pytest.warns(RuntimeWarning):  # scipy returns the distance, and NaN here
        assert math.isnan(distance.cosine(np.zeros(4), np.array(VECTORS["rey"])))


def test_cosine_is_bounded_and_epsilon_only_matters_for_tiny_vectors() -> None:
    lab = lab_module(322)
    rng = np.random.default_rng(5)
    for _ in range(50):
        a, b = rng.standard_normal(4), rng.standard_normal(4)
        assert -1.0 - 1e-12 <= lab.coseno(a, b) <= 1.0 + 1e-12
        assert lab.coseno(a, b) == pytest.approx(cos(a, b), abs=1e-12)
    tiny = np.full(4, 1e-10)
    assert lab.coseno(tiny, tiny) == pytest.approx(4e-20 / 1e-16, rel=1e-9)  # ε guard shrinks it


def test_worked_example_intermediate_numbers() -> None:
    """The page's hand computation, digit by digit, in plain Python."""
    rey, reina = VECTORS["rey"], VECTORS["reina"]
    norm_rey, norm_reina = math.sqrt(dot(rey, rey)), math.sqrt(dot(reina, reina))
    assert round(norm_rey, 6) == 1.342721 and round(norm_reina, 6) == 1.310649
    assert round(norm_rey * norm_reina, 6) == 1.759836  # not 1.759837
    assert round(dot(rey, reina) / (norm_rey * norm_reina), 6) == 0.099839
    target = [r - h + m for r, h, m in zip(rey, VECTORS["hombre"], VECTORS["mujer"])]
    assert target == pytest.approx([0.94, -0.92, 0.01, 0.32], abs=1e-12)
    assert round(math.sqrt(dot(target, target)), 6) == 1.353699
    assert dot(target, reina) == pytest.approx(1.7735, abs=1e-12)


def test_gensim_style_analogy_also_gives_reina(out: dict) -> None:
    """gensim's most_similar: unit vectors, their mean, unit again, the query words excluded."""
    unit = {w: np.array(v) / np.linalg.norm(v) for w, v in VECTORS.items()}
    mean = (unit["rey"] + unit["mujer"] - unit["hombre"]) / 3
    mean /= np.linalg.norm(mean)
    scores = {w: float(mean @ u) for w, u in unit.items() if w not in ("rey", "hombre", "mujer")}
    assert max(scores, key=scores.__getitem__) == out["analogia_rey_menos_hombre_mas_mujer"]
    assert scores["reina"] == pytest.approx(0.952315, abs=1e-6)  # another cosine, same answer


def test_cosine_helpers_agree_with_the_matrix_and_the_floor() -> None:
    lab = lab_module(322)
    C = lab.matriz_coseno(lab.E)
    for i in range(6):
        for j in range(6):
            assert C[i, j] == pytest.approx(lab.coseno(lab.E[i], lab.E[j]), abs=1e-12)
    with_zero = np.vstack([lab.E, np.zeros(4)])
    assert np.all(lab.matriz_coseno(with_zero)[-1] == 0.0)  # a zero row is similar to nothing
