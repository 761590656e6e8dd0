"""Rating updates checked by hand against OpenSkill's documented Plackett-Luce formulas.

The formulas (Weng & Lin 2011, Algorithm 4, as OpenSkill documents them), with beta = 25/6,
tau = 25/300 added to every sigma first, kappa = 1e-4, gamma_i = sigma_i / c:

    sigma_i^2 = sum of the team's sigma^2;   c = sqrt(sum_i (sigma_i^2 + beta^2))
    C_q = sum_{s: r_s >= r_q} exp(mu_s / c);  A_q = |{s: r_s = r_q}|;  p_iq = exp(mu_i / c) / C_q
    Omega_i = (sigma_i^2 / c) * sum_{q: r_q <= r_i} (1[q = i] - p_iq) / A_q
    Delta_i = gamma_i (sigma_i^2 / c^2) * sum_{q: r_q <= r_i} p_iq (1 - p_iq) / A_q
    player j of team i: mu += (sigma_j^2 / sigma_i^2) Omega_i,
                        sigma *= sqrt(max(1 - (sigma_j^2 / sigma_i^2) Delta_i, kappa))
"""

from __future__ import annotations

import math

import pytest

from bot.store.ratings import DEFAULT, Rating, SeatResult, places, rate_session, teams_for

BETA, TAU, KAPPA = 25 / 6, 25 / 300, 1e-4


Team = list[tuple[float, float]]


