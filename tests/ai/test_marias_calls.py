"""Reading a Marias deal's calls with the easy model (``bot.ai.marias.calls``, issue 32 item 4).

The engine logs the deal's calls; the reading rebuilds each caller's cards at its call from a
redeal and asks the easy policy what it would have called. Checked: on every play decision of
easy-played sessions the real deal explains every call (the cards at each call are rebuilt
right); on a hand-checked deal (session seed 201: seat 1 declares betl, seat 2 doubles it
holding 8♠ 7♥ 8♦ 7♦, four of the sevens and eights easy's double needs) every redeal the reading
weighs 1 gives seat 2 four of them and the determinizer leans to such deals; and the search
with it still decides from the view alone.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.ai.marias import calls
from bot.ai.marias.easy import EasyPolicy
from bot.ai.registry import game_ai, spec_for
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES
from bot.rules.marias.tables import canon_sorted
from tests.ai.test_no_peeking import ITERATIONS, _searched, easy_points, same_decisions, twins_of

G = GAMES["marias"]
EASY = EasyPolicy()


def easy_session(seed: int) -> Any:
    state = G.new_table(seats=3, options=G.validate_options({"rounds": 1}), seed=seed)
    return state, random.Random(seed)


def easy_decisions(seeds: range) -> Iterator[tuple[Any, int, list[Any]]]:
    """(state, seat to act, its legal actions) at every decision of easy-played sessions, before
    the easy move is applied."""
    for seed in seeds:
        state, rng = easy_session(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            yield state, seat, legal
            state.apply(seat, EASY.choose(state.view(seat), legal, rng))


def doubled_betl() -> Any:
    """Seed 201, easy everywhere, at the first card of the deal where seat 2 doubled seat 1's betl."""
    state, rng = easy_session(201)
    while not (state.phase == "play" and not state.played and not state.trick):
        seat = state.to_act()[0]
        state.apply(seat, EASY.choose(state.view(seat), state.legal_actions(seat), rng))
    assert [(s, k) for s, k, _, _ in state.calls] == [(1, "trump"), (1, "declare"), (2, "good"), (0, "good"),
                                                       (2, "flek"), (1, "pass")]
    assert state.contract == "betl" and sorted(state.hands[2]) == sorted(
        "8S QH 7H QD JD 10D 8D 7D AC 10C".split())
    return state


def low(hand: list[str]) -> int:
    return sum(c[:-1] in ("7", "8") for c in hand)


def test_the_engine_logs_the_calls_and_a_new_deal_clears_them() -> None:
    state = doubled_betl()
    assert state.calls[0] == (1, "trump", "JH", 0) and state.calls[4] == (2, "flek", None, 0)
    assert state.calls[5] == (1, "pass", None, 1)  # the flek level before the call
    assert state.redeal(0, random.Random(1)).calls == state.calls  # public: kept by a redeal
    deals = state.deals_played
    while state.deals_played == deals:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.calls == () or state.calls[0][1] in ("trump", "trump_blind")


def test_the_real_deal_explains_every_call_of_easy_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call but the trump card, whose first seven no state keeps, weighs 1 on the real deal,
    from every seat; the trump card is easy's from the real first seven."""
    monkeypatch.setattr(calls, "_trump_weight", lambda *a: 1.0)
    checked = 0
    for state, seat, legal in easy_decisions(range(100, 140)):
        if state.phase == "trump":
            first = canon_sorted(list(state.deck[0:7]))
            trump = [*({"type": "trump", "card": c} for c in first), {"type": "trump_blind"}]
            assert EASY._trump(first, trump) == EASY.choose(state.view(seat), legal, random.Random(1))
        if state.phase == "play" and state.calls:
            assert all(calls.likelihood(state, obs, random.Random(1)) == 1.0 for obs in range(3))
            checked += 1
    assert checked > 500


def test_the_real_talon_is_the_easy_soloists_discards() -> None:
    """On every play decision of easy-played sessions, from either defender: the real talon is
    what ``read_discards`` lays (it reads it as easy's choice and changes nothing)."""
    checked = 0
    for state, _, _ in easy_decisions(range(100, 140)):
        if state.phase == "play" and not any(k == "bad" for _, k, _, _ in state.calls):
            for observer in range(3):
                if observer != state.soloist:
                    copy = state.clone()
                    assert calls.read_discards(copy, observer)
                    assert sorted(copy.talon) == sorted(state.talon) and copy.hands == state.hands
                    checked += 1
    assert checked > 1000


def test_a_redeal_gets_the_talon_easy_would_have_laid() -> None:
    """Seed 201's betl (seat 1 soloist), seen by defender 0: where ``read_discards`` fits, the talon
    is easy's two discards from the soloist's twelve cards; the redeal stays one for seat 0."""
    state = doubled_betl()
    rng = random.Random(9)
    fitted = changed = 0
    for _ in range(200):
        copy = state.redeal(0, rng, shown=True)
        drawn = sorted(copy.talon)
        twelve = canon_sorted(copy.hands[1] + copy.talon)
        if not calls.read_discards(copy, 0):
            assert sorted(copy.talon) == drawn  # left as drawn, to be weighed
            continue
        fitted += 1
        changed += sorted(copy.talon) != drawn
        hand = twelve[:]
        for card in copy.talon:  # the order laid: each easy's discard from the cards left
            legal = [{"type": "discard", "card": c} for c in hand]
            assert EASY._discard({"contract": "betl", "trump": None}, hand, legal)["card"] == card
            hand.remove(card)
        assert sorted(copy.hands[1]) == sorted(hand) and copy.view(0) == state.view(0)
    assert fitted > 150 and changed > 100


def test_a_doubled_betl_reads_the_doublers_low_cards() -> None:
    state = doubled_betl()
    rng = random.Random(3)
    plain = [state.redeal(0, rng, shown=True) for _ in range(400)]
    weighed = [(calls.likelihood(c, 0, rng), c) for c in plain]
    assert all(low(c.hands[2]) >= 4 for w, c in weighed if w == 1.0)
    assert sum(w == 1.0 for w, _ in weighed) > 20 and sum(w < 1.0 for w, _ in weighed) > 100
    read = [calls.determinize_calls(state, 0, rng) for _ in range(400)]
    share = lambda deals: sum(low(c.hands[2]) >= 4 for c in deals) / len(deals)  # noqa: E731
    assert share(read) > share(plain) + 0.15
    for c in read:  # still a redeal: seat 0's view, the public facts
        assert c.view(0) == state.view(0) and c.calls == state.calls


def test_without_calls_to_read_it_is_the_redeal_that_keeps_the_plays() -> None:
    state, _ = easy_session(5)
    assert state.phase == "trump"
    a = calls.determinize_calls(state, 1, random.Random(4))
    b = state.redeal(1, random.Random(4), shown=True)
    assert a.hands == b.hands and a.talon == b.talon


def test_the_search_reading_the_calls_decides_from_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_ai("marias"), "spec", dataclasses.replace(spec_for("marias"),
                                                                         determinize=calls.determinize_calls))
    points = easy_points("marias", 201, 5, lambda state, _, legal: state.phase == "play" and len(legal) > 1)
    assert len(points) == 5
    pairs = twins_of("marias", points, 800)
    decider = _searched(StrongPolicy("marias", budget_ms=1e9, max_iterations=ITERATIONS))
    assert same_decisions(decider, pairs), "marias: strong reading the calls decided on hidden cards"
