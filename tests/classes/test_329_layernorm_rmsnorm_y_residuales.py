"""Class 329: normalizations recomputed with `statistics`, parameter counts in closed form."""

import math
import statistics

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

X = [1.0, 2.0, 3.0, 6.0]
EPS = 1e-5

KEYS = [
    "layernorm",
    "rmsnorm",
    "layernorm_invariante_a_desplazamiento",
    "rmsnorm_cambia_con_desplazamiento",
    "ambas_invariantes_a_escala",
    "residual_con_subcapas_nulas_es_identidad",
    "distancia_a_la_identidad",
    "parametros_por_bloque_d768",
    "fraccion_de_12d2",
    "parametros_gpt2_small",
    "parametros_por_bloque_swiglu_d768",
    "llama_7b",
]


def ref_layernorm(x: list[float], eps: float = EPS) -> list[float]:
    mu = statistics.fmean(x)
    var = statistics.pvariance(x)  # population (biased) variance, as torch.nn.LayerNorm
    return [(v - mu) / math.sqrt(var + eps) for v in x]


def ref_rmsnorm(x: list[float], eps: float = EPS) -> list[float]:
    ms = statistics.fmean(v * v for v in x)
    return [v / math.sqrt(ms + eps) for v in x]


def max_diff(a: list[float], b: list[float]) -> float:
    return max(abs(u - v) for u, v in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(329)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["layernorm"]) == ["entrada", "salida", "media", "varianza"]
    assert list(out["rmsnorm"]) == ["salida", "rms", "dos_tokens"]
    assert list(out["llama_7b"]) == ["d_ff", "parametros_por_bloque", "parametros_totales"]


def test_layernorm_values(out: dict) -> None:
    ln = out["layernorm"]
    assert ln["entrada"] == X
    assert ln["salida"] == pytest.approx(ref_layernorm(X), abs=1e-6)
    assert ln["salida"] == pytest.approx([-1.069043, -0.534522, 0.0, 1.603565], abs=1e-6)
    assert ln["media"] == 0.0  # floating-point noise below 1e-12 is emitted as 0.0
    assert ln["varianza"] == pytest.approx(3.5 / (3.5 + EPS), abs=1e-6)
    assert ln["varianza"] == pytest.approx(statistics.pvariance(ln["salida"]), abs=1e-5)
    # the unbiased variance would give a visibly different answer
    unbiased = [(v - 3) / math.sqrt(statistics.variance(X) + EPS) for v in X]
    assert max_diff(unbiased, ln["salida"]) > 0.1


def test_rmsnorm_values(out: dict) -> None:
    rms = out["rmsnorm"]
    assert rms["salida"] == pytest.approx(ref_rmsnorm(X), abs=1e-6)
    assert rms["salida"] == pytest.approx([0.282843, 0.565685, 0.848528, 1.697056], abs=1e-6)
    own = math.sqrt(statistics.fmean(v * v for v in rms["salida"]))
    assert rms["rms"] == pytest.approx(own, abs=1e-5)
    assert rms["rms"] == pytest.approx(math.sqrt(12.5 / (12.5 + EPS)), abs=1e-6)
    first, second = rms["dos_tokens"]
    assert first == pytest.approx(ref_rmsnorm(X), abs=1e-6)
    assert second == pytest.approx(ref_rmsnorm([3 * v for v in X]), abs=1e-6)


def test_invariance_claims_recomputed(out: dict) -> None:
    ln, rms = ref_layernorm(X), ref_rmsnorm(X)
    shifted = [v + 10 for v in X]
    scaled = [3 * v for v in X]
    ln_shift = max_diff(ref_layernorm(shifted), ln)
    assert out["layernorm_invariante_a_desplazamiento"] == (ln_shift < 1e-6)
    assert out["rmsnorm_cambia_con_desplazamiento"] == (max_diff(ref_rmsnorm(shifted), rms) > 1e-6)
    assert out["ambas_invariantes_a_escala"] == (
        max_diff(ref_layernorm(scaled), ln) < 1e-5 and max_diff(ref_rmsnorm(scaled), rms) < 1e-5
    )
    # the emitted LayerNorm output has mean 0 and variance ≈ 1, from its own numbers
    assert abs(statistics.fmean(out["layernorm"]["salida"])) < 1e-6
    assert abs(out["layernorm"]["varianza"] - 1) < 1e-5


