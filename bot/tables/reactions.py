"""Quick reactions at a table (issue 30 item 4): a short fixed list of emotes a seated player picks
from the table message's select, shown on the table message as one line keeping the last few.

A reaction costs no request of its own: the click is acknowledged as a message update (type 6, the
interaction's own budget) and the line rides on the table message's next coalesced edit. Each member
may react once per ``COOLDOWN`` seconds (``bot.gate.MemberGate``); spectators may not react (the
reading chosen here: the table message belongs to the players, a crowd's emotes would flood it).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from bot.gate import Busy, MemberGate

#: The emotes offered, in the select's order.
EMOTES: tuple[str, ...] = ("👍", "😮", "😂", "👏", "🤔", "😬")
#: Reactions the table message keeps (the newest last).
KEEP = 4
#: Seconds between two reactions of the same member.
COOLDOWN = 8.0


@dataclass
class Reactions:
    """The latest reactions of one table: (who, emote) pairs, the newest last."""

    shown: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=KEEP))

    def add(self, who: str, emote: str) -> None:
        """Note ``who`` reacted with ``emote`` (the oldest beyond ``KEEP`` is dropped)."""
        self.shown.append((who, emote))

    def line(self) -> str | None:
        """The line the table message shows, e.g. ``Ana: 👏 · Bo: 😂``, or None if nobody reacted."""
        if not self.shown:
            return None
        return " · ".join(f"{who}: {emote}" for who, emote in self.shown)


def emote_of(value: str) -> str | None:
    """The emote a select value names (its index in ``EMOTES``), or None if it names none."""
    if not value.isascii() or not value.isdigit() or len(value) > 2:
        return None
    index = int(value)
    return EMOTES[index] if index < len(EMOTES) else None


class ReactionGate:
    """Per-member rate limit of reactions: admitted at most once per ``cooldown`` seconds."""

    def __init__(self, cooldown: float = COOLDOWN) -> None:
        self.gate = MemberGate(cooldown)

    def admit(self, member: int) -> float | None:
        """None if ``member`` may react now (their cooldown starts), else the seconds to wait."""
        try:
            self.gate.admit(member)
        except Busy as busy:
            return max(busy.retry_after, 0.1)
        self.gate.release(member)
        return None
