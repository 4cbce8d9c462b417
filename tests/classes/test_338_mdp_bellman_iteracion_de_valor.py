"""Class 338: the corridor MDP solved again with exact fractions, policy iteration and an LP."""

from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from tests.course_labs import emitted, lab_module, snapshot

GAMMA = Fraction(9, 10)
SUCCESS = Fraction(4, 5)
GOAL = 3
RIGHT, LEFT = 1, 0

KEYS = [
    "v_politica_aleatoria",
    "evaluacion_iterativa_coincide",
    "v_optimo",
    "politica_optima",
    "iteraciones_valor",
    "bellman_es_contraccion",
    "cota_gamma_k",
    "residuo_de_bellman",
    "v_optimo_domina",
    "v_optimo_coincide_con_forma_cerrada",
]


def transitions(success=SUCCESS):
    """{(s, a): {s': prob}} written from the story, not from the lab's arrays."""
    table = {}
    for s in range(4):
        for a in (LEFT, RIGHT):
            if s == GOAL:
                table[s, a] = {GOAL: 1}
                continue
            target = s + 1 if a == RIGHT else max(s - 1, 0)
            row = {s: 1 - success}
            row[target] = row.get(target, 0) + success
            table[s, a] = row
    return table


def reward(s: int) -> int:
    return 0 if s == GOAL else -1


def solve(matrix, rhs):
    """Gauss-Jordan elimination on Fractions: exact solution of matrix @ x = rhs."""
    n = len(rhs)
    aug = [list(row) + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if aug[r][col] != 0)
        aug[col], aug[pivot] = aug[pivot], aug[col]
        for r in range(n):
            if r != col and aug[r][col] != 0:
                f = aug[r][col] / aug[col][col]
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[col])]
    return [aug[i][n] / aug[i][i] for i in range(n)]


def evaluate(policy_probs, gamma=GAMMA, success=SUCCESS):
    """Exact V^π for a stochastic policy {s: {a: prob}}: solve (I − γP^π)V = r^π."""
    table = transitions(success)
    matrix = [[Fraction(int(i == j)) for j in range(4)] for i in range(4)]
    rhs = []
    for s in range(4):
        rhs.append(Fraction(reward(s)))
        for a, pa in policy_probs[s].items():
            for s2, p in table[s, a].items():
                matrix[s][s2] -= gamma * pa * p
    return solve(matrix, rhs)


def q_values(V, gamma=GAMMA, success=SUCCESS):
    table = transitions(success)
    return {
        (s, a): reward(s) + gamma * sum(p * V[s2] for s2, p in table[s, a].items())
        for s in range(4)
        for a in (LEFT, RIGHT)
    }


def policy_iteration(gamma=GAMMA, success=SUCCESS):
    policy = dict.fromkeys(range(4), LEFT)
    while True:
        V = evaluate({s: {policy[s]: 1} for s in range(4)}, gamma, success)
        Q = q_values(V, gamma, success)
        improved = {
            s: max((LEFT, RIGHT), key=lambda a: (Q[s, a], a == policy[s])) for s in range(4)
        }
        if improved == policy:
            return V, policy
        policy = improved


def bellman(V, gamma=0.9, success=0.8):
    table = transitions(Fraction(success).limit_denominator())
    return [
        max(
            reward(s) + gamma * sum(float(p) * V[s2] for s2, p in table[s, a].items())
            for a in (LEFT, RIGHT)
        )
        for s in range(4)
    ]


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(338)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert list(snapshot(338)) == KEYS


def test_random_policy_value_exactly(out: dict) -> None:
    uniform = {s: {LEFT: Fraction(1, 2), RIGHT: Fraction(1, 2)} for s in range(4)}
    exact = [float(x) for x in evaluate(uniform)]
    assert out["v_politica_aleatoria"] == pytest.approx(exact, abs=1e-6)
    assert out["v_politica_aleatoria"] == pytest.approx(
        [-6.746806, -5.843142, -3.784794, 0.0], abs=1e-6
    )


def test_optimal_value_by_policy_iteration(out: dict) -> None:
    V, policy = policy_iteration()
    assert [policy[s] for s in range(3)] == [RIGHT, RIGHT, RIGHT]
    assert out["v_optimo"] == pytest.approx([float(x) for x in V], abs=1e-6)
    assert out["v_optimo"] == pytest.approx([-3.230510, -2.290303, -1.219512, 0.0], abs=1e-6)
    assert out["politica_optima"] == ["derecha", "derecha", "derecha", "meta"]
    # closed form of the syllabus, exactly
    assert V[2] == Fraction(-100, 82)
    for s in (0, 1):
        assert V[s] == (-1 + Fraction(72, 100) * V[s + 1]) / Fraction(82, 100)


