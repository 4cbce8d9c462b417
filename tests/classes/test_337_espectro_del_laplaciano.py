"""Class 337: Fiedler vector and graph Fourier transform, against closed forms and networkx."""

import cmath
import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

EDGES = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)]
N = 6
X = [1.0, 1.2, 0.9, -1.0, -1.1, -0.8]
LAMBDA2 = (5 - math.sqrt(17)) / 2
LAMBDA6 = (5 + math.sqrt(17)) / 2


def laplacian_apply(edges: list[tuple[int, int]], x: list[float]) -> list[float]:
    """(L x)_i = Σ_{j ~ i} (x_i − x_j), without building any matrix."""
    y = [0.0] * len(x)
    for i, j in edges:
        y[i] += x[i] - x[j]
        y[j] += x[j] - x[i]
    return y


def fiedler_closed_form() -> list[float]:
    """By the triangle-swapping symmetry f = (−a, −a, −b, b, a, a) with b = (1 − λ₂) a."""
    ratio = 1 - LAMBDA2
    a = 1 / math.sqrt(4 + 2 * ratio**2)
    b = ratio * a
    return [-a, -a, -b, b, a, a]


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(337)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == [
        "autovalores_laplaciano",
        "conectividad_algebraica",
        "vector_de_fiedler",
        "particion_por_signo",
        "aristas_cortadas",
        "quitar_el_puente_anula_lambda2",
        "el_fiedler_minimiza_rayleigh",
        "energia_de_la_senal_y_de_su_gft",
        "energia_en_dos_frecuencias_bajas",
        "ciclo_c6_en_la_base_dft",
    ]
    assert list(snapshot(337)) == list(out)


def test_spectrum_closed_form(out: dict) -> None:
    assert out["autovalores_laplaciano"] == pytest.approx([0, LAMBDA2, 3, 3, 3, LAMBDA6], abs=1e-6)
    printed = [0, 0.438447, 3, 3, 3, 4.561553]
    assert out["autovalores_laplaciano"] == pytest.approx(printed, abs=1e-6)
    # trace of L = sum of degrees = 2 · number of edges
    assert sum(out["autovalores_laplaciano"]) == pytest.approx(2 * len(EDGES), abs=1e-5)
    assert out["conectividad_algebraica"] == pytest.approx(LAMBDA2, abs=1e-6)
    assert out["conectividad_algebraica"] == out["autovalores_laplaciano"][1]


def test_fiedler_vector_closed_form_and_sign(out: dict) -> None:
    f = out["vector_de_fiedler"]
    assert f == pytest.approx(fiedler_closed_form(), abs=1e-6)
    printed = [-0.464705, -0.464705, -0.260956, 0.260956, 0.464705, 0.464705]
    assert f == pytest.approx(printed, abs=1e-6)
    assert f[0] < 0  # the lab's sign convention
    assert sum(f) == pytest.approx(0, abs=1e-5)  # orthogonal to the constant
    assert sum(v * v for v in f) == pytest.approx(1, abs=1e-5)
    Lf = laplacian_apply(EDGES, f)
    assert Lf == pytest.approx([out["conectividad_algebraica"] * v for v in f], abs=1e-5)


def test_partition_and_cut_recomputed_from_emitted_numbers(out: dict) -> None:
    f = out["vector_de_fiedler"]
    negative = [i for i, v in enumerate(f) if v < 0]
    assert out["particion_por_signo"] == [negative, [i for i in range(N) if i not in negative]]
    assert out["particion_por_signo"] == [[0, 1, 2], [3, 4, 5]]
    side = set(out["particion_por_signo"][0])
    assert out["aristas_cortadas"] == sum(1 for i, j in EDGES if (i in side) != (j in side)) == 1
    assert isinstance(out["aristas_cortadas"], int)


def rayleigh(edges: list[tuple[int, int]], x: list[float]) -> float:
    return sum((x[i] - x[j]) ** 2 for i, j in edges) / sum(v * v for v in x)


