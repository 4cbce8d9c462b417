"""Class 324: attention recomputed with plain-Python loops and scipy; claims from its numbers."""

import itertools
import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "formas",
    "proyecciones",
    "puntuaciones_escaladas",
    "pesos_de_atencion",
    "salida",
    "filas_suman_uno",
    "salida_es_combinacion_convexa",
    "salida_con_tokens_permutados",
    "puntuaciones_no_simetricas",
]
X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
W_Q = [[1, 0], [0, 1], [1, 0], [0, 1]]
W_K = [[0, 1], [1, 0], [1, 1], [0, 0]]
W_V = [[1, 0], [0, 0], [0, 1], [2, 1]]


def matmul(a, b):
    return [
        [sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def transpose(a):
    return [list(col) for col in zip(*a)]


def attention(x):
    """Scores, weights and output, one loop at a time."""
    q, k, v = matmul(x, W_Q), matmul(x, W_K), matmul(x, W_V)
    scores = [[s / math.sqrt(2) for s in row] for row in matmul(q, transpose(k))]
    weights = []
    for row in scores:
        exps = [math.exp(s) for s in row]  # small scores: the naive formula is fine here
        weights.append([e / sum(exps) for e in exps])
    return q, k, v, scores, weights, matmul(weights, v)


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(324)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert out["formas"] == {"X": [3, 4], "W_Q": [4, 2], "Q": [3, 2], "puntuaciones": [3, 3]}


def test_projections_scores_weights_output(out: dict) -> None:
    q, k, v, scores, weights, output = attention(X)
    assert out["proyecciones"] == {
        "q": [[2, 0], [0, 2], [1, 1]],
        "k": [[1, 2], [1, 0], [1, 1]],
        "v": [[1, 1], [2, 1], [1, 0]],
    }
    assert (q, k, v) == (
        out["proyecciones"]["q"],
        out["proyecciones"]["k"],
        out["proyecciones"]["v"],
    )
    assert np.allclose(out["puntuaciones_escaladas"], scores, atol=1e-6, rtol=0)
    assert np.allclose(
        np.array(out["puntuaciones_escaladas"]) * math.sqrt(2),
        [[2, 2, 2], [4, 0, 2], [3, 1, 2]],
        atol=1e-5,
        rtol=0,
    )
    assert np.allclose(out["pesos_de_atencion"], weights, atol=1e-6, rtol=0)
    assert np.allclose(out["salida"], output, atol=1e-6, rtol=0)


def test_syllabus_values(out: dict) -> None:
    a = out["pesos_de_atencion"]
    assert a[0] == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert a[1] == pytest.approx([0.767918, 0.045388, 0.186694], abs=1e-6)
    assert a[2] == pytest.approx([0.575975, 0.140029, 0.283995], abs=1e-6)
    expected = [[1.333333, 0.666667], [1.045388, 0.813306], [1.140029, 0.716005]]
    for row, exp in zip(out["salida"], expected):
        assert row == pytest.approx(exp, abs=1e-6)


def test_weights_against_scipy_softmax(out: dict) -> None:
    special = pytest.importorskip("scipy.special")
    s = np.array(out["puntuaciones_escaladas"])
    assert np.allclose(special.softmax(s, axis=1), out["pesos_de_atencion"], atol=1e-6, rtol=0)
    # the column-wise softmax is a different (wrong) matrix
    assert not np.allclose(special.softmax(s, axis=0), out["pesos_de_atencion"], atol=1e-3)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    a, s, y, v = (
        out["pesos_de_atencion"],
        out["puntuaciones_escaladas"],
        out["salida"],
        out["proyecciones"]["v"],
    )
    assert out["filas_suman_uno"] == all(abs(sum(row) - 1) < 1e-5 for row in a)
    # convexity from the emitted numbers alone: the rows of V are affinely independent, so each
    # output row has unique barycentric coordinates; it is a convex combination iff they are >= 0
    vertices = np.vstack([np.array(v, dtype=float).T, np.ones(3)])  # (3, 3)
    coordinates = [np.linalg.solve(vertices, np.append(row, 1.0)) for row in y]
    convex = all(np.all(c >= -1e-6) for c in coordinates)
    assert out["salida_es_combinacion_convexa"] == convex
    assert np.allclose(coordinates, a, atol=2e-6)  # the witnesses are the attention weights
    in_box = all(
        min(r[j] for r in v) <= row[j] <= max(r[j] for r in v) for row in y for j in range(2)
    )
    assert in_box  # a consequence, not the definition
    asymmetric = any(abs(s[i][j] - s[j][i]) > 1e-6 for i in range(3) for j in range(3))
    assert out["puntuaciones_no_simetricas"] == asymmetric
    order = [2, 0, 1]
    permuted_output = attention([X[i] for i in order])[-1]
    shown = np.array(out["salida_con_tokens_permutados"])
    assert np.max(np.abs(shown - np.array(permuted_output))) < 1e-6
    # equivariance: the permuted output is the output's rows in the permutation's order
    assert np.max(np.abs(shown - np.array([y[i] for i in order]))) < 2e-6
    assert all(out[key] for key in KEYS if isinstance(out[key], bool))


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_every_permutation_is_equivariant(order: tuple[int, ...]) -> None:
    got = emitted(324, permutacion=",".join(map(str, order)))
    shown = np.array(got["salida_con_tokens_permutados"])
    assert np.max(np.abs(shown - np.array(got["salida"])[list(order)])) < 2e-6


def test_bad_permutation_is_refused() -> None:
    with pytest.raises(ValueError, match="permutación"):
        lab_module(324).run(permutacion="0,0,1")


def test_tied_weights_make_scores_symmetric_but_not_the_weights() -> None:
    lab = lab_module(324)
    for w_k in (lab.W_Q, -lab.W_Q):
        s, a = lab.atencion(lab.X, lab.W_Q, w_k, lab.W_V)[3:5]
        assert np.max(np.abs(s - s.T)) < 1e-12
        assert np.max(np.abs(a - a.T)) > 0.1  # the softmax normalises each row on its own
    # the page's numbers for W_K = W_Q, recomputed by hand
    q = [[2, 0], [0, 2], [1, 1]]
    scores = [[sum(x * y for x, y in zip(qi, qj)) for qj in q] for qi in q]
    assert scores == [[4, 0, 2], [0, 4, 2], [2, 2, 2]]
    weights = []
    for row in scores:
        exps = [math.exp(x / math.sqrt(2)) for x in row]
        weights.append([e / sum(exps) for e in exps])
    assert weights[0] == pytest.approx([0.767918, 0.045388, 0.186694], abs=1e-6)
    assert weights[2] == pytest.approx([1 / 3] * 3, abs=1e-12)
    a = lab.atencion(lab.X, lab.W_Q, lab.W_Q, lab.W_V)[4]
    assert np.allclose(a, weights, atol=1e-12)


def test_symmetry_is_decided_by_wq_wk_transposed() -> None:
    """Q Kᵀ = X (W_Q W_Kᵀ) Xᵀ is symmetric for every X iff W_Q W_Kᵀ is; W_Q ≠ W_K is not the test."""
    lab = lab_module(324)
    rng = np.random.default_rng(3)

    def scores(x, w_q, w_k):
        return lab.atencion(x, w_q, w_k, lab.W_V)[3]

    m = lab.W_Q @ lab.W_K.T
    assert np.max(np.abs(m - m.T)) > 0.5  # this class's pair: not symmetric
    for _ in range(20):
        x = rng.standard_normal((3, 4))
        s = scores(x, lab.W_Q, lab.W_K)
        assert np.max(np.abs(s - s.T)) > 1e-6
        s = scores(x, lab.W_Q, -lab.W_Q)  # different matrices, symmetric product
        assert np.max(np.abs(s - s.T)) < 1e-12
    same_rows = np.tile(lab.X[0], (3, 1))  # one particular X can hide the asymmetry
    s = scores(same_rows, lab.W_Q, lab.W_K)
    assert np.max(np.abs(s - s.T)) < 1e-12


def test_convexity_check_rejects_what_a_bounding_box_accepts() -> None:
    """A weight row with a negative entry can land inside V's box: the claim must say no."""
    lab = lab_module(324)
    v = lab.X @ lab.W_V  # rows (1, 1), (2, 1), (1, 0)
    bad = np.array([[-0.2, 0.6, 0.6], [0.5, 0.25, 0.25], [1 / 3, 1 / 3, 1 / 3]])
    output = bad @ v
    assert np.all(output >= v.min(axis=0)) and np.all(output <= v.max(axis=0))  # inside the box
    assert lab.es_combinacion_convexa(bad, v, output) is False
    good = lab.softmax_filas(np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0], [1.0, 1.0, 1.0]]))
    assert lab.es_combinacion_convexa(good, v, good @ v) is True
    assert lab.es_combinacion_convexa(good * 1.1, v, good * 1.1 @ v) is False  # rows sum 1.1
    assert lab.es_combinacion_convexa(good, v, good @ v + 1e-6) is False  # not this output


