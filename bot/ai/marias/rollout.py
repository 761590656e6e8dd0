"""The easy Marias play read from the state (``GameSpec.rollout_fast``): the search's rollouts and
modelled opponents choose a card without building a whole view (a view copies the hands, the
played tricks and the last result; two in five of a search's CPU went there or to the easy play)."""

from __future__ import annotations

import random

from bot.ai.marias.easy import EasyPolicy
from bot.ai.policy import Action
from bot.rules.marias.state import PLAY, MariasState

_EASY = EasyPolicy()


def easy_play(state: MariasState, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """``EasyPolicy().choose(state.view(seat), legal, rng)`` in the play, from the fields of the view
    its play reads (None outside the play: the policy decides on the view). The easy play never
    draws from ``rng``, and neither does this; the expert's model (``FlekkingDefence``) plays as
    easy in the play, so it fits that model too."""
    if state.phase != PLAY:
        return None
    view = {"contract": state.contract, "trump": state.trump, "to_act": [seat], "soloist": state.soloist,
            "trick": state.trick}
    return _EASY._play(view, state.hands[seat], legal)
