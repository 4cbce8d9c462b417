"""Class 328: RoPE recomputed with complex numbers (Meta's way), ALiBi slopes in closed form."""

import cmath
import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

Q = [1.0, 0.0, 0.5, 0.5]
K = [0.5, 1.0, -0.5, 1.0]

KEYS = [
    "frecuencias",
    "vectores_rotados",
    "productos_distancia_2",
    "producto_solo_depende_de_la_distancia",
    "rotacion_conserva_normas",
    "intercalado_equivale_a_mitades",
    "cota_de_decaimiento",
    "la_cota_decae_en_promedio",
    "extension_de_contexto",
    "pendientes_alibi",
    "sesgo_alibi_cabeza_0",
    "alibi_prefiere_lo_reciente",
    "sesgo_m_por_j_equivale",
]
WINDOWS = [(1, 10), (11, 100), (101, 1000), (1001, 10000)]


def rope_complex(x: list[float], m: float, base: float = 10000.0) -> list[float]:
    """Interleaved RoPE as in Meta's Llama: pair (x_2i, x_2i+1) as a complex number times e^{imθ_i}."""
    d = len(x)
    out = []
    for i in range(d // 2):
        theta = base ** (-2 * i / d)
        z = complex(x[2 * i], x[2 * i + 1]) * cmath.exp(1j * m * theta)
        out += [z.real, z.imag]
    return out


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def official_get_slopes(n: int) -> list[float]:
    """Transcription of get_slopes from ofirpress/attention_with_linear_biases."""

    def power_of_2(n: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + official_get_slopes(2 * closest)[0::2][: n - closest]


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(328)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["productos_distancia_2"]) == ["3,1", "7,5", "102,100"]


def test_rotated_vectors_match_complex_multiplication(out: dict) -> None:
    assert out["frecuencias"] == pytest.approx([1.0, 0.01], abs=1e-12)
    assert out["vectores_rotados"]["q_pos3"] == pytest.approx(rope_complex(Q, 3), abs=1e-6)
    assert out["vectores_rotados"]["k_pos1"] == pytest.approx(rope_complex(K, 1), abs=1e-6)
    # syllabus values
    assert out["vectores_rotados"]["q_pos3"] == pytest.approx(
        [-0.989992, 0.14112, 0.484777, 0.514773], abs=1e-6
    )
    assert out["vectores_rotados"]["k_pos1"] == pytest.approx(
        [-0.57132, 0.961038, -0.509975, 0.99495], abs=1e-6
    )


def test_products_equal_the_relative_form(out: dict) -> None:
    for key, value in out["productos_distancia_2"].items():
        m, n = map(int, key.split(","))
        # ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩
        assert value == pytest.approx(dot(Q, rope_complex(K, n - m)), abs=1e-6)
        assert value == pytest.approx(dot(rope_complex(Q, m), rope_complex(K, n)), abs=1e-6)
        assert value == pytest.approx(0.966173, abs=1e-6)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    values = list(out["productos_distancia_2"].values())
    assert out["producto_solo_depende_de_la_distancia"] == (max(values) - min(values) < 1e-6)
    far = rope_complex(Q, 37)
    norm_gap = abs(math.sqrt(dot(far, far)) - math.sqrt(dot(Q, Q)))
    assert out["rotacion_conserva_normas"] == (norm_gap < 1e-12)
    bias = out["sesgo_alibi_cabeza_0"]
    last = [math.exp(b) for b in bias[-1]]  # equal q·k scores: only the bias counts
    weights = [w / sum(last) for w in last]
    assert weights == pytest.approx([0.058012, 0.095646, 0.157694, 0.259993, 0.428656], abs=1e-6)
    assert out["alibi_prefiere_lo_reciente"] == all(a < b for a, b in zip(weights, weights[1:]))
    for i, row in enumerate(bias):
        valid = [j for j in range(5) if row[j] is not None]
        a = [math.exp(row[j]) for j in valid]
        b = [math.exp(0.5 * j) for j in valid]
        diff = max(abs(x / sum(a) - y / sum(b)) for x, y in zip(a, b))
        assert out["sesgo_m_por_j_equivale"] == (diff < 1e-6), i


def test_interleaved_equals_halves_up_to_permutation(out: dict) -> None:
    """Half layout written independently with a rotation matrix on pairs (j, j + d/2)."""
    d = 4
    perm = [0, 2, 1, 3]
    ok = True
    for m in range(20):
        px = [Q[p] for p in perm]
        rot = np.zeros((d, d))
        for j in range(d // 2):
            a = m * 10000 ** (-2 * j / d)
            rot[j, j], rot[j, j + 2] = math.cos(a), -math.sin(a)
            rot[j + 2, j], rot[j + 2, j + 2] = math.sin(a), math.cos(a)
        halves = rot @ np.array(px)
        interleaved = rope_complex(Q, m)
        ok &= bool(np.max(np.abs(halves - np.array([interleaved[p] for p in perm]))) < 1e-12)
    assert ok
    assert out["intercalado_equivale_a_mitades"] == ok
    # and the lab's own half-layout function is not secretly the interleaved one
    lab = lab_module(328)
    theta = lab.frecuencias(4)
    assert (
        np.max(np.abs(lab.rope_mitades(np.array(Q), 3, theta) - np.array(rope_complex(Q, 3)))) > 0.1
    )


def test_mixing_layouts_breaks_relativity() -> None:
    """Interleaved on q, halves on k: the product then depends on absolute positions."""
    lab = lab_module(328)
    theta = lab.frecuencias(4)
    q, k = np.array(Q), np.array(K)
    mixed = [
        lab.rope_intercalado(q, m, theta) @ lab.rope_mitades(k, n, theta)
        for m, n in ((3, 1), (7, 5))
    ]
    assert abs(mixed[0] - mixed[1]) > 1e-3


def test_alibi_slopes(out: dict) -> None:
    slopes = out["pendientes_alibi"]
    assert slopes["8_cabezas"] == pytest.approx([2 ** (-8 * h / 8) for h in range(1, 9)], abs=1e-6)
    assert slopes["8_cabezas"] == pytest.approx(official_get_slopes(8), abs=1e-6)
    assert slopes["6_cabezas"] == pytest.approx(
        [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125], abs=1e-6
    )
    assert slopes["6_cabezas"] == pytest.approx(official_get_slopes(6), abs=1e-6)
    lab = lab_module(328)
    for h in (1, 2, 3, 5, 12, 16, 20):
        assert lab.pendientes_alibi(h) == pytest.approx(official_get_slopes(h), abs=1e-15)


def test_alibi_bias_matrix(out: dict) -> None:
    expected = [[-0.5 * (i - j) if j <= i else None for j in range(5)] for i in range(5)]
    assert out["sesgo_alibi_cabeza_0"] == expected


def test_another_base_keeps_the_claims() -> None:
    other = emitted(328, base=500.0, posicion_norma=1000)
    assert other["frecuencias"] == pytest.approx([1.0, 500**-0.5], abs=1e-6)
    assert other["producto_solo_depende_de_la_distancia"] is True
    assert other["rotacion_conserva_normas"] is True
    assert other["intercalado_equivale_a_mitades"] is True
    first = other["productos_distancia_2"]["3,1"]
    assert first == pytest.approx(dot(Q, rope_complex(K, -2, base=500.0)), abs=1e-6)
    # with a small base the bound bottoms out early: the last window no longer goes down
    bound = other["cota_de_decaimiento"]
    assert bound["1001_a_10000"] > bound["101_a_1000"]
    assert other["la_cota_decae_en_promedio"] is False


def test_snapshot_matches_the_run(out: dict) -> None:
    assert snapshot(328) == out


def relative_bound(r: int, d: int = 128, base: float = 10000.0) -> float:
    """(1/(d/2)) Σ_j |S_j|, S_j = Σ_{l<j} e^{i r θ_l}, with plain complex arithmetic."""
    total, partial = 0.0, 0j
    for pair in range(d // 2):
        partial += cmath.exp(1j * r * base ** (-2 * pair / d))
        total += abs(partial)
    return total / (d // 2)


def test_decay_bound_recomputed_and_its_claim(out: dict) -> None:
    bound = out["cota_de_decaimiento"]
    assert list(bound) == ["0"] + [f"{a}_a_{b}" for a, b in WINDOWS]
    assert bound["0"] == pytest.approx((64 + 1) / 2, abs=1e-12)  # |S_j| = j at r = 0
    for a, b in WINDOWS[:3]:  # plain Python is slow: the last window is checked on a sample below
        mean = sum(relative_bound(r) for r in range(a, b + 1)) / (b - a + 1)
        assert bound[f"{a}_a_{b}"] == pytest.approx(mean, abs=1e-6)
    theta = 10000.0 ** (-np.arange(64) / 64)
    r = np.arange(1001, 10001)[:, None]
    last = np.abs(np.cumsum(np.exp(1j * r * theta), axis=1)).mean(axis=1).mean()
    assert bound["1001_a_10000"] == pytest.approx(last, abs=1e-6)
    assert [relative_bound(r) for r in (1001, 5000, 10000)] == pytest.approx(
        list(
            np.abs(
                np.cumsum(np.exp(1j * np.array([[1001], [5000], [10000]]) * theta), axis=1)
            ).mean(axis=1)
        ),
        abs=1e-9,
    )
    values = list(bound.values())
    assert out["la_cota_decae_en_promedio"] == all(x > y for x, y in zip(values, values[1:]))
    assert out["la_cota_decae_en_promedio"]
    # README figures: 22,7 · 12,0 · 6,7 · 4,8, and the first rise between r = 18 and r = 19
    assert [round(v, 1) for v in values[1:]] == [22.7, 12.0, 6.7, 4.8]
    first_rise = next(r for r in range(200) if relative_bound(r + 1) > relative_bound(r))
    assert first_rise == 18


def test_the_abel_bound_holds_for_random_vectors() -> None:
    """|⟨R_m q, R_n k⟩| ≤ max_l |h_{l+1} − h_l| · Σ_j |S_j| with h_{d/2} = 0 (Su et al. §3.4.3)."""
    rng = np.random.default_rng(5)
    d = 128
    theta = 10000.0 ** (-np.arange(d // 2) / (d // 2))
    for _ in range(20):
        q, k = rng.standard_normal(d), rng.standard_normal(d)
        h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
        step = np.max(np.abs(np.diff(np.append(h, 0))))
        for r in (0, 3, 50, 700):
            score = (q[0::2] + 1j * q[1::2]) * np.exp(1j * r * theta)
            key = k[0::2] + 1j * k[1::2]
            rotated = float(np.real(np.sum(score * np.conj(key))))  # ⟨R_r q, R_0 k⟩
            lab = lab_module(328)
            qr, k0 = lab.rope_intercalado(q, r, theta), k
            assert rotated == pytest.approx(float(qr @ k0), abs=1e-9)
            partial_sums = np.abs(np.cumsum(np.exp(1j * r * theta))).sum()
            assert abs(rotated) <= step * partial_sums + 1e-9


def test_context_extension_figures(out: dict) -> None:
    ext = out["extension_de_contexto"]
    s, d = 4.0, 128
    assert ext["factor"] == s
    assert ext["base_ntk"] == pytest.approx(10000 * s ** (d / (d - 2)), abs=1e-6)
    assert round(ext["base_ntk"]) == 40890
    lowest = 10000.0 ** (-(d - 2) / d)
    assert ext["frecuencia_alta"] == pytest.approx(
        {"original": 1.0, "interpolacion_posicional": 0.25, "ntk": 1.0}, abs=1e-12
    )
    low = ext["frecuencia_baja"]
    assert low["original"] == pytest.approx(lowest, rel=1e-5)
    assert low["interpolacion_posicional"] == pytest.approx(lowest / s, rel=1e-5)
    ntk_lowest = (10000 * s ** (d / (d - 2))) ** (-(d - 2) / d)  # exactly lowest / s
    assert low["ntk"] == pytest.approx(ntk_lowest, rel=1e-5) and ntk_lowest == pytest.approx(
        lowest / s
    )
    angles = ext["angulo_maximo_frecuencia_baja"]
    assert angles["entrenado"] == pytest.approx(2048 * lowest, abs=1e-6)
    assert angles["original_en_contexto_largo"] == pytest.approx(8192 * lowest, abs=1e-6)
    assert angles["interpolacion_posicional"] == pytest.approx(angles["entrenado"], abs=1e-6)
    assert angles["ntk"] == pytest.approx(angles["entrenado"], abs=1e-6)
    assert (
        round(angles["entrenado"], 2) == 0.24
        and round(angles["original_en_contexto_largo"], 3) == 0.946
    )


def test_position_interpolation_keeps_the_product_relative() -> None:
    """Positions m/s: the product depends only on (m − n)/s, as the README says."""
    s = 4.0
    for m, n in ((3, 1), (4003, 4001), (8190, 8188)):
        interpolated = dot(rope_complex(Q, m / s), rope_complex(K, n / s))
        assert interpolated == pytest.approx(dot(Q, rope_complex(K, (n - m) / s)), abs=1e-9)