def test_rayleigh_minimum_claim_recomputed(out: dict) -> None:
    f = out["vector_de_fiedler"]
    lam2 = out["conectividad_algebraica"]
    assert rayleigh(EDGES, f) == pytest.approx(LAMBDA2, abs=1e-5)
    # the lab's own challengers: default_rng(0), 1000 normal vectors, each centred (⊥ 1)
    X = np.random.default_rng(0).standard_normal((1000, N))
    quotients = [rayleigh(EDGES, [v - sum(row) / N for v in row]) for row in X.tolist()]
    assert min(quotients) == pytest.approx(0.654535, abs=1e-6)  # printed in the description
    assert max(quotients) == pytest.approx(4.467157, abs=1e-6)  # the README's largest
    assert max(quotients) <= LAMBDA6 + 1e-12
    claim = abs(rayleigh(EDGES, f) - lam2) < 1e-5 and min(quotients) >= lam2 - 1e-6
    assert out["el_fiedler_minimiza_rayleigh"] == claim
    assert out["el_fiedler_minimiza_rayleigh"] is True
    # λ₂ is the minimum over x ⊥ 1: L restricted to the complement of 1, with an orthonormal
    # basis of that complement (Helmert-like differences), has smallest eigenvalue λ₂
    B = np.zeros((N, N - 1))
    for k in range(1, N):
        B[:k, k - 1] = 1.0
        B[k, k - 1] = -k
        B[:, k - 1] /= math.sqrt(k * (k + 1))
    L = np.zeros((N, N))
    for i, j in EDGES:
        L[i, i] += 1
        L[j, j] += 1
        L[i, j] -= 1
        L[j, i] -= 1
    restricted = np.sort(np.linalg.eigvals(B.T @ L @ B).real)  # general solver, not eigh
    assert restricted[0] == pytest.approx(LAMBDA2, abs=1e-12)