@pytest.mark.lento  # seconds: out of the quick loop
def test_optimal_value_by_linear_programming(out: dict) -> None:
    optimize = pytest.importorskip("scipy.optimize")
    table = transitions()
    # min Σ V(s)  s.t.  V(s) ≥ R(s,a) + γ Σ P(s'|s,a) V(s')  for every (s, a)
    A, b = [], []
    for (s, a), row in table.items():
        coeffs = [0.0] * 4
        coeffs[s] -= 1.0
        for s2, p in row.items():
            coeffs[s2] += 0.9 * float(p)
        A.append(coeffs)
        b.append(-float(reward(s)))
    res = optimize.linprog(np.ones(4), A_ub=A, b_ub=b, bounds=[(None, None)] * 4, method="highs")
    assert res.success
    assert out["v_optimo"] == pytest.approx(res.x.tolist(), abs=1e-6)


def test_against_pymdptoolbox_when_available(out: dict) -> None:
    mdp = pytest.importorskip("mdptoolbox.mdp")
    P, R = lab_module(338).modelo(0.8)
    vi = mdp.ValueIteration(P, R, 0.9, epsilon=1e-10)
    vi.run()
    assert out["v_optimo"] == pytest.approx(list(vi.V), abs=1e-6)  # emitted with 6 decimals
    raw = lab_module(338).run()["v_optimo"]
    assert raw.tolist() == pytest.approx(list(vi.V), abs=1e-8)
    pi = mdp.PolicyIteration(P, R, 0.9)
    pi.run()
    assert list(pi.policy[:3]) == [RIGHT, RIGHT, RIGHT]
    assert raw.tolist() == pytest.approx(list(pi.V), abs=1e-9)


def test_value_iteration_count_bound_and_residual(out: dict) -> None:
    # an independent value iteration in plain floats
    history = [[0.0] * 4]
    while True:
        history.append(bellman(history[-1]))
        if max(abs(x - y) for x, y in zip(history[-1], history[-2])) < 1e-10:
            break
    assert out["iteraciones_valor"] == len(history) - 1 == 19
    assert isinstance(out["iteraciones_valor"], int)
    v_star = history[-1]
    # the bound is measured against the exact V* (policy iteration in fractions), not the last iterate
    exact = [float(x) for x in policy_iteration()[0]]
    errors = [max(abs(x - y) for x, y in zip(v_k, exact)) for v_k in history]
    bound_holds = all(e <= 0.9**k * errors[0] + 1e-12 for k, e in enumerate(errors))
    assert out["cota_gamma_k"] == bound_holds is True
    assert errors[4] == pytest.approx(0.164758, abs=1e-6)  # the README's 0,16 against 2,1
    assert 0.9**4 * errors[0] == pytest.approx(2.119538, abs=1e-6)
    # after stopping: ‖TV_K − V_K‖ = ‖V_{K+1} − V_K‖ ≤ γ‖V_K − V_{K−1}‖ < γ·1e-10, not exactly zero
    assert 0 < out["residuo_de_bellman"] < 0.9e-10
    residual = max(abs(x - y) for x, y in zip(bellman(v_star), v_star))
    assert out["residuo_de_bellman"] == pytest.approx(residual, rel=0.05)
    # and the stopped iterate is within γ/(1−γ)·threshold of the exact V*
    exact = [float(x) for x in policy_iteration()[0]]
    assert max(abs(x - y) for x, y in zip(v_star, exact)) <= 9 * 1e-10


def deterministic_values() -> dict[tuple[int, ...], list[Fraction]]:
    """Exact V^π of the 8 deterministic policies (one action per non-goal state)."""
    return {
        pol: evaluate({s: {(pol + (LEFT,))[s]: 1} for s in range(4)})
        for pol in product((LEFT, RIGHT), repeat=3)
    }


def test_optimal_value_dominates_every_deterministic_policy(out: dict) -> None:
    values = deterministic_values()
    assert len(values) == 8
    v_opt = out["v_optimo"]
    dominates = all(a >= float(b) - 1e-9 for V in values.values() for a, b in zip(v_opt, V))
    dominates &= all(a >= b - 1e-9 for a, b in zip(v_opt, out["v_politica_aleatoria"]))
    assert out["v_optimo_domina"] == dominates is True
    # the state-by-state maximum of the 8 is reached by one policy, «always right», and it is V*
    best = [max(V[s] for V in values.values()) for s in range(4)]
    assert best == values[RIGHT, RIGHT, RIGHT] == policy_iteration()[0]
    # the others loop forever somewhere: −1/(1 − γ) = −10 there
    assert values[LEFT, LEFT, LEFT] == [-10, -10, -10, 0]
    assert values[LEFT, RIGHT, RIGHT] == [-10, *best[1:]]


