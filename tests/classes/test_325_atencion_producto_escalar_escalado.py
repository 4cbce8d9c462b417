"""Class 325: Monte Carlo variances against theory, saturation recomputed, stable softmax."""

import math
import tomllib

import numpy as np
import pytest

from tests.course_labs import class_dir, emitted, lab_module

KEYS = [
    "varianza_sin_escalar",
    "varianza_escalada",
    "media_escalada",
    "la_varianza_crece_con_dk",
    "la_varianza_escalada_es_cercana_a_uno",
    "peso_maximo",
    "entropia",
    "norma_jacobiano_softmax",
    "el_escalado_evita_la_saturacion",
    "softmax_ingenua_no_finitas",
    "softmax_estable",
    "jacobiano_softmax_estable",
]
DIMS = [4, 16, 64, 256]


def standard_error_of_variance(d: int, n: int = 4000) -> float:
    """q·k sums d iid products of variance 1 and fourth moment 9, so Var((q·k)²) = 2d² + 6d."""
    return math.sqrt((2 * d * d + 6 * d) / n)


def softmax(z: list[float]) -> list[float]:
    m = max(z)
    e = [math.exp(x - m) for x in z]
    return [x / sum(e) for x in e]


def jacobian_by_finite_differences(z: np.ndarray, h: float = 1e-6) -> np.ndarray:
    cols = []
    for j in range(len(z)):
        dz = np.zeros(len(z))
        dz[j] = h
        cols.append((np.array(softmax(list(z + dz))) - np.array(softmax(list(z - dz)))) / (2 * h))
    return np.array(cols).T


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(325)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["varianza_sin_escalar"]) == [str(d) for d in DIMS]


def test_variances_against_theory_within_five_standard_errors(out: dict) -> None:
    for d in DIMS:
        se = standard_error_of_variance(d)
        assert abs(out["varianza_sin_escalar"][str(d)] - d) < 5 * se
        assert abs(out["varianza_escalada"][str(d)] - 1) < 5 * se / d
        assert out["varianza_escalada"][str(d)] == pytest.approx(
            out["varianza_sin_escalar"][str(d)] / d, abs=1e-5
        )
    assert standard_error_of_variance(256) / 256 == pytest.approx(
        0.03, abs=0.01
    )  # the syllabus' "≈ 0.03"


def test_variances_recomputed_with_the_same_stream(out: dict) -> None:
    """Same numpy on both sides, so the digits must agree; the stream itself is not pinned."""
    rng = np.random.default_rng(0)
    for d in DIMS:
        q, k = rng.standard_normal((4000, d)), rng.standard_normal((4000, d))
        s = np.einsum("ij,ij->i", q, k)
        assert out["varianza_sin_escalar"][str(d)] == pytest.approx(
            np.mean((s - s.mean()) ** 2), abs=1e-6
        )


def test_means_recomputed_and_within_five_standard_errors_of_zero(out: dict) -> None:
    rng = np.random.default_rng(0)
    for d in DIMS:
        q, k = rng.standard_normal((4000, d)), rng.standard_normal((4000, d))
        s = np.einsum("ij,ij->i", q, k) / math.sqrt(d)
        assert out["media_escalada"][str(d)] == pytest.approx(s.mean(), abs=1e-6)
        assert abs(out["media_escalada"][str(d)]) < 5 / math.sqrt(4000)


def test_variance_claims_recomputed(out: dict) -> None:
    v = [out["varianza_sin_escalar"][str(d)] for d in DIMS]
    assert out["la_varianza_crece_con_dk"] == all(v[i] < v[i + 1] for i in range(len(v) - 1))
    assert out["la_varianza_escalada_es_cercana_a_uno"] == all(
        abs(x - 1) <= 0.1 for x in out["varianza_escalada"].values()
    )
    assert out["la_varianza_crece_con_dk"] and out["la_varianza_escalada_es_cercana_a_uno"]


