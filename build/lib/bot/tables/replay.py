"""Rebuilding a table's rules state from its stored event log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.base import Event, Game, State
from bot.store.tables import ActionRow

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


def rebuild(game: Game, seats: int, options: dict[str, Any], seed: int, log: Sequence[ActionRow]) -> State:
    """The state after replaying ``log`` from a fresh session; raises if the log does not replay."""
    state = game.new_table(seats, options, seed)
    for row in log:
        apply_logged(state, row.seat, row.action)
    return state
