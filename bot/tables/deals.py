"""A session's deals, read back from its action log by replaying the engine (no Discord, no I/O).

A deal ends with the rules event that carries its per-seat ``deltas`` (``deal_end`` in most
games, Michigan's ``hand_end``, the Maître's ``manche_end``, a voided deal's event). Actions
after the last such event (a session closed mid-deal) form a last, unfinished deal. Each deal
keeps the narration the table showed (``game.narrate`` of every rules event), its result, the
contract where the game has one, and the versions it spans, so a replay can re-walk it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.rules.base import PLAIN, Event, State, Text
from bot.tables.replay import SessionLog, apply_logged


@dataclass
class Deal:
    """One deal of a session. ``first``/``last`` are the versions of its first and last action."""

    number: int
    first: int
    last: int
    lines: list[str] = field(default_factory=list)
    deltas: list[int] | None = None  # None: the session ended before this deal did
    contract: str | None = None
    end: Event | None = None


def contract_text(event: Event) -> str | None:
    """The contract or bid a deal-end event names (Marias, Maître), as short text."""
    value = event.get("contract")
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values() if v not in (None, ""))[:60] or None
    return str(value)[:60]


def walk(log: SessionLog, on_action: Callable[[int, State, list[Event]], None] | None = None) -> State:
    """Replay ``log`` from a fresh session, calling ``on_action(version, state, events)`` after each."""
    state = log.new_state()
    for row in log.actions:
        events = apply_logged(state, row.seat, row.action)
        if on_action is not None:
            on_action(row.version, state, events)
    return state


def deals_of(log: SessionLog, name: Callable[[int], str], tr: Text = PLAIN) -> list[Deal]:
    """Every deal of the session, in order (see the module docstring); narration in ``tr``'s language."""
    out: list[Deal] = []
    current: list[Deal | None] = [None]
    carried: list[str] = []  # lines after a deal's end in the same action: the next deal's opening

    def on_action(version: int, state: State, events: list[Event]) -> None:
        deal = current[0]
        if deal is None:
            deal = Deal(len(out) + 1, version, version, lines=carried[:])
            carried.clear()
            out.append(deal)
            current[0] = deal
        deal.last = version
        for event in events:
            try:
                line = log.game.narrate(event, name, tr)
            except Exception:
                line = None
            if line:
                (carried if deal.deltas is not None else deal.lines).append(line)
            if "deltas" in event and deal.deltas is None:
                deal.deltas = [int(d) for d in event["deltas"]]
                deal.contract = contract_text(event)
                deal.end = event
        if deal.deltas is not None:
            current[0] = None

    walk(log, on_action)
    if out and carried:  # the session's closing lines
        out[-1].lines.extend(carried)
    return out


@dataclass
class DealFrames:
    """What a replay of one deal draws: the spectator view before its first action and after each
    action (``views``) and, for a revealed replay only, every card each seat held at some point
    of the deal in the order it first held them (``hands``: the dealt hand plus any card taken
    later, e.g. Marias' second packet or a Mus draw)."""

    deal: Deal
    views: list[dict[str, Any]]
    hands: list[list[str]] | None


def deal_frames(log: SessionLog, number: int, reveal: bool, name: Callable[[int], str] = str,
                tr: Text = PLAIN) -> DealFrames | None:
    """The frames of deal ``number`` (from 1), or None if the log has no such deal yet.

    With ``reveal`` the seats' hands come too (a finished session's revealed replay); without
    it, only spectator views (``view(None)``) are ever taken.

    A spec conflict and the reading taken: a revealed hand is every card the seat held during the
    deal, so it also shows cards the rules docs keep hidden "even after the deal" (Marias's talon;
    Motz's passed hands and the hand given up for the muet; the Mus and Maître discards; Michigan's
    spare hand given up). Issue 16 asked for exactly this, in so many words: once the session has
    finished, its seated players (and only they) get "the revealed replay that shows every hand — the
    way a table turns its cards over after the deal". That explicit product decision is kept for the
    finished session's own players; the rules docs' hidden-information tables still govern every
    view during play and everyone else (spectators never get a revealed replay).
    """
    deals = deals_of(log, name, tr)
    seats = log.seats
    if not 1 <= number <= len(deals):
        return None
    deal = deals[number - 1]
    views: list[dict[str, Any]] = []
    hands: list[list[str]] | None = [[] for _ in range(seats)] if reveal else None

    def take(state: State) -> None:
        views.append(state.view(None))
        if hands is not None:
            for s in range(seats):
                for c in state.view(s).get("hand") or []:
                    if str(c) not in hands[s]:
                        hands[s].append(str(c))

    state = log.new_state()
    if deal.first == 0:
        take(state)
    for row in log.actions[: deal.last + 1]:
        apply_logged(state, row.seat, row.action)
        if deal.first - 1 <= row.version < deal.last:
            take(state)
        elif row.version == deal.last:
            views.append(state.view(None))  # the next deal's hands are not this deal's
    return DealFrames(deal, views, hands)


def contracts_of(log: SessionLog, seat: int) -> list[str]:
    """The contracts ``seat`` played as declarer (``Game.declarer``: Marias, Maître) or the bids
    it made (``Game.bids``, named by type, amounts left out: Mus, Motz)."""
    game = log.game
    if game.bids:
        return [str(row.action["type"]).replace("_", " ") for row in log.actions
                if row.seat == seat and row.action.get("type") in game.bids]
    key = game.declarer
    if key is None:
        return []
    return [d.contract for d in deals_of(log, str)
            if d.contract and d.end is not None and d.end.get(key) == seat]
