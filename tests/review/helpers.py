"""Sessions logged move by move, and reviews of them with a small, fixed search (no clock)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.ai.registry import easy_policy
from bot.review import Review, decision_points, estimate, run
from bot.review.analysis import rng_for
from bot.review.points import Point
from bot.rules import GAMES
from bot.store.tables import ActionRow

#: Determinizations per decision in the tests (the time budget never ends a search here).
CAP = 40
#: game -> (seats, short-session options), as tests/ai/test_no_peeking.py plays them.
CASES: dict[str, tuple[int, dict[str, Any]]] = {
    "motz": (4, {}),
    "mus": (4, {"target": 30}),
    "marias": (3, {"rounds": 1}),
    "michigan": (4, {"rotations": 1}),
    "maitre": (3, {"tours": 1}),
}


class Logged:
    """A session whose applied actions are kept as a table's action log."""

    def __init__(self, game: str, seats: int, raw: dict[str, Any], seed: int) -> None:
        self.game = GAMES[game]
        self.seats, self.seed = seats, seed
        self.options = self.game.validate_options(raw)
        self.state = self.game.new_table(seats, self.options, seed)
        self.log: list[ActionRow] = []

    def act(self, seat: int, action: dict[str, Any]) -> None:
        self.state.apply(seat, action)
        self.log.append(ActionRow(len(self.log), seat, dict(action), f"seat:{seat}", 0.0))

    def seat(self) -> int:
        return self.state.to_act()[0]

    def review(self, seat: int, cap: int = CAP, salt: str = "1") -> Review:
        plan = decision_points(self.game, self.seats, self.options, self.seed, self.log, seat)
        return run(plan, estimate, salt, 1e9, cap)


def best_move(s: Logged, seat: int, cap: int = CAP, salt: str = "1") -> dict[str, Any]:
    """The move the review will call best at this decision (the same estimate, the same rng)."""
    legal = s.state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    point = Point(0, len(s.log), legal[0], len(legal))
    e = estimate(s.game.name, s.state.clone(), seat, legal[0], rng_for(salt, point, seat), 1e9, cap)
    return e.best


def play_out(s: Logged, chooser: Callable[[Logged, int], dict[str, Any]] | None = None, seed: int = 0,
             stop: Callable[[Logged], bool] | None = None) -> Logged:
    """Play on to the session's end (or ``stop``): seats by easy, or by ``chooser(s, seat)`` when it
    returns a move (None: easy)."""
    easy = easy_policy(s.game.name)
    rng = random.Random(seed)
    while not s.state.is_over() and not (stop and stop(s)):
        seat = s.seat()
        move = chooser(s, seat) if chooser is not None else None
        if move is None:
            move = easy.choose(s.state.view(seat), s.state.legal_actions(seat), rng)
        s.act(seat, move)
    return s