def test_negative_scale_flips_layernorm() -> None:
    lab = lab_module(329)
    x = np.array(X)
    assert np.max(np.abs(lab.layernorm(-x) + lab.layernorm(x))) < 1e-12
    assert np.max(np.abs(lab.layernorm(-x) - lab.layernorm(x))) > 1


def test_without_eps_the_invariances_are_exact() -> None:
    zero = emitted(329, eps=0.0)
    assert zero["layernorm"]["varianza"] == 1.0
    assert zero["rmsnorm"]["rms"] == 1.0
    assert zero["ambas_invariantes_a_escala"] is True


def ref_block(x: np.ndarray, p: dict, eps: float = EPS) -> np.ndarray:
    """A pre-LN block written loop-free, LayerNorm from `statistics` (d = 4: √d_k = 2)."""

    def ln(z: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
        rows = [ref_layernorm(list(r), eps) for r in z]
        return np.array(rows) * g + b

    a = ln(x, p["g1"], p["b1"])
    s = (a @ p["W_Q"]) @ (a @ p["W_K"]).T / 2.0
    w = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    h = x + w @ (a @ p["W_V"]) @ p["W_O"] + p["b_O"]
    u = ln(h, p["g2"], p["b2"]) @ p["W_1"] + p["b_1"]
    gelu = 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u**3)))
    return h + gelu @ p["W_2"] + p["b_2"]


@pytest.mark.parametrize("seed", [0, 3])
def test_one_null_sublayer_is_not_the_identity(seed: int) -> None:
    """The lab's draws, redone: only with both sublayers null does the block return x."""
    out = emitted(329, semilla=seed)
    rng = np.random.default_rng(seed)
    d = 4
    x = np.vstack([X, rng.normal(size=(2, d))])
    shapes = {
        "g1": d,
        "b1": d,
        "W_Q": (d, d),
        "W_K": (d, d),
        "W_V": (d, d),
        "g2": d,
        "b2": d,
        "W_1": (d, 4 * d),
        "b_1": 4 * d,
    }
    p = {k: rng.normal(size=s) for k, s in shapes.items()}
    zero = {
        "W_O": np.zeros((d, d)),
        "b_O": np.zeros(d),
        "W_2": np.zeros((4 * d, d)),
        "b_2": np.zeros(d),
    }
    live = {
        "W_O": rng.normal(size=(d, d)),
        "b_O": rng.normal(size=d),
        "W_2": rng.normal(size=(4 * d, d)),
        "b_2": rng.normal(size=d),
    }
    cases = {
        "atencion_nula": {**zero, "W_2": live["W_2"], "b_2": live["b_2"]},
        "mlp_nulo": {**zero, "W_O": live["W_O"], "b_O": live["b_O"]},
        "ninguna_nula": live,
    }
    got = out["distancia_a_la_identidad"]
    assert list(got) == list(cases)
    for name, weights in cases.items():
        expected = float(np.max(np.abs(ref_block(x, {**p, **weights}) - x)))
        assert got[name] == pytest.approx(expected, abs=1e-6)
        assert expected > 1.0  # one live sublayer is enough to move the block away from x
    both = float(np.max(np.abs(ref_block(x, {**p, **zero}) - x)))
    assert out["residual_con_subcapas_nulas_es_identidad"] == (both < 1e-12)


def test_block_matches_an_independent_pre_ln_block() -> None:
    """Random weights everywhere (non-zero W_O, W_2): the lab's block equals a loop-free rewrite."""
    lab = lab_module(329)
    rng = np.random.default_rng(7)
    n, d = 3, 4
    x = rng.normal(size=(n, d))
    p = {
        k: rng.normal(size=s)
        for k, s in {
            "g1": d,
            "b1": d,
            "W_Q": (d, d),
            "W_K": (d, d),
            "W_V": (d, d),
            "W_O": (d, d),
            "b_O": d,
            "g2": d,
            "b2": d,
            "W_1": (d, 4 * d),
            "b_1": 4 * d,
            "W_2": (4 * d, d),
            "b_2": d,
        }.items()
    }

    y = ref_block(x, p)
    got = lab.bloque_pre_ln(x, p)
    assert np.max(np.abs(got - y)) < 1e-10
    assert np.max(np.abs(got - x)) > 0.1  # with live sublayers the block is not the identity
    # zeroing the two output projections (and their biases) leaves only the residual path
    for key in ("W_O", "b_O", "W_2", "b_2"):
        p[key] = np.zeros_like(p[key])
    assert np.max(np.abs(lab.bloque_pre_ln(x, p) - x)) < 1e-12