def test_rayleigh_claim_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lab that took the wrong eigenvector (that of 3) would report false, not a literal true."""
    lab = lab_module(337)

    def third_eigenvector(L: np.ndarray) -> tuple[float, np.ndarray]:
        values, U = np.linalg.eigh(L)
        return float(values[2]), U[:, 2]

    monkeypatch.setattr(lab, "vector_de_fiedler", third_eigenvector)
    assert lab.run()["el_fiedler_minimiza_rayleigh"] is False


def test_removing_the_bridge(out: dict) -> None:
    # two disjoint triangles: each K3 has eigenvalues 0, 3, 3, so (0, 0, 3, 3, 3, 3)
    L = np.zeros((N, N))
    for i, j in EDGES[:-1]:
        L[i, j] = L[j, i] = -1
    L += np.diag(-L.sum(axis=1))
    eig = np.linalg.eigvals(L).real  # general solver, not the lab's eigh
    assert np.sort(eig) == pytest.approx([0, 0, 3, 3, 3, 3], abs=1e-9)
    with_bridge = out["conectividad_algebraica"] > 1e-9
    assert out["quitar_el_puente_anula_lambda2"] == (with_bridge and abs(np.sort(eig)[1]) < 1e-9)
    assert out["quitar_el_puente_anula_lambda2"] is True
    # the claim can fail: with a bridge of weight 0 there is nothing left to remove
    no_bridge = emitted(337, peso_puente=0.0)
    assert no_bridge["conectividad_algebraica"] == 0.0
    assert no_bridge["quitar_el_puente_anula_lambda2"] is False


def test_gft_energy(out: dict) -> None:
    norm2 = sum(v * v for v in X)
    low0 = sum(X) ** 2 / N  # coefficient on the unit constant vector, squared
    low1 = sum(a * b for a, b in zip(fiedler_closed_form(), X)) ** 2
    assert out["energia_en_dos_frecuencias_bajas"] == pytest.approx((low0 + low1) / norm2, abs=1e-6)
    assert out["energia_en_dos_frecuencias_bajas"] == pytest.approx(0.946228, abs=1e-6)
    # Parseval: the lab's transform is Uᵀ with U orthogonal (its columns are the GFT of e_1..e_n)
    lab = lab_module(337)
    L = lab.laplaciano(tuple(EDGES), N, np.ones(len(EDGES)))
    _, U = lab.base_espectral(L)
    Ut = lab.gft(U, np.eye(N))
    assert Ut @ Ut.T == pytest.approx(np.eye(N), abs=1e-12)
    assert np.allclose(L @ U, U * np.linalg.eigvalsh(L), atol=1e-12)  # columns: eigenvectors
    x_hat = lab.gft(U, np.array(X))
    energies = out["energia_de_la_senal_y_de_su_gft"]
    assert energies["senal"] == pytest.approx(norm2, abs=1e-12) and norm2 == pytest.approx(6.1)
    assert energies["transformada"] == pytest.approx(float(x_hat @ x_hat), abs=1e-12)
    assert energies["transformada"] == pytest.approx(norm2, abs=1e-9)
    # xᵀLx = Σ λ_k x̂_k²: the edge energy seen in the frequency domain
    eig = np.linalg.eigvalsh(L)
    edge_energy = sum((X[i] - X[j]) ** 2 for i, j in EDGES)
    assert float(eig @ x_hat**2) == pytest.approx(edge_energy, abs=1e-12)
    assert edge_energy == pytest.approx(3.89, abs=1e-12)


def test_the_basis_is_the_same_whatever_basis_eigh_picks(monkeypatch: pytest.MonkeyPatch) -> None:
    """eigh's eigenvectors of the triple eigenvalue 3 (and every sign) depend on the processor;
    the basis the GFT uses (and the practice notebook records) must not. Here eigh is made to
    answer with each eigenspace's basis rotated and its signs flipped at random."""
    lab = lab_module(337)
    L = lab.laplaciano(tuple(EDGES), N, np.ones(len(EDGES)))
    values, U = lab.base_espectral(L)
    assert np.sum(np.abs(values - 3) < 1e-9) == 3  # the repeated eigenvalue the basis fixes
    real_eigh = np.linalg.eigh
    rng = np.random.default_rng(7)

    def other_basis(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w, V = real_eigh(matrix)
        V = V.copy()
        start = 0
        while start < len(w):
            end = start + 1
            while end < len(w) and w[end] - w[start] < 1e-9:
                end += 1
            q, _ = np.linalg.qr(rng.standard_normal((end - start, end - start)))
            V[:, start:end] = V[:, start:end] @ q  # another orthonormal basis of the same space
            start = end
        return w, V * rng.choice([-1.0, 1.0], size=len(w))

    for _ in range(5):
        monkeypatch.setattr(lab.np.linalg, "eigh", other_basis)
        _, again = lab.base_espectral(L)
        monkeypatch.setattr(lab.np.linalg, "eigh", real_eigh)
        assert again == pytest.approx(U, abs=1e-12)
    # and the honest contrast: eigh's own answer, rotated, is not that basis
    _, rotated = other_basis(L)
    assert not np.allclose(rotated, U, atol=1e-6)


def test_cycle_is_diagonalised_by_the_dft(out: dict) -> None:
    n = 6
    cycle = [(k, (k + 1) % n) for k in range(n)]
    for k in range(n):
        lam = 2 - 2 * math.cos(2 * math.pi * k / n)
        for phase in (math.cos, math.sin):
            v = [phase(2 * math.pi * k * j / n) for j in range(n)]
            assert laplacian_apply(cycle, v) == pytest.approx([lam * x for x in v], abs=1e-12)
    # Fᴴ L F entry by entry in plain complex arithmetic: (Fᴴ L F)_kl = ⟨F_k, L F_l⟩
    cols = [
        [cmath.exp(-2j * math.pi * j * k / n) / math.sqrt(n) for j in range(n)] for k in range(n)
    ]
    gap = 0.0
    for k in range(n):
        for m in range(n):
            re = laplacian_apply(cycle, [c.real for c in cols[m]])
            im = laplacian_apply(cycle, [c.imag for c in cols[m]])
            Lcol = [a + 1j * b for a, b in zip(re, im)]
            entry = sum(cols[k][j].conjugate() * Lcol[j] for j in range(n))
            target = 2 - 2 * math.cos(2 * math.pi * k / n) if k == m else 0.0
            gap = max(gap, abs(entry - target))
    assert gap < 1e-9
    shown = out["ciclo_c6_en_la_base_dft"]
    closed = [2 - 2 * math.cos(2 * math.pi * k / n) for k in range(n)]
    assert shown["diagonal"] == pytest.approx(closed, abs=1e-9)
    assert shown["formula"] == pytest.approx(closed, abs=1e-12)
    assert shown["mayor_fuera_de_la_diagonal"] == pytest.approx(0.0, abs=1e-9)
    sorted_diag = sorted(2 - 2 * math.cos(2 * math.pi * k / n) for k in range(n))
    assert sorted_diag == pytest.approx([0, 1, 1, 3, 3, 4], abs=1e-12)
    # those are the cycle Laplacian's eigenvalues; the unitary DFT's own are only ±1, ±i
    F = np.array(cols).T
    for z in np.linalg.eigvals(F):
        assert min(abs(z - w) for w in (1, -1, 1j, -1j)) < 1e-9


def test_bridge_weight_moves_lambda2() -> None:
    weak = emitted(337, peso_puente=0.1)
    strong = emitted(337, peso_puente=5.0)
    assert 0 < weak["conectividad_algebraica"] < 0.438447 < strong["conectividad_algebraica"]
    # with a weighted bridge w the same symmetry gives λ² − (3 + 2w)λ + 2w = 0
    for w, o in ((0.1, weak), (5.0, strong)):
        lam = ((3 + 2 * w) - math.sqrt((3 + 2 * w) ** 2 - 8 * w)) / 2
        assert o["conectividad_algebraica"] == pytest.approx(lam, abs=1e-6)
        assert o["particion_por_signo"] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="peso_puente"):
        lab_module(337).run(peso_puente=-1.0)


