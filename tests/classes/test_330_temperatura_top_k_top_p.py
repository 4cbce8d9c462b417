"""Class 330: softmax, top-k and top-p in plain Python (top-p with the HF ascending rule)."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

Z = [2.0, 1.5, 0.8, 0.3, -0.5, -1.2]
TOKENS = ["el", "gato", "perro", "come", "duerme", "."]

KEYS = [
    "logits",
    "por_temperatura",
    "la_entropia_crece_con_la_temperatura",
    "temperatura_cero",
    "distancia_al_argmax",
    "t_hacia_cero_tiende_al_argmax",
    "top_k_3",
    "top_p_09",
    "el_nucleo_es_el_minimo",
    "top_p_en_la_frontera",
    "la_temperatura_cambia_el_nucleo",
    "tuberia_t2_k4_p09",
    "tuberia_con_la_temperatura_al_final",
    "el_top_k_cambia_el_nucleo",
    "el_orden_cambia_el_nucleo",
    "frecuencias_empiricas",
    "desviacion_maxima_en_errores_tipicos",
]
N = 20_000


def softmax(z: list[float], t: float = 1.0) -> list[float]:
    top = max(z)
    ex = [math.exp((v - top) / t) for v in z]  # shifted: T = 0.02 would overflow otherwise
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


def max_deviation(freq: list[float], theory: list[float], n: int) -> float:
    """Largest |f − p| in standard errors √(p(1 − p)/n), over the tokens that can be drawn."""
    drawable = [(f, p) for f, p in zip(freq, theory) if 0 < p < 1]
    return max((abs(f - p) / math.sqrt(p * (1 - p) / n) for f, p in drawable), default=0.0)


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
        [0.451823, 0.274045, 0.136087, 0.082541, 0.037088, 0.018417], abs=1e-6
    )


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
    first, last = out["tuberia_t2_k4_p09"], out["tuberia_con_la_temperatura_al_final"]
    assert out["el_top_k_cambia_el_nucleo"] == (
        first["tamano_nucleo"] != first["tamano_nucleo_sin_top_k"]
    )
    kept_first = [x > 0 for x in first["distribucion"]]
    kept_last = [x > 0 for x in last["distribucion"]]
    assert out["el_orden_cambia_el_nucleo"] == (kept_first != kept_last)
    theory, freq = first["distribucion"], out["frecuencias_empiricas"]
    assert out["desviacion_maxima_en_errores_tipicos"] == pytest.approx(
        max_deviation(freq, theory, N), abs=1e-3
    )
    assert out["desviacion_maxima_en_errores_tipicos"] < 4
    for key in (
        "la_entropia_crece_con_la_temperatura",
        "t_hacia_cero_tiende_al_argmax",
        "el_nucleo_es_el_minimo",
        "la_temperatura_cambia_el_nucleo",
        "el_top_k_cambia_el_nucleo",
        "el_orden_cambia_el_nucleo",
    ):
        assert out[key] is True, key


def test_zero_temperature_apart_and_the_limit(out: dict) -> None:
    one_hot = [1.0] + [0.0] * 5
    assert out["temperatura_cero"] == one_hot  # argmax of the logits: "el"
    lab = lab_module(330)
    with np.errstate(divide="raise", invalid="raise"):  # T = 0 must not divide
        assert lab.con_temperatura(np.array(Z), 0.0).tolist() == one_hot
    with pytest.raises(ValueError, match="negativa"):
        lab.con_temperatura(np.array(Z), -1.0)
    temps = [1.0, 0.5, 0.1, 0.05, 0.02]
    assert list(out["distancia_al_argmax"]) == [str(t) for t in temps]
    gap = 0.5  # the two largest logits, 2.0 and 1.5
    dist = []
    for t in temps:
        p = softmax(Z, t)
        d = max(abs(a - b) for a, b in zip(p, one_hot))
        assert d == pytest.approx(1 - max(p), abs=1e-15)
        assert out["distancia_al_argmax"][str(t)] == pytest.approx(d, rel=1e-5, abs=1e-12)
        dist.append(out["distancia_al_argmax"][str(t)])
    # T = 0.02 from the ratios e^{(z_j − z_max)/T}, summed without any softmax
    ratios = [math.exp((z - 2.0) / 0.02) for z in Z[1:]]
    assert out["distancia_al_argmax"]["0.02"] == pytest.approx(
        sum(ratios) / (1 + sum(ratios)), rel=1e-5
    )
    bound_ok = all(d <= 5 * math.exp(-gap / t) for d, t in zip(dist, temps))
    unique_max = sorted(out["logits"].values())[-1] > sorted(out["logits"].values())[-2]
    assert out["t_hacia_cero_tiende_al_argmax"] == (
        unique_max and all(a > b for a, b in zip(dist, dist[1:])) and bound_ok
    )
    # the page's mass at T = 1: Σ_{j≠max} e^{z_j − z_max} / (1 + that sum), not that sum / Z
    ratios_1 = sum(math.exp(z - 2.0) for z in Z[1:])
    assert ratios_1 == pytest.approx(1.213256, abs=1e-6)
    assert out["distancia_al_argmax"]["1.0"] == pytest.approx(ratios_1 / (1 + ratios_1), abs=1e-6)
    assert ratios_1 / sum(math.exp(z) for z in Z) == pytest.approx(0.0742, abs=1e-4)  # the slip


def test_tied_maximum_is_not_the_one_hot_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: two logits tie at the top; T → 0⁺ gives 1/2 each, and the claim must say false."""
    lab = lab_module(330)
    tied = np.array([2.0, 2.0, 0.8, 0.3, -0.5, -1.2])
    assert lab.con_temperatura(tied, 0.01)[:2] == pytest.approx([0.5, 0.5], abs=1e-12)
    monkeypatch.setattr(lab, "LOGITS", tied)
    result = lab.run()
    assert result["distancia_al_argmax"]["0.02"] == pytest.approx(0.5, abs=1e-12)
    assert result["t_hacia_cero_tiende_al_argmax"] is False


