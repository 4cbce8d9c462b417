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
    "permutar_tokens_permuta_la_salida",
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
    convex = all(
        min(r[j] for r in v) - 1e-9 <= row[j] <= max(r[j] for r in v) + 1e-9
        for row in y
        for j in range(2)
    )
    assert out["salida_es_combinacion_convexa"] == convex
    asymmetric = any(abs(s[i][j] - s[j][i]) > 1e-6 for i in range(3) for j in range(3))
    assert out["puntuaciones_no_simetricas"] == asymmetric
    order = [2, 0, 1]
    permuted_output = attention([X[i] for i in order])[-1]
    equivariant = all(
        abs(permuted_output[i][j] - y[order[i]][j]) < 1e-5 for i in range(3) for j in range(2)
    )
    assert out["permutar_tokens_permuta_la_salida"] == equivariant
    assert all(out[key] for key in KEYS[5:])


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_every_permutation_is_equivariant(order: tuple[int, ...]) -> None:
    assert (
        emitted(324, permutacion=",".join(map(str, order)))["permutar_tokens_permuta_la_salida"]
        is True
    )


def test_bad_permutation_is_refused() -> None:
    with pytest.raises(ValueError, match="permutación"):
        lab_module(324).run(permutacion="0,0,1")


def test_tied_weights_make_scores_symmetric() -> None:
    lab = lab_module(324)
    for w_k in (lab.W_Q, -lab.W_Q):
        s = lab.atencion(lab.X, lab.W_Q, w_k, lab.W_V)[3]
        assert np.max(np.abs(s - s.T)) < 1e-12
