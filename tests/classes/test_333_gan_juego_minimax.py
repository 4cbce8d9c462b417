"""Class 333: the GAN value at the optimal discriminator by loops, a grid search and scipy."""

import math

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "distribuciones",
    "discriminador_optimo",
    "valor_en_d_optimo",
    "jsd",
    "valor_es_menos_log4_mas_2jsd",
    "d_optimo_supera_a_otros",
    "si_pg_es_pdata_d_vale_un_medio",
    "gradiente_respecto_al_logit_con_d_001",
    "no_saturante_da_mas_gradiente",
    "jsd_entre_0_y_log2",
]
P_D = [0.1, 0.4, 0.4, 0.1]
P_G = [0.25, 0.25, 0.25, 0.25]


def value(d: list[float], p_d: list[float], p_g: list[float]) -> float:
    total = 0.0
    for di, a, b in zip(d, p_d, p_g):
        total += a * math.log(di) + b * math.log(1 - di)
    return total


def sigmoid(a: float) -> float:
    return 1 / (1 + math.exp(-a))


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(333)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(out["distribuciones"]) == ["datos", "generador"]
    assert list(out["gradiente_respecto_al_logit_con_d_001"]) == ["saturante", "no_saturante"]


def test_syllabus_values(out: dict) -> None:
    assert out["distribuciones"] == {"datos": P_D, "generador": P_G}
    assert out["discriminador_optimo"] == pytest.approx(
        [0.285714, 0.615385, 0.615385, 0.285714], abs=1e-6
    )
    assert out["valor_en_d_optimo"] == pytest.approx(-1.284951, abs=1e-6)
    assert out["jsd"] == pytest.approx(0.050672, abs=1e-6)
    assert out["gradiente_respecto_al_logit_con_d_001"] == pytest.approx(
        {"saturante": -0.01, "no_saturante": -0.99}, abs=1e-6
    )


def test_optimal_discriminator_by_grid_search(out: dict) -> None:
    # V is separable: maximize a·log y + b·log(1 − y) point by point on a fine grid
    grid = np.arange(1, 1_000_000) / 1_000_000
    best = []
    for a, b in zip(P_D, P_G):
        best.append(float(grid[np.argmax(a * np.log(grid) + b * np.log1p(-grid))]))
    assert out["discriminador_optimo"] == pytest.approx(best, abs=2e-6)
    assert out["valor_en_d_optimo"] == pytest.approx(value(best, P_D, P_G), abs=1e-6)


def test_jsd_against_plain_loops_and_scipy(out: dict) -> None:
    m = [(a + b) / 2 for a, b in zip(P_D, P_G)]
    kl_d = sum(a * math.log(a / c) for a, c in zip(P_D, m))
    kl_g = sum(b * math.log(b / c) for b, c in zip(P_G, m))
    assert out["jsd"] == pytest.approx((kl_d + kl_g) / 2, abs=1e-6)
    distance = pytest.importorskip("scipy.spatial.distance")
    # scipy returns the distance, the square root of the divergence (natural log by default)
    assert out["jsd"] == pytest.approx(distance.jensenshannon(P_D, P_G) ** 2, abs=1e-6)
    assert out["jsd"] != pytest.approx(distance.jensenshannon(P_D, P_G), abs=1e-3)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    v, jsd = out["valor_en_d_optimo"], out["jsd"]
    assert out["valor_es_menos_log4_mas_2jsd"] == (abs(v - (-math.log(4) + 2 * jsd)) < 2e-6)
    d_star = out["discriminador_optimo"]
    alternatives = [
        [0.5] * 4,
        [d + 0.05 for d in d_star],
        [d - 0.05 for d in d_star],
        [0.3, 0.6, 0.6, 0.3],
    ]
    assert out["d_optimo_supera_a_otros"] == all(
        value(d_star, P_D, P_G) >= value(d, P_D, P_G) for d in alternatives
    )
    grads = out["gradiente_respecto_al_logit_con_d_001"]
    assert out["no_saturante_da_mas_gradiente"] == (
        abs(grads["no_saturante"]) > abs(grads["saturante"])
    )
    assert out["jsd_entre_0_y_log2"] == (0 <= jsd <= math.log(2))
    for key in KEYS:
        if isinstance(out[key], bool):
            assert out[key] is True, key