def test_top_k_and_top_p(out: dict) -> None:
    p = softmax(Z)
    assert out["top_k_3"] == pytest.approx(ref_top_k(p, 3), abs=1e-6)
    assert out["top_k_3"] == pytest.approx([0.524185, 0.317934, 0.157881, 0, 0, 0], abs=1e-6)
    dist, size = hf_top_p(p, 0.9)
    assert out["top_p_09"]["distribucion"] == pytest.approx(dist, abs=1e-6)
    assert out["top_p_09"]["tamano"] == size == 4
    assert out["top_p_09"]["masa_acumulada_ordenada"] == pytest.approx(
        [0.451823, 0.725868, 0.861954, 0.944495, 0.981583, 1.0], abs=1e-6
    )
    for d in (out["top_k_3"], out["top_p_09"]["distribucion"]):
        assert sum(d) == pytest.approx(1, abs=1e-5)


def llama_order(t: float, k: int, top_p: float) -> list[float]:
    """llama.cpp's default: top-k and top-p on softmax(z), then temperature on the survivors."""
    kept, _ = hf_top_p(ref_top_k(softmax(Z), k), top_p)
    idx = [i for i, x in enumerate(kept) if x > 0]
    sub = softmax([Z[i] for i in idx], t)
    out = [0.0] * len(Z)
    for i, v in zip(idx, sub):
        out[i] = v
    return out


def test_pipeline_in_both_orders(out: dict) -> None:
    first = out["tuberia_t2_k4_p09"]
    theory, size = hf_top_p(ref_top_k(softmax(Z, 2.0), 4), 0.9)
    assert first["distribucion"] == pytest.approx(theory, abs=1e-6)
    assert first["distribucion"] == pytest.approx(
        [0.362973, 0.282684, 0.199204, 0.15514, 0, 0], abs=1e-6
    )
    assert first["tamano_nucleo"] == size == 4
    assert first["tamano_nucleo_sin_top_k"] == hf_top_p(softmax(Z, 2.0), 0.9)[1] == 5
    last = out["tuberia_con_la_temperatura_al_final"]
    expected_last = llama_order(2.0, 4, 0.9)
    assert last["distribucion"] == pytest.approx(expected_last, abs=1e-6)
    assert last["tamano_nucleo"] == sum(1 for x in expected_last if x > 0) == 3
    # margins: no cumulative mass on either path sits within 0.01 of p = 0.9
    for p in (ref_top_k(softmax(Z, 2.0), 4), softmax(Z, 2.0), ref_top_k(softmax(Z), 4)):
        cum = 0.0
        for x in sorted(p, reverse=True):
            cum += x
            assert abs(cum - 0.9) > 0.01


