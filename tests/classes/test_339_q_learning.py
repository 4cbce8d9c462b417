"""Class 339: Q* in closed form, Q-learning replayed by a second implementation, MC vs theory."""

import math
import statistics
import tomllib

import numpy as np
import pytest

from tests.course_labs import class_dir, emitted, lab_module, snapshot

GAMMA, SUCCESS, GOAL = 0.9, 0.8, 3
KEYS = [
    "q_optimo",
    "q_aprendido",
    "error_maximo",
    "q_learning_aproxima_q_optimo",
    "politica_voraz_coincide",
    "error_por_episodios",
    "el_error_disminuye",
    "visitas_por_par",
    "comparacion_de_tasas",
]
Q_STAR_SYLLABUS = [
    [-3.907459, -3.230510],
    [-3.738222, -2.290303],
    [-2.868531, -1.219512],
    [0.0, 0.0],
]


def step(s: int, a: int, moved: bool) -> int:
    """Next state of the corridor: a = 1 goes right, a = 0 left (a wall at 0)."""
    if not moved:
        return s
    return s + 1 if a == 1 else max(s - 1, 0)


def q_star() -> list[list[float]]:
    """Q* = R + γ Σ P V*, with V* from the closed form of «always right» (class 338)."""
    V = [0.0] * 4
    for s in (2, 1, 0):
        V[s] = (-1 + GAMMA * SUCCESS * V[s + 1]) / (1 - GAMMA * (1 - SUCCESS))
    Q = [[0.0, 0.0] for _ in range(4)]
    for s in range(3):
        for a in (0, 1):
            Q[s][a] = -1 + GAMMA * (SUCCESS * V[step(s, a, True)] + (1 - SUCCESS) * V[s])
    return Q


def sup_error(Q, Q_ref) -> float:
    return max(abs(Q[s][a] - Q_ref[s][a]) for s in range(3) for a in (0, 1))


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(339)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(snapshot(339)) == KEYS


