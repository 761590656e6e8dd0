"""English text for Mus: button labels, one log line per public event, the /rules summary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.base import Action, Event, describe

SUMMARY = (
    "Mus is a Basque betting game for two pairs (seats 0 & 2 against 1 & 3) with a 40-card Spanish "
    "deck in which 3s count as kings and 2s as aces. "
    "Each player gets four cards; while everybody says mus, players discard 1 to 4 cards and draw again. "
    "Then four lances are bet in turn: grande (highest cards), chica (lowest), pares (pairs, for those "
    "who hold them) and juego (31 or more; punto if nobody has it), with paso, envido, raises and órdago. "
    "Bets are settled only at the end of the deal, lance by lance, and the first pair to 40 points wins "
    "the game; an accepted órdago settles the game at once. "
    "Each match is won by the first pair to take the needed games, and its winners take the losers' stakes."
)

NAMES = {"grande": "Grande", "chica": "Chica", "pares": "Pares", "juego": "Juego", "punto": "Punto"}


def label(action: Action) -> str:
    """Button text for an action ("Mus", "Discard 3O 12C", "Envido 5", "Órdago")."""
    kind = action.get("type")
    if kind == "mus":
        return "Mus"
    if kind == "no_mus":
        return "No mus"
    if kind == "discard":
        return "Discard " + " ".join(action.get("cards", []))
    if kind == "paso":
        return "Paso"
    if kind == "envido":
        return f"Envido {action.get('amount')}"
    if kind == "ordago":
        return "Órdago"
    if kind == "quiero":
        return "Quiero"
    if kind == "no_quiero":
        return "No quiero"
    return describe(action)


def _team(t: Any, name: Callable[[int], str]) -> str:
    return f"{name(t)} & {name(t + 2)}" if isinstance(t, int) else "nobody"


def _total(t: Any) -> str:
    return "órdago" if t == "ordago" else str(t)


def narrate(event: Event, name: Callable[[int], str]) -> str | None:
    """One log line (or a few, for the deal summary) for a public event."""
    kind = event.get("type")
    lance = event.get("lance", "")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    if kind == "match_start":
        return f"Match {event['match']} starts: each player stakes {event['stake']} (pot {event['pot']})."
    if kind == "deal":
        extra = " Mus corrido: whoever cuts the mus becomes mano." if event.get("corrido") else ""
        dealer, mano = name(event["dealer"]), name(event["mano"])
        return f"Deal {event['deal'] + 1}: {dealer} deals, {mano} is mano.{extra}"
    if kind == "mus":
        return f"{who}: mus."
    if kind == "no_mus":
        extra = f" {who} is mano of this deal." if event.get("corrido") else ""
        return f"{who} cuts the mus: no mus.{extra}"
    if kind == "discard":
        n = event["count"]
        return f"{who} discards {n} card{'s' if n > 1 else ''}."
    if kind == "draw":
        extra = " The old discards were shuffled to make a new stock." if event.get("reshuffled") else ""
        counts = ", ".join(map(str, event["counts"]))
        return f"Cards drawn ({counts}); mus round {event['mus_round'] + 1}.{extra}"
    if kind == "declare":
        word = "pares" if lance == "pares" else "juego"
        parts = [f"{name(s)} {'yes' if h else 'no'}" for s, h in enumerate(event["has"])]
        return f"{NAMES[lance]}: who has {word}? " + ", ".join(parts) + "."
    if kind == "lance":
        return f"{NAMES[lance]}: betting opens."
    if kind == "paso":
        return f"{lance}: paso by {who}"
    if kind == "envido":
        if event.get("raise"):
            return f"{lance}: {who} raises {event['amount']} (total {event['total']})"
        return f"{lance}: envido {event['amount']} by {who}"
    if kind == "ordago":
        return f"{lance}: ÓRDAGO by {who}!"
    if kind == "quiero":
        return f"{lance}: quiero by {who} ({_total(event['total'])})"
    if kind == "no_quiero":
        return f"{lance}: no quiero by {who}"
    if kind == "lance_end":
        return _lance_end(event, name)
    if kind == "deal_end":
        return _deal_end(event, name)
    if kind == "game_end":
        how = f" by an accepted órdago at {event['ordago']}" if event.get("ordago") else ""
        g = event["games"]
        return f"{_team(event['team'], name)} win the game{how}. Games {g[0]}–{g[1]}."
    if kind == "match_end":
        t = event["team"]
        gain = max(event["results"])
        winners, losers = _team(t, name), _team(1 - t, name)
        return f"{winners} win match {event['match']}: +{gain} each; {losers} −{gain} each."
    if kind == "match_abandoned":
        return f"Match {event['match']} abandoned: each player gets {event['refund'][0]} back."
    if kind == "close_requested":
        return "The host closes the table" + (" now." if event.get("now") else " after this deal.")
    if kind == "deal_voided":
        return "The deal in progress is void."
    if kind == "session_end":
        res = ", ".join(f"{name(s)} {r:+d}" for s, r in enumerate(event["results"]))
        return f"Session over: {res}."
    return None


def _lance_end(event: Event, name: Callable[[int], str]) -> str:
    lance, res = event["lance"], event["result"]
    if res == "paso":
        return f"{lance}: en paso"
    if res == "accepted":
        return f"{lance}: accepted at {_total(event['total'])}, settled at the count"
    if res == "refused":
        return f"{lance}: refused, {_team(event['team'], name)} score {event['held']} at the count"
    holder = event.get("holder_team")
    if holder is None:
        return f"{lance}: nobody has {lance}, no betting"
    return f"{lance}: only {_team(holder, name)} have {lance}, no betting"


def _deal_end(event: Event, name: Callable[[int], str]) -> str:
    lines = ["Hands: " + "; ".join(f"{name(s)} {' '.join(h)}" for s, h in enumerate(event["hands"]))]
    for s, c in enumerate(event["combos"]):
        bits = [c["pares"] or "no pares", f"juego {c['total']}" if c["juego"] else f"punto {c['total']}"]
        lines.append(f"  {name(s)}: " + ", ".join(bits))
    for e in event["summary"]:
        lance = NAMES[e["lance"]]
        won = f"{name(e['winner'])} ({e['why']})" if e["winner"] is not None else "nobody"
        if e["result"] == "refused":
            why = f"refused, {_team(e['team'], name)} take it"
        elif e["result"] == "accepted":
            why = f"accepted at {_total(e['total'])}, best cards: {won}"
        elif e["result"] == "paso":
            why = f"en paso, best cards: {won}"
        else:
            why = f"no betting, best cards: {won}"
        if e["counted"]:
            bonus = f" + {e['bonus']} bonus" if e["bonus"] and e["bet"] else ""
            pts = f"{e['bet']}{bonus}" if e["bet"] else f"{e['bonus']} bonus"
            why += f" → {_team(e['team'], name)} +{pts}"
        elif event.get("ordago") or (event.get("game_winner") is not None and e["team"] is None):
            why += " (not counted)"
        lines.append(f"{lance}: {why}")
    pa = event["points_after"]
    lines.append(f"Score: {pa[0]}–{pa[1]}.")
    return "\n".join(lines)
