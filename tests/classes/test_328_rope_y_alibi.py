"""Class 328: RoPE recomputed with complex numbers (Meta's way), ALiBi slopes in closed form."""

import cmath
import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

Q = [1.0, 0.0, 0.5, 0.5]
K = [0.5, 1.0, -0.5, 1.0]

KEYS = [
    "frecuencias", "vectores_rotados", "productos_distancia_2",
    "producto_solo_depende_de_la_distancia", "rotacion_conserva_normas",
    "intercalado_equivale_a_mitades", "pendientes_alibi", "sesgo_alibi_cabeza_0",
    "alibi_prefiere_lo_reciente", "sesgo_m_por_j_equivale",
]


def rope_complex(x: list[float], m: int, base: float = 10000.0) -> list[float]:
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
        [-0.989992, 0.14112, 0.484777, 0.514773], abs=1e-6)
    assert out["vectores_rotados"]["k_pos1"] == pytest.approx(
        [-0.57132, 0.961038, -0.509975, 0.99495], abs=1e-6)


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
    assert np.max(np.abs(lab.rope_mitades(np.array(Q), 3, theta)
                         - np.array(rope_complex(Q, 3)))) > 0.1


def test_mixing_layouts_breaks_relativity() -> None:
    """Interleaved on q, halves on k: the product then depends on absolute positions."""
    lab = lab_module(328)
    theta = lab.frecuencias(4)
    q, k = np.array(Q), np.array(K)
    mixed = [lab.rope_intercalado(q, m, theta) @ lab.rope_mitades(k, n, theta)
             for m, n in ((3, 1), (7, 5))]
    assert abs(mixed[0] - mixed[1]) > 1e-3


def test_alibi_slopes(out: dict) -> None:
    slopes = out["pendientes_alibi"]
    assert slopes["8_cabezas"] == pytest.approx([2 ** (-8 * h / 8) for h in range(1, 9)], abs=1e-6)
    assert slopes["8_cabezas"] == pytest.approx(official_get_slopes(8), abs=1e-6)
    assert slopes["6_cabezas"] == pytest.approx(
        [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125], abs=1e-6)
    assert slopes["6_cabezas"] == pytest.approx(official_get_slopes(6), abs=1e-6)
    lab = lab_module(328)
    for h in (1, 2, 3, 5, 12, 16, 20):
        assert lab.pendientes_alibi(h) == pytest.approx(official_get_slopes(h), abs=1e-15)


def test_alibi_bias_matrix(out: dict) -> None:
    expected = [[-0.5 * (i - j) if j <= i else None for j in range(5)] for i in range(5)]
    assert out["sesgo_alibi_cabeza_0"] == expected


def test_another_base_keeps_the_claims() -> None:
    other = emitted(328, base=500.0, posicion_norma=1000)
    assert other["frecuencias"] == pytest.approx([1.0, 500 ** -0.5], abs=1e-6)
    assert other["producto_solo_depende_de_la_distancia"] is True
    assert other["rotacion_conserva_normas"] is True
    assert other["intercalado_equivale_a_mitades"] is True
    first = other["productos_distancia_2"]["3,1"]
    assert first == pytest.approx(dot(Q, rope_complex(K, -2, base=500.0)), abs=1e-6)


def test_snapshot_matches_the_run(out: dict) -> None:
    assert snapshot(328) == out
