"""Skill and luck: a deal played perfectly has no skill lost, its result is all luck; skill + luck
is the result deal by deal; forced decisions are graded best."""

from __future__ import annotations

import pytest

from bot.review import decision_points, estimate, run
from bot.review.analysis import assemble
from bot.review.estimate import Estimate
from bot.rules import GAMES
from tests.review.helpers import CASES, Logged, best_move, play_out

#: Determinizations per decision for whole sessions (small: these sessions are long).
SMALL = 4


def perfect(game: str, seed: int, seat: int) -> Logged:
    """A session in which ``seat`` always plays the move its review calls best (easy elsewhere)."""
    seats, raw = CASES[game]
    s = Logged(game, seats, raw, seed)
    return play_out(s, lambda t, who: best_move(t, who, SMALL) if who == seat else None, seed=seed)


@pytest.mark.parametrize("game", sorted(CASES))
def test_perfect_play_is_all_best_and_its_result_all_luck(game: str) -> None:
    s = perfect(game, 3, 0)
    review = s.review(0, cap=SMALL)
    chosen = [d for d in review.decisions if d.choices > 1]
    assert chosen, "the seat had choices to make"
    assert all(d.grade == "best" and d.cost == 0 and d.played == d.best for d in review.decisions)
    assert review.skill == 0 and review.accuracy == pytest.approx(100.0)
    assert review.luck == pytest.approx(review.result)
    for d in review.deals:
        assert d.skill + d.luck == pytest.approx(d.result)


def test_perfect_play_with_bad_cards_has_negative_luck() -> None:
    """Marias seed 3, deal 1 (found by scanning seeds 1-11 for a perfectly played deal that lost):
    seat 0 plays the review's best move at each of its nine choices and still loses the deal:
    skill 0, every decision best, the negative result all luck."""
    s = Logged("marias", 3, {"rounds": 1}, 3)
    deal = s.state.deals_played
    play_out(s, lambda t, who: best_move(t, who, 30) if who == 0 else None,
             stop=lambda t: t.state.deals_played != deal)
    review = s.review(0, cap=30)
    chosen = [d for d in review.decisions if d.choices > 1]
    assert len(chosen) >= 5 and all(d.grade == "best" for d in chosen)
    assert review.deals[0].result < 0
    assert review.skill == 0 and review.luck == pytest.approx(review.deals[0].result) and review.luck < 0


@pytest.mark.parametrize("game", sorted(CASES))
def test_skill_plus_luck_is_the_result_and_the_results_are_the_deals(game: str) -> None:
    """Easy play (not the search's best), the whole session: per deal and in all, skill + luck is
    the result, skill is never positive, and the deals' results add up to the seat's change of
    the search's value over the session (less the others' mean change where the search reads the
    game relatively: the Maître)."""
    seats, raw = CASES[game]
    s = play_out(Logged(game, seats, raw, 5), seed=5)
    review = s.review(1, cap=SMALL)
    assert review.skill <= 0 and review.skill + review.luck == pytest.approx(review.result)
    for d in review.deals:
        assert d.skill <= 0 and d.skill + d.luck == pytest.approx(d.result)
    from bot.ai.registry import spec_for

    spec = spec_for(game)
    start = GAMES[game].new_table(seats, s.options, s.seed)
    before, after = spec.values(start), spec.values(s.state)
    change = [a - b for a, b in zip(after, before, strict=True)]
    if spec.relative:
        change[1] -= (sum(change) - change[1]) / (seats - 1)
    assert review.result == pytest.approx(change[1])
    assert len(review.deals) >= 1 and {d.deal for d in review.decisions} <= {d.deal for d in review.deals}


def test_forced_decisions_are_best_whatever_the_estimate_says() -> None:
    """A decision with one legal move is graded best at no cost, even if an estimate (here a
    deliberately wrong one) claimed another move was worth more; only real choices count in the
    accuracy."""
    s = play_out(Logged("motz", 4, {}, 3), seed=3)
    plan = decision_points(s.game, s.seats, s.options, s.seed, s.log, 0)
    forced = [p for p in plan.points if p.choices == 1]
    assert forced, "Motz's last trick is forced"
    lying = [Estimate((({"type": "x"}, 10.0), (p.played, 0.0)), p.played, 0.0, False, 1) for p in plan.points]
    review = assemble(plan, lying)
    for p, d in zip(plan.points, review.decisions, strict=True):
        if p.choices == 1:
            assert d.grade == "best" and d.cost == 0
        else:
            assert d.grade == "blunder" and d.cost == 10.0
    real = run(plan, estimate, "1", 1e9, SMALL)
    assert all(d.grade == "best" for d, p in zip(real.decisions, plan.points, strict=True) if p.choices == 1)
