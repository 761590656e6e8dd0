"""The coach (``bot.ai.coach``): the strong AI's move first, honest odds, a readable sentence."""

from __future__ import annotations

import math
import random

from bot.ai.coach import TOP, hint, hint_sentence
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES

MOTZ = GAMES["motz"]


def first_decision(seed: int) -> tuple[object, int]:
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({}), seed=seed)
    return state, state.to_act()[0]


def test_unbeatable_hand_is_told_to_stand() -> None:
    """Seed 514, hand-checked: trump ♠ (8♠ turned), seat 2 holds J♠ J♣ K♠, the two highest trumps
    and the third. Standing takes at least two of the three tricks whenever the deal is played,
    so it is never fined and wins ``P − s`` or ``P``; if every other seat passes the deal is
    cancelled and nothing moves. So standing never loses and sometimes wins; passing can only
    lose the seat's share of the pot to the others (spec 3.2, 4)."""
    state, seat = first_decision(514)
    view = state.view(seat)
    assert (seat, view["trump"], sorted(view["hand"])) == (2, "S", ["JC", "JS", "KS"])
    advice = hint("motz", state, seat, random.Random(1), budget_ms=1e9, max_iterations=400)
    best = advice.moves[0]
    assert best.action == {"type": "stand"}
    assert best.win_rate > 0.1 and best.gain > 0
    passing = next(m for m in advice.moves if m.action == {"type": "pass"})
    assert passing.gain <= 0 < best.gain
    assert all(m.gain < best.gain for m in advice.moves[1:])
    assert len(advice.moves) == TOP and advice.iterations == 400 and advice.unit == "jetons"


def test_hopeless_hand_is_not_told_to_stand() -> None:
    """Seed 477, hand-checked: trump ♠, seat 2 holds 7♥ 8♦ 7♣ (no trump, no face card):
    standing almost surely takes no trick and pays the fine."""
    state, seat = first_decision(477)
    view = state.view(seat)
    assert (view["trump"], sorted(view["hand"])) == ("S", ["7C", "7H", "8D"])
    advice = hint("motz", state, seat, random.Random(1), budget_ms=1e9, max_iterations=400)
    assert advice.moves[0].action != {"type": "stand"}
    stand = next(m for m in advice.moves if m.action == {"type": "stand"})
    assert stand.gain < 0 and stand.win_rate < 0.2


def test_the_hint_is_the_strong_move_and_reads_as_a_sentence() -> None:
    state, seat = first_decision(3)
    rng_seed = 9
    advice = hint("motz", state, seat, random.Random(rng_seed), budget_ms=1e9, max_iterations=120)
    strong = StrongPolicy("motz", budget_ms=1e9, max_iterations=120)
    legal = state.legal_actions(seat)
    played = strong.choose(state.view(seat), legal, random.Random(rng_seed), state=state)
    assert advice.moves[0].action == played
    keys = [str(m.action) for m in advice.moves]
    assert len(set(keys)) == len(keys) and all(m.action in legal for m in advice.moves)
    assert all(0.0 <= m.win_rate <= 1.0 and not math.isnan(m.gain) for m in advice.moves)
    text = hint_sentence(advice, MOTZ.label)
    assert text.startswith(f"The strong AI would play **{MOTZ.label(played)}**: ahead in ")
    assert "Next best: " in text and "120 simulated deals" in text


def test_a_forced_move_is_named_without_odds() -> None:
    state, seat = first_decision(3)
    rng = random.Random(3)
    while len(state.legal_actions(seat)) > 1:  # play on to a seat with one move (a last card)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    advice = hint("motz", state, seat, random.Random(1))
    assert advice.iterations == 0 and advice.moves[0].action == legal[0]
    assert hint_sentence(advice, MOTZ.label) == f"**{MOTZ.label(legal[0])}** is your only move here."


def test_the_odds_are_written_in_the_readers_numbers() -> None:
    """Percentages, decimals and counts as the rest of Tapis writes them in each language (``42 %``,
    ``+1,5``, ``1 234`` in French), not Python's English formatting."""
    from bot.ai.coach import Hint, HintMove
    from bot.i18n import translator

    moves = (HintMove({"type": "stand"}, 0.4234, 1.53, 120), HintMove({"type": "pass"}, 0.3, -0.04, 80))
    advice = Hint(moves, "jetons", 1234)

    def label(action: dict[str, str]) -> str:
        return action["type"]

    english = hint_sentence(advice, label)
    assert "ahead in 42% of simulated deals, +1.5 jetons" in english  # English as it always was
    assert "+0.0 jetons" in english and "from 1234 simulated deals" in english  # no "-0.0"
    fr = translator("fr")
    french = hint_sentence(advice, label, fr)
    assert f"{fr.percent(0.4234)} des donnes simulées, +1,5 jetons" in french, french
    assert fr.percent(0.42) != "42%" and "1.5" not in french and "-0,0" not in french
    assert fr.number(1234) in french and "1234" not in french
    czech = hint_sentence(advice, label, translator("cs"))
    assert "+1,5" in czech and "1.5" not in czech, czech
