"""Class 336: a GCN layer with self-loops, recomputed in plain Python and against networkx."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

EDGES = [(0, 1), (1, 2), (2, 0), (2, 3)]
N = 5
H = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 3.0]]
W = [[1.0, 0.5], [-0.5, 1.0]]
PERM = [4, 2, 0, 3, 1]
BIG = [0, 1, 2, 3]


def closed_neighbourhoods(edges: list[tuple[int, int]], n: int) -> list[set[int]]:
    """N(i) ∪ {i} for every node: the self-loop of the renormalization trick."""
    nb = [{i} for i in range(n)]
    for i, j in edges:
        nb[i].add(j)
        nb[j].add(i)
    return nb


def a_hat(edges: list[tuple[int, int]], n: int) -> list[list[float]]:
    nb = closed_neighbourhoods(edges, n)
    return [
        [(1 / math.sqrt(len(nb[i]) * len(nb[j])) if j in nb[i] else 0.0) for j in range(n)]
        for i in range(n)
    ]


def matmul(X: list[list[float]], Y: list[list[float]]) -> list[list[float]]:
    return [
        [sum(X[i][t] * Y[t][j] for t in range(len(Y))) for j in range(len(Y[0]))]
        for i in range(len(X))
    ]


def gcn_layer(edges: list[tuple[int, int]], n: int, feats: list[list[float]]) -> list[list[float]]:
    """ReLU(Â H W) with lists only."""
    return [[max(x, 0.0) for x in row] for row in matmul(matmul(a_hat(edges, n), feats), W)]


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(336)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == [
        "grados_con_autobucles",
        "a_normalizada",
        "sin_division_por_cero",
        "salida_capa",
        "nodo_aislado_solo_se_ve_a_si_mismo",
        "mensaje_es_suma_ponderada_de_vecinos",
        "error_de_equivariancia",
        "autovalores_a_normalizada",
        "dispersion_tras_k_capas",
        "sobresuavizado",
    ]
    assert list(out["dispersion_tras_k_capas"]) == ["k_1", "k_2", "k_5", "k_10", "k_50"]


def test_degrees_and_normalized_adjacency(out: dict) -> None:
    degrees = [len(s) for s in closed_neighbourhoods(EDGES, N)]
    assert out["grados_con_autobucles"] == degrees == [3, 3, 4, 2, 1]
    assert all(isinstance(d, int) for d in out["grados_con_autobucles"])
    finite = all(math.isfinite(x) for row in out["a_normalizada"] for x in row)
    assert out["sin_division_por_cero"] == (finite and min(out["grados_con_autobucles"]) >= 1)
    assert out["sin_division_por_cero"] is True
    assert np.array(out["a_normalizada"]) == pytest.approx(np.array(a_hat(EDGES, N)), abs=1e-6)
    row_2 = [0.288675, 0.288675, 0.25, 0.353553, 0]
    assert out["a_normalizada"][2] == pytest.approx(row_2, abs=1e-6)
    assert out["a_normalizada"][4][4] == 1.0


def test_layer_output_matches_syllabus_and_plain_python(out: dict) -> None:
    expected = [
        [0.311004, 0.933013],
        [0.311004, 0.933013],
        [0.976444, 1.161566],
        [1.176777, 1.03033],
        [0.0, 3.0],
    ]
    assert np.array(out["salida_capa"]) == pytest.approx(np.array(expected), abs=1e-6)
    assert np.array(out["salida_capa"]) == pytest.approx(np.array(gcn_layer(EDGES, N, H)), abs=1e-6)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    own = [max(sum(H[4][t] * W[t][j] for t in range(2)), 0.0) for j in range(2)]
    isolated_ok = max(abs(a - b) for a, b in zip(out["salida_capa"][4], own)) < 1e-9
    assert out["nodo_aislado_solo_se_ve_a_si_mismo"] == isolated_ok
    # the emitted Â, used as a message-passing rule, must reproduce the emitted layer output
    A = out["a_normalizada"]
    messages = [
        [
            max(sum(A[i][j] * sum(H[j][t] * W[t][c] for t in range(2)) for j in range(N)), 0.0)
            for c in range(2)
        ]
        for i in range(N)
    ]
    same = np.max(np.abs(np.array(messages) - np.array(out["salida_capa"]))) < 1e-5
    assert out["mensaje_es_suma_ponderada_de_vecinos"] == bool(same)
    # permuted graph: node i of the new graph is node PERM[i] of the old one
    where = {old: new for new, old in enumerate(PERM)}
    permuted_edges = [(where[i], where[j]) for i, j in EDGES]
    permuted = gcn_layer(permuted_edges, N, [H[p] for p in PERM])
    gap = np.max(np.abs(np.array(permuted) - np.array(out["salida_capa"])[PERM]))
    assert gap < 1e-5 and out["error_de_equivariancia"] == pytest.approx(0.0, abs=1e-12)
    d = out["dispersion_tras_k_capas"]
    assert out["sobresuavizado"] == (d["k_50"] < 1e-3 < d["k_1"])
    assert all(
        out[key] is True
        for key in (
            "nodo_aislado_solo_se_ve_a_si_mismo",
            "mensaje_es_suma_ponderada_de_vecinos",
            "sobresuavizado",
        )
    )


def test_spectrum_closed_form(out: dict) -> None:
    low, high = (5 - math.sqrt(73)) / 24, (5 + math.sqrt(73)) / 24
    assert out["autovalores_a_normalizada"] == pytest.approx([low, 0, high, 1, 1], abs=1e-6)
    printed = [-0.147667, 0, 0.564333, 1, 1]
    assert out["autovalores_a_normalizada"] == pytest.approx(printed, abs=1e-6)
    # eigenvalue 1 once per connected component, eigenvector √d̃ inside each component
    A = np.array(a_hat(EDGES, N))
    v = np.sqrt([3.0, 3, 4, 2, 0])
    assert A @ v == pytest.approx(v, abs=1e-12)


def test_oversmoothing_by_repeated_multiplication(out: dict) -> None:
    A = a_hat(EDGES, N)
    Z = [row[:] for row in H]
    degrees = [3, 3, 4, 2, 1]
    spreads = {}
    for k in range(1, 51):
        Z = matmul(A, Z)
        if k in (1, 2, 5, 10, 50):
            Y = [[Z[i][c] / math.sqrt(degrees[i]) for c in range(2)] for i in BIG]
            means = [sum(Y[i][c] for i in range(4)) / 4 for c in range(2)]
            spreads[f"k_{k}"] = max(abs(Y[i][c] - means[c]) for i in range(4) for c in range(2))
    assert out["dispersion_tras_k_capas"] == pytest.approx(spreads, abs=1e-6)
    expected = {"k_1": 0.382549, "k_2": 0.225339, "k_5": 0.04014, "k_10": 0.002298, "k_50": 0.0}
    assert out["dispersion_tras_k_capas"] == pytest.approx(expected, abs=1e-6)
    assert spreads["k_50"] < 1e-11
    # the limit: projection on the unit eigenvector √d̃ of the big component
    v = np.sqrt(np.array(degrees[:4], dtype=float))
    v /= np.linalg.norm(v)
    limit = np.outer(v, v) @ np.array(H)[:4]
    assert np.array(Z)[:4] == pytest.approx(limit, abs=1e-10)
    values = list(out["dispersion_tras_k_capas"].values())
    assert values == sorted(values, reverse=True)


def test_row_normalization_is_a_different_matrix() -> None:
    lab = lab_module(336)
    A = lab.adyacencia(lab.ARISTAS, N)
    A_hat, degrees = lab.a_normalizada(A)
    row = (A + np.eye(N)) / degrees[:, None]  # D̃⁻¹Ã: plain neighbour average
    assert np.max(np.abs(row - A_hat)) > 0.01
    spectrum = np.sort(np.linalg.eigvals(row).real)
    assert spectrum == pytest.approx(np.linalg.eigvalsh(A_hat), abs=1e-10)


def test_without_self_loops_the_isolated_node_goes_silent() -> None:
    out = emitted(336, autobucles=False)
    assert out["grados_con_autobucles"] == [2, 2, 3, 1, 0]
    # a zero degree, yet the safe inverse root keeps Â finite: both claims still hold
    assert min(out["grados_con_autobucles"]) == 0
    assert all(math.isfinite(x) for row in out["a_normalizada"] for x in row)
    assert out["sin_division_por_cero"] is True
    assert out["salida_capa"][4] == [0.0, 0.0]  # no message at all, not even its own
    assert out["nodo_aislado_solo_se_ve_a_si_mismo"] is True
    assert out["mensaje_es_suma_ponderada_de_vecinos"] is True
    assert out["error_de_equivariancia"] == pytest.approx(0.0, abs=1e-12)
    # Â without self-loops is D^{−1/2} A D^{−1/2}: I minus it is class 335's "diagonal one"
    # counterexample, so the eigenvalues are 1 − λ of that one (the isolated node gives 0, not 1)
    diagonal_one = emitted(335)["convencion_diagonal_uno"]["autovalores"]
    shifted = sorted(1 - x for x in diagonal_one)
    assert out["autovalores_a_normalizada"] == pytest.approx(shifted, abs=1e-6)


def test_against_networkx(out: dict) -> None:
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_nodes_from(range(N))
    G.add_edges_from(EDGES)
    G.add_edges_from((i, i) for i in range(N))
    # networkx counts self-loops in the degree: I − L_norm(A + I) = Â
    reference = np.eye(N) - nx.normalized_laplacian_matrix(G, nodelist=list(range(N))).toarray()
    assert np.array(out["a_normalizada"]) == pytest.approx(reference, abs=1e-6)
    spectrum = np.linalg.eigvalsh(reference)
    assert spectrum == pytest.approx(out["autovalores_a_normalizada"], abs=1e-6)