def plackett_luce(teams: list[Team], ranks: list[int]) -> list[Team]:
    """An independent transcription of the formulas above."""
    teams = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in t] for t in teams]
    mu_t = [sum(mu for mu, _ in t) for t in teams]
    s2_t = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in s2_t))
    n = len(teams)
    big_c = [sum(math.exp(mu_t[s] / c) for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = math.exp(mu_t[i] / c) / big_c[q]
                omega += ((q == i) - p) / a[q]
                delta += p * (1 - p) / a[q]
        omega *= s2_t[i] / c
        delta *= (math.sqrt(s2_t[i]) / c) * s2_t[i] / c**2
        out.append([(mu + s * s / s2_t[i] * omega, s * math.sqrt(max(1 - s * s / s2_t[i] * delta, KAPPA)))
                    for mu, s in t] if (t := teams[i]) else [])
    return out


def seat(i: int, result: int, user: int | None = None, ai: str | None = None) -> SeatResult:
    return SeatResult(i, user, ai, f"seat {i}", result, False)


def test_places_share_ties() -> None:
    assert places([5, 9, 5]) == [2, 1, 2]
    assert places([0, 0, 0]) == [1, 1, 1]
    assert places([-3, 7, 1, 7]) == [4, 1, 3, 1]


def test_three_new_players_by_hand() -> None:
    """Three fresh players, stacks +40 / 0 / -40 (say Marias: no fixed teams).

    sigma^2 = (25/3)^2 + (1/12)^2 = 69.45139; c = sqrt(3 (69.45139 + 17.36111)) = 16.13807;
    all exp(mu/c) equal, so p = 1/3 over all three, 1/2 over the last two, 1 alone.
    first:  Omega = 69.45139/16.13807 * (1 - 1/3)          = +2.86905 → mu 27.86905
    second: Omega = 4.30358 * ((0 - 1/3) + (1 - 1/2))        = +0.71726 → mu 25.71726
    third:  Omega = 4.30358 * ((0 - 1/3) + (0 - 1/2) + 0)    = -3.58631 → mu 21.41369
    first:  Delta = (8.33375/16.13807) * (69.45139/260.4375) * (2/9) = 0.030602
            sigma = 8.33375 * sqrt(1 - 0.030602) = 8.20524
    """
    seats = [seat(0, 40, user=1), seat(1, 0, user=2), seat(2, -40, user=3)]
    new = rate_session("marias", seats, {})
    assert new["user:1"].mu == pytest.approx(27.86905, abs=1e-4)
    assert new["user:2"].mu == pytest.approx(25.71726, abs=1e-4)
    assert new["user:3"].mu == pytest.approx(21.41369, abs=1e-4)
    assert new["user:1"].sigma == pytest.approx(8.20524, abs=1e-4)
    assert new["user:2"].sigma == new["user:3"].sigma < new["user:1"].sigma


def test_three_players_with_priors_match_the_formulas() -> None:
    """Unequal priors and an AI entry: the second-placed AI level, a strong first, a weak third."""
    before = {"user:1": Rating(30.0, 6.0), "ai:easy": Rating(20.0, 7.0)}
    seats = [seat(0, -15, user=1), seat(1, 25, user=2), seat(2, -10, ai="easy")]
    new = rate_session("michigan", seats, before)
    expected = plackett_luce([[(30.0, 6.0)], [(DEFAULT.mu, DEFAULT.sigma)], [(20.0, 7.0)]], [3, 1, 2])
    for key, ((mu, sigma),) in zip(("user:1", "user:2", "ai:easy"), expected, strict=True):
        assert new[key].mu == pytest.approx(mu, abs=1e-9)
        assert new[key].sigma == pytest.approx(sigma, abs=1e-9)
    assert new["user:1"].mu < 30.0 and new["user:2"].mu > DEFAULT.mu  # the favourite lost, the winner gained


def test_mus_two_against_two_by_hand() -> None:
    """Mus: seats 0 & 2 against 1 & 3; team 0 ends +10 each. Fresh players.

    team sigma^2 = 2 * 69.45139 = 138.90278; c = sqrt(2 (138.90278 + 17.36111)) = 17.67845, p = 1/2.
    winners: Omega = 138.90278/17.67845 * 1/2 = 3.92859; each player gets half: mu 26.96429.
    gamma = sqrt(138.90278)/17.67845 = 0.666667; Delta = 0.666667 * 0.444449 * 1/4 = 0.074075;
    sigma = 8.33375 * sqrt(1 - 0.074075/2) = 8.17796 (losers the same, by symmetry).
    """
    assert teams_for("mus", 4) == [(0, 2), (1, 3)]
    seats = [seat(0, 10, user=1), seat(1, -10, user=2), seat(2, 10, user=3), seat(3, -10, ai="strong")]
    new = rate_session("mus", seats, {})
    assert new["user:1"].mu == new["user:3"].mu == pytest.approx(26.96429, abs=1e-4)
    assert new["user:2"].mu == new["ai:strong"].mu == pytest.approx(23.03571, abs=1e-4)
    for r in new.values():
        assert r.sigma == pytest.approx(8.17796, abs=1e-4)


def test_mus_team_rank_is_by_summed_stack_with_unequal_priors() -> None:
    before = {"user:1": Rating(35.0, 4.0), "user:2": Rating(22.0, 8.0)}
    seats = [seat(0, -5, user=1), seat(1, 5, user=2), seat(2, -5, user=3), seat(3, 5, user=4)]
    new = rate_session("mus", seats, before)
    d = (DEFAULT.mu, DEFAULT.sigma)
    (p1, p3), (p2, p4) = plackett_luce([[(35.0, 4.0), d], [(22.0, 8.0), d]], [2, 1])
    for key, (mu, sigma) in (("user:1", p1), ("user:3", p3), ("user:2", p2), ("user:4", p4)):
        assert (new[key].mu, new[key].sigma) == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))


def test_one_ai_level_in_two_seats_takes_the_mean() -> None:
    seats = [seat(0, 30, user=1), seat(1, 0, ai="easy"), seat(2, -30, ai="easy")]
    new = rate_session("motz", seats, {})
    (w,), (a1,), (a2,) = plackett_luce([[(DEFAULT.mu, DEFAULT.sigma)]] * 3, [1, 2, 3])
    assert new["ai:easy"].mu == pytest.approx((a1[0] + a2[0]) / 2, abs=1e-9)
    assert new["ai:easy"].sigma == pytest.approx((a1[1] + a2[1]) / 2, abs=1e-9)
    assert new["user:1"].mu == pytest.approx(w[0], abs=1e-9)


def test_all_equal_stacks_move_nobody_much() -> None:
    seats = [seat(0, 0, user=1), seat(1, 0, user=2), seat(2, 0, user=3)]
    new = rate_session("marias", seats, {})
    assert all(r.mu == pytest.approx(DEFAULT.mu, abs=1e-9) for r in new.values())
