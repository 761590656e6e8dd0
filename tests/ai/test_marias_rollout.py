"""The Marias rollouts' easy play read from the state (``bot.ai.marias.rollout``).

It must be exactly the easy policy's choice from the seat's view in the play (every contract:
suit contracts, betl and durch), and leave every other decision to the policy; the search with it
makes exactly the decisions it made without it, strong and expert.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai.marias.easy import EasyPolicy
from bot.ai.marias.rollout import easy_play
from bot.ai.registry import game_ai, spec_for
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES
from tests.ai.test_no_peeking import decision_points


def test_same_play_as_the_easy_policy_on_every_decision() -> None:
    g = GAMES["marias"]
    easy = EasyPolicy()
    checked, contracts, elsewhere = 0, set(), 0
    for session in range(60):
        state = g.new_table(seats=3, options=g.validate_options({"rounds": 1}), seed=7000 + session)
        rng = random.Random(session)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            want = easy.choose(state.view(seat), legal, random.Random(1))
            got = easy_play(state, seat, legal, random.Random(1))
            if state.phase == "play":
                assert got is want, (state.contract, state.trick, got, want)
                checked += 1
                contracts.add(state.contract)
            else:
                assert got is None
                elsewhere += 1
            state.apply(seat, want if rng.random() < 0.7 else rng.choice(legal))
    assert checked > 2000 and elsewhere > 200 and {"hra", "betl", "durch"} <= contracts


def test_the_search_decides_exactly_as_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same moves and the same root statistics (visits, means) with and without the fast play, at
    the decision points of an easy-played session, for strong and the expert (whose model, the
    doubling defence, plays as easy in the play)."""
    spec = spec_for("marias")
    assert spec.rollout_fast is easy_play and spec.fast_fits_model
    for expert in (False, True):
        fast = search_decisions(expert)
        monkeypatch.setattr(game_ai("marias"), "spec", dataclasses.replace(spec, rollout_fast=None))
        assert search_decisions(expert) == fast
        monkeypatch.setattr(game_ai("marias"), "spec", spec)


def search_decisions(expert: bool) -> list[object]:
    """Strong's (or the expert's) moves and root statistics at 8 decision points, 60 iterations."""
    policy = StrongPolicy("marias", budget_ms=1e9, max_iterations=60, expert=expert)
    out = []
    for state in decision_points("marias", seed=3, count=8):
        seat = state.to_act()[0]
        action, r = policy.choose_traced(state.view(seat), state.legal_actions(seat), random.Random(1), state)
        out.append((action, None if r is None else (r.iterations, r.visits, r.means)))
    return out


def test_a_search_copy_that_ends_with_its_deal_decides_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """``deal_only`` (``tests/ai/test_search_copies.py``): the same moves and root statistics as with
    copies that deal on."""
    import bot.ai.marias.redeal as det

    with_flag = search_decisions(expert=False)
    monkeypatch.setattr(det, "for_search", lambda c: c)
    assert search_decisions(expert=False) == with_flag
