"""Mus betting for the strong level: the race to the target (``bot.ai.mus.race``), the equity
bettor (``bot.ai.mus.bettor``) the strong policy keeps unless its search beats it, and
the search's value (the chance to win the match, ``bot.ai.strong.spec._mus_chances``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.mus.bettor import MusBettor, team_chance
from bot.ai.mus.easy import EasyPolicy
from bot.ai.mus.race import game_chance, match_chance, parse, race_table
from bot.ai.registry import spec_for
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES
from bot.rules.mus.state import open_actions, pending_actions


def test_race_hand_counted() -> None:
    """Every deal gives the mano's team 1 point, to 2: the mano's team at 0–0 scores, then the
    other (now mano), then the first again and wins: a sure win; the other side, a sure loss."""
    w_mano, w_other = race_table(2, [(1, 0, 1.0)], 0.0, 0.0)
    assert w_mano[0][0] == 1.0 and w_other[0][0] == 0.0
    assert w_other[1][0] == 1.0  # at 1–0, not mano: they reach 1–1, then we (mano) reach 2
    assert w_other[0][1] == 0.0  # at 0–1, not mano: they reach 2 first
    # a fair coin of 1 point to either team, to 2 points: 0–0 is even, 1–0 wins 3 times in 4
    w_mano, _ = race_table(2, [(1, 0, 0.5), (0, 1, 0.5)], 0.0, 0.0)
    assert w_mano[0][0] == pytest.approx(0.5) and w_mano[1][0] == pytest.approx(0.75)
    # an accepted órdago won by the mano's team half the time, else the other team scores 1
    w_mano, w_other = race_table(1, [(0, 1, 0.5)], 0.5, 0.0)
    assert w_mano[0][0] == pytest.approx(0.5) and w_other[0][0] == pytest.approx(0.5)


def test_shipped_race_is_sensible_and_symmetric() -> None:
    for us, them in ((0, 0), (10, 25), (38, 30), (5, 39)):
        for mano in (True, False):
            a = game_chance(40, us, them, mano)
            b = game_chance(40, them, us, not mano)
            assert a + b == pytest.approx(1.0, abs=1e-9)  # one of the two teams wins
    assert game_chance(40, 30, 0, True) > game_chance(40, 20, 0, True) > game_chance(40, 10, 0, True) > 0.5
    assert game_chance(40, 39, 0, False) > 0.95 and game_chance(40, 40, 12, False) == 1.0
    assert match_chance(2, 1, 0, 0.5) == pytest.approx(0.75)  # best of 3, one game up, even game
    assert match_chance(1, 0, 0, 0.3) == pytest.approx(0.3)


def test_parse_refuses_another_file() -> None:
    with pytest.raises(ValueError):
        parse("a,b\n")


def _view(hand: list[str], phase: str, seat: int, mano: int, points: list[int], bet: Any = None,
          declared: Any = None) -> dict[str, Any]:
    return {"hand": hand, "phase": phase, "to_act": [seat], "mano": mano, "points": points, "bet": bet,
            "declared": declared or {"pares": None, "juego": None}}


def test_bettor_bets_the_game_with_four_kings_and_passes_with_nothing() -> None:
    """Grande, seat 0 mano at 0–0. K K K K: team chance ~1, so the whole target (40) is bet,
    where the easy policy bets 5; 4 5 6 A (no grande at all): paso."""
    legal = open_actions(40)
    kings = _view(["3O", "12O", "3C", "12C"], "grande", 0, 0, [0, 0])
    assert team_chance(kings, "grande", (8, 8, 8, 8), 0) > 0.99
    assert MusBettor().choose(kings, legal, random.Random(1)) == {"type": "envido", "amount": 40}
    assert EasyPolicy().choose(kings, legal, random.Random(1)) == {"type": "envido", "amount": 5}
    weak = _view(["1O", "4C", "5E", "6B"], "grande", 0, 0, [0, 0])
    assert MusBettor().choose(weak, legal, random.Random(1)) == {"type": "paso"}


def test_bettor_answers_an_ordago_by_the_game_chances() -> None:
    """Chica, seat 1 answers an órdago (held 1) with A 5 7 C, a middling chica for its team.
    Behind 0–38 (refusing leaves a game they nearly won): quiero. Ahead 38–0: no quiero."""
    legal = pending_actions(40, 1_000_000)
    hand = ["1O", "5C", "7E", "11B"]  # A 5 7 C
    bet = {"total": "ordago", "held": 1, "team": 0}
    behind = _view(hand, "chica", 1, 0, [38, 0], bet)
    ahead = _view(hand, "chica", 1, 0, [0, 38], bet)
    odds = team_chance(behind, "chica", (7, 5, 3, 1), 1)
    assert 0.3 < odds < 0.9
    assert MusBettor().choose(behind, legal, random.Random(1)) == {"type": "quiero"}
    assert MusBettor().choose(ahead, legal, random.Random(1)) == {"type": "no_quiero"}


def test_strong_keeps_the_bettor_move_and_values_the_match_chance() -> None:
    strong = StrongPolicy("mus")
    kings = _view(["3O", "12O", "3C", "12C"], "grande", 0, 0, [0, 0])
    assert strong.choose(kings, open_actions(40), random.Random(2)) == {"type": "envido", "amount": 40}
    g = GAMES["mus"]
    state = g.new_table(seats=4, options=g.validate_options({}), seed=3)
    values = spec_for("mus").values
    assert values(state)[0] == pytest.approx(50 * (2 * game_chance(40, 0, 0, ((state.d + 1) % 2) == 0) - 1))
    state.points = [30, 0]
    assert values(state)[0] > 40 and values(state)[1] == -values(state)[0]
    state.over, state.matches_won = True, [1, 0]
    assert values(state) == [50.0, -50.0, 50.0, -50.0]


def test_the_search_considers_the_bettors_big_bet() -> None:
    """The pruned bet ladder keeps the whole target (40, or 30), else the prior's envido 40 was
    never searched and the search's 10 replaced it."""
    prune = spec_for("mus").prune
    assert prune is not None
    amounts = [a.get("amount") for a in prune(open_actions(40)) if a["type"] == "envido"]
    assert amounts == [2, 3, 5, 10, 40]
    assert [a.get("amount") for a in prune(open_actions(30)) if a["type"] == "envido"] == [2, 3, 5, 10, 30]
    assert {"type": "envido", "amount": 35} in prune(pending_actions(40, 5))  # a raise to the target