def test_domination_claim_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """With min instead of max the iteration finds the worst policy, and the claim says so."""
    lab = lab_module(338)
    monkeypatch.setattr(
        lab, "operador_bellman", lambda P, R, V, gamma: lab.valores_q(P, R, V, gamma).min(axis=-1)
    )
    res = lab.run()
    assert res["v_optimo_domina"] is False
    assert res["v_optimo"][0] == pytest.approx(-10.0, abs=1e-6)


def test_contraction_on_the_labs_random_pairs(out: dict) -> None:
    """The lab's 1000 pairs (default_rng(0), normal, scale 5) replayed with a plain operator."""
    rng = np.random.default_rng(0)
    pairs = [(list(lab_module(338).U1), list(lab_module(338).U2))]
    for _ in range(1000):
        u, w = (5.0 * rng.standard_normal((2, 4))).tolist()
        pairs.append((u, w))
    ratios = [
        max(abs(a - b) for a, b in zip(bellman(u), bellman(w)))
        / max(abs(a - b) for a, b in zip(u, w))
        for u, w in pairs
    ]
    assert out["bellman_es_contraccion"] == (max(ratios) <= 0.9 + 1e-12) is True
    assert max(ratios) == pytest.approx(0.9, abs=1e-12)  # tight: the goal row is γ times U(3)
    # an operator with a larger discount breaks the inequality the claim checks
    loose = [
        max(abs(a - b) for a, b in zip(bellman(u, gamma=0.99), bellman(w, gamma=0.99)))
        > 0.9 * max(abs(a - b) for a, b in zip(u, w)) + 1e-12
        for u, w in pairs
    ]
    assert any(loose)


def test_bellman_operator_on_columns_is_the_operator_on_each_vector() -> None:
    """The contraction check applies T to 1001 vectors at once, one per column of V (S, N)."""
    lab = lab_module(338)
    P, R = lab.modelo(0.8)
    V = np.random.default_rng(5).standard_normal((4, 7)) * 5  # (S, N)
    Q = lab.valores_q(P, R, V, 0.9)
    assert Q.shape == (7, 4, 2)
    for n in range(7):
        assert np.allclose(Q[n], lab.valores_q(P, R, V[:, n], 0.9), rtol=0, atol=1e-12)
        assert lab.operador_bellman(P, R, V, 0.9)[n] == pytest.approx(
            bellman(V[:, n].tolist()), abs=1e-12
        )


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    v_pi, v_opt = out["v_politica_aleatoria"], out["v_optimo"]
    closed = [0.0] * 4
    for s in (2, 1, 0):
        closed[s] = (-1 + 0.72 * closed[s + 1]) / 0.82
    assert (
        out["v_optimo_coincide_con_forma_cerrada"]
        == (max(abs(a - b) for a, b in zip(v_opt, closed)) < 1e-6)
        is True
    )
    u1, u2 = list(lab_module(338).U1), list(lab_module(338).U2)
    lhs = max(abs(a - b) for a, b in zip(bellman(u1), bellman(u2)))
    assert lhs == pytest.approx(1.35, abs=1e-12)
    assert out["bellman_es_contraccion"] == (lhs <= 0.9 * max(abs(a - b) for a, b in zip(u1, u2)))
    # iterative evaluation of the random policy, in plain Python
    table = transitions()
    V = [0.0] * 4
    for _ in range(1000):
        V = [
            reward(s)
            + 0.9
            * sum(0.5 * float(p) * V[s2] for a in (LEFT, RIGHT) for s2, p in table[s, a].items())
            for s in range(4)
        ]
    assert (
        out["evaluacion_iterativa_coincide"]
        == (max(abs(a - b) for a, b in zip(V, v_pi)) < 1e-6)
        is True
    )


def test_goal_is_worth_zero_and_costs_nothing() -> None:
    P, R = lab_module(338).modelo(0.8)
    assert R[GOAL].tolist() == [0.0, 0.0]
    assert P[:, GOAL, GOAL].tolist() == [1.0, 1.0]
    # if the goal kept charging −1 its value would be −1/(1 − γ) = −10
    assert float(evaluate({s: {RIGHT: 1} for s in range(4)})[GOAL]) == 0.0


def test_myopic_agent_with_gamma_zero() -> None:
    res = emitted(338, gamma=0.0)
    assert res["v_optimo"] == [-1.0, -1.0, -1.0, 0.0]
    assert res["iteraciones_valor"] == 2
    assert res["residuo_de_bellman"] == 0.0


