"""Class 330: softmax, top-k and top-p in plain Python (top-p with the HF ascending rule)."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

Z = [2.0, 1.5, 0.8, 0.3, -0.5, -1.2]
TOKENS = ["el", "gato", "perro", "come", "duerme", "."]

KEYS = [
    "logits", "por_temperatura", "la_entropia_crece_con_la_temperatura",
    "temperatura_cero_es_argmax", "top_k_3", "top_p_09", "el_nucleo_es_el_minimo",
    "la_temperatura_cambia_el_nucleo", "muestreo_t07_k4_p09",
    "frecuencias_empiricas_cerca_de_teoricas",
]


def softmax(z: list[float], t: float = 1.0) -> list[float]:
    ex = [math.exp(v / t) for v in z]  # logits are small: no overflow here
    return [e / sum(ex) for e in ex]


def entropy(p: list[float]) -> float:
    return -sum(x * math.log(x) for x in p if x > 0)


def keep(p: list[float], idx: set[int]) -> list[float]:
    total = sum(p[i] for i in idx)
    return [p[i] / total if i in idx else 0.0 for i in range(len(p))]


def ref_top_k(p: list[float], k: int) -> list[float]:
    return keep(p, set(sorted(range(len(p)), key=lambda i: -p[i])[:k]))


def hf_top_p(p: list[float], top_p: float) -> tuple[list[float], int]:
    """transformers' TopPLogitsWarper rule: sort ascending, drop cumulative mass <= 1 - top_p."""
    asc = sorted(range(len(p)), key=lambda i: p[i])
    cum, removed = 0.0, set()
    for pos, i in enumerate(asc):
        cum += p[i]
        if cum <= 1 - top_p and pos < len(p) - 1:  # min_tokens_to_keep = 1
            removed.add(i)
    kept = set(range(len(p))) - removed
    return keep(p, kept), len(kept)


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(330)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["logits"]) == TOKENS
    assert list(out["logits"].values()) == Z
    assert list(out["por_temperatura"]) == ["0.5", "1.0", "2.0"]


def test_temperatures_match_plain_softmax(out: dict) -> None:
    expected_h = {"0.5": 0.901186, "1.0": 1.386765, "2.0": 1.66021}
    expected_n = {"0.5": 2, "1.0": 4, "2.0": 5}
    for key, row in out["por_temperatura"].items():
        p = softmax(Z, float(key))
        assert row["probabilidades"] == pytest.approx(p, abs=1e-6)
        assert row["entropia"] == pytest.approx(entropy(p), abs=1e-6)
        assert row["entropia"] == pytest.approx(expected_h[key], abs=1e-6)
        assert row["tamano_nucleo_p09"] == hf_top_p(p, 0.9)[1] == expected_n[key]
    assert out["por_temperatura"]["1.0"]["probabilidades"] == pytest.approx(
        [0.451823, 0.274045, 0.136087, 0.082541, 0.037088, 0.018417], abs=1e-6)


def test_entropy_derivative_is_variance_over_t_cubed() -> None:
    for t in (0.3, 0.7, 1.0, 2.5):
        h = 1e-5
        numeric = (entropy(softmax(Z, t + h)) - entropy(softmax(Z, t - h))) / (2 * h)
        p = softmax(Z, t)
        mean = sum(pi * z for pi, z in zip(p, Z))
        var = sum(pi * (z - mean) ** 2 for pi, z in zip(p, Z))
        assert numeric == pytest.approx(var / t**3, abs=1e-6)
        assert numeric > 0


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    h = [row["entropia"] for row in out["por_temperatura"].values()]
    assert out["la_entropia_crece_con_la_temperatura"] == (h[0] < h[1] < h[2])
    sizes = [row["tamano_nucleo_p09"] for row in out["por_temperatura"].values()]
    assert out["la_temperatura_cambia_el_nucleo"] == (len(set(sizes)) > 1)
    nucleus = out["top_p_09"]
    mass, n = nucleus["masa_acumulada_ordenada"], nucleus["tamano"]
    assert out["el_nucleo_es_el_minimo"] == (mass[n - 1] >= 0.9 and mass[n - 2] < 0.9)
    sample = out["muestreo_t07_k4_p09"]
    gap = max(abs(a - b) for a, b in zip(sample["empirica_20000"], sample["teorica"]))
    assert out["frecuencias_empiricas_cerca_de_teoricas"] == (gap < 0.01)