def test_strong_bets_from_the_tables_and_searches_the_mus_and_discards() -> None:
    """Along an easy-played session: in the lances strong plays the bettor's move without a
    search; at the mus and the discards it searches."""
    g = GAMES["mus"]
    state = g.new_table(seats=4, options=g.validate_options({}), seed=12)
    strong, bettor, easy = StrongPolicy("mus", budget_ms=1e9, max_iterations=20), MusBettor(), EasyPolicy()
    rng = random.Random(4)
    kinds = set()
    while not state.is_over() and len(kinds) < 2:
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        if len(legal) > 1:
            action, result = strong.choose_traced(view, legal, random.Random(1), state)
            if legal[0]["type"] in ("paso", "quiero"):
                assert result is None and action == bettor.choose(view, legal, random.Random(0))
                kinds.add("bet")
            else:
                assert result is not None and result.iterations == 20
                kinds.add("searched")
        state.apply(seat, easy.choose(view, legal, rng))
    assert kinds == {"bet", "searched"}


def test_the_coach_weighs_the_bets_strong_plays_unsearched() -> None:
    """A Mus bet: the coach's first move is strong's (the bettor's) and the moves are weighed by
    a search all the same (not "your only move"), in points of winning chance."""
    from bot.ai.coach import hint, hint_sentence

    g = GAMES["mus"]
    state = g.new_table(seats=4, options=g.validate_options({}), seed=12)
    easy = EasyPolicy()
    rng = random.Random(4)
    while state.legal_actions(state.to_act()[0])[0]["type"] not in ("paso", "quiero"):
        seat = state.to_act()[0]
        state.apply(seat, easy.choose(state.view(seat), state.legal_actions(seat), rng))
    seat = state.to_act()[0]
    advice = hint("mus", state, seat, random.Random(3), budget_ms=1e9, max_iterations=60)
    expected = MusBettor().choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    assert advice.moves[0].action == expected
    assert advice.iterations == 60 and advice.unit == "chance" and len(advice.moves) > 1
    assert "winning chance" in hint_sentence(advice, lambda a: a["type"])


def test_the_expert_reads_a_big_bet_as_a_strong_hand() -> None:
    """Grande, seat 1 answers an envido of 40 (held 1) with K C S 7 at 0–0: its team chance
    (~0.78) beats the break-even (1 − 1/40)/2 ≈ 0.49, so the strong level's bettor accepts; the
    expert's reads a bet of the game as a hand of at least 0.85 and refuses (0.78 − 0.85 < 0).
    A bet of 2 is taken at face value by both."""
    from bot.ai.levels import expert_policy
    from bot.ai.mus.bettor import MusReadingBettor

    hand = ["3O", "11C", "10E", "7B"]
    big = _view(hand, "grande", 1, 0, [0, 0], {"total": 40, "held": 1, "team": 0})
    odds = team_chance(big, "grande", (8, 7, 6, 5), 1)
    assert 0.5 < odds < 0.85
    assert MusBettor().choose(big, pending_actions(40, 40), random.Random(1)) == {"type": "quiero"}
    assert MusReadingBettor().choose(big, pending_actions(40, 40), random.Random(1)) == {"type": "no_quiero"}
    small = _view(hand, "grande", 1, 0, [0, 0], {"total": 2, "held": 1, "team": 0})
    legal = pending_actions(40, 2)
    assert MusReadingBettor().choose(small, legal, random.Random(1)) == MusBettor().choose(
        small, legal, random.Random(1))
    assert isinstance(expert_policy("mus").prior, MusReadingBettor)
    assert type(StrongPolicy("mus").prior) is MusBettor
