"""Michigan text: button labels, log lines and the /rules summary."""

from __future__ import annotations

from collections.abc import Callable

from bot.rules import cards
from bot.rules.base import Action, Event

_SYM = cards.SUIT_SYMBOLS


def label(action: Action) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "lead":
        return f"Lead {_SYM.get(action.get('suit'), action.get('suit'))}"
    if kind == "swap_spare":
        return "Take the spare hand"
    if kind == "keep":
        return "Keep my hand"
    if kind == "bid":
        return f"Bid {action.get('amount')}"
    if kind == "pass":
        return "Pass"
    return str(kind)


def _d(code: str) -> str:
    return cards.display(code)


def narrate(event: Event, name: Callable[[int], str]) -> str | None:
    """One English log line for a public event."""
    t = event.get("type")
    if t == "ante":
        return (f"Hand {event['deal'] + 1}: {name(event['dealer'])} deals; antes taken, "
                f"pools A♥ K♣ Q♦ J♠ = {' / '.join(map(str, event['pot']))}.")
    if t == "deal":
        return None
    if t == "lead":
        return f"{name(event['seat'])} leads {_d(event['card'])}."
    if t == "play":
        return f"{name(event['seat'])} plays {_d(event['card'])}."
    if t == "boodle":
        return f"{name(event['seat'])} plays {_d(event['card'])} and collects its pool: {event['amount']}."
    if t == "stop":
        return f"{_d(event['card'])} is a stop: {name(event['seat'])} leads next."
    if t == "lead_passes":
        return (f"{name(event['from'])} holds only {_SYM[event['blocked']]}: "
                f"the lead passes to {name(event['to'])}.")
    if t == "block_lifted":
        return f"Nobody holds another suit: {name(event['seat'])} may lead {_SYM[event['suit']]} again."
    if t == "out":
        return f"{name(event['seat'])} plays their last card ({_d(event['card'])}) and goes out!"
    if t == "hand_end":
        w = event["winner"]
        paid = ", ".join(f"{name(s)} {-p}" for s, p in enumerate(event["payments"]) if p < 0)
        tail = f" ({paid})." if paid else "."
        return f"{name(w)} wins the hand and collects {event['payments'][w]}{tail}"
    if t == "swap_spare":
        return f"{name(event['seat'])} takes the spare hand."
    if t == "keep":
        return f"{name(event['seat'])} keeps their hand; the spare hand is auctioned."
    if t == "bid":
        return f"{name(event['seat'])} bids {event['amount']} for the spare hand."
    if t == "pass":
        return f"{name(event['seat'])} passes."
    if t == "spare_taken":
        who, dealer = name(event["seat"]), name(event["dealer"])
        return f"{who} pays {event['amount']} to {dealer} and takes the spare hand."
    if t == "spare_dead":
        return "Nobody bids: the spare hand stays dead."
    if t == "cannot_ante":
        return f"{', '.join(name(s) for s in event['seats'])} cannot pay the ante."
    if t == "close_requested":
        return "The host closes the table: this is the last hand."
    if t == "void":
        return "The hand is voided: its antes and payments are returned."
    if t == "session_end":
        res = ", ".join(f"{name(s)} {r:+d}" for s, r in enumerate(event["results"]))
        return f"Session over ({event['reason']}): {res}."
    return None

SUMMARY = (
    "Michigan is a stops game for 3 to 8 players: four pay cards (A♥ K♣ Q♦ J♠) each carry a pool "
    "fed by antes, the dealer paying double. "
    "All 52 cards are dealt, plus a dead hand nobody uses. "
    "The leader plays the lowest card of a suit of their choice; whoever holds the next card up "
    "must play it, until an ace or a card nobody can follow (a stop). "
    "Playing a card matching a pay card wins its pool; the stopper leads again in another suit. "
    "The first player out of cards collects a fixed price for every card the others still hold."
)
