"""Marias text: button labels, log lines and the /rules summary."""

from __future__ import annotations

from collections.abc import Callable

from bot.rules.base import Action, Event, describe
from bot.rules.cards import SUIT_NAMES, SUIT_SYMBOLS, display
from bot.rules.marias.state import FLEK_NAMES

CONTRACT_NAMES = {
    "hra": "Hra", "sedma": "Sedma", "kilo": "Kilo", "kilo_sedma": "Kilo + sedma",
    "betl": "Betl", "durch": "Durch", None: "no contract",
}
COMPONENT_NAMES = {
    "hra": "game", "kilo": "kilo", "sedma": "seven", "silent_seven": "silent seven",
    "betl": "betl", "durch": "durch",
}

SUMMARY = (
    "Marias is the Czech three-player trick game: one soloist plays against two defenders. "
    "Forehand gets 12 cards, names trumps from its first seven cards (or blind), declares a "
    "contract — hra, sedma (win the last trick with the 7 of trumps), kilo (100 points), betl "
    "(take no trick) or durch (take every trick) — and discards two cards. "
    "The others answer good, or bad to take the talon and play betl or durch instead; "
    "defenders may flek and the soloist re, each doubling the stakes. "
    "Aces and tens score 10, the last trick 10, a marriage 20 (40 in trumps); you must follow "
    "suit and beat the winning card, else trump and overtrump. Hearts trumps pay double."
)



def label(action: Action) -> str:
    """Short button text for an action."""
    kind = action.get("type")
    card = action.get("card")
    if kind == "trump":
        return f"Trump {SUIT_SYMBOLS[card[-1]]} ({display(card)})"
    if kind == "trump_blind":
        return "Trump blind"
    if kind == "declare":
        return CONTRACT_NAMES.get(action.get("game"), str(action.get("game")))
    if kind == "discard":
        return f"Discard {display(card)}"
    if kind == "play":
        return display(card)
    if kind in ("good", "bad", "flek", "re", "pass"):
        return kind.capitalize()
    return describe(action)


def _result_line(ev: Event, name: Callable[[int], str]) -> str:
    game = CONTRACT_NAMES.get(ev["contract"], ev["contract"])
    trump = f" in {SUIT_NAMES[ev['trump']]}" if ev.get("trump") else ""
    head = f"{name(ev['soloist'])}'s {game}{trump}"
    if ev["conceded"]:
        head += " (conceded)"
    if ev["flek"]:
        head += f", {FLEK_NAMES[ev['flek']]} ×{2 ** ev['flek']}"
    parts = [f"{COMPONENT_NAMES[n]} {'won' if w else 'lost'} ({b})" for n, w, b in ev["components"]]
    pts = ""
    if ev["points"] != [0, 0]:
        pts = f"; points {ev['points'][0]}–{ev['points'][1]}"
    pays = "; ".join(f"{name(a)} pays {x} to {name(b)}" for a, b, x in ev["payments"] if x) or "nothing moves"
    return f"{head}: {', '.join(parts)}{pts}; {ev['units']:+d} units. {pays}."


def narrate(event: Event, name: Callable[[int], str]) -> str | None:
    """One English log line per public event."""
    kind = event.get("type")
    who = name(event["seat"]) if "seat" in event else ""
    if kind == "deal_start":
        dealer, fore = name(event["dealer"]), name(event["forehand"])
        return f"Deal {event['deal'] + 1}: {dealer} deals, {fore} is forehand."
    if kind == "trump":
        how = "blind, turning" if event["blind"] else "showing"
        return f"{who} names {SUIT_NAMES[event['suit']]} trumps {how} {display(event['card'])}."
    if kind == "declare":
        over = f" over {CONTRACT_NAMES[event['over']]}" if event.get("over") else ""
        return f"{who} declares {CONTRACT_NAMES[event['game']]}{over}."
    if kind == "discard":
        if "talon_trumps" in event:
            n = event["talon_trumps"]
            return f"{who} discards a second card; {n} trump{'s' if n != 1 else ''} in the talon."
        return f"{who} discards a card."
    if kind == "good":
        return f"{who}: good."
    if kind == "bad":
        return f"{who}: bad! Takes the talon over {CONTRACT_NAMES[event['over']]}."
    if kind in ("flek", "re"):
        return f"{who}: {FLEK_NAMES[event['level']]} (×{2 ** event['level']})."
    if kind == "pass":
        return f"{who} passes."
    if kind == "conceded":
        return f"The defenders concede {name(event['seat'])}'s hra."
    if kind == "play_start":
        trump = f", {SUIT_NAMES[event['trump']]} trumps" if event.get("trump") else ""
        return f"{CONTRACT_NAMES[event['contract']]}{trump}: {name(event['leader'])} leads."
    if kind == "play":
        return f"{who} plays {display(event['card'])}."
    if kind == "marriage":
        return f"{who} declares the {SUIT_NAMES[event['suit']]} marriage: {event['value']}."
    if kind == "trick":
        return f"Trick {event['trick']} to {name(event['winner'])} with {display(event['card'])}."
    if kind == "play_stopped":
        return f"{CONTRACT_NAMES[event['contract']]} lost at trick {event['trick']}; play stops."
    if kind == "deal_end":
        return _result_line(event, name)
    if kind == "closing":
        return "The table will close at the end of this deal."
    if kind == "deal_void":
        return "The deal is abandoned; no jetons move."
    if kind == "session_end":
        res = ", ".join(f"{name(i)} {r:+d}" for i, r in enumerate(event["results"]))
        return f"Session over: {res}."
    return describe(event)