def test_q_star_closed_form_and_bellman_residual(out: dict) -> None:
    np.testing.assert_allclose(out["q_optimo"], q_star(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(out["q_optimo"], Q_STAR_SYLLABUS, rtol=0, atol=1e-6)
    Q = out["q_optimo"]
    for s in range(3):
        for a in (0, 1):
            target = -1 + GAMMA * (SUCCESS * max(Q[step(s, a, True)]) + (1 - SUCCESS) * max(Q[s]))
            assert Q[s][a] == pytest.approx(target, abs=1e-5)


@pytest.mark.parametrize(("gamma", "success"), [(0.9, 0.8), (0.99, 0.8), (0.9, 0.1), (0.0, 0.8)])
def test_q_value_iteration_stops_at_its_fixed_point(gamma: float, success: float) -> None:
    """Stopping once Q no longer changes gives the 2000-step Q bit for bit (28 steps by default)."""
    lab = lab_module(339)
    P, R = lab.modelo(success)
    Q, history = np.zeros((4, 2)), []
    for _ in range(2000):
        Q = R + gamma * (P @ Q.max(axis=1)).T  # the same float operations as the lab
        history.append(Q)
    fixed = next(k for k in range(1, 2000) if np.array_equal(history[k], history[k - 1]))
    assert all(np.array_equal(h, history[-1]) for h in history[fixed:])
    assert np.array_equal(lab.q_optimo(P, R, gamma, lab.ITERACIONES_Q), history[-1])
    if (gamma, success) == (0.9, 0.8):
        assert fixed + 1 == 28  # the page's figure: the 28th step is the first that changes nothing


def replay(seed: int = 0, episodes: int = 4000) -> list[list[tuple[int, int, int]]]:
    """The lab's random layout (starts, then blocks of actions and uniforms), walked apart."""
    block = lab_module(339).BLOQUE
    rng = np.random.default_rng(seed)
    starts = rng.integers(0, 3, size=episodes).tolist()
    actions: list[int] = []
    uniforms: list[float] = []
    lived = []  # one list of (s, a, s') per episode
    used = 0
    for s in starts:
        episode = []
        while s != GOAL:
            if used == len(actions):
                actions, used = rng.integers(0, 2, size=block).tolist(), 0
                uniforms = rng.random(block).tolist()
            a, u = actions[used], uniforms[used]
            used += 1
            s2 = step(s, a, u < SUCCESS)
            episode.append((s, a, s2))
            s = s2
        lived.append(episode)
    return lived


def learn(episodes, omega: float):
    """Plain Q-learning; the goal row stays 0, so max over it is the no-bootstrap target."""
    Q = [[0.0, 0.0] for _ in range(4)]
    n = [[0, 0] for _ in range(4)]
    firsts = []  # the target of each pair's first update
    for episode in episodes:
        for s, a, s2 in episode:
            n[s][a] += 1
            target = -1 + GAMMA * max(Q[s2])
            if n[s][a] == 1:
                firsts.append(target)
            Q[s][a] += n[s][a] ** -omega * (target - Q[s][a])
    return Q, n, firsts


@pytest.fixture(scope="module")
def lived() -> list:
    return replay(0)


def test_a_second_implementation_replays_the_same_stream(lived: list) -> None:
    res = lab_module(339).run()
    Qw, n, firsts = learn(lived, 0.8)
    assert np.max(np.abs(res["q_aprendido"] - np.array(Qw[:3]))) < 1e-12
    assert Qw[GOAL] == [0.0, 0.0]  # never bootstrapped, never updated
    assert res["visitas_por_par"].tolist() == n[:3]
    assert sum(len(e) for e in lived) == 47024  # 11.76 steps per episode (theory: 11.67)
    # the README: with seed 0 every pair's first target is −1 (its s' still had a zero action)
    assert firsts == [-1.0] * 6


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_first_targets_are_not_always_minus_one() -> None:
    """Another seed shows the README's caveat: a pair first updated after s' is fully learnt."""
    seeds_with_other_first = []
    for seed in range(1, 11):
        firsts = learn(replay(seed), 0.8)[2]
        assert all(f <= -1.0 for f in firsts)  # max Q(s', ·) ≤ 0 always
        if any(f < -1.0 for f in firsts):
            seeds_with_other_first.append(seed)
    assert seeds_with_other_first


def block_errors(lived: list, omega: float) -> list[float]:
    blocks = [lived[200 * i : 200 * (i + 1)] for i in range(20)]
    return [sup_error(learn(b, omega)[0], q_star()) for b in blocks]


def declared_rtol(name: str) -> float:
    meta = tomllib.loads((class_dir(339) / "class.toml").read_text(encoding="utf-8"))
    return next(o for o in meta["salidas"] if o["nombre"] == name)["tolerancia"]["rtol"]


def test_rate_comparison_replayed_and_its_standard_error(out: dict, lived: list) -> None:
    rtol = declared_rtol("comparacion_de_tasas")
    for key, omega in (("alfa_1_sobre_n_0_8", 0.8), ("alfa_1_sobre_n", 1.0)):
        errors = block_errors(lived, omega)
        mean = statistics.fmean(errors)
        se = statistics.stdev(errors) / math.sqrt(len(errors))
        assert out["comparacion_de_tasas"][key] == pytest.approx(mean, abs=2e-6)
        assert 0.04 < se / mean < 0.15  # 20 blocks: the single-block spread (~40 %) over √20
        assert 2.5 < rtol * mean / se < 10  # a few standard errors, never dozens
    slow = out["comparacion_de_tasas"]["alfa_1_sobre_n"]
    fast = out["comparacion_de_tasas"]["alfa_1_sobre_n_0_8"]
    assert slow > 3 * fast  # over 300 seeds the ratio never went below 3.09
    # the tolerance bands do not reach each other: the snapshot tells 1/n from 1/n^0.8
    assert slow * (1 - rtol) > fast * (1 + rtol)


def test_readme_digits_of_seed_zero(out: dict, lived: list) -> None:
    """The README quotes seed 0; those digits only hold while numpy keeps its stream."""
    if out != snapshot(339):
        pytest.skip("numpy's stream changed: the README's seed-0 digits no longer apply")
    rates = snapshot(339)["comparacion_de_tasas"]
    assert rates["alfa_1_sobre_n_0_8"] == pytest.approx(0.071, abs=5e-4)
    assert rates["alfa_1_sobre_n"] == pytest.approx(0.303, abs=5e-4)
    for omega, se_printed in ((0.8, 0.0065), (1.0, 0.020)):
        errors = block_errors(lived, omega)
        assert statistics.stdev(errors) / math.sqrt(20) == pytest.approx(se_printed, abs=5e-4)
    errors = snapshot(339)["error_por_episodios"]
    assert [round(errors[k], 3) for k in ("50", "200", "1000")] == [0.162, 0.099, 0.033]
    assert round(errors["4000"], 4) == 0.0165
    assert snapshot(339)["visitas_por_par"] == [[10071, 10061], [8468, 8400], [5067, 4957]]


def test_learned_q_is_close_to_q_star(out: dict) -> None:
    Q = out["q_aprendido"]
    assert len(Q) == 3  # the goal row is not a Monte Carlo number and is not emitted
    assert sup_error(Q, q_star()) < 0.05  # statistical tolerance of the syllabus
    assert out["error_maximo"] == pytest.approx(sup_error(Q, out["q_optimo"]), abs=2e-6)
    assert out["error_por_episodios"]["4000"] == pytest.approx(out["error_maximo"], abs=1e-12)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    Q, Qs = out["q_aprendido"], out["q_optimo"]
    assert out["q_learning_aproxima_q_optimo"] == (out["error_maximo"] < 0.05) is True
    greedy = [max((0, 1), key=lambda a: Q[s][a]) for s in range(3)]
    greedy_star = [max((0, 1), key=lambda a: Qs[s][a]) for s in range(3)]
    assert greedy_star == [1, 1, 1]
    assert out["politica_voraz_coincide"] == (greedy == greedy_star) is True
    errors = out["error_por_episodios"]
    assert list(errors) == ["50", "200", "1000", "4000"]
    assert out["el_error_disminuye"] == (errors["4000"] < errors["50"]) is True
    assert min(v for row in out["visitas_por_par"] for v in row) > 1000  # exploration is ample


def test_visits_match_the_absorbing_chain(out: dict) -> None:
    # expected visits per episode: start distribution times the fundamental matrix (I − P_T)^(-1)
    P_T = np.zeros((3, 3))
    for s in range(3):
        for a in (0, 1):
            P_T[s, s] += 0.5 * (1 - SUCCESS)
            s2 = step(s, a, True)
            if s2 != GOAL:
                P_T[s, s2] += 0.5 * SUCCESS
    per_state = np.full(3, 1 / 3) @ np.linalg.inv(np.eye(3) - P_T)
    assert per_state == pytest.approx([5.0, 25 / 6, 2.5], abs=1e-12)
    expected_pair = 4000 * per_state / 2  # 10000, 8333.3, 5000
    for s in range(3):
        for a in (0, 1):
            assert isinstance(out["visitas_por_par"][s][a], int)
            assert out["visitas_por_par"][s][a] == pytest.approx(expected_pair[s], rel=0.1)


@pytest.mark.lento  # among the quick loop's slowest (1–4 s on 2 cores)
def test_several_seeds_and_the_two_learning_rates() -> None:
    for seed in range(1, 5):  # seed 0 is the snapshot
        res = emitted(339, semilla=seed)
        assert res["q_learning_aproxima_q_optimo"] and res["politica_voraz_coincide"]
        assert 0.0034 <= res["error_maximo"] < 0.05  # the range seen over 1000 seeds
        rates = res["comparacion_de_tasas"]
        assert (
            rates["alfa_1_sobre_n"] > 3 * rates["alfa_1_sobre_n_0_8"]
        )  # min ratio over 300 seeds: 3.09


def test_omega_one_in_the_long_run(out: dict, lived: list) -> None:
    harmonic = emitted(339, omega=1.0)
    # the long run now uses 1/n; the rate comparison does not depend on the omega parameter
    assert harmonic["comparacion_de_tasas"] == out["comparacion_de_tasas"]
    assert harmonic["visitas_por_par"] == out["visitas_por_par"]
    assert harmonic["error_maximo"] == pytest.approx(
        sup_error(learn(lived, 1.0)[0], q_star()), abs=2e-6
    )


def test_page_examples_are_accepted() -> None:
    assert emitted(339, semilla=1)["politica_voraz_coincide"] is True  # show's example
    longer = emitted(339, episodios=8000)
    assert sum(map(sum, longer["visitas_por_par"])) > sum(map(sum, emitted(339)["visitas_por_par"]))


@pytest.mark.parametrize("omega", [0.5, 1.2])
def test_rates_outside_robbins_monro_are_refused(omega: float) -> None:
    with pytest.raises(ValueError, match="omega"):
        lab_module(339).run(omega=omega)


@pytest.mark.lento  # seconds: out of the quick loop
def test_declared_tolerances_follow_the_spread_between_seeds() -> None:
    """The descriptions quote spreads over 1000 seeds; 12 seeds must agree in order of magnitude."""
    meta = tomllib.loads((class_dir(339) / "class.toml").read_text(encoding="utf-8"))
    tol = {o["nombre"]: o.get("tolerancia", {}) for o in meta["salidas"]}
    finals, visits, q = [], [], []
    for seed in range(100, 112):
        Q, n, _ = learn(replay(seed), 0.8)
        finals.append(sup_error(Q, q_star()))
        visits.append(n[0][0])
        q.append(Q[2][0])
    sd_final = statistics.stdev(finals)
    assert 0.004 < sd_final < 0.012  # 0.0072 over 1000 seeds
    assert 3 < tol["error_maximo"]["atol"] / sd_final < 9
    assert 3 < tol["q_aprendido"]["atol"] / statistics.stdev(q) < 12
    # visits to (0, left): spread about 2.5 % of the mean, declared rtol 0.11
    rel = statistics.stdev(visits) / statistics.fmean(visits)
    assert 0.01 < rel < 0.04
    assert 2.5 < tol["visitas_por_par"]["rtol"] / rel < 11
    # the mean of the final error is 0.017; the claim's threshold 0.05 sits far in the tail
    assert 0.012 < statistics.fmean(finals) < 0.024


def test_the_goal_row_keeps_its_initial_value_and_is_never_read() -> None:
    # with the table started at −10 the goal row stays −10; the right update never reads it, so
    # the learned table matches a learner whose goal row is 0 (the second implementation above)
    lab = lab_module(339)
    P, R = lab.modelo(SUCCESS)
    Qs = lab.q_optimo(P, R, GAMMA, 2000)
    lived = lab.experiencia(SUCCESS, 200, 0)
    Q, _, _ = lab.q_learning(lived, GAMMA, 0.8, Qs, -10.0)
    assert Q[GOAL] == [-10.0, -10.0]
    ref = [[-10.0, -10.0] for _ in range(3)] + [[0.0, 0.0]]
    n = [[0, 0] for _ in range(3)]
    for episode in lived:
        for s, a, r, s2 in episode:
            n[s][a] += 1
            ref[s][a] += n[s][a] ** -0.8 * (r + GAMMA * max(ref[s2]) - ref[s][a])
    assert np.max(np.abs(np.array(Q[:GOAL]) - np.array(ref[:GOAL]))) < 1e-12
    # bootstrapping from the goal row (the common error) would move Q(2, derecha) by about γ·0.8·10
    wrong = [[-10.0, -10.0] for _ in range(4)]
    n = [[0, 0] for _ in range(3)]
    for episode in lived:
        for s, a, r, s2 in episode:
            n[s][a] += 1
            wrong[s][a] += n[s][a] ** -0.8 * (r + GAMMA * max(wrong[s2]) - wrong[s][a])
    assert abs(wrong[2][1] - Q[2][1]) > 5
