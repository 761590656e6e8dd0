"""A tiny game implementing the rules contract, so the tables can be tested without a real engine.

"High card": every deal each seat antes, gets one secret number 0–9, and in turn (from the
dealer's left) says ``stay`` or ``fold``; the staying seats with the highest number share the
pot (nobody staying: antes are returned). ``deals`` deals make a session.
"""

from __future__ import annotations

import random
from typing import Any

from bot.rules.base import Game, IllegalMove, OptionSpec, match_action, not_your_turn


class HighState:
    def __init__(self, n: int, options: dict[str, Any], seed: int):
        self.n, self.options, self.seed = n, options, seed
        self.ante = options["ante"]
        self.stacks = [options["buy_in"]] * n
        self.pot = 0
        self.deal = 0
        self.dealer = options["dealer"] if options["dealer"] is not None else seed % n
        self.closing = False
        self.over = False
        self.secrets: list[int] = []
        self.said: list[str | None] = []
        self.turn = 0
        self._start_deal()

    def _start_deal(self) -> None:
        if any(s < self.ante for s in self.stacks):
            self.over = True
            return
        rng = random.Random(f"{self.seed}:{self.deal}")
        self.secrets = [rng.randrange(10) for _ in range(self.n)]
        self.said = [None] * self.n
        for i in range(self.n):
            self.stacks[i] -= self.ante
        self.pot = self.ante * self.n
        self.turn = (self.dealer + 1 + self.deal) % self.n

    def clone(self) -> HighState:
        c = object.__new__(HighState)
        c.__dict__.update(self.__dict__)
        c.stacks, c.secrets, c.said = list(self.stacks), list(self.secrets), list(self.said)
        return c

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.over or seat != self.turn:
            return []
        return [{"type": "stay"}, {"type": "fold"}]

    def timeout_action(self, seat: int) -> dict[str, Any]:
        return {"type": "fold"}

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if seat not in self.to_act():
            raise not_your_turn(seat, self.to_act())
        act = match_action(action, self.legal_actions(seat))
        self.said[seat] = act["type"]
        events: list[dict[str, Any]] = [{"type": act["type"], "seat": seat}]
        if all(s is not None for s in self.said):
            events += self._settle()
        else:
            self.turn = (self.turn + 1) % self.n
        return events

    def _settle(self) -> list[dict[str, Any]]:
        staying = [i for i in range(self.n) if self.said[i] == "stay"]
        deltas = [0] * self.n
        if not staying:
            for i in range(self.n):
                deltas[i] = self.ante
        else:
            best = max(self.secrets[i] for i in staying)
            winners = [i for i in staying if self.secrets[i] == best]
            share, rest = divmod(self.pot, len(winners))
            for w in winners:
                deltas[w] = share
            deltas[winners[0]] += rest
        for i in range(self.n):
            self.stacks[i] += deltas[i]
        self.pot = 0
        events: list[dict[str, Any]] = [{"type": "deal_end", "deltas": [d - self.ante for d in deltas]}]
        self.deal += 1
        if self.closing or self.deal >= self.options["deals"]:
            self.over = True
            results = [s - self.options["buy_in"] for s in self.stacks]
            events.append({"type": "session_end", "results": results})
        else:
            self._start_deal()
        return events

    def request_close(self, now: bool = False) -> list[dict[str, Any]]:
        if self.over:
            return []
        if now or all(s is None for s in self.said):
            for i in range(self.n):
                self.stacks[i] += self.ante
            self.pot = 0
            self.over = True
            return [{"type": "deal_voided"}, {"type": "session_end"}]
        self.closing = True
        return [{"type": "closing"}]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "phase": "over" if self.over else "bet",
            "to_act": list(self.to_act()),
            "stacks": list(self.stacks),
            "pot": self.pot,
            "dealer": self.dealer,
            "deal": self.deal,
            "closing": self.closing,
            "said": list(self.said),
            "hand": [str(self.secrets[seat])] if seat is not None and not self.over else [],
        }


OPTIONS = (
    OptionSpec("players", "int", 3, "Seats.", minimum=2, maximum=4),
    OptionSpec("ante", "int", 1, "Ante.", minimum=1, maximum=10),
    OptionSpec("buy_in", "int", lambda o: 100 * o["ante"], "Buy-in.", minimum=lambda o: 10 * o["ante"]),
    OptionSpec("deals", "int", 2, "Deals per session.", minimum=1, maximum=50),
    OptionSpec("dealer", "seat", None, "First dealer.", hidden=True),
)


def _factory(n: int, options: dict[str, Any], seed: int) -> HighState:
    return HighState(n, options, seed)


GAME = Game(
    name="high", title="High card", min_seats=2, max_seats=4, options=OPTIONS, deck=(),
    factory=_factory, summary="A test game.", default_seats=3,
)

__all__ = ["GAME", "HighState", "IllegalMove"]