def test_deterministic_moves() -> None:
    res = emitted(338, prob_exito=1.0)
    assert res["v_optimo"] == pytest.approx([-2.71, -1.9, -1.0, 0.0], abs=1e-9)
    assert res["politica_optima"] == ["derecha", "derecha", "derecha", "meta"]
    V, _ = policy_iteration(success=Fraction(1))
    assert res["v_optimo"] == pytest.approx([float(x) for x in V], abs=1e-9)


@pytest.mark.parametrize("gamma", [0.5, 0.99])
def test_other_discounts_against_policy_iteration(gamma: float) -> None:
    res = emitted(338, gamma=gamma)
    V, _ = policy_iteration(gamma=Fraction(gamma).limit_denominator())
    assert res["v_optimo"] == pytest.approx([float(x) for x in V], abs=1e-6)
    assert res["cota_gamma_k"] and res["bellman_es_contraccion"] and res["v_optimo_domina"]


@pytest.mark.parametrize("gamma", [1.0, -0.1])
def test_discount_outside_the_contraction_range_is_refused(gamma: float) -> None:
    with pytest.raises(ValueError, match="gamma"):
        lab_module(338).run(gamma=gamma)


def test_the_pages_examples() -> None:
    """show suggests doubling the first parameter (umbral); the README suggests the others."""
    assert emitted(338, umbral=2e-10)["iteraciones_valor"] == 19
    coarse = emitted(338, umbral=1e-3)
    assert coarse["iteraciones_valor"] == 9
    assert coarse["residuo_de_bellman"] == pytest.approx(1.2e-4, abs=1e-5)
    exact = [float(x) for x in policy_iteration()[0]]
    gap = max(abs(a - b) for a, b in zip(coarse["v_optimo"], exact))
    assert gap == pytest.approx(1.6e-4, abs=1e-5)
    assert gap <= 9 * 1e-3  # γ/(1 − γ) times the threshold
    assert coarse["v_optimo_coincide_con_forma_cerrada"] is False
    assert coarse["cota_gamma_k"] and coarse["v_optimo_domina"]
    assert emitted(338, gamma=0.99)["iteraciones_valor"] == 21
    assert emitted(338, gamma=0.5)["iteraciones_valor"] == 15
    with pytest.raises(ValueError, match="umbral"):
        lab_module(338).run(umbral=0.0)


@pytest.mark.parametrize("gamma", [0.5, 0.9, 0.99, 0.999])
@pytest.mark.parametrize("threshold", [1e-3, 1e-10])
def test_the_iterations_stay_within_the_contractions_bound(gamma: float, threshold: float) -> None:
    """‖V_1 − V_0‖_∞ = ‖T 0‖_∞ = 1 here and each step shrinks the change by γ at least, so the
    iteration stops by step ⌈log(umbral) / log γ⌉; the lab's count of that bound agrees."""
    lab = lab_module(338)
    P, R = lab.modelo(0.8)
    bound = int(np.ceil(np.log(threshold / 1.0) / np.log(gamma)))
    assert lab.pasos_de_la_cota(R, gamma, threshold) == bound
    assert len(lab.iteracion_de_valor(P, R, gamma, threshold)) - 1 <= bound


def test_an_operator_that_is_not_bellmans_stops_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hole whose T never settles (here V + 1, every change 1) used to loop until the time
    limit; past twice the contraction's bound the lab says why, in a few milliseconds."""
    lab = lab_module(338)
    monkeypatch.setattr(lab, "operador_bellman", lambda P, R, V, gamma: V + 1.0)
    P, R = lab.modelo(0.8)
    with pytest.raises(RuntimeError, match="no es T V") as raised:
        lab.iteracion_de_valor(P, R, 0.9, 1e-10)
    bound = lab.pasos_de_la_cota(R, 0.9, 1e-10)
    assert f"bastan {bound}" in str(raised.value) and f"en {2 * bound + 10} pasos" in str(
        raised.value
    )


def test_a_hole_that_forgets_to_append_stops_too(tmp_path: Path) -> None:
    """The steps are counted by the loop, not by the history the hole may leave unchanged: a
    hole that computes T V but never appends it (every change the same) stops all the same."""
    import importlib.util

    source = lab_module(338).__file__
    assert source is not None
    text = Path(source).read_text(encoding="utf-8")
    hole = text.index("### BEGIN SOLUTION", text.index("def iteracion_de_valor"))
    close = text.index("        ### END SOLUTION", hole)
    wrong = (
        "### BEGIN SOLUTION\n"
        "        siguiente = operador_bellman(P, R, historia[-1], gamma)\n"
        "        cambio = np.max(np.abs(siguiente - historia[-1]))\n"
    )
    broken = tmp_path / "lab.py"
    broken.write_text(text[:hole] + wrong + text[close:], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("lab_338_sin_anadir", broken)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(RuntimeError, match="no es T V"):
        module.run()