def saturation_draws(
    seed: int, draws: int, d: int = 256, keys: bool = False
) -> dict[str, np.ndarray]:
    """Per draw of one query and 8 keys: max weight, entropy and ‖J‖_F, unscaled and scaled.

    keys=False replays the lab's stream: given q the 8 logits are drawn as ‖q‖ times standard
    normals. keys=True draws the 8 keys themselves and takes the dot products, as the story says.
    """
    special = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((draws, d))
    if keys:
        k = rng.standard_normal((draws, 8, d))
        z = np.array([k[s] @ q[s] for s in range(draws)])
    else:
        z = np.sqrt((q * q).sum(axis=1))[:, None] * rng.standard_normal((draws, 8))
    out = {}
    for label, logits in (("sin_escalar", z), ("escalado", z / math.sqrt(d))):
        p = special.softmax(logits, axis=1)
        out[f"peso_{label}"] = p.max(axis=1)
        out[f"entropia_{label}"] = special.entr(p).sum(axis=1)
        # ‖diag(p) − p pᵀ‖_F² = Σ_i p_i² (1 − 2 p_i) + (Σ_i p_i²)², expanded by hand
        s2 = (p**2).sum(axis=1)
        out[f"jacobiano_{label}"] = np.sqrt((p**2 * (1 - 2 * p)).sum(axis=1) + s2**2)
    return out


SATURATION = {  # output name, leaf name, key in saturation_draws
    ("peso_maximo", "sin_escalar"): "peso_sin_escalar",
    ("peso_maximo", "escalado"): "peso_escalado",
    ("entropia", "sin_escalar"): "entropia_sin_escalar",
    ("entropia", "escalada"): "entropia_escalado",
    ("norma_jacobiano_softmax", "sin_escalar"): "jacobiano_sin_escalar",
    ("norma_jacobiano_softmax", "escalado"): "jacobiano_escalado",
}


def test_saturation_means_recomputed_with_the_same_stream(out: dict) -> None:
    """Same numpy on both sides, so the digits must agree; the stream itself is not pinned."""
    draws = saturation_draws(1, 1000)
    for (name, leaf), key in SATURATION.items():
        assert out[name][leaf] == pytest.approx(draws[key].mean(), abs=1e-6), (name, leaf)


def test_saturation_means_agree_with_a_fresh_stream_within_five_standard_errors(out: dict) -> None:
    """The fresh stream forms the keys: the lab's shortcut for the logits must give the same means."""
    ours, fresh = saturation_draws(1, 1000), saturation_draws(2024, 4000, keys=True)
    for (name, leaf), key in SATURATION.items():
        se = math.sqrt(ours[key].var(ddof=1) / 1000 + fresh[key].var(ddof=1) / 4000)
        assert abs(out[name][leaf] - fresh[key].mean()) < 5 * se, (name, leaf)


@pytest.mark.lento  # seconds: out of the quick loop
def test_given_the_query_the_logits_are_independent_normals_of_variance_norm_q_squared() -> None:
    """The lab draws q·k_c as ‖q‖·N(0, 1) without forming k_c: check that against real keys."""
    rng = np.random.default_rng(99)
    n = 40_000
    for scale in (1.0, 0.2):  # a typical query, and a short one
        q = rng.standard_normal(256) * scale
        z = rng.standard_normal((n, 256)) @ q  # (n,) logits against n independent keys
        var = float(q @ q)
        assert abs(z.mean()) < 5 * math.sqrt(var / n)
        assert abs(z.var() / var - 1) < 5 * math.sqrt(2 / n)
        assert abs(np.mean(z**4) / var**2 - 3) < 5 * math.sqrt(96 / n)  # normal: kurtosis 3
        # two keys against the same query: uncorrelated (and, being jointly normal, independent)
        z2 = rng.standard_normal((n, 256)) @ q
        assert abs(np.corrcoef(z, z2)[0, 1]) < 5 / math.sqrt(n)


def test_declared_tolerances_are_about_five_standard_errors() -> None:
    """Each Monte Carlo output's atol is 4 to 6.5 standard errors of its noisiest leaf."""
    meta = tomllib.loads((class_dir(325) / "class.toml").read_text(encoding="utf-8"))
    atol = {
        s["nombre"]: s["tolerancia"]["atol"]
        for s in meta["salidas"]
        if "tolerancia" in s and "atol" in s["tolerancia"]
    }
    draws = saturation_draws(1, 1000)
    for name in ("peso_maximo", "entropia", "norma_jacobiano_softmax"):
        se = max(
            draws[key].std(ddof=1) / math.sqrt(1000)
            for (n, _), key in SATURATION.items()
            if n == name
        )
        assert 4 * se <= atol[name] <= 6.5 * se, name
    se_scaled = max(standard_error_of_variance(d) / d for d in DIMS)
    assert 4 * se_scaled <= atol["varianza_escalada"] <= 6.5 * se_scaled
    assert 4 / math.sqrt(4000) <= atol["media_escalada"] <= 6.5 / math.sqrt(4000)
    rtol = next(
        s["tolerancia"]["rtol"] for s in meta["salidas"] if s["nombre"] == "varianza_sin_escalar"
    )
    assert (
        4 * se_scaled <= rtol <= 6.5 * se_scaled
    )  # relative SE of Var(q·k) = SE of the scaled one


