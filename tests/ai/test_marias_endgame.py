"""Marias's expert (issue 17): the two-sided alpha-beta (``endgame.AlphaBeta``) on a hand-checked
ending and against max^n, the expert's earlier exact search (4 cards each) and its model of the
table (defenders double)."""

from __future__ import annotations

import random

import pytest

from bot.ai.registry import easy_policy, spec_for
from bot.ai.strong import StrongPolicy
from bot.ai.strong.endgame import AlphaBeta, Solver, solve_moves, solver_for
from bot.ai.strong.keys import action_key
from bot.rules import GAMES

MARIAS = spec_for("marias")
G = GAMES["marias"]


def play(card: str) -> tuple:
    return action_key({"type": "play", "card": card})


def easy_session(seed: int, options: dict | None = None):
    """A session played by the easy policy (yields each state before a move, the state itself)."""
    st = G.new_table(seats=3, options=G.validate_options(options or {}), seed=seed)
    easy, rng = easy_policy("marias"), random.Random(seed)
    while not st.is_over():
        yield st
        s = st.to_act()[0]
        st.apply(s, easy.choose(st.view(s), st.legal_actions(s), rng))


def two_card_ending():
    """Seed 10 (one round, no concession), deal 2, played by easy until the last two tricks: hra,
    trumps ♦, no flek, soloist seat 1 to lead holding Q♠ 10♠; seat 2 holds K♠ J♥, seat 0 9♥ 10♣."""
    for st in easy_session(10, {"rounds": 1, "concede_plain": False}):
        if st.deals_played == 1 and st.phase == "play" and len(st.hands[1]) == 2 and not st.trick:
            return st
    raise AssertionError("the ending was not reached")


def args(st) -> tuple:
    return MARIAS, MARIAS.deal_no(st), MARIAS.values(st), MARIAS.scale(st)


def test_two_card_marias_ending_by_hand() -> None:
    """By hand: card points S 10, defenders 30 + 20, marriages S 60: P_S 70 against P_D 50, with
    10♠, 10♣ and the last trick (30) to play. Q♠: K♠ must beat it and wins; 9♥ or 10♣ falls, then
    J♥ leads, 10♠ (no heart, no trump) falls under it: the defenders take the last 30 or 20 and at
    least 80 > 70: hra lost, 1 unit from each defender's side, the soloist −2 jetons. 10♠: K♠
    cannot beat it (A 10 K), 9♥ falls (10♣ kept), Q♠ then takes the last trick with 10♣: the
    soloist 100 > 50: hra won (H100 = 40 + at most 40 < 100, so 1 unit), +2 jetons. Scale 4
    × stake: rewards −0.5 and +0.5. Max^n and alpha-beta agree."""
    st = two_card_ending()
    assert (st.contract, st.trump, st.flek, st.soloist, st.to_act()) == ("hra", "D", 0, 1, (1,))
    assert st.hands == [["9H", "10C"], ["QS", "10S"], ["KS", "JH"]]
    assert st.card_points == [30, 10, 20] and st.marr_pts == [0, 60, 0]
    sides = MARIAS.endgame_sides(st)
    assert sides == [-1, 1, -1]
    ab = AlphaBeta(*args(st), sides)
    for card, want in (("QS", -0.5), ("10S", 0.5)):
        c = st.clone()
        c.apply(1, {"type": "play", "card": card})
        v = ab.value(c)
        assert v[1] == pytest.approx(want) and v[0] == v[2] == pytest.approx(-want / 2)
    assert solve_moves(st, 1, MARIAS) == {play("QS"): pytest.approx(-0.5), play("10S"): pytest.approx(0.5)}


def endgames(cards: int, count: int) -> list:
    """States of easy-played sessions at a trick's start (or inside one) with ``cards`` at most."""
    out = []
    for seed in range(1, 80):
        k = 0
        for st in easy_session(seed):
            short = st.phase == "play" and max(len(h) for h in st.hands) == cards
            if short and len(st.legal_actions(st.to_act()[0])) > 1:
                k += 1
                if k % 2:
                    out.append(st.clone())
            if len(out) >= count:
                return out
    raise AssertionError("too few endgames")


