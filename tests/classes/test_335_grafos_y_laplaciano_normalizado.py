"""Class 335: the normalized Laplacian with an isolated node, recomputed independently."""

import math
from collections import defaultdict

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

EDGES = [(0, 1), (1, 2), (2, 0), (2, 3)]
N = 5
# The two non-trivial eigenvalues of L_sym besides 1.5 solve λ² − (5/2)λ + 4/3 = 0.
LOW, HIGH = (15 - math.sqrt(33)) / 12, (15 + math.sqrt(33)) / 12


def neighbours(n: int = N) -> dict[int, set[int]]:
    adj: dict[int, set[int]] = defaultdict(set)
    for i, j in EDGES:
        adj[i].add(j)
        adj[j].add(i)
    return {u: adj[u] for u in range(n)}


def chung_entry(u: int, v: int, adj: dict[int, set[int]]) -> float:
    """L_sym(u, v) entry by entry, straight from Chung's definition."""
    du, dv = len(adj[u]), len(adj[v])
    if u == v:
        return 1.0 if du > 0 else 0.0
    if v in adj[u]:
        return -1.0 / math.sqrt(du * dv)
    return 0.0


def count_components(n: int, adj: dict[int, set[int]]) -> int:
    """Union-find, a different algorithm from the lab's BFS."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u in range(n):
        for v in adj[u]:
            parent[find(u)] = find(v)
    return len({find(u) for u in range(n)})


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(335)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == [
        "grafo",
        "laplaciano",
        "filas_suman_cero",
        "ingenuo_entradas_no_finitas",
        "laplaciano_normalizado",
        "autovalores_normalizado",
        "autovalores_en_0_2",
        "conteo",
        "multiplicidad_igual_a_componentes",
        "convencion_diagonal_uno",
    ]
    assert list(out["grafo"]) == ["adyacencia", "grados"]
    assert list(out["conteo"]) == ["multiplicidad_del_cero", "componentes"]
    assert list(out["convencion_diagonal_uno"]) == ["autovalores", "multiplicidad_del_cero"]


def test_graph_and_combinatorial_laplacian(out: dict) -> None:
    adj = neighbours()
    expected_a = [[1 if v in adj[u] else 0 for v in range(N)] for u in range(N)]
    assert out["grafo"]["adyacencia"] == expected_a
    assert out["grafo"]["grados"] == [2, 2, 3, 1, 0]
    expected_l = [
        [(len(adj[u]) if u == v else -expected_a[u][v]) for v in range(N)] for u in range(N)
    ]
    assert out["laplaciano"] == expected_l
    assert all(isinstance(x, int) for row in out["laplaciano"] for x in row)
    assert out["filas_suman_cero"] == all(sum(row) == 0 for row in out["laplaciano"])
    assert out["filas_suman_cero"] is True


def test_normalized_laplacian_entry_by_entry(out: dict) -> None:
    adj = neighbours()
    reference = [[chung_entry(u, v, adj) for v in range(N)] for u in range(N)]
    assert np.array(out["laplaciano_normalizado"]) == pytest.approx(np.array(reference), abs=1e-6)
    # the syllabus's printed values
    row_2 = [-0.408248, -0.408248, 1, -0.57735, 0]
    assert out["laplaciano_normalizado"][2] == pytest.approx(row_2, abs=1e-6)
    # isolated node: row and column zero, diagonal included
    assert out["laplaciano_normalizado"][4] == [0.0] * N
    assert [row[4] for row in out["laplaciano_normalizado"]] == [0.0] * N


def test_spectrum_closed_form_and_claims(out: dict) -> None:
    eig = out["autovalores_normalizado"]
    assert eig == pytest.approx([0, 0, LOW, 1.5, HIGH], abs=1e-6)
    assert eig == pytest.approx([0, 0, 0.771286, 1.5, 1.728714], abs=1e-6)
    assert eig == sorted(eig)
    # trace of L_sym = number of nodes with at least one neighbour
    assert sum(eig) == pytest.approx(4, abs=1e-5)
    assert out["autovalores_en_0_2"] == all(-1e-12 <= x <= 2 + 1e-12 for x in eig)
    zeros = sum(1 for x in eig if abs(x) < 1e-10)
    assert out["conteo"]["multiplicidad_del_cero"] == zeros == 2
    assert out["conteo"]["componentes"] == count_components(N, neighbours()) == 2
    assert out["multiplicidad_igual_a_componentes"] == (
        out["conteo"]["multiplicidad_del_cero"] == out["conteo"]["componentes"]
    )
    assert out["multiplicidad_igual_a_componentes"] is True


def test_diagonal_one_counterexample(out: dict) -> None:
    wrong = out["convencion_diagonal_uno"]
    assert wrong["autovalores"] == pytest.approx([0, LOW, 1, 1.5, HIGH], abs=1e-6)
    zeros = sum(1 for x in wrong["autovalores"] if abs(x) < 1e-10)
    assert wrong["multiplicidad_del_cero"] == zeros == 1
    assert wrong["multiplicidad_del_cero"] != out["conteo"]["componentes"]


def test_naive_inverse_square_root_breaks(out: dict) -> None:
    with pytest.raises(ZeroDivisionError):
        0.0**-0.5  # plain Python refuses; numpy returns inf instead
    degrees = np.array(out["grafo"]["grados"], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = degrees**-0.5
        naive = np.diag(r) @ np.array(out["laplaciano"], dtype=float) @ np.diag(r)
    assert np.isinf(r[4])
    assert np.isnan(naive[4]).any()
    assert out["ingenuo_entradas_no_finitas"] == int((~np.isfinite(naive)).sum())
    assert out["ingenuo_entradas_no_finitas"] == 5**2 - 4**2  # node 4's row and column


def test_without_isolated_nodes_naive_is_fine_and_conventions_agree() -> None:
    out = emitted(335, nodos_aislados=0)
    assert out["ingenuo_entradas_no_finitas"] == 0
    assert out["conteo"] == {"multiplicidad_del_cero": 1, "componentes": 1}
    wrong = out["convencion_diagonal_uno"]["autovalores"]
    assert wrong == pytest.approx(out["autovalores_normalizado"], abs=1e-9)


def test_several_isolated_nodes() -> None:
    out = emitted(335, nodos_aislados=3)
    assert len(out["laplaciano_normalizado"]) == 7
    assert out["ingenuo_entradas_no_finitas"] == 7**2 - 4**2
    assert out["conteo"] == {"multiplicidad_del_cero": 4, "componentes": 4}
    assert out["multiplicidad_igual_a_componentes"] is True
    assert out["convencion_diagonal_uno"]["multiplicidad_del_cero"] == 1
    assert out["autovalores_normalizado"] == pytest.approx([0, 0, 0, 0, LOW, 1.5, HIGH], abs=1e-6)


def test_negative_isolated_count_is_refused() -> None:
    with pytest.raises(ValueError, match="nodos_aislados"):
        lab_module(335).run(nodos_aislados=-1)


def test_quadratic_form_is_edge_energy() -> None:
    lab = lab_module(335)
    A = lab.adyacencia(lab.ARISTAS, N)
    L = lab.laplaciano(A)
    x = np.array([0.3, -1.2, 2.0, 0.7, 5.0])
    energy = sum((x[i] - x[j]) ** 2 for i, j in EDGES)
    assert float(x @ L @ x) == pytest.approx(energy, abs=1e-12)


def test_safe_inverse_root_and_random_walk_spectrum() -> None:
    lab = lab_module(335)
    assert lab.raiz_inversa_segura(np.array([4, 0, 1])).tolist() == [0.5, 0.0, 1.0]
    A = lab.adyacencia(lab.ARISTAS, N)
    degrees = A.sum(axis=1).astype(float)
    d_plus = np.array([1 / d if d else 0.0 for d in degrees])
    random_walk = d_plus[:, None] * lab.laplaciano(A)  # D⁺L: same spectrum as L_sym
    eig_rw = np.sort(np.linalg.eigvals(random_walk).real)
    assert eig_rw == pytest.approx(np.linalg.eigvalsh(lab.laplaciano_normalizado(A)), abs=1e-10)


def test_against_networkx(out: dict) -> None:
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_nodes_from(range(N))
    G.add_edges_from(EDGES)
    reference = nx.normalized_laplacian_matrix(G, nodelist=list(range(N))).toarray()
    assert np.array(out["laplaciano_normalizado"]) == pytest.approx(reference, abs=1e-6)
    assert nx.number_connected_components(G) == out["conteo"]["componentes"]


def test_against_scipy(out: dict) -> None:
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    A = np.array(out["grafo"]["adyacencia"], dtype=float)
    reference = csgraph.laplacian(A, normed=True) + 0.0  # folds scipy's -0.
    assert np.array(out["laplaciano_normalizado"]) == pytest.approx(reference, abs=1e-6)
    assert np.array(out["laplaciano"]) == pytest.approx(csgraph.laplacian(A), abs=0)
    n_components, _ = csgraph.connected_components(A, directed=False)
    assert n_components == out["conteo"]["componentes"]