def test_monte_carlo_frequencies(out: dict) -> None:
    theory, freq = out["tuberia_t2_k4_p09"]["distribucion"], out["frecuencias_empiricas"]
    for f, p in zip(freq, theory):
        if p == 0:
            assert f == 0.0  # truncated tokens can never be drawn
        else:
            assert abs(f - p) < 4 * math.sqrt(p * (1 - p) / N)
            assert abs(f - p) < 0.015  # the declared tolerance, ≈ 4.4 standard errors at most
    assert sum(freq) == pytest.approx(1, abs=1e-9)
    assert max(math.sqrt(p * (1 - p) / N) for p in theory) == pytest.approx(0.0034, abs=1e-4)


def test_other_seeds_stay_within_tolerance() -> None:
    theory = emitted(330)["tuberia_t2_k4_p09"]
    for seed in (1, 2, 3):
        other = emitted(330, semilla=seed)
        assert other["desviacion_maxima_en_errores_tipicos"] < 4
        assert other["tuberia_t2_k4_p09"] == theory


def test_few_samples_claim_follows_the_numbers() -> None:
    few = emitted(330, muestras=5)
    theory = few["tuberia_t2_k4_p09"]["distribucion"]
    assert few["desviacion_maxima_en_errores_tipicos"] == pytest.approx(
        max_deviation(few["frecuencias_empiricas"], theory, 5), abs=1e-3
    )
    with pytest.raises(ValueError):
        lab_module(330).run(muestras=0)


def test_boundary_example_definition_versus_hf(out: dict) -> None:
    lab = lab_module(330)
    _, _, size = lab.top_p(np.array([0.5, 0.4, 0.1]), 0.9)
    assert size == 2  # smallest prefix with mass >= p (0.5 + 0.4 == 0.9 exactly in float64)
    assert 0.5 + 0.4 == 0.9  # so a strict > would keep the third token too
    assert hf_top_p([0.5, 0.4, 0.1], 0.9)[1] == 3  # 1 - 0.9 = 0.09999999999999998 < 0.1
    # the emitted boundary nucleus, recomputed in plain Python: shortest prefix reaching 0.9
    p, total, kept = [0.5, 0.4, 0.1], 0.0, 0
    while total < 0.9:
        total += p[kept]
        kept += 1
    expected = [x / sum(p[:kept]) if i < kept else 0.0 for i, x in enumerate(p)]
    assert out["top_p_en_la_frontera"]["tamano"] == kept == 2
    assert out["top_p_en_la_frontera"]["distribucion"] == pytest.approx(expected, abs=1e-6)


def test_ties_are_broken_by_index() -> None:
    lab = lab_module(330)
    p = np.array([0.2, 0.3, 0.3, 0.2])
    assert lab.top_k(p, 1).tolist() == [0.0, 1.0, 0.0, 0.0]
    q, _, size = lab.top_p(p, 0.5)
    assert size == 2 and q.tolist() == [0.0, 0.5, 0.5, 0.0]


def test_snapshot_matches_the_run(out: dict) -> None:
    snap = snapshot(330)
    for key in KEYS:
        if key != "frecuencias_empiricas":
            assert snap[key] == out[key], key
    assert snap["frecuencias_empiricas"] == pytest.approx(out["frecuencias_empiricas"], abs=0.015)


def test_a_permuted_vocabulary_permutes_every_distribution(out: dict) -> None:
    """The hidden variant that reorders the vocabulary: same numbers, listed in the new order."""
    order = [3, 0, 5, 1, 4, 2]
    got = emitted(330, permutacion=",".join(map(str, order)))
    assert list(got["logits"]) == [TOKENS[i] for i in order]
    assert got["temperatura_cero"] == [out["temperatura_cero"][i] for i in order]
    assert got["top_k_3"] == [out["top_k_3"][i] for i in order]
    assert got["top_p_09"]["distribucion"] == [out["top_p_09"]["distribucion"][i] for i in order]
    assert got["top_p_09"]["masa_acumulada_ordenada"] == out["top_p_09"]["masa_acumulada_ordenada"]
    for key in ("tuberia_t2_k4_p09", "tuberia_con_la_temperatura_al_final"):
        assert got[key]["distribucion"] == [out[key]["distribucion"][i] for i in order]
    flags = [k for k, v in out.items() if isinstance(v, bool)]
    assert all(got[k] == out[k] for k in flags)


def test_bad_permutation_is_refused() -> None:
    with pytest.raises(ValueError, match="permutación"):
        lab_module(330).run(permutacion="0,0,1,2,3,4")
