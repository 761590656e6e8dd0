"""Rebuilding a table's rules state from its stored event log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.base import Event, Game, State
from bot.store.tables import ActionRow, TableRow

CLOSE = "close"  # the system action type logged for a host/admin close (seat NULL)


def close_action(now: bool) -> dict[str, Any]:
    """The logged system action for ``state.request_close(now)``."""
    return {"type": CLOSE, "now": bool(now)}


def apply_logged(state: State, seat: int | None, action: dict[str, Any]) -> list[Event]:
    """Apply one logged action: a seat's move, or a system action when ``seat`` is None."""
    if seat is None:
        if action.get("type") != CLOSE:
            raise ValueError(f"unknown system action {action!r}")
        return state.request_close(bool(action.get("now")))
    return state.apply(seat, action)


@dataclass(frozen=True)
class SessionLog:
    """A stored session, everything its replay needs: the game, the number of seats, the options
    (validated, as the session was played), the seed and the logged actions in order."""

    game: Game
    seats: int
    options: dict[str, Any]
    seed: int
    actions: Sequence[ActionRow]

    @classmethod
    def of(cls, game: Game, row: TableRow, actions: Sequence[ActionRow]) -> SessionLog:
        """The log of a stored table; ``ValueError`` for one never dealt (no seed) or bad options."""
        if row.seed is None:
            raise ValueError(f"table {row.id} was never dealt: it has no seed")
        return cls(game, len(row.seats), game.validate_options(row.options), row.seed, actions)

    def new_state(self) -> State:
        """The session's state before its first action."""
        return self.game.new_table(self.seats, self.options, self.seed)


def rebuild(log: SessionLog) -> State:
    """The state after replaying ``log`` from a fresh session; raises if the log does not replay."""
    state = log.new_state()
    for row in log.actions:
        apply_logged(state, row.seat, row.action)
    return state
