"""Class 327: multi-head attention recomputed with plain loops and a reshape-based version."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
W_Q = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 0, 1]]
W_K = [[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 1, 0], [0, 0, 0, 1]]
W_O = [[0.5 * v for v in row] for row in [[1, 0, 0, 1], [0, 1, 1, 0], [0, 0, 1, 0], [1, 1, 0, 0]]]

KEYS = [
    "configuracion",
    "pesos_por_cabeza",
    "salida",
    "las_cabezas_atienden_distinto",
    "concatenar_y_proyectar_es_sumar_por_cabeza",
    "una_cabeza_es_atencion_simple",
    "parametros_sin_sesgo",
    "cada_parametro_influye_en_la_salida",
    "cache_kv_por_token_y_capa",
]


def matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [
        [sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def loop_multihead(h: int) -> tuple[list[list[list[float]]], list[list[float]]]:
    """Per-head weights and Concat·W_O, entry by entry in plain Python (W_V = I, so V = X)."""
    q, k, v = matmul(X, W_Q), matmul(X, W_K), X
    d_h = 4 // h
    weights, concat = [], [[0.0] * 4 for _ in range(3)]
    for head in range(h):
        cols = range(head * d_h, (head + 1) * d_h)
        a = []
        for i in range(3):
            scores = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d_h) for j in range(3)]
            top = max(scores)
            ex = [math.exp(s - top) for s in scores]
            a.append([e / sum(ex) for e in ex])
            for c in cols:
                concat[i][c] = sum(a[i][j] * v[j][c] for j in range(3))
        weights.append(a)
    return weights, matmul(concat, W_O)


def reshape_multihead(h: int) -> np.ndarray:
    """The nanoGPT way: (n, d) -> (h, n, d_h) with reshape + transpose, batched matmul."""
    x, wq, wk, wo = (np.array(m, dtype=float) for m in (X, W_Q, W_K, W_O))
    n, d = x.shape

    def split(m: np.ndarray) -> np.ndarray:
        return m.reshape(n, h, d // h).transpose(1, 0, 2)

    q, k, v = split(x @ wq), split(x @ wk), split(x)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(d // h)
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    return (a @ v).transpose(1, 0, 2).reshape(n, d) @ wo


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(327)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert out["configuracion"] == {"d_modelo": 4, "cabezas": 2, "dim_cabeza": 2}


def test_weights_and_output_match_plain_loops(out: dict) -> None:
    weights, output = loop_multihead(2)
    for emitted_head, reference in zip(out["pesos_por_cabeza"], weights, strict=True):
        for row, ref_row in zip(emitted_head, reference, strict=True):
            assert row == pytest.approx(ref_row, abs=1e-6)
    for row, ref_row in zip(out["salida"], output, strict=True):
        assert row == pytest.approx(ref_row, abs=1e-6)


def test_syllabus_values(out: dict) -> None:
    head1, head2 = out["pesos_por_cabeza"]
    third = 1 / 3
    # head 1 repeats class 324's attention weights
    assert head1 == [
        pytest.approx(r, abs=1e-6)
        for r in ([third] * 3, [0.767918, 0.045388, 0.186694], [0.575975, 0.140029, 0.283995])
    ]
    assert head2 == [
        pytest.approx(r, abs=1e-6)
        for r in ([0.140029, 0.575975, 0.283995], [third] * 3, [third] * 3)
    ]
    assert out["salida"][0] == pytest.approx([0.621321, 0.621321, 0.403348, 0.333333], abs=1e-6)
    assert out["parametros_sin_sesgo"] == {"1": 64, "2": 64, "4": 64}
    assert out["cache_kv_por_token_y_capa"] == {
        "mha_8_cabezas": 1024,
        "gqa_2_grupos": 256,
        "mqa": 128,
    }


def test_uniform_rows_come_from_equal_scores() -> None:
    q, k = matmul(X, W_Q), matmul(X, W_K)
    scores = [[q[i][2] * k[j][2] + q[i][3] * k[j][3] for j in range(3)] for i in range(3)]
    assert scores == [[0, 2, 1], [2, 2, 2], [2, 2, 2]]


def test_reshape_version_agrees_for_every_h() -> None:
    lab = lab_module(327)
    for h in (1, 2, 4):
        projections = lab.proyecciones_por_cabeza(lab.W_Q, lab.W_K, lab.W_V, h)
        _, _, output = lab.multicabeza(lab.X, projections, lab.W_O)
        assert np.max(np.abs(output - reshape_multihead(h))) < 1e-12
        assert np.max(np.abs(output - np.array(loop_multihead(h)[1]))) < 1e-12


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    a1, a2 = (np.array(a) for a in out["pesos_por_cabeza"])
    assert out["las_cabezas_atienden_distinto"] == bool(np.max(np.abs(a1 - a2)) > 1e-3)
    for a in (a1, a2):
        assert np.allclose(a.sum(axis=1), 1, atol=2e-6)
    # Concat·W_O as a sum of per-head contributions, from the emitted weights (V = X)
    v = np.array(X, dtype=float)
    w_o = np.array(W_O)
    by_head = a1 @ v[:, 0:2] @ w_o[0:2] + a2 @ v[:, 2:4] @ w_o[2:4]
    same = np.max(np.abs(by_head - np.array(out["salida"]))) < 1e-5
    assert out["concatenar_y_proyectar_es_sumar_por_cabeza"] == bool(same)
    counts = out["parametros_sin_sesgo"]
    assert all(c == 4 * 4**2 for c in counts.values())


def test_single_head_is_plain_attention(out: dict) -> None:
    _, single = loop_multihead(1)
    q, k = np.array(matmul(X, W_Q)), np.array(matmul(X, W_K))
    s = q @ k.T / 2.0  # √d with d = 4
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    plain = a @ np.array(X, dtype=float) @ np.array(W_O)
    same = np.max(np.abs(plain - np.array(single))) < 1e-12
    assert out["una_cabeza_es_atencion_simple"] == bool(same)
    one = emitted(327, cabezas=1)
    assert np.max(np.abs(np.array(one["salida"]) - plain)) < 1e-6
    assert len(one["pesos_por_cabeza"]) == 1
    assert one["las_cabezas_atienden_distinto"] is False  # only one head: nothing to compare


def test_kv_cache_closed_form(out: dict) -> None:
    d_h = 64
    assert out["cache_kv_por_token_y_capa"] == {
        "mha_8_cabezas": 2 * 8 * d_h,
        "gqa_2_grupos": 2 * 2 * d_h,
        "mqa": 2 * 1 * d_h,
    }


def test_four_heads_and_a_bad_split() -> None:
    four = emitted(327, cabezas=4)
    assert four["configuracion"]["dim_cabeza"] == 1
    assert len(four["pesos_por_cabeza"]) == 4
    assert four["concatenar_y_proyectar_es_sumar_por_cabeza"] is True
    with pytest.raises(ValueError, match="dividir"):
        lab_module(327).run(cabezas=3)


def test_snapshot_matches_the_run(out: dict) -> None:
    assert snapshot(327) == out


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_scipy_softmax_agrees(out: dict) -> None:
    special = pytest.importorskip("scipy.special")
    q, k = np.array(matmul(X, W_Q)), np.array(matmul(X, W_K))
    for i, emitted_head in enumerate(out["pesos_por_cabeza"]):
        cols = slice(2 * i, 2 * i + 2)
        ref = special.softmax(q[:, cols] @ k[:, cols].T / math.sqrt(2), axis=1)
        assert np.max(np.abs(ref - np.array(emitted_head))) < 1e-6


def test_single_head_claim_uses_an_independent_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The circuit route (W_Q W_Kᵀ, log-sum-exp, W_V W_O) does not share the lab's attention code,
    so a wrong scale in `atencion` makes the claim false instead of comparing a function with itself."""
    lab = lab_module(327)
    x, w_q, w_k, w_v, w_o = lab.X, lab.W_Q, lab.W_K, lab.W_V, lab.W_O
    _, single = loop_multihead(1)
    assert (
        np.max(np.abs(lab.una_cabeza_por_circuitos(x, w_q, w_k, w_v, w_o) - np.array(single)))
        < 1e-12
    )
    good = lab.atencion

    def scaled_by_d(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return good(q * math.sqrt(q.shape[1]) ** 0.5, k * math.sqrt(q.shape[1]) ** 0.5, v)

    monkeypatch.setattr(lab, "atencion", scaled_by_d)  # scores divided by 1 instead of √d_h
    assert lab.run()["una_cabeza_es_atencion_simple"] is False


def test_parameters_are_counted_on_the_arrays_built_for_each_h() -> None:
    lab = lab_module(327)
    for h in (1, 2, 4):
        projections = lab.proyecciones_por_cabeza(lab.W_Q, lab.W_K, lab.W_V, h)
        assert sorted(projections) == ["W_K", "W_Q", "W_V"]
        for matrices in projections.values():
            assert [m.shape for m in matrices] == [(4, 4 // h)] * h
        # each head's matrix is the column block of the full projection, not a copy of all of it
        assert np.array_equal(np.hstack(projections["W_Q"]), lab.W_Q)
        fused = np.hstack(
            [lab.W_Q, lab.W_K, lab.W_V]
        )  # nanoGPT's c_attn: (d, 3d), plus c_proj (d, d)
        assert lab.contar_parametros(projections, lab.W_O) == fused.size + lab.W_O.size == 64
    # the count really depends on what is built: h full d×d matrices per projection would grow with h
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 8))
    full_copies = {name: [w] * 4 for name in ("W_Q", "W_K", "W_V")}
    assert lab.contar_parametros(full_copies, w) == 3 * 4 * 64 + 64
    assert lab.contar_parametros(lab.proyecciones_por_cabeza(w, w, w, 4), w) == 4 * 8**2


def test_parameter_claim_comes_from_independently_built_layers(out: dict) -> None:
    lab = lab_module(327)
    rng = np.random.default_rng(0)
    for h in (1, 2, 4):
        projections, w_o = lab.construir_capa(4, h, rng)
        blocks = [m for matrices in projections.values() for m in matrices]
        assert [m.shape for m in blocks] == [(4, 4 // h)] * (3 * h) and w_o.shape == (4, 4)
        # drawn one by one: no head is a view of, or equal to, another head's matrix
        for i, m in enumerate(blocks):
            for other in blocks[i + 1 :]:
                assert not np.shares_memory(m, other) and not np.array_equal(m, other)
        assert out["parametros_sin_sesgo"][str(h)] == 3 * h * 4 * (4 // h) + h * (4 // h) * 4


def built_layer_output(x: np.ndarray, proj: dict, w_o: np.ndarray) -> np.ndarray:
    """A freshly built layer on x, written with einsum over stacked heads (not the lab's loop)."""
    q, k, v = (np.stack([x @ w for w in proj[name]]) for name in ("W_Q", "W_K", "W_V"))
    s = np.einsum("hid,hjd->hij", q, k) / math.sqrt(q.shape[-1])  # (h, n, n)
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    heads = np.einsum("hij,hjd->hid", a, v)  # (h, n, d_h)
    return np.concatenate(list(heads), axis=1) @ w_o


def test_every_counted_weight_moves_the_output(out: dict) -> None:
    """The claim redone: each weight of each built layer, bumped by 1, changes the output."""
    lab = lab_module(327)
    rng = np.random.default_rng(0)
    x = np.array(X, dtype=float)
    every = True
    for h in (1, 2, 4):
        proj, w_o = lab.construir_capa(4, h, rng)
        base = built_layer_output(x, proj, w_o)
        used = 0
        for w in [m for ms in proj.values() for m in ms] + [w_o]:
            for index in np.ndindex(w.shape):
                bumped = w.copy()
                bumped[index] += 1.0
                trial_proj = {n: [bumped if m is w else m for m in ms] for n, ms in proj.items()}
                trial = built_layer_output(x, trial_proj, bumped if w is w_o else w_o)
                used += int(np.max(np.abs(trial - base)) > 1e-9)
        every &= used == out["parametros_sin_sesgo"][str(h)] == 64
    assert out["cada_parametro_influye_en_la_salida"] == every is True


def test_a_head_that_ignores_its_keys_makes_the_claim_false(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hostile: keys projected with W_Q by a copy slip; W_K's weights then move nothing."""
    lab = lab_module(327)

    def slipped(x: np.ndarray, proj: dict, w_o: np.ndarray) -> tuple[list, list, np.ndarray]:
        weights, heads = [], []
        for w_q, _, w_v in zip(proj["W_Q"], proj["W_K"], proj["W_V"]):
            a, c = lab.atencion(x @ w_q, x @ w_q, x @ w_v)
            weights.append(a)
            heads.append(c)
        return weights, heads, np.concatenate(heads, axis=1) @ w_o

    monkeypatch.setattr(lab, "multicabeza", slipped)
    assert lab.run()["cada_parametro_influye_en_la_salida"] is False


def test_full_size_heads_cost_more_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads of dimension d (each with its own d×d matrices) cost 4·h·d²: the count sees it,
    so it is a count of what is built, not of a formula (the claim about use stays true)."""
    lab = lab_module(327)

    def full_heads(d: int, h: int, rng: np.random.Generator) -> tuple[dict, np.ndarray]:
        proj = {n: [rng.standard_normal((d, d)) for _ in range(h)] for n in ("W_Q", "W_K", "W_V")}
        return proj, rng.standard_normal((h * d, d))

    monkeypatch.setattr(lab, "construir_capa", full_heads)
    result = lab.run()
    assert result["parametros_sin_sesgo"] == {"1": 64, "2": 128, "4": 256}
    assert result["cada_parametro_influye_en_la_salida"] is True


def test_cache_figures_in_the_worked_example() -> None:
    tokens, layers = 8192, 32
    assert 2 * 8 * 64 * tokens * layers == 268_435_456  # "268 millones"
    assert 2 * 1 * 64 * tokens * layers == 33_554_432  # "33,5 millones"


def test_head_one_scores_and_the_class_324_matrices() -> None:
    q, k = matmul(X, W_Q), matmul(X, W_K)
    scores = [[q[i][0] * k[j][0] + q[i][1] * k[j][1] for j in range(3)] for i in range(3)]
    assert scores == [[2, 2, 2], [4, 0, 2], [3, 1, 2]]
    # the first two columns of W_Q and W_K are class 324's 4×2 projections
    assert [row[:2] for row in W_Q] == [[1, 0], [0, 1], [1, 0], [0, 1]]
    assert [row[:2] for row in W_K] == [[0, 1], [1, 0], [1, 1], [0, 0]]
