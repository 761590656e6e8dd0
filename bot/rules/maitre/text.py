"""Jeu du Maître text: button labels, log lines and the /rules summary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.base import Action, Event
from bot.rules.cards import display, display_many

MODE_NAMES = {"couleur": "couleur", "valeur": "valeur", "tete": "tête"}

SUMMARY = (
    "A trick game without trumps for 3 to 6 players with 54 cards (jokers play as any declared card). "
    "Each manche one player is the Maître: he hides two cards in his Coffre, secretly making one suit "
    "positive (Majeure) and one negative (Mineure), and announces a contract of 50 to 100% valued cards. "
    "The second card of a trick sets its mode (couleur, valeur or tête); a pair or a run of three wins "
    "the trick, and anyone may discard instead of playing. "
    "The Maître must meet his contract and beat the other players' total by more than 15 points; "
    "failing twice eliminates him. The best non-eliminated player wins the pot."
)


def _card(code: str) -> str:
    return display(code)


def label(action: Action) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "play":
        text = f"Play {_card(action['card'])}"
        if "as" in action:
            text += f" as {_card(action['as'])}"
        if "mode" in action:
            text += f" — {MODE_NAMES[action['mode']]}"
        if "take" in action:
            text += ", take" if action["take"] else ", leave"
        return text
    if kind == "discard":
        return f"Discard {_card(action['card'])}"
    if kind == "take":
        return "Take the trick"
    if kind == "coffre":
        return f"Coffre: mineure {_card(action['mineure'])}, majeure {_card(action['majeure'])}"
    if kind == "contract":
        return f"Contract {action['value']}"
    return str(kind)


def narrate(event: Event, name: Callable[[int], str]) -> str | None:
    """One English log line per public event."""
    t = event.get("type")
    s = event.get("seat")
    who = name(s) if isinstance(s, int) else ""
    if t == "deal":
        counts = ", ".join(str(c) for c in event["hand_counts"])
        return f"Manche {event['manche'] + 1}: {name(event['maitre'])} is Maître and deals (hands {counts})."
    if t == "redeal":
        return f"{name(event['maitre'])} cannot build a Coffre: the cards are dealt again."
    if t == "coffre":
        return f"{who} seals the Coffre."
    if t == "contract":
        return f"{who} announces Contract {event['value']}; {name(event['leader'])} leads."
    if t == "play":
        card = _card(event["card"])
        if event["card"] != event["as"]:
            card += f" as {_card(event['as'])}"
        text = f"{who} plays {card}"
        if "mode" in event:
            text += f", mode {MODE_NAMES[event['mode']]}"
        if "combination" in event:
            text += f" ({event['combination']}"
            if event.get("take") is False:
                text += ", left"
            text += ")"
        return text + "."
    if t == "discard":
        return f"{who} discards."
    if t == "take":
        return f"{who} takes the trick{' (no card left)' if event.get('auto') else ''}."
    if t == "trick_won":
        return f"{who} wins the trick: {display_many(event['cards'])}."
    if t == "chute":
        return f"Chute: {who} receives {display_many(event['cards'])}."
    if t == "manche_end":
        return _narrate_manche(event, name)
    if t == "eliminated":
        return f"{who} fails a second maîtrise and is eliminated."
    if t == "close":
        return "The host closes the table" + (" now." if event.get("now") else " after this manche.")
    if t == "manche_void":
        return "The manche is abandoned: nothing is scored."
    if t == "session_end":
        if event["reason"] == "closed":
            return "Table closed: every stake is refunded."
        if event["reason"] == "all_eliminated":
            return "Every seat is eliminated: every stake is refunded."
        winners = " and ".join(name(w) for w in event["winners"])
        return f"{winners} win{'s' if len(event['winners']) == 1 else ''} the pot."
    return None


def _narrate_manche(e: dict[str, Any], name: Callable[[int], str]) -> str:
    m = e["maitre"]
    pts = ", ".join(f"{name(i)} {p:+d}" for i, p in enumerate(e["manche_points"]))
    status = "validated" if e["validated"] else "failed"
    why = []
    if not e["contract_ok"]:
        why.append(f"contract {e['contract']} missed ({e['valued']}/{e['counted']} valued)")
    if not e["ecart_ok"]:
        why.append(f"écart {e['ecart']} not above 15")
    detail = f" ({'; '.join(why)})" if why else ""
    return (f"{name(m)}'s maîtrise is {status}{detail}. Majeure {display('A' + e['majeure'])[-1]}, "
            f"Mineure {display('A' + e['mineure'])[-1]}. Points: {pts}.")
