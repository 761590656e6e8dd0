"""Motz text: button labels, log lines and the /rules summary."""

from __future__ import annotations

from collections.abc import Callable

from bot.rules import cards
from bot.rules.base import Action, Event

DECL_TEXT = {"pass": "passes", "stand": "stands (plays their own cards)", "take_muet": "takes the muet"}
REASONS = {
    "complete": "the nominal length is reached and the pot is empty",
    "extra_limit": "the clearing deals are used up",
    "broke": "a player cannot pay the ante",
    "closed": "the host closed the table",
}


def label(action: Action) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "play":
        return f"Play {cards.display(action['card'])}"
    return {"pass": "Pass", "stand": "Stand", "take_muet": "Take the muet"}.get(kind, str(kind))


def _cards_text(c: str | None) -> str:
    return cards.display(c) if c else "—"


def narrate(event: Event, name: Callable[[int], str]) -> str | None:
    """One English log line for a public event."""
    kind = event.get("type")
    if kind == "deal_start":
        return (f"Deal {event['deal'] + 1}: {name(event['dealer'])} deals. Antes of {event['ante']} in: the "
                f"bête holds {event['pot']}. Turn-up {_cards_text(event['turn_up'])}, trump "
                f"{cards.SUIT_SYMBOLS[event['trump']]}. Fine at risk: {event['fine']}.")
    if kind == "declare":
        return f"{name(event['seat'])} {DECL_TEXT[event['declaration']]}."
    if kind == "play":
        return f"{name(event['seat'])} plays {_cards_text(event['card'])}."
    if kind == "trick":
        return f"Trick {event['number']} won by {name(event['winner'])} with {_cards_text(event['card'])}."
    if kind == "deal_end":
        if event["cancelled"]:
            return (f"Deal cancelled: fewer than two players are in. Nothing moves; the bête "
                    f"({event['pot']}) carries over.")
        parts = [f"{name(i)} receives {p}" for i, p in enumerate(event["payouts"]) if p]
        parts += [f"{name(i)} is fined {f}" for i, f in enumerate(event["fines"]) if f]
        return f"Deal settled (bête {event['bete']}): " + "; ".join(parts) + f". Pot now {event['pot']}."
    if kind == "deal_voided":
        return "The deal is voided: every ante is returned."
    if kind == "close_requested":
        return "The host is closing the table: this deal is the last."
    if kind == "session_end":
        res = ", ".join(f"{name(i)} {r:+d}" for i, r in enumerate(event["results"]))
        split = f" The pot is split: {', '.join(map(str, event['split']))}." if any(event["split"]) else ""
        return f"Session over ({REASONS.get(event['reason'], event['reason'])}).{split} Results: {res}."
    return None


SUMMARY = (
    "Motz is an old French gambling game of three tricks with 32 cards, for 3 to 6 players. "
    "Everyone antes into the pot (the bête) before each deal; each player gets three cards, an extra "
    "blind hand (the muet) lies on the table and the turned card sets trump. "
    "In turn each player passes, stands with their cards, or swaps them blind for the muet; with fewer "
    "than two players in, the deal is cancelled and the pot grows. "
    "The jack of trump is highest, then the other jack of the same colour, then A K Q 10 9 8 7; you must "
    "follow suit, else trump, else discard. "
    "Three tricks take the whole pot, two tricks take it minus the one-trick player's stakes, and every "
    "player in who takes no trick pays a fine equal to the pot into the next one."
)