@pytest.mark.parametrize("cards", [2, 3])
def test_alpha_beta_agrees_with_maxn(cards: int) -> None:
    """Every root move's reward for the seat to act, and every seat's reward at the root, are
    max^n's, with fewer leaves."""
    fewer = 0
    for st in endgames(cards, 20):
        seat = st.to_act()[0]
        ab = AlphaBeta(*args(st), MARIAS.endgame_sides(st))
        maxn = Solver(*args(st))
        assert ab.value(st) == pytest.approx(maxn.value(st))
        for a in st.legal_actions(seat):
            c = st.clone()
            c.apply(seat, a)
            assert ab.value(c)[seat] == pytest.approx(maxn.value(c)[seat])
        fewer += ab.leaves < maxn.leaves
    assert fewer >= 10


def test_the_transposition_table_changes_no_value() -> None:
    """Stored bounds (exact, lower, upper) give the values of the plain alpha-beta, in fewer
    positions, from four cards each."""
    import dataclasses

    plain = dataclasses.replace(MARIAS, alphabeta_key=None)
    for st in endgames(4, 8):
        seat = st.to_act()[0]
        with_tt = AlphaBeta(*args(st), MARIAS.endgame_sides(st))
        without = AlphaBeta(plain, *args(st)[1:], MARIAS.endgame_sides(st))
        for a in st.legal_actions(seat):
            c = st.clone()
            c.apply(seat, a)
            assert with_tt.value(c) == pytest.approx(without.value(c))
        assert with_tt.nodes < without.nodes


def test_the_exact_search_picks_its_solver() -> None:
    st = two_card_ending()
    assert type(solver_for(MARIAS, st, *args(st)[1:])) is AlphaBeta
    assert type(solver_for(MARIAS, st, *args(st)[1:], seat=1, opponent=easy_policy("marias"))) is Solver


def test_the_expert_solves_from_four_cards() -> None:
    """Strong solves the last three tricks exactly, the expert the last four."""
    (st,) = endgames(4, 1)
    strong, expert = StrongPolicy("marias"), StrongPolicy("marias", expert=True)
    assert not strong.spec.endgame(st) and expert.spec.endgame(st)
    seat = st.to_act()[0]
    _, result = StrongPolicy("marias", budget_ms=1e9, max_iterations=50, expert=True).choose_traced(
        st.view(seat), st.legal_actions(seat), random.Random(1), st)
    assert result is not None and result.exact


def test_the_experts_endgame_never_reads_hidden_cards() -> None:
    """No peeking for the expert's four-card PIMC: a real state and its redealt twin (same view,
    other hidden cards) get the same figures from the same seed."""
    from tests.ai.test_no_peeking import hidden

    policy = StrongPolicy("marias", budget_ms=1e9, max_iterations=60, expert=True)
    checked = 0
    for n, st in enumerate(endgames(4, 8)):
        seat = st.to_act()[0]
        twin = st.redeal(seat, random.Random(100 + n))
        if hidden("marias", twin, seat) == hidden("marias", st, seat):
            continue
        a, ra = policy.choose_traced(st.view(seat), st.legal_actions(seat), random.Random(n), st)
        b, rb = policy.choose_traced(twin.view(seat), twin.legal_actions(seat), random.Random(n), twin)
        assert ra is not None and rb is not None and ra.exact and rb.exact
        assert a == b and ra.means == rb.means and ra.iterations == rb.iterations
        checked += 1
    assert checked >= 5


def test_the_experts_model_has_defenders_double_once() -> None:
    """``FlekkingDefence``: a defender at flek level 0 doubles where easy passes; at level 1, and
    for the soloist, it plays easy's move. Strong models the table as easy, the expert so."""
    from bot.ai.marias.model import FlekkingDefence

    st = two_card_ending()
    model, easy = FlekkingDefence(), easy_policy("marias")
    flek, pass_, re = {"type": "flek"}, {"type": "pass"}, {"type": "re"}
    view = {**st.view(0), "phase": "flek", "flek": 0, "to_act": [0], "contract": "hra"}
    assert easy.choose(view, [flek, pass_], random.Random(1)) == pass_
    assert model.choose(view, [flek, pass_], random.Random(1)) == flek

    def same(v: dict, legal: list) -> bool:
        return model.choose(v, legal, random.Random(1)) == easy.choose(v, legal, random.Random(1))

    assert same({**view, "flek": 1}, [flek, pass_])
    assert same({**st.view(1), "phase": "flek", "flek": 1, "to_act": [1]}, [re, pass_])
    expert, strong = StrongPolicy("marias", expert=True), StrongPolicy("marias")
    assert isinstance(expert.opponents, FlekkingDefence) and expert.rollout is expert.opponents
    assert strong.opponents is strong.fallback
