"""A search's copies stop at the end of their deal (``deal_only``, issue 32: measured runs are CPU
bound): Motz, Marias and the Jeu du Maître do not shuffle and deal the next deal (or manche) for a
rollout that stops there, and the values the search reads at that point are exactly those of a
copy that dealt on. The searches' decisions are unchanged (for Marias: ``test_marias_rollout``;
all games were compared on 24 decision points with the code before, moves and root statistics
alike)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.registry import determinizer, spec_for
from tests.ai.test_no_peeking import decision_points


@pytest.mark.parametrize("game", ["motz", "marias", "maitre"])
def test_a_search_copy_ends_with_its_deal_with_the_same_values(game: str) -> None:
    spec = spec_for(game)
    for point in decision_points(game, seed=4, count=4):
        seat = point.to_act()[0]
        copy = determinizer(game)(point, seat, random.Random(2))
        assert copy.deal_only and not point.deal_only  # the real state deals on
        plain = copy.clone()
        plain.deal_only = False
        deal = spec.deal_no(copy)
        rng = random.Random(5)
        while spec.deal_no(copy) == deal and not copy.is_over():
            actor = copy.to_act()[0]
            action = rng.choice(copy.legal_actions(actor))
            copy.apply(actor, action)
            plain.apply(actor, action)
        assert spec.deal_no(plain) == spec.deal_no(copy)
        assert spec.values(copy) == spec.values(plain)  # exactly: the search reads nothing else
        if not plain.is_over():  # the plain copy dealt the next deal; the search's did not
            assert plain.legal_actions(plain.to_act()[0])


def test_the_identity_check_reaches_the_experts_own_determinizer() -> None:
    """``bench/search_identity.py`` adds, for the expert, points where its own determinizer deals
    otherwise than strong's (Motz: the standers read through the play; the common points never
    reach one), and none for a game whose expert redeals as strong does."""
    from bot.ai.motz.determinize import determinize_played
    from tests.ai.test_duplicate import _load

    identity = _load("search_identity")
    points = identity.expert_points("motz", count=2, seeds=range(20, 40))
    assert len(points) == 2
    plain = determinizer("motz")
    for state in points:
        seat = state.to_act()[0]
        assert any(plain(state, seat, random.Random(k)).hands
                   != determinize_played(state, seat, random.Random(k)).hands for k in range(3))
    assert identity.expert_points("marias") == []


def test_the_saturation_check_keeps_only_searched_points() -> None:
    """``bench/decision_agreement.py`` compares moves only where strong searches: Mus's easy-played
    sessions have decisions strong leaves to its rules (the lances), and none of them is kept."""
    from bot.ai.strong.policy import StrongPolicy
    from tests.ai.test_duplicate import _load

    agreement = _load("decision_agreement")
    probe = StrongPolicy("mus", budget_ms=1e9, max_iterations=1)
    every = agreement.decision_points("mus", count=40, every=5, seed=300)
    kept = agreement.searched_points("mus", 4)

    def searches(state: Any) -> bool:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        return probe.choose_traced(state.view(seat), legal, random.Random(0), state)[1] is not None

    assert len(kept) == 4 and all(searches(s) for s in kept)
    assert not all(searches(s) for s in every)  # there were points to leave out
    n, itself, with_expert, _ = agreement.agreement("mus", 3, 6)
    assert n == 3 and 0 <= itself <= n and 0 <= with_expert <= n