def test_run_reports_false_when_the_weights_are_not_a_distribution(monkeypatch) -> None:
    """run() computes the claim from its own weights: break the softmax and the claims fall."""
    lab = lab_module(324)
    original = lab.softmax_filas

    def shifted(S: np.ndarray) -> np.ndarray:  # rows still sum to 1, one weight goes negative
        a = original(S)
        return a + np.array([-0.4, 0.2, 0.2])

    monkeypatch.setattr(lab, "softmax_filas", shifted)
    broken = lab.run()
    assert broken["filas_suman_uno"] is True
    assert broken["salida_es_combinacion_convexa"] is False


def test_scaled_tokens_keep_the_softmax_finite_where_the_naive_one_overflows() -> None:
    """escala = 20 (a [practica] variant) pushes the scores past 700: the lab's weights are the
    stable softmax recomputed here, while exp of the scores alone overflows to inf."""
    got = emitted(324, escala=20.0)
    x = [[20.0 * v for v in row] for row in X]
    q, k = matmul(x, W_Q), matmul(x, W_K)
    scores = [[s / math.sqrt(2) for s in row] for row in matmul(q, transpose(k))]
    assert max(max(row) for row in scores) > 710  # exp(710) is past the largest float
    with pytest.raises(OverflowError):
        math.exp(max(max(row) for row in scores))
    weights = []
    for row in scores:
        top = max(row)
        exps = [math.exp(s - top) for s in row]
        weights.append([e / sum(exps) for e in exps])
    shown = np.array(got["pesos_de_atencion"])
    assert np.all(np.isfinite(shown)) and np.max(np.abs(shown - np.array(weights))) < 1e-6
    assert got["filas_suman_uno"] and got["salida_es_combinacion_convexa"]
    assert got["formas"]["X"] == [3, 4]
