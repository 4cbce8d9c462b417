"""Class 339: Q* in closed form, Q-learning replayed by a second implementation, MC vs theory."""

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

GAMMA, SUCCESS, GOAL = 0.9, 0.8, 3
KEYS = [
    "q_optimo", "q_aprendido", "error_maximo", "q_learning_aproxima_q_optimo",
    "politica_greedy_coincide", "error_por_episodios", "el_error_disminuye", "visitas_por_par",
    "todos_los_pares_visitados", "error_con_tasa_1_sobre_n",
]
Q_STAR_SYLLABUS = [[-3.907459, -3.230510], [-3.738222, -2.290303],
                   [-2.868531, -1.219512], [0.0, 0.0]]


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
            target = -1 + GAMMA * (SUCCESS * max(Q[step(s, a, True)])
                                   + (1 - SUCCESS) * max(Q[s]))
            assert Q[s][a] == pytest.approx(target, abs=1e-5)


def test_a_second_implementation_replays_the_same_stream() -> None:
    """Same random layout (starts, then blocks of actions and uniforms), loop written apart."""
    lab = lab_module(339)
    episodes, block = 4000, lab.BLOQUE
    rng = np.random.default_rng(0)
    starts = rng.integers(0, 3, size=episodes).tolist()
    actions: list[int] = []
    uniforms: list[float] = []
    transitions = []  # (s, a, s') for every step of every episode
    used = 0
    for s in starts:
        while s != GOAL:
            if used == len(actions):
                actions, used = rng.integers(0, 2, size=block).tolist(), 0
                uniforms = rng.random(block).tolist()
            a, u = actions[used], uniforms[used]
            used += 1
            s2 = step(s, a, u < SUCCESS)
            transitions.append((s, a, s2))
            s = s2
    # phase two: apply the updates; the goal row stays 0, so max over it is the no-bootstrap target
    Qw = [[0.0, 0.0] for _ in range(4)]
    Q1 = [[0.0, 0.0] for _ in range(4)]
    n = [[0, 0] for _ in range(4)]
    for s, a, s2 in transitions:
        n[s][a] += 1
        Qw[s][a] += n[s][a] ** -0.8 * (-1 + GAMMA * max(Qw[s2]) - Qw[s][a])
        Q1[s][a] += (-1 + GAMMA * max(Q1[s2]) - Q1[s][a]) / n[s][a]
    res = lab.run()
    assert np.max(np.abs(res["q_aprendido"] - np.array(Qw))) < 1e-12
    assert res["visitas_por_par"].tolist() == n[:3]
    assert abs(res["error_con_tasa_1_sobre_n"] - sup_error(Q1, q_star())) < 1e-9


def test_learned_q_is_close_to_q_star(out: dict) -> None:
    Q = out["q_aprendido"]
    assert Q[GOAL] == [0.0, 0.0]  # never bootstrapped, never updated
    assert sup_error(Q, q_star()) < 0.05  # statistical tolerance of the syllabus
    assert out["error_maximo"] == pytest.approx(sup_error(Q, out["q_optimo"]), abs=2e-6)
    assert out["error_por_episodios"]["4000"] == pytest.approx(out["error_maximo"], abs=1e-12)


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    Q, Qs = out["q_aprendido"], out["q_optimo"]
    assert out["q_learning_aproxima_q_optimo"] == (out["error_maximo"] < 0.05) is True
    greedy = [max((0, 1), key=lambda a: Q[s][a]) for s in range(3)]
    greedy_star = [max((0, 1), key=lambda a: Qs[s][a]) for s in range(3)]
    assert greedy_star == [1, 1, 1]
    assert out["politica_greedy_coincide"] == (greedy == greedy_star) is True
    errors = out["error_por_episodios"]
    assert list(errors) == ["50", "200", "1000", "4000"]
    assert out["el_error_disminuye"] == (errors["4000"] < errors["50"]) is True
    visits = out["visitas_por_par"]
    assert out["todos_los_pares_visitados"] == all(v > 0 for row in visits for v in row) is True


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


def test_several_seeds_and_the_two_learning_rates() -> None:
    finals, harmonic = [], []
    for seed in range(1, 5):  # seed 0 is the snapshot
        res = emitted(339, semilla=seed)
        assert res["q_learning_aproxima_q_optimo"] and res["politica_greedy_coincide"]
        assert res["error_maximo"] < 0.05
        finals.append(res["error_maximo"])
        harmonic.append(res["error_con_tasa_1_sobre_n"])
    # on average 1/n forgets the bad early targets more slowly than 1/n^0.8
    assert sum(harmonic) > sum(finals)


def test_omega_one_is_the_harmonic_rate(out: dict) -> None:
    assert emitted(339, omega=1.0)["error_maximo"] == pytest.approx(
        out["error_con_tasa_1_sobre_n"], abs=1e-12)


@pytest.mark.parametrize("omega", [0.5, 1.2])
def test_rates_outside_robbins_monro_are_refused(omega: float) -> None:
    with pytest.raises(ValueError, match="omega"):
        lab_module(339).run(omega=omega)