def test_near_zero_temperature_is_argmax(out: dict) -> None:
    p = softmax(Z, 0.01)
    one_hot = [1.0] + [0.0] * 5
    gap = max(abs(a - b) for a, b in zip(p, one_hot))
    assert out["temperatura_cero_es_argmax"] == (gap < 1e-12)
    lab = lab_module(330)
    assert lab.con_temperatura(np.array(Z), 0.0).tolist() == one_hot  # T = 0: no division
    with pytest.raises(ValueError, match="negativa"):
        lab.con_temperatura(np.array(Z), -1.0)


def test_top_k_and_top_p(out: dict) -> None:
    p = softmax(Z)
    assert out["top_k_3"] == pytest.approx(ref_top_k(p, 3), abs=1e-6)
    assert out["top_k_3"] == pytest.approx([0.524185, 0.317934, 0.157881, 0, 0, 0], abs=1e-6)
    dist, size = hf_top_p(p, 0.9)
    assert out["top_p_09"]["distribucion"] == pytest.approx(dist, abs=1e-6)
    assert out["top_p_09"]["tamano"] == size == 4
    assert out["top_p_09"]["masa_acumulada_ordenada"] == pytest.approx(
        [0.451823, 0.725868, 0.861954, 0.944495, 0.981583, 1.0], abs=1e-6)
    for d in (out["top_k_3"], out["top_p_09"]["distribucion"]):
        assert sum(d) == pytest.approx(1, abs=1e-5)


def test_pipeline_theory_and_monte_carlo(out: dict) -> None:
    theory = hf_top_p(ref_top_k(softmax(Z, 0.7), 4), 0.9)[0]
    sample = out["muestreo_t07_k4_p09"]
    assert sample["teorica"] == pytest.approx(theory, abs=1e-6)
    assert sample["teorica"] == pytest.approx([0.598934, 0.293203, 0.107863, 0, 0, 0], abs=1e-6)
    n = 20_000
    for emp, p in zip(sample["empirica_20000"], theory):
        if p == 0:
            assert emp == 0.0  # truncated tokens can never be drawn
        else:
            assert abs(emp - p) < 0.01
            assert abs(emp - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert sum(sample["empirica_20000"]) == pytest.approx(1, abs=1e-9)


def test_other_seeds_stay_within_tolerance() -> None:
    for seed in (1, 2, 3):
        other = emitted(330, semilla=seed)
        assert other["frecuencias_empiricas_cerca_de_teoricas"] is True
        theory = emitted(330)["muestreo_t07_k4_p09"]["teorica"]
        assert other["muestreo_t07_k4_p09"]["teorica"] == theory


def test_order_matters_temperature_last() -> None:
    """llama.cpp's default order (top-k, top-p, then temperature) can give another nucleus."""
    lab = lab_module(330)
    # temperature first (transformers, the lab): T = 2 flattens, the top-4 needs all 4 for 0.9
    assert np.count_nonzero(lab.tuberia(np.array(Z), 2.0, 4, 0.9)) == 4
    # temperature last: the nucleus is chosen at T = 1 and keeps 3 tokens; T no longer matters
    last = hf_top_p(ref_top_k(softmax(Z), 4), 0.9)[0]
    assert sum(1 for x in last if x > 0) == 3


def test_boundary_example_definition_versus_hf() -> None:
    lab = lab_module(330)
    _, _, size = lab.top_p(np.array([0.5, 0.4, 0.1]), 0.9)
    assert size == 2  # smallest prefix with mass >= p (0.5 + 0.4 == 0.9 exactly in float64)
    assert hf_top_p([0.5, 0.4, 0.1], 0.9)[1] == 3  # 1 - 0.9 = 0.09999999999999998 < 0.1


def test_ties_are_broken_by_index() -> None:
    lab = lab_module(330)
    p = np.array([0.2, 0.3, 0.3, 0.2])
    assert lab.top_k(p, 1).tolist() == [0.0, 1.0, 0.0, 0.0]
    q, _, size = lab.top_p(p, 0.5)
    assert size == 2 and q.tolist() == [0.0, 0.5, 0.5, 0.0]


def test_snapshot_matches_the_run(out: dict) -> None:
    snap = snapshot(330)
    for key in KEYS:
        if key != "muestreo_t07_k4_p09":
            assert snap[key] == out[key], key
    assert snap["muestreo_t07_k4_p09"]["teorica"] == out["muestreo_t07_k4_p09"]["teorica"]
    assert snap["muestreo_t07_k4_p09"]["empirica_20000"] == pytest.approx(
        out["muestreo_t07_k4_p09"]["empirica_20000"], abs=0.01)