def test_against_networkx(out: dict) -> None:
    nx = pytest.importorskip("networkx")
    pytest.importorskip("scipy")
    G = nx.Graph(EDGES)
    lambda2 = nx.algebraic_connectivity(G, tol=1e-12)
    assert lambda2 == pytest.approx(out["conectividad_algebraica"], abs=1e-6)
    f = nx.fiedler_vector(G, tol=1e-12)
    f = [f[i] for i in range(N)]  # nodes were added in order 0..5
    if f[0] > 0:
        f = [-v for v in f]
    assert f == pytest.approx(out["vector_de_fiedler"], abs=1e-5)
    spectrum = np.sort(nx.laplacian_spectrum(G))
    assert spectrum == pytest.approx(out["autovalores_laplaciano"], abs=1e-6)


def test_renamed_nodes_give_the_renamed_fiedler_vector_signed_by_the_new_node_0() -> None:
    """permutacion = "0,3,1,4,2,5" (a [practica] variant) puts nodes 0 and 1 in different
    triangles: the Fiedler vector is the closed form renamed, with the new node 0 negative; had
    the sign been fixed by node 1 (the same node in the example's own numbering), it would be
    the opposite vector here."""
    order = [0, 3, 1, 4, 2, 5]
    got = emitted(337, permutacion=",".join(map(str, order)))
    renamed = [fiedler_closed_form()[old] for old in order]
    assert renamed[0] < 0 < renamed[1]  # the two conventions disagree on this graph
    assert got["vector_de_fiedler"] == pytest.approx(renamed, abs=1e-6)
    assert got["conectividad_algebraica"] == pytest.approx(LAMBDA2, abs=1e-6)
    assert got["particion_por_signo"] == [[0, 2, 4], [1, 3, 5]]
    assert got["aristas_cortadas"] == 1
    assert got["energia_de_la_senal_y_de_su_gft"]["senal"] == pytest.approx(sum(v * v for v in X))
    assert got["quitar_el_puente_anula_lambda2"] and got["el_fiedler_minimiza_rayleigh"]


def test_a_bad_permutation_is_refused() -> None:
    with pytest.raises(ValueError, match="permutación"):
        lab_module(337).run(permutacion="0,0,1,2,3,4")
