"""Hand-built deals where the best move is known (hand-checked in tests/ai): the review calls it
best, and grades the other move as the mistake or blunder it is, with its cost."""

from __future__ import annotations

import pytest

from bot.ai.registry import spec_for
from bot.review import Review
from tests.review.helpers import Logged, play_out
from tests.rules.test_michigan import stack_deck
from tests.rules.test_mus import NOMUS, PASO, env, stacked

STAND, PASS = {"type": "stand"}, {"type": "pass"}


def to_deal_end(s: Logged) -> Logged:
    """Play the current deal out by the easy policy."""
    spec = spec_for(s.game.name)
    deal = spec.deal_no(s.state)
    return play_out(s, stop=lambda t: spec.deal_no(t.state) != deal)


def first(review: Review, version: int):
    return next(d for d in review.decisions if d.version == version)


@pytest.mark.parametrize(("seed", "good", "bad", "worst"), [
    (514, STAND, PASS, {"mistake", "blunder"}),  # J♠ J♣ K♠, trumps ♠: standing never loses
    (477, PASS, STAND, {"blunder"}),  # 7♥ 8♦ 7♣, no trump: standing pays the fine
])
def test_motz_declarations(seed: int, good: dict, bad: dict, worst: set[str]) -> None:
    """Seeds 514 and 477 of tests/ai/test_coach.py, seat 2 first to speak."""
    for move, grades in ((good, {"best"}), (bad, worst)):
        s = Logged("motz", 4, {}, seed)
        assert s.seat() == 2
        s.act(2, move)
        review = to_deal_end(s).review(2, cap=150)
        d = first(review, 0)
        assert d.grade in grades, (move, d)
        assert d.best == good and (d.cost == 0) == (move == good)


def marias_ending() -> Logged:
    """tests/ai/test_marias_endgame.two_card_ending, as a log: seed 10, one round, easy play to
    deal 2's last two tricks; soloist seat 1 leads holding Q♠ 10♠ (hra, trumps ♦)."""
    s = Logged("marias", 3, {"rounds": 1, "concede_plain": False}, 10)
    play_out(s, seed=10, stop=lambda t: t.state.deals_played == 1 and t.state.phase == "play"
             and len(t.state.hands[1]) == 2 and not t.state.trick)
    assert s.state.hands[1] == ["QS", "10S"] and s.seat() == 1
    return s


@pytest.mark.parametrize(("card", "grade"), [("10S", "best"), ("QS", "blunder")])
def test_marias_forced_win_or_lost_game(card: str, grade: str) -> None:
    """10♠ wins the hra whatever the defenders hold (K♠ cannot beat it); Q♠ loses it: a swing of
    4 stakes, the whole scale (hand-checked in tests/ai/test_marias_endgame.py)."""
    s = marias_ending()
    version = len(s.log)
    s.act(1, {"type": "play", "card": card})
    review = to_deal_end(s).review(1)
    d = first(review, version)
    assert d.grade == grade and d.best == {"type": "play", "card": "10S"}
    assert d.cost == pytest.approx(0.0 if card == "10S" else 4.0)


@pytest.mark.parametrize(("suit", "grade"), [("S", "best"), ("C", "blunder")])
def test_michigan_lead_that_goes_out(suit: str, grade: str) -> None:
    """tests/ai/test_michigan_paired.out_in_two_leads: leading spades (K♠ A♠, then the clubs)
    goes out whatever the others hold, 36 jetons; clubs first only when 8♣ is dead."""
    deck = stack_deck(6, 5, {0: "2C 3C 4C 5C 6C 7C KS AS"}, fill=True)
    s = Logged("michigan", 6, {"dealer": 5, "decks": [deck]}, 1)
    assert s.seat() == 0
    s.act(0, {"type": "lead", "suit": suit})
    review = to_deal_end(s).review(0, cap=100)
    d = first(review, 0)
    assert d.grade == grade and d.best == {"type": "lead", "suit": "S"}
    assert d.best_value == pytest.approx(36.0)


@pytest.mark.parametrize(("move", "grades"), [(env(30), {"best"}), (PASO, {"mistake", "blunder"})])
def test_mus_four_kings_bet_the_game(move: dict, grades: set[str]) -> None:
    """Seat 0, mano, holds four kings (3 3 12 12) at the grande, 0–0 to 30: betting the whole
    game is best; passing gives up most of the match chance the kings are worth."""
    deck = stacked(3, {0: "3O 12O 3C 12C"})
    s = Logged("mus", 4, {"dealer": 3, "decks": [deck], "target": 30}, 1)
    s.act(0, NOMUS)
    assert s.seat() == 0 and s.state.view(0)["phase"] == "grande"
    version = len(s.log)
    s.act(0, move)
    review = s.review(0, cap=200)
    d = first(review, version)
    assert d.grade in grades, d
    assert d.best == {"type": "envido", "amount": 30}
