"""A live table in memory: its seats, rules state and version. No Discord types.

What the service needs to run it (lock, AI driver, timer, event queue) is its ``TableSession``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.ai.levels import DEFAULT as DEFAULT_LEVEL
from bot.rules.base import Game, State
from bot.tables.seats import LobbyPlan
from bot.tables.senas import SenaBook

#: ``Table.extra_messages`` key of a finished session: 0 (written with the commit that ends it) until
#: the outbox has shown its end (final table message, final DMs, thread closed), then its version;
#: a restart shows the end of a recently finished table still at 0 (``bot.tables.resume``).
FINAL_SHOWN = "final"


def dm_version_key(user_id: int) -> str:
    """The ``extra_messages`` key of the table version ``user_id``'s latest DM (or move's answer)
    shows: a restart prompts again a seat to act whose latest DM is older (``Presenter.prime``)."""
    return f"dmv:{user_id}"


def capacity(rules: Game, options: Mapping[str, Any]) -> int:
    """How many seats a table of ``rules`` with ``options`` has (its ``players`` option, else the default)."""
    players = options.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    return rules.default_seats or rules.max_seats


@dataclass
class SeatInfo:
    """Who sits in a seat. ``user_id`` None = an AI seat; ``away`` = the AI plays for an absent human."""

    user_id: int | None
    name: str
    ai: bool = False
    away: bool = False
    dm_closed: bool = False
    timeouts_in_row: int = 0
    #: AI level (bot.ai.LEVELS) of an AI seat (an away human's stand-in plays at ``bot.ai.levels.stand_in``)
    level: int | str = DEFAULT_LEVEL.name
    #: The house stakes this seat and takes its final stack back (a tournament's table: bot.tables.seated).
    staked: bool = False

    @property
    def human(self) -> bool:
        return not self.ai

    @property
    def autoplayed(self) -> bool:
        """True when the AI plays this seat (AI seat, or a human who is away)."""
        return self.ai or self.away

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatInfo:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


@dataclass(eq=False)
class Table:
    """One table. ``state`` is None in the lobby; ``version`` counts the applied actions."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    rules: Game = field(repr=False)
    options: dict[str, Any]
    seed: int | None
    seats: list[SeatInfo]
    status: str  # 'lobby' | 'playing' | 'finished' | 'cancelled'
    version: int = 0
    state: State | None = field(default=None, repr=False)
    closing: bool = False
    #: Who or what asked for the close at the end of the deal (``bot.tables.length.close_reason``):
    #: 'host', 'admin', or an automatic close's reason ('unattended', 'deal_cap', 'lost_channel';
    #: 'system' for one logged without a reason).
    closed_by: str | None = None
    deadline: float | None = None
    capacity: int = 0
    extra_messages: dict[str, int] = field(default_factory=dict)
    #: Options as chosen (config defaults + host), re-validated at the start with the real seat count.
    raw_options: dict[str, Any] = field(default_factory=dict)
    #: Results of a finished session: per seat, final stack − buy_in.
    results: list[int] | None = None
    #: Who sits where in the lobby, the invitees, invitation-only, Play again (``bot.tables.seats``).
    plan: LobbyPlan = field(default_factory=LobbyPlan)
    #: The señas of the current hand (Mus, option ``senas``; ``bot.tables.senas``): kept beside the
    #: rules state, stored before they are shown (``TableService.make_sena``).
    senas: SenaBook = field(default_factory=SenaBook, repr=False)

    # ------------------------------------------------------------------ queries

    @property
    def buy_in(self) -> int:
        return int(self.options.get("buy_in", 0))

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "playing")

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat index of a human player, or None."""
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and not s.ai:
                return i
        return None

    def name_of(self, seat: int) -> str:
        """Display name of a seat (for the rules' ``narrate``)."""
        return self.seats[seat].name if 0 <= seat < len(self.seats) else f"seat {seat}"

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (empty in the lobby and once finished)."""
        if self.state is None or self.status != "playing":
            return ()
        return tuple(self.state.to_act())

    def to_act_users(self) -> list[int]:
        """User ids of the humans (present, not away) who may act now."""
        out = []
        for s in self.to_act():
            info = self.seats[s]
            if not info.autoplayed and info.user_id is not None:
                out.append(info.user_id)
        return out

    def waiting_seats(self) -> set[int]:
        """Seats to act that a present human plays (these have a deadline)."""
        return {s for s in self.to_act() if not self.seats[s].autoplayed}

    def autoplay_seat(self) -> int | None:
        """The first seat to act that the AI plays, if any."""
        for s in self.to_act():
            if self.seats[s].autoplayed:
                return s
        return None

    def view_for(self, user_id: int | None) -> dict[str, Any]:
        """The seat view of that player, or the spectator view; a lobby summary before the start."""
        if self.state is None:
            return {
                "phase": "lobby",
                "to_act": [],
                "seats": [s.name for s in self.seats],
                "capacity": self.capacity,
                "buy_in": self.buy_in,
                "hand": [],
            }
        return self.state.view(self.seat_of(user_id))
