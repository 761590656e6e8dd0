"""Which views of a deal a replay draws: every move, except repeated mus rounds and, past
``MAX_FRAMES``, the middle of the deal (its first and last moves are kept).

A Mus deal has no length bound (mus may be called again and again: the issue's 614-frame deal),
so without a cap a replay's drawing time and file size have none either. Only the views kept
are taken from the engine; the hands band of a revealed replay still sees every state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.base import PLAIN, State, Text
from bot.store.tables import ActionRow
from bot.tables.deals import Deal, deals_of
from bot.tables.replay import SessionLog, apply_logged

#: At most this many frames in one replay (700 ms each: 84 s of animation).
MAX_FRAMES = 120


@dataclass
class ReplayFrames:
    """The views a replay draws (``views``, in order), how many of the deal's were left out
    (``skipped``) and, for a revealed replay, every card each seat held in the deal (``hands``)."""

    deal: Deal
    views: list[dict[str, Any]]
    hands: list[list[str]] | None
    skipped: int


def repeated_rounds(round_types: Sequence[str], actions: Sequence[ActionRow]) -> list[list[int]]:
    """The versions of each repeated round's actions in ``actions`` (one deal), in order.

    ``round_types`` is the game's ``repeated_round`` (Mus: mus calls, then discards); a round
    starts with an action whose type comes earlier in it than the previous such action's type
    (a mus call after a discard). [] for a game without one.
    """
    order = {kind: i for i, kind in enumerate(round_types)}
    rounds: list[list[int]] = []
    last = None
    for row in actions:
        at = order.get(str(row.action.get("type"))) if row.seat is not None else None
        if at is None:
            continue
        if not rounds or (last is not None and at < last):
            rounds.append([])
        rounds[-1].append(row.version)
        last = at
    return rounds


def kept_indices(total: int, first: int, dropped: set[int], cap: int) -> tuple[list[int], int]:
    """Indices (0 = before the deal's first move, ``i`` = after version ``first - 1 + i``) of the
    views kept out of ``total``: those whose move is not in ``dropped``, then at most ``cap`` of
    them, the first half and the last half (so the deal's opening and its end are always shown)."""
    kept = [i for i in range(total) if i == 0 or first - 1 + i not in dropped]
    if len(kept) > cap:
        head = cap // 2
        kept = kept[:head] + kept[len(kept) - (cap - head):]
    return kept, total - len(kept)


def replay_frames(session: SessionLog, number: int, reveal: bool, cap: int = MAX_FRAMES,
                  name: Callable[[int], str] = str, tr: Text = PLAIN) -> ReplayFrames | None:
    """The frames of deal ``number`` (from 1) within ``cap``, or None if the log has no such deal.

    Without ``reveal`` only spectator views (``view(None)``) are ever taken. Of a game's repeated
    rounds (``Game.repeated_round``: Mus's mus rounds), the first and the last are shown.
    """
    game, seats, log = session.game, session.seats, session.actions
    deals = deals_of(session, name, tr)
    if not 1 <= number <= len(deals):
        return None
    deal = deals[number - 1]
    rounds = repeated_rounds(game.repeated_round, log[deal.first:deal.last + 1])
    dropped = {v for r in rounds[1:-1] for v in r}
    total = deal.last - deal.first + 2
    kept, skipped = kept_indices(total, deal.first, dropped, max(2, cap))
    wanted = {deal.first - 1 + i for i in kept}  # the versions after which a view is taken
    views: list[dict[str, Any]] = []
    hands: list[list[str]] | None = [[] for _ in range(seats)] if reveal else None

    def held(state: State) -> None:
        if hands is not None:
            for s in range(seats):
                for c in state.view(s).get("hand") or []:
                    if str(c) not in hands[s]:
                        hands[s].append(str(c))

    state = session.new_state()
    if deal.first == 0:
        views.append(state.view(None))
        held(state)
    for row in log[: deal.last + 1]:
        apply_logged(state, row.seat, row.action)
        if row.version in wanted:
            views.append(state.view(None))
        if deal.first - 1 <= row.version < deal.last:
            held(state)  # the next deal's hands (after the last move) are not this deal's
    return ReplayFrames(deal, views, hands, skipped)