def test_residual_claim(out: dict) -> None:
    assert out["residual_con_subcapas_nulas_es_identidad"] is True


def test_parameter_counts_closed_form(out: dict) -> None:
    d = 768
    block = 12 * d * d + 13 * d
    assert out["parametros_por_bloque_d768"] == block == 7_087_872
    assert isinstance(out["parametros_por_bloque_d768"], int)
    assert out["fraccion_de_12d2"] == pytest.approx(1 + 13 / (12 * d), abs=1e-6)
    assert out["fraccion_de_12d2"] == pytest.approx(1.001411, abs=1e-6)
    gpt2 = 50_257 * d + 1_024 * d + 12 * block + 2 * d
    assert out["parametros_gpt2_small"] == gpt2 == 124_439_808
    assert gpt2 - 1_024 * d == 123_653_376  # nanoGPT's get_num_params subtracts wpe


def test_block_count_by_component() -> None:
    """Attention 4d²+4d, MLP 8d²+5d, two LayerNorms 4d: the lab's per-tensor table sums to that."""
    lab = lab_module(329)
    for d in (4, 64, 768, 1024):
        shapes = lab.parametros_bloque(d)
        att = sum(math.prod(s) for k, s in shapes.items() if k.startswith("atn"))
        mlp = sum(math.prod(s) for k, s in shapes.items() if k.startswith("mlp"))
        norms = sum(math.prod(s) for k, s in shapes.items() if k.startswith("ln"))
        assert (att, mlp, norms) == (4 * d * d + 4 * d, 8 * d * d + 5 * d, 4 * d)


def test_swiglu_block_closed_form(out: dict) -> None:
    """Llama-style block: 4d² attention, 3·d·d_ff SwiGLU, 2d RMSNorm gains, no biases at all."""
    d = 768
    d_ff = 8 * d // 3  # 2048: Shazeer (2020) keeps the MLP at 8d² with three matrices
    assert d_ff == 2048
    block = 4 * d * d + 3 * d * d_ff + 2 * d
    assert out["parametros_por_bloque_swiglu_d768"] == block == 12 * d * d + 2 * d == 7_079_424
    # the GPT-2 block at the same d carries 13d of biases and LayerNorm shifts instead of 2d
    assert out["parametros_por_bloque_d768"] - out["parametros_por_bloque_swiglu_d768"] == 11 * d


def test_llama_7b_closed_form(out: dict) -> None:
    d, layers, vocab = 4096, 32, 32_000
    d_ff = 256 * math.ceil(math.floor(2 * 4 * d / 3) / 256)  # Llama's rounding, written another way
    assert out["llama_7b"]["d_ff"] == d_ff == 11_008  # intermediate_size of the released model
    block = 4 * d * d + 3 * d * d_ff + 2 * d
    assert out["llama_7b"]["parametros_por_bloque"] == block
    assert 4 * d * d == 67_108_864 and 3 * d * d_ff == 135_266_304  # per-layer attention and MLP
    total = 2 * vocab * d + layers * block + d  # untied input and output embeddings
    assert out["llama_7b"]["parametros_totales"] == total == 6_738_415_616


def test_swiglu_count_by_component() -> None:
    lab = lab_module(329)
    for d, d_ff in ((4, 16), (768, 2048), (4096, 11008)):
        shapes = lab.parametros_bloque_swiglu(d, d_ff)
        att = sum(math.prod(s) for k, s in shapes.items() if k.startswith("atn"))
        mlp = sum(math.prod(s) for k, s in shapes.items() if k.startswith("mlp"))
        norms = sum(math.prod(s) for k, s in shapes.items() if k.startswith("norma"))
        assert (att, mlp, norms) == (4 * d * d, 3 * d * d_ff, 2 * d)
    for d in (512, 768, 4096, 5120, 8192):
        assert lab.d_ff_llama(d) % 256 == 0
        assert 0 <= lab.d_ff_llama(d) - 8 * d / 3 < 256
    assert lab.d_ff_llama(5120) == 13_824  # Llama 13B


def test_snapshot_matches_the_run(out: dict) -> None:
    assert snapshot(329) == out
