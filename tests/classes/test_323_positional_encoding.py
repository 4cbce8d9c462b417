"""Class 323: the sinusoidal table recomputed independently, and its claims from its numbers."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_cb50a9fcfe108706.txt"


def reference_pe(pos: float, d: int) -> list[float]:
    """PE(pos) component by component, straight from the paper's formula in plain Python."""
    out = []
    for j in range(d):
        angle = pos / 10000 ** (2 * (j // 2) / d)
        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return out


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(323)


def test_keys_in_the_seed_order(out: dict) -> None:
    assert list(out) == [
        "dimension",
        "codificaciones",
        "normas",
        "producto_pos0_pos1",
        "producto_pos0_pos5",
        "la_similitud_decae_con_la_distancia",
        "parametros_aprendidos",
        "extrapola_a_secuencias_mas_largas",
        "alternativas",
    ]


def test_encodings_match_the_formula(out: dict) -> None:
    d = out["dimension"]
    for name, vector in out["codificaciones"].items():
        pos = int(name.removeprefix("pos_"))
        assert vector == pytest.approx(reference_pe(pos, d), abs=1e-6)


def test_products_and_claim_recomputed_from_emitted_numbers(out: dict) -> None:
    enc = out["codificaciones"]
    p1 = sum(a * b for a, b in zip(enc["pos_0"], enc["pos_1"]))
    p5 = sum(a * b for a, b in zip(enc["pos_0"], enc["pos_5"]))
    assert out["producto_pos0_pos1"] == pytest.approx(p1, abs=1e-5)
    assert out["producto_pos0_pos5"] == pytest.approx(p5, abs=1e-5)
    # closed form: PE(0)·PE(k) = Σ_i cos(k ω_i)
    omega = [10000 ** (-2 * i / 8) for i in range(4)]
    assert out["producto_pos0_pos1"] == pytest.approx(sum(math.cos(w) for w in omega), abs=1e-6)
    # the claim's sense: strictly decreasing over k = 0..3, where every k·ω_i is within [0, π]
    short = [sum(a * b for a, b in zip(enc["pos_0"], enc[f"pos_{k}"])) for k in range(4)]
    assert out["la_similitud_decae_con_la_distancia"] == all(
        short[k] > short[k + 1] for k in range(3)
    )
    assert out["la_similitud_decae_con_la_distancia"] is True
    assert 3 * max(omega) <= math.pi < 4 * max(omega)  # why the window stops at k = 3


@pytest.mark.parametrize("d", [2, 4, 8, 64, 512])
def test_short_range_decay_holds_in_every_dimension(d: int) -> None:
    products = [sum(math.cos(k * 10000 ** (-2 * i / d)) for i in range(d // 2)) for k in range(4)]
    assert all(products[k] > products[k + 1] for k in range(3))
    assert emitted(323, dimension=d)["la_similitud_decae_con_la_distancia"] is True


def test_wrong_frequencies_break_the_decay_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: every hand twice as fast (ω_0 = 2 turns half a revolution before k = 2)."""
    lab = lab_module(323)
    monkeypatch.setattr(lab, "frecuencias", lambda d: 2 / 10000.0 ** (2 * np.arange(d // 2) / d))
    assert lab.run()["la_similitud_decae_con_la_distancia"] is False


def test_norms_are_sqrt_half_d(out: dict) -> None:
    for name, norm in out["normas"].items():
        vector = out["codificaciones"][name]
        assert norm == pytest.approx(math.sqrt(sum(x * x for x in vector)), abs=1e-5)
        assert norm == pytest.approx(math.sqrt(out["dimension"] / 2), abs=1e-12)


@pytest.mark.parametrize("d", [2, 8, 16, 64])
def test_norm_is_constant_for_every_position(d: int) -> None:
    pe = lab_module(323).codificacion(np.arange(200), d)
    assert np.max(np.abs(np.linalg.norm(pe, axis=1) - math.sqrt(d / 2))) < 1e-12


def test_product_depends_only_on_the_offset() -> None:
    pe = lab_module(323).codificacion(np.arange(60), 16)
    gram = pe @ pe.T
    for k in range(10):
        diagonal = np.diagonal(gram, offset=k)
        assert np.ptp(diagonal) < 1e-12


def test_shift_is_a_block_rotation() -> None:
    d, k = 8, 3
    lab = lab_module(323)
    pe = lab.codificacion(np.arange(53), d)
    omega = lab.frecuencias(d)
    rotation = np.zeros((d, d))
    for i, w in enumerate(omega):
        c, s = math.cos(k * w), math.sin(k * w)
        # (sin a, cos a) -> (sin(a + kw), cos(a + kw)) in row-vector form
        rotation[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    assert np.max(np.abs(pe[:-k] @ rotation - pe[k:])) < 1e-12


def test_dimension_two_and_a_far_position() -> None:
    lab = lab_module(323)
    expected = [[0.0, 1.0], [math.sin(1), math.cos(1)], [math.sin(2), math.cos(2)]]
    assert np.max(np.abs(lab.codificacion(np.arange(3), 2) - np.array(expected))) < 1e-15
    far = lab.codificacion(np.array([10**6]), 64)[0]
    assert np.all(np.isfinite(far))
    assert far.tolist() == pytest.approx(reference_pe(10**6, 64), abs=1e-9)
    assert emitted(323, dimension=2)["extrapola_a_secuencias_mas_largas"] is True


@pytest.mark.parametrize("far", [10**6, 10**9, 10**12])
def test_far_claim_turns_false_when_rounding_eats_the_geometry(far: int) -> None:
    claim = emitted(323, posicion_lejana=far)["extrapola_a_secuencias_mas_largas"]
    assert claim == keeps_geometry(far, 8)
    assert claim is (far < 10**9)  # the page: «hacia L = 10⁹ el error pasa de 1e-9»


def test_odd_dimension_is_refused() -> None:
    with pytest.raises(ValueError, match="par"):
        lab_module(323).run(dimension=7)


def keeps_geometry(far: int, d: int) -> bool:
    """The far claim recomputed in plain Python: finite, norm √(d/2), neighbours' products kept."""
    table = [reference_pe(far + k, d) for k in range(6)]
    near = [reference_pe(k, d) for k in range(6)]
    products = [sum(a * b for a, b in zip(table[0], table[k])) for k in range(6)]
    offsets = [sum(a * b for a, b in zip(near[0], near[k])) for k in range(6)]
    return (
        all(math.isfinite(x) for row in table for x in row)
        and abs(math.sqrt(sum(x * x for x in table[0])) - math.sqrt(d / 2)) < 1e-12
        and max(abs(products[k] - offsets[k]) for k in range(1, 6)) < 1e-9
    )


def test_literal_facts_and_far_claim(out: dict) -> None:
    assert out["extrapola_a_secuencias_mas_largas"] == keeps_geometry(10_000, out["dimension"])
    assert out["extrapola_a_secuencias_mas_largas"] is True
    assert out["parametros_aprendidos"] == 0
    assert out["alternativas"] == ["posiciones aprendidas", "RoPE", "ALiBi"]


SAMPLE = Path(__file__).resolve().parents[1] / "data" / "seed_323_sample.json"


def test_seed_sample_comes_out_byte_for_byte(out: dict) -> None:
    """The seed page's sample run (its first six outputs) in the seed's exact layout."""
    first_six = {key: out[key] for key in list(out)[:6]}
    assert json.dumps(first_six, indent=2, ensure_ascii=False) + "\n" == SAMPLE.read_text()


def test_kept_sample_is_the_seeds(out: dict) -> None:
    if not SEED.exists():
        pytest.skip("shared/seeds is not beside this checkout")
    text = SEED.read_text(encoding="utf-8")
    start = text.index("Muestra de la ejecución real") + len("Muestra de la ejecución real")
    assert text[start : text.index("Errores comunes")].strip() + "\n" == SAMPLE.read_text()


def test_similarity_is_not_monotone_in_d8() -> None:
    products = [
        sum(a * b for a, b in zip(reference_pe(0, 8), reference_pe(k, 8))) for k in range(9)
    ]
    assert products[6] > products[1]  # the honest note on the page


def first_rise(d: int) -> int:
    """The first k at which PE(0)·PE(k) = Σ_i cos(k ω_i) goes up instead of down."""
    products = [sum(math.cos(k * 10000 ** (-2 * i / d)) for i in range(d // 2)) for k in range(200)]
    return next(k for k in range(1, 200) if products[k] > products[k - 1])


def test_page_numbers_on_the_decay_and_the_slowest_hand() -> None:
    assert [first_rise(d) for d in (8, 64, 512)] == [4, 6, 44]  # "baja hasta k = 43, sube en 44"
    products = [
        sum(a * b for a, b in zip(reference_pe(0, 8), reference_pe(k, 8))) for k in range(9)
    ]
    assert [round(p, 3) for p in products] == [
        4.0,
        3.535,
        2.564,
        1.965,
        2.267,
        3.16,
        3.784,
        3.516,
        2.548,
    ]
    slowest_period = 2 * math.pi * 10000 ** (510 / 512)  # d = 512, i = d/2 − 1
    assert 60_000 < slowest_period < 61_000
    assert lab_module(323).frecuencias(8) == pytest.approx([1, 0.1, 0.01, 0.001], rel=1e-12)


def attention(x: np.ndarray, causal: bool) -> np.ndarray:
    """One head with fixed random projections; the causal mask hides later tokens."""
    rng = np.random.default_rng(0)
    w_q, w_k, w_v = (rng.standard_normal((x.shape[1], 4)) for _ in range(3))
    scores = (x @ w_q) @ (x @ w_k).T / 2.0
    if causal:
        scores = np.where(np.tril(np.ones_like(scores)) == 1, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ (x @ w_v)


def test_only_unmasked_attention_is_blind_to_order() -> None:
    """The page's qualifier: equivariance holds without a mask, and fails with a causal one."""
    x = np.random.default_rng(1).standard_normal((5, 8))
    order = [3, 0, 4, 1, 2]
    assert np.allclose(attention(x[order], causal=False), attention(x, causal=False)[order])
    assert not np.allclose(attention(x[order], causal=True), attention(x, causal=True)[order])