def test_equilibrium_when_the_generator_matches_the_data(out: dict) -> None:
    d_eq = [a / (a + a) for a in P_D]
    ok = (
        all(abs(d - 0.5) < 1e-12 for d in d_eq) and abs(value(d_eq, P_D, P_D) + math.log(4)) < 1e-12
    )
    assert out["si_pg_es_pdata_d_vale_un_medio"] == ok


def test_gradients_by_central_differences(out: dict) -> None:
    a, h = math.log(0.01 / 0.99), 1e-5
    saturating = (math.log(1 - sigmoid(a + h)) - math.log(1 - sigmoid(a - h))) / (2 * h)
    non_saturating = (-math.log(sigmoid(a + h)) + math.log(sigmoid(a - h))) / (2 * h)
    grads = out["gradiente_respecto_al_logit_con_d_001"]
    assert grads["saturante"] == pytest.approx(saturating, abs=1e-6)
    assert grads["no_saturante"] == pytest.approx(non_saturating, abs=1e-6)


def test_when_the_discriminator_is_fooled_the_claim_flips() -> None:
    fooled = emitted(333, d_falso=0.9)
    grads = fooled["gradiente_respecto_al_logit_con_d_001"]
    assert grads == pytest.approx({"saturante": -0.9, "no_saturante": -0.1}, abs=1e-9)
    assert fooled["no_saturante_da_mas_gradiente"] is False


def test_jsd_reaches_log2_on_disjoint_supports() -> None:
    lab = lab_module(333)
    p, q = np.array([0.5, 0.5, 0.0, 0.0]), np.array([0.0, 0.0, 0.5, 0.5])
    assert lab.jsd(p, q) == pytest.approx(math.log(2), abs=1e-12)
    assert lab.jsd(p, p) == pytest.approx(0.0, abs=1e-15)


def test_disjoint_supports_leave_the_generator_without_a_slope() -> None:
    # README: with disjoint supports D* is 1 on the data and 0 on the fakes, V(D*) = 0 and the
    # JSD stays at log 2 wherever the generator puts its mass (a flat objective, no gradient)
    lab = lab_module(333)
    p_d = np.array([0.5, 0.5, 0.0, 0.0])
    for p_g in ([0.0, 0.0, 0.5, 0.5], [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.9, 0.1]):
        q = np.array(p_g)
        with np.errstate(invalid="ignore"):  # 0/0 where neither distribution has mass
            d_star = np.nan_to_num(lab.discriminador_optimo(p_d, q))
        assert d_star[:2].tolist() == [1.0, 1.0]
        assert lab.valor(d_star, p_d, q) == 0.0
        assert lab.jsd(p_d, q) == pytest.approx(math.log(2), abs=1e-12)
        distance = pytest.importorskip("scipy.spatial.distance")
        assert distance.jensenshannon(p_d, q) ** 2 == pytest.approx(math.log(2), abs=1e-12)


def test_against_a_frozen_discriminator_the_generator_collapses(out: dict) -> None:
    # README: with D fixed, Σ p_g log(1 − D) is linear in p_g; its minimum over the simplex
    # is a vertex, a point mass on the point where D is largest
    d_star = out["discriminador_optimo"]
    generator_term = [math.log(1 - d) for d in d_star]  # the term for each point mass
    uniform = sum(0.25 * t for t in generator_term)
    assert uniform == pytest.approx(0.5 * math.log(5 / 7) + 0.5 * math.log(5 / 13), abs=1e-5)
    assert uniform == pytest.approx(-0.645992, abs=1e-5)
    assert min(generator_term) == pytest.approx(math.log(5 / 13), abs=1e-5)
    assert min(generator_term) == pytest.approx(-0.955511, abs=1e-5)
    # no mixture does better than the best vertex (random points of the simplex)
    rng = np.random.default_rng(0)
    mixtures = rng.dirichlet(np.ones(4), size=2000)
    assert (mixtures @ np.array(generator_term)).min() >= min(generator_term) - 1e-12
    # the new optimal discriminator against the collapsed generator flags that point only
    collapsed = [0.0, 1.0, 0.0, 0.0]
    assert [a / (a + b) for a, b in zip(P_D, collapsed)] == pytest.approx(
        [1.0, 0.285714, 1.0, 1.0], abs=1e-6
    )


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2])
def test_invalid_fake_score_is_refused(bad: float) -> None:
    with pytest.raises(ValueError):
        lab_module(333).run(d_falso=bad)
