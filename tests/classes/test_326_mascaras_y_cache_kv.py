"""Class 326: masked attention recomputed by skipping forbidden keys; claims from its numbers."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "mascara_causal",
    "pesos_causales",
    "pesos_futuros_son_cero",
    "el_futuro_no_afecta_al_pasado",
    "cache_kv_coincide_con_recalculo",
    "productos_qk_sin_y_con_cache",
    "peso_maximo_sobre_relleno",
    "fila_sin_claves_da_nan",
    "alineacion_causal_l1_s4",
    "convencion_segura_fila_vacia",
]
X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]]


def row_weights(q, keys, allowed) -> list[float]:
    """Softmax over the allowed keys only; forbidden keys get 0 without ever touching infinity."""
    scores = {
        j: sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q))
        for j, k in enumerate(keys)
        if allowed(j)
    }
    m = max(scores.values())
    total = sum(math.exp(s - m) for s in scores.values())
    return [math.exp(scores[j] - m) / total if j in scores else 0.0 for j in range(len(keys))]


def causal_outputs(x) -> list[list[float]]:
    out = []
    for i, q in enumerate(x):
        w = row_weights(q, x, lambda j, i=i: j <= i)
        out.append([sum(w[j] * x[j][c] for j in range(len(x))) for c in range(2)])
    return out


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(326)


def test_keys_in_order(out: dict) -> None:
    assert list(out) == KEYS


def test_mask_and_weights(out: dict) -> None:
    assert out["mascara_causal"] == [[int(j <= i) for j in range(4)] for i in range(4)]
    for i, q in enumerate(X):
        assert out["pesos_causales"][i] == pytest.approx(
            row_weights(q, X, lambda j, i=i: j <= i), abs=1e-6
        )
    syllabus = [
        [1, 0, 0, 0],
        [0.330238, 0.669762, 0, 0],
        [0.248255, 0.248255, 0.50349, 0],
        [0.100451, 0.012041, 0.049529, 0.837978],
    ]
    for row, exp in zip(out["pesos_causales"], syllabus):
        assert row == pytest.approx(exp, abs=1e-6)


def test_future_weights_claim(out: dict) -> None:
    w = out["pesos_causales"]
    assert out["pesos_futuros_son_cero"] == all(
        w[i][j] == 0.0 for i in range(4) for j in range(i + 1, 4)
    )
    assert out["pesos_futuros_son_cero"]


def test_future_does_not_affect_past(out: dict) -> None:
    w = out["pesos_causales"]
    emitted_outputs = [
        [sum(w[i][j] * X[j][c] for j in range(4)) for c in range(2)] for i in range(4)
    ]
    changed = [row[:] for row in X]
    changed[3] = [-5.0, 7.0]
    after = causal_outputs(changed)
    unchanged = all(
        abs(after[i][c] - emitted_outputs[i][c]) < 1e-5 for i in range(3) for c in range(2)
    )
    assert out["el_futuro_no_afecta_al_pasado"] == unchanged
    assert out["el_futuro_no_afecta_al_pasado"]
    assert after[3] != pytest.approx(emitted_outputs[3], abs=1e-3)  # token 3 itself does change


@pytest.mark.parametrize("new_token", [(-5.0, 7.0), (100.0, -100.0), (0.0, 0.0), (1e3, 1e3)])
def test_any_new_last_token_leaves_the_past_alone(new_token: tuple[float, float]) -> None:
    result = emitted(326, token_3_x=new_token[0], token_3_y=new_token[1])
    assert result["el_futuro_no_afecta_al_pasado"] is True


def test_kv_cache_equals_full_recompute(out: dict) -> None:
    w = out["pesos_causales"]
    full = [[sum(w[i][j] * X[j][c] for j in range(4)) for c in range(2)] for i in range(4)]
    cache_k: list[list[float]] = []
    incremental = []
    for t, x in enumerate(X):
        cache_k.append(x)  # K = V = X here
        weights = row_weights(x, cache_k, lambda j: True)  # the new token sees the whole cache
        incremental.append([sum(wj * k[c] for wj, k in zip(weights, cache_k)) for c in range(2)])
    same = all(abs(incremental[i][c] - full[i][c]) < 1e-5 for i in range(4) for c in range(2))
    assert out["cache_kv_coincide_con_recalculo"] == same
    assert out["cache_kv_coincide_con_recalculo"]
    lab = lab_module(326)
    _, y = lab.atencion(lab.X, lab.X, lab.X, lab.mascara_causal(4, 4))
    assert np.max(np.abs(lab.decodificar_con_cache(lab.X)[0] - y)) < 1e-12
    assert np.max(np.abs(lab.decodificar_sin_cache(lab.X)[0] - y)) < 1e-12


def test_product_counts_closed_forms(out: dict) -> None:
    n = 4
    counts = out["productos_qk_sin_y_con_cache"]
    assert counts == {"sin_cache": n * (n + 1) * (n + 2) // 6, "con_cache": n * (n + 1) // 2}
    assert counts == {"sin_cache": 20, "con_cache": 10}
    lab = lab_module(326)
    x8 = np.random.default_rng(0).standard_normal((8, 2))
    assert lab.decodificar_sin_cache(x8)[1] == 8 * 9 * 10 // 6
    assert lab.decodificar_con_cache(x8)[1] == 8 * 9 // 2


def test_padding_column_gets_no_weight(out: dict) -> None:
    weights_on_pad = [
        row_weights(q, X, lambda j, i=i: j <= i and j != 3)[3] for i, q in enumerate(X)
    ]
    assert out["peso_maximo_sobre_relleno"] == max(weights_on_pad) == 0.0
    lab = lab_module(326)
    pad_only = np.array([[1, 1, 1, 0]] * 4)  # bidirectional encoder with the last token as padding
    a, _ = lab.atencion(lab.X, lab.X, lab.X, pad_only)
    assert np.all(a[:, 3] == 0.0)
    assert np.allclose(a.sum(axis=1), 1.0, atol=1e-12)


def test_empty_row_is_nan_and_the_safe_convention_is_zero(out: dict) -> None:
    with np.errstate(invalid="ignore"):
        z = np.full(4, -np.inf)
        e = np.exp(z - z.max())
        naive = e / e.sum()
    assert out["fila_sin_claves_da_nan"] == bool(np.isnan(naive).all())
    assert out["fila_sin_claves_da_nan"]
    assert out["convencion_segura_fila_vacia"] == [0.0, 0.0, 0.0, 0.0]
    lab = lab_module(326)
    mixed = np.array([[1, 1, 0, 0], [0, 0, 0, 0]])
    safe = lab.softmax_segura(np.ones((2, 4)), mixed)
    assert safe.tolist() == [[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]


def test_causal_alignments(out: dict) -> None:
    lab = lab_module(326)
    assert out["alineacion_causal_l1_s4"] == {
        "arriba_izquierda": [[1, 0, 0, 0]],
        "abajo_derecha": [[1, 1, 1, 1]],
    }
    for L, S in [(1, 4), (2, 5), (3, 3), (4, 6)]:
        assert lab.mascara_causal(L, S).tolist() == np.tril(np.ones((L, S), dtype=int)).tolist()
        lower_right = [[int(j <= i + S - L) for j in range(S)] for i in range(L)]
        assert lab.mascara_causal(L, S, "abajo_derecha").tolist() == lower_right
        assert lower_right[-1] == [1] * S  # the newest query always sees every key
    assert lab.mascara_causal(4, 4, "abajo_derecha").tolist() == lab.mascara_causal(4, 4).tolist()


def test_large_finite_mask_in_fp16_overflows() -> None:
    assert float(np.finfo(np.float16).max) == 65504.0  # the README's "65 504"
    with np.errstate(over="ignore"):
        assert np.isneginf(np.float16(-1e9))  # −1e9 is not representable in fp16
    assert np.isfinite(np.float16(-1e4))
    # a fully masked row with a finite −1e4 spreads its weight evenly over forbidden keys
    row = np.full(4, -1e4, dtype=np.float16)
    e = np.exp(row - row.max())
    assert (e / e.sum()).tolist() == [0.25] * 4
    # and a legitimate score near −1e4 is no longer told apart from a masked one
    scores = np.array([-1e4, 0.0], dtype=np.float16) + np.array([0.0, -1e4], dtype=np.float16)
    assert scores[0] == scores[1]


def test_past_outputs_are_bitwise_identical() -> None:
    """The README says the outputs 0-2 do not change "ni en el último bit"."""
    lab = lab_module(326)
    changed = lab.X.copy()
    changed[3] = (-5.0, 7.0)
    _, before = lab.atencion(lab.X, lab.X, lab.X, lab.mascara_causal(4, 4))
    _, after = lab.atencion(changed, changed, changed, lab.mascara_causal(4, 4))
    assert np.array_equal(before[:3], after[:3])
    assert not np.allclose(before[3], after[3])


def test_unknown_alignment_is_refused() -> None:
    with pytest.raises(ValueError, match="alineación"):
        lab_module(326).mascara_causal(1, 4, "abajo_izquierda")


def test_worked_example_scores() -> None:
    raw = [[sum(a * b for a, b in zip(q, k)) for k in X] for q in X]
    assert raw[1][:2] == [0.0, 1.0]
    assert raw[2][:3] == [1.0, 1.0, 2.0]
    assert raw[3] == [2.0, -1.0, 1.0, 5.0]
    assert 1 / math.sqrt(2) == pytest.approx(0.7071, abs=5e-5)


def test_scaled_tokens_keep_the_masked_softmax_finite() -> None:
    """escala = 15 (a [practica] variant) pushes the last token's scores past 700: the lab's
    weights are the stable softmax recomputed here (exp of a score alone would overflow), and
    the claims still hold."""
    got = emitted(326, escala=15.0)
    x = [[15.0 * v for v in row] for row in X]
    top = max(sum(a * b for a, b in zip(q, q)) / math.sqrt(2) for q in x)
    assert top > 710
    with pytest.raises(OverflowError):
        math.exp(top)
    shown = np.array(got["pesos_causales"])
    expected = [row_weights(q, x, lambda j, i=i: j <= i) for i, q in enumerate(x)]
    assert np.all(np.isfinite(shown)) and np.max(np.abs(shown - np.array(expected))) < 1e-6
    assert all(got[key] for key in ("pesos_futuros_son_cero", "el_futuro_no_afecta_al_pasado",
                                    "cache_kv_coincide_con_recalculo"))  # fmt: skip
