"""Exact endgames (``bot.ai.strong.endgame``): hand-checked Motz endings, the transposition
table, PIMC inside the strong search."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai.registry import spec_for
from bot.ai.strong import StrongPolicy
from bot.ai.strong.endgame import Solver, solve, solve_moves
from bot.ai.strong.ismcts import action_key
from bot.rules import GAMES
from tests.rules.test_motz import MUET, PASS, STAND, card, deck_for, declare, new, plays

MOTZ = spec_for("motz")


def key(c: str) -> tuple:
    return action_key(card(c))


def two_card_ending():
    """Motz, 3 seats, dealer 2, trump ♠ (turn-up 10♠), ante 1: seats 0 and 1 stand, seat 2 passes.

    Seat 0 holds A♣ A♥ 7♠, seat 1 holds 7♣ K♠ 8♦. Seat 0 leads A♣, seat 1 follows 7♣: seat 0
    wins trick 1 and leads again with A♥ 7♠ against K♠ 8♦.
    """
    deck = deck_for(3, 2, {0: ["AC", "AH", "7S"], 1: ["7C", "KS", "8D"], 2: ["9H", "9C", "9D"]},
                    turn_up="10S")
    st = new(3, dealer=2, decks=[deck], ante=1)
    declare(st, STAND, STAND, PASS)
    plays(st, (0, "AC"), (1, "7C"))
    return st


def test_two_card_motz_ending_by_hand() -> None:
    """By hand: A♥ first: seat 1 (no heart) must trump with K♠ and wins, then leads 8♦; seat 0 (no
    diamond) must trump with 7♠ and wins: tricks 0, 1, 0, seat 0 takes P − s = 2 of the bête
    (P = 3, s = 1), seat 1 takes s = 1. 7♠ first: K♠ must follow and wins, 8♦ is led, seat 0
    throws A♥ and seat 1 wins again: tricks 0, 1, 1, seat 0 takes only s = 1, seat 1 takes 2.
    So A♥ is worth one jeton more to seat 0 (a tenth of the scale 10 × ante), and one less to
    seat 1."""
    st = two_card_ending()
    assert sorted(st.view(0)["hand"]) == ["7S", "AH"] and st.to_act() == (0,)
    moves = solve_moves(st, 0, MOTZ)
    assert set(moves) == {key("AH"), key("7S")}
    assert moves[key("AH")] - moves[key("7S")] == pytest.approx(0.1)
    # and the engine agrees line by line
    for first, stacks in (("AH", [2 - 1, 1 - 1, -1]), ("7S", [1 - 1, 2 - 1, -1])):
        c = st.clone()
        start = list(c.stacks)
        plays(c, (0, first))
        rest = {"AH": [(1, "KS"), (1, "8D"), (0, "7S")], "7S": [(1, "KS"), (1, "8D"), (0, "AH")]}[first]
        plays(c, *rest)
        # the next deal's ante (1) is already taken from every stack
        assert [c.stacks[i] - start[i] for i in range(3)] == stacks


def test_solver_plays_the_whole_motz_deal_as_a_human_would_count_it() -> None:
    """Three cards each, before trick 1: seat 0 (A♣ A♥ 7♠) leads into seat 1 (7♣ K♠ 8♦). By hand:
    A♣ (7♣ follows) then the ending above: two tricks for seat 0. A♥: K♠ must trump it; whether
    seat 1 then leads 7♣ (A♣ wins, then 7♠ trumps 8♦) or 8♦ (7♠ must trump, then A♣ beats 7♣),
    seat 0 takes the last two. 7♠: K♠ wins and seat 1 leads 8♦, which seat 0 cannot beat, then
    7♣ against the ace left: seat 1 takes two. Best play gives seat 0 two tricks, P − s = 2
    jetons, and seat 1 one, s = 1; both have paid the next deal's ante (1), and the pot share is
    the same before and after (3 jetons of antes over 3 seats)."""
    deck = deck_for(3, 2, {0: ["AC", "AH", "7S"], 1: ["7C", "KS", "8D"], 2: ["9H", "9C", "9D"]},
                    turn_up="10S")
    st = new(3, dealer=2, decks=[deck], ante=1)
    declare(st, STAND, STAND, PASS)
    v = solve(st, MOTZ)
    # seat 0 ends +2 - 1 (next ante), seat 1 +1 - 1, seat 2 -1; pot shares: pot 3 before and after
    assert v[0] == pytest.approx((2 - 1) / 10)
    assert v[1] == pytest.approx((1 - 1) / 10)


def random_play_states(count: int, seed: int) -> list:
    g = GAMES["motz"]
    out = []
    rng = random.Random(seed)
    state = g.new_table(seats=4, options=g.validate_options({}), seed=seed)
    while not state.is_over() and len(out) < count:
        s = state.to_act()[0]
        legal = state.legal_actions(s)
        if MOTZ.endgame(state) and len(legal) > 1:
            out.append(state.clone())
        state.apply(s, legal[rng.randrange(len(legal))])
    return out


def test_the_transposition_table_changes_no_value() -> None:
    no_table = dataclasses.replace(MOTZ, endgame_key=None)
    states = random_play_states(25, seed=4)
    assert len(states) == 25
    for st in states:
        assert solve(st, MOTZ) == pytest.approx(solve(st, no_table))


def test_solver_counts_leaves() -> None:
    st = two_card_ending()
    solver = Solver(MOTZ, MOTZ.deal_no(st), MOTZ.values(st), MOTZ.scale(st))
    solver.value(st)
    # A♥ or 7♠, then seat 1's one legal answer each time, then one card each: two lines
    assert solver.leaves == 2


def test_strong_solves_the_motz_play_exactly() -> None:
    """In the trick play the strong search is PIMC: every move is solved on every determinization
    (seat 1's two cards redealt from what seat 0 has not seen), and in the two-card ending A♥ has
    the best mean and is played."""
    st = two_card_ending()
    policy = StrongPolicy("motz", budget_ms=1e9, max_iterations=200)
    action, result = policy.choose_traced(st.view(0), st.legal_actions(0), random.Random(3), st)
    assert result is not None and result.exact
    samples = result.visits[key("AH")]
    assert samples == result.visits[key("7S")] >= 50  # every move solved on every determinization
    best = max(result.means, key=lambda k: result.means[k])
    assert action == card("AH") and best == key("AH")


def test_declarations_are_still_searched_with_rollouts() -> None:
    deck = deck_for(3, 2, {0: ["AC", "AH", "7S"]}, turn_up="10S")
    st = new(3, dealer=2, decks=[deck], ante=1)
    assert not MOTZ.endgame(st)
    policy = StrongPolicy("motz", budget_ms=1e9, max_iterations=30)
    action, result = policy.choose_traced(st.view(0), st.legal_actions(0), random.Random(3), st)
    assert result is not None and not result.exact and result.iterations == 30
    assert action in (STAND, PASS, MUET)


def endgame_twins(game: str, count: int) -> list[tuple]:
    """(real state, twin, seat) at ``count`` endgame decisions of an easy-played session: the
    twin is a redeal for the seat to act (same view, other hidden cards, another table seed)."""
    from bot.ai.registry import easy_policy
    from tests.ai.test_no_peeking import CASES, hidden

    seats, options = CASES[game]
    g = GAMES[game]
    spec = spec_for(game)
    easy = easy_policy(game)
    out: list[tuple] = []
    for seed in range(1, 40):
        state = g.new_table(seats=seats, options=g.validate_options(options), seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and len(out) < count:
            s = state.to_act()[0]
            legal = state.legal_actions(s)
            if len(legal) > 1 and spec.endgame(state):
                twin = state.redeal(s, random.Random(seed * 31 + len(out)))
                if hidden(game, twin, s) != hidden(game, state, s):
                    out.append((state.clone(), twin, s))
            state.apply(s, easy.choose(state.view(s), legal, rng))
        if len(out) >= count:
            return out
    raise AssertionError(f"{game}: too few endgame decisions")


@pytest.mark.parametrize("game", ["motz", "marias", "maitre"])
def test_the_exact_endgame_never_reads_hidden_cards(game: str) -> None:
    """No peeking (issue 17 point 4) for PIMC: a real endgame and its twin get the same search,
    figure for figure, from the same rng seed and leaf cap."""
    policy = StrongPolicy(game, budget_ms=1e9, max_iterations=60)
    for n, (state, twin, seat) in enumerate(endgame_twins(game, 5)):
        a, ra = policy.choose_traced(state.view(seat), state.legal_actions(seat), random.Random(n), state)
        b, rb = policy.choose_traced(twin.view(seat), twin.legal_actions(seat), random.Random(n), twin)
        assert ra is not None and rb is not None and ra.exact and rb.exact
        assert a == b and ra.means == rb.means and ra.iterations == rb.iterations


def test_the_easy_prior_compares_exact_moves_on_the_same_deals() -> None:
    """After PIMC, the easy prior tests the paired differences: a move better on every deal by a
    little is taken (unpaired, its spread would hide it), a move better on average by luck of one
    deal is not."""
    from bot.ai.strong.ismcts import SearchResult
    from bot.ai.strong.policy import _with_prior

    a, b = key("AH"), key("7S")
    base = [0.5, -0.5, 0.3, -0.3, 0.1, -0.1]

    def result(better: list[float]) -> SearchResult:
        paired = {a: better, b: base}
        means = {k: sum(v) / len(v) for k, v in paired.items()}
        return SearchResult(card("AH"), 12, 0.0, {a: 6, b: 6}, means, None, None, exact=True, paired=paired)

    always = [x + 0.01 for x in base]  # +0.01 on each deal
    assert _with_prior(result(always), a, b, 1.0) == a
    once = [base[0] + 0.3, *base[1:]]  # +0.05 on average, all of it from one deal
    assert _with_prior(result(once), a, b, 1.0) == b
    assert _with_prior(result(always), a, a, 1.0) == a


def test_modelled_opponents_play_the_model_in_the_exact_search() -> None:
    """The three-card deal above, seat 0 leading 7♠: K♠ must take it and seat 1 chooses its lead.
    Best for seat 1 is 8♦ (seat 0 cannot beat it, seat 1 takes two tricks, seat 0 keeps s = 1:
    reward 0). An opponent modelled as "last legal card" leads 7♣ instead (the engine lists
    8♦ then 7♣); A♣ and A♥ then take the last two tricks, P − s = 2 for seat 0: reward +0.1."""

    class LastLegal:
        def choose(self, view: dict, legal: list, rng: random.Random) -> dict:
            return legal[-1]

    deck = deck_for(3, 2, {0: ["AC", "AH", "7S"], 1: ["7C", "KS", "8D"], 2: ["9H", "9C", "9D"]},
                    turn_up="10S")
    st = new(3, dealer=2, decks=[deck], ante=1)
    declare(st, STAND, STAND, PASS)
    plays(st, (0, "7S"))
    assert st.legal_actions(1) == [card("KS")] and sorted(st.hands[1]) == ["7C", "8D", "KS"]
    args = (MOTZ, MOTZ.deal_no(st), MOTZ.values(st), MOTZ.scale(st))
    assert Solver(*args).value(st)[0] == pytest.approx(0.0)
    modelled = Solver(*args, seat=0, opponent=LastLegal(), rng=random.Random(1))
    assert modelled.value(st)[0] == pytest.approx(0.1)
