"""Sessions played by AI policies, logged as a table's action log (the AI levels' accuracy,
bench/review_levels.py, and the review's tests)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.ai.policy import decide
from bot.rules.base import Game
from bot.store.tables import ActionRow

#: A session longer than this many actions is a bug of the engine or the policies.
MAX_ACTIONS = 100_000


def play_logged(game: Game, seats: int, options: dict[str, Any], seed: int, policies: Sequence[Any],
                rng: random.Random) -> list[ActionRow]:
    """Play a session to its end, seat ``i`` by ``policies[i]`` (which see only their own view,
    and the real state only to determinize it); return its action log."""
    state = game.new_table(seats, options, seed)
    log: list[ActionRow] = []
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = decide(policies[seat], state.view(seat), legal, rng, state)
        state.apply(seat, action)
        log.append(ActionRow(len(log), seat, dict(action), f"seat:{seat}", 0.0))
        if len(log) > MAX_ACTIONS:
            raise RuntimeError(f"session {seed} never ends")
    return log