def test_jacobian_formula_against_finite_differences() -> None:
    rng = np.random.default_rng(7)
    for scale in (1.0, 16.0):
        z = rng.standard_normal(8) * scale
        p = np.array(softmax(list(z)))
        jac = jacobian_by_finite_differences(z)
        assert np.allclose(jac, np.diag(p) - np.outer(p, p), atol=1e-8)
        assert np.allclose(jac, lab_module(325).jacobiano_softmax(p), atol=1e-8)


def test_saturation_claim_and_bounds(out: dict) -> None:
    h, j = out["entropia"], out["norma_jacobiano_softmax"]
    assert out["el_escalado_evita_la_saturacion"] == (
        h["escalada"] > h["sin_escalar"] and j["escalado"] > j["sin_escalar"]
    )
    assert out["el_escalado_evita_la_saturacion"]
    for value in (h["sin_escalar"], h["escalada"]):
        assert 0 <= value <= math.log(8)
    for p in out["peso_maximo"].values():
        assert 1 / 8 <= p <= 1
    # the scaled means sit many standard errors away from the unscaled ones
    assert h["escalada"] - h["sin_escalar"] > 1.0
    assert j["escalado"] > 4 * j["sin_escalar"]


def test_naive_softmax_overflows_and_stable_one_does_not(out: dict) -> None:
    special = pytest.importorskip("scipy.special")
    z = np.array([1000.0, 999.0, 998.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(z) / np.exp(z).sum()
    assert out["softmax_ingenua_no_finitas"] == int((~np.isfinite(naive)).sum())
    assert out["softmax_ingenua_no_finitas"] == 3  # exp(1000) = inf in every entry: inf/inf = NaN
    assert out["softmax_estable"] == pytest.approx(list(special.softmax(z)), abs=1e-6)
    assert out["softmax_estable"] == pytest.approx(list(np.exp(z - special.logsumexp(z))), abs=1e-6)
    assert out["softmax_estable"] == pytest.approx([0.665241, 0.244728, 0.090031], abs=1e-6)
    assert out["softmax_estable"] == pytest.approx(softmax([0.0, -1.0, -2.0]), abs=1e-6)


def test_softmax_is_shift_invariant_and_jacobian_vanishes_when_one_hot() -> None:
    lab = lab_module(325)
    z = np.array([0.3, -1.2, 2.0, 0.0])
    assert np.allclose(lab.softmax(z), lab.softmax(z + 123.0), atol=1e-15)
    one_hot = lab.softmax(np.array([80.0, 0.0, 0.0]))
    assert np.linalg.norm(lab.jacobiano_softmax(one_hot)) < 1e-30
    uniform = np.full(8, 1 / 8)
    assert lab.entropia(uniform) == pytest.approx(math.log(8), abs=1e-12)
    assert lab.entropia(np.array([1.0, 0.0, 0.0])) == 0.0  # 0·log 0 = 0


def test_batched_formulas_are_the_per_row_formulas() -> None:
    """saturacion hands the 1000 draws to softmax, entropia and jacobiano_softmax at once."""
    lab = lab_module(325)
    rng = np.random.default_rng(11)
    Z = rng.standard_normal((5, 8)) * 16
    Z[0, :3] = [-1e4, 50.0, -1e4]  # exact zeros after the softmax: 0·log 0 = 0 in a batch too
    P = lab.softmax(Z)
    assert P.shape == (5, 8) and P[0, 0] == 0.0
    J = lab.jacobiano_softmax(P)
    assert J.shape == (5, 8, 8)
    H = lab.entropia(P)
    assert H.shape == (5,)
    for row in range(5):
        p = np.array(softmax(list(Z[row])))
        assert np.allclose(P[row], p, rtol=0, atol=1e-15)
        assert np.allclose(J[row], np.diag(p) - np.outer(p, p), rtol=0, atol=1e-15)
        assert H[row] == pytest.approx(-sum(x * math.log(x) for x in p if x > 0), abs=1e-12)
    peso, h, norma = lab.saturacion(Z)
    assert np.array_equal(peso, P.max(axis=1)) and np.array_equal(h, H)
    assert norma == pytest.approx(
        [np.linalg.norm(np.diag(p) - np.outer(p, p)) for p in P], abs=1e-15
    )


def test_scaling_by_d_instead_of_sqrt_d_undershoots() -> None:
    lab = lab_module(325)
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((4000, 64)), rng.standard_normal((4000, 64))
    s = np.sum(q * k, axis=1)
    assert abs(np.var(s / 64) - 1 / 64) < 5 * standard_error_of_variance(64) / 64**2
    assert lab.varianzas_producto((64,), 4000, 3)[1][0] == pytest.approx(np.var(s / 8), abs=1e-12)


def test_worked_example_figures(out: dict) -> None:
    """The README quotes these means to three decimals; the gap figure is an order statistic."""
    raw = [out["varianza_sin_escalar"][str(d)] for d in DIMS]
    assert [round(raw[0], 3)] + [round(v, 2) for v in raw[1:]] == [3.990, 16.13, 64.93, 255.51]
    assert [round(out["varianza_escalada"][str(d)], 3) for d in DIMS] == [
        0.998,
        1.008,
        1.015,
        0.998,
    ]
    assert round(out["peso_maximo"]["sin_escalar"], 3) == 0.939
    assert round(out["peso_maximo"]["escalado"], 3) == 0.363
    assert round(out["entropia"]["sin_escalar"], 3) == 0.151
    assert round(out["entropia"]["escalada"], 3) == 1.719
    assert round(out["norma_jacobiano_softmax"]["sin_escalar"], 3) == 0.082
    assert round(out["norma_jacobiano_softmax"]["escalado"], 3) == 0.366
    special = pytest.importorskip("scipy.special")
    x = np.linspace(-12, 12, 200_001)
    cdf, pdf = special.ndtr(x), np.exp(-x * x / 2) / math.sqrt(2 * math.pi)

    def expected_order_statistic(k: int, n: int = 8) -> float:
        """E[X_(k)] of n standard normals: ∫ x · n!/((k−1)!(n−k)!) Φ^(k−1) (1−Φ)^(n−k) φ dx."""
        weight = math.factorial(n) / (math.factorial(k - 1) * math.factorial(n - k))
        return float(np.trapezoid(x * weight * cdf ** (k - 1) * (1 - cdf) ** (n - k) * pdf, x))

    gap = 16 * (expected_order_statistic(8) - expected_order_statistic(7))
    assert gap == pytest.approx(9.14, abs=0.01)  # "en promedio de unas 9 unidades"
    assert math.exp(9) == pytest.approx(8100, rel=0.001)
    assert math.log(8) == pytest.approx(2.079442, abs=1e-6)
    # relative standard error of Var(q·k): 2,2 % at d_k = 256, 3 % at d_k = 4
    assert standard_error_of_variance(256) / 256 == pytest.approx(0.022, abs=0.001)
    assert standard_error_of_variance(4) / 4 == pytest.approx(0.030, abs=0.001)
    assert 0.1 / (standard_error_of_variance(4) / 4) == pytest.approx(3.4, abs=0.05)
    assert 0.1 / (standard_error_of_variance(256) / 256) == pytest.approx(4.4, abs=0.05)
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(710.0)) and np.isfinite(np.exp(709.0))


def test_emitted_jacobian_is_diag_minus_outer_of_the_emitted_softmax(out: dict) -> None:
    p = out["softmax_estable"]
    expected = [[(p[i] if i == j else 0.0) - p[i] * p[j] for j in range(3)] for i in range(3)]
    got = np.array(out["jacobiano_softmax_estable"])
    assert np.max(np.abs(got - np.array(expected))) < 2e-6
    assert all(got[i, i] > 0 for i in range(3)) and np.all(got[~np.eye(3, dtype=bool)] < 0)
    assert np.max(np.abs(got.sum(axis=1))) < 1e-6
