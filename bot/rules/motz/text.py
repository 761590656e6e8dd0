"""Motz text: button labels, log lines and the /rules summary, in the reader's language.

Every function takes the reader's ``Text`` (English ``PLAIN`` by default). The French follows
the seed's own wording (la bête, le muet / jeu muet, la donne, la levée, l'amende, l'atout).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.rules.base import N_, PLAIN, Action, Event, Text, signed
from bot.rules.vocabulary import NP_, Vocabulary


def label(action: Action, tr: Text = PLAIN) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "play":
        return tr._("Play {card}", card=tr.card(action["card"]))
    if kind == "pass":
        return tr.p_("motz move", "Pass")
    if kind == "stand":
        return tr.p_("motz move", "Stand")
    if kind == "take_muet":
        return tr.p_("motz move", "Take the muet")
    return str(kind)


def _card(c: str | None, tr: Text) -> str:
    return tr.card(c) if c else "—"


def _reason(reason: str, tr: Text) -> str:
    return {
        "complete": tr._("the nominal length is reached and the pot is empty"),
        "extra_limit": tr._("the clearing deals are used up"),
        "broke": tr._("a player cannot pay the ante"),
        "closed": tr._("the table was closed"),
    }.get(reason, reason)


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line for a public event."""
    kind = event.get("type")
    if kind == "deal_start":
        return tr._("Deal {n}: {dealer} deals. Antes of {ante} in: the bête holds {pot}. Turn-up {card}, "
                    "trump {trump}. Fine at risk: {fine}.", n=event["deal"] + 1, dealer=name(event["dealer"]),
                    ante=tr.number(event["ante"]), pot=tr.number(event["pot"]),
                    card=_card(event["turn_up"], tr), trump=tr.symbol(event["trump"]),
                    fine=tr.number(event["fine"]))
    if kind == "declare":
        who = name(event["seat"])
        decl = event["declaration"]
        if decl == "pass":
            return tr._("{who} passes.", who=who)
        if decl == "stand":
            return tr._("{who} stands (plays their own cards).", who=who)
        return tr._("{who} takes the muet.", who=who)
    if kind == "play":
        return tr._("{who} plays {card}.", who=name(event["seat"]), card=_card(event["card"], tr))
    if kind == "trick":
        return tr._("Trick {n} won by {who} with {card}.", n=event["number"], who=name(event["winner"]),
                    card=_card(event["card"], tr))
    if kind == "deal_end":
        if event["cancelled"]:
            return tr._("Deal cancelled: fewer than two players are in. Nothing moves; the bête ({pot}) "
                        "carries over.", pot=tr.number(event["pot"]))
        parts = [tr._("{who} receives {amount}", who=name(i), amount=tr.number(p))
                 for i, p in enumerate(event["payouts"]) if p]
        parts += [tr._("{who} is fined {amount}", who=name(i), amount=tr.number(f))
                  for i, f in enumerate(event["fines"]) if f]
        return tr._("Deal settled (bête {bete}): {parts}. Pot now {pot}.", bete=tr.number(event["bete"]),
                    parts=tr.p_("list separator", "; ").join(parts), pot=tr.number(event["pot"]))
    if kind == "deal_voided":
        return tr._("The deal is voided: every ante is returned.")
    if kind == "close_requested":
        return tr._("The table is closing: this deal is the last.")
    if kind == "session_end":
        res = ", ".join(f"{name(i)} {signed(r, tr, plus_zero=True)}" for i, r in enumerate(event["results"]))
        reason = _reason(event["reason"], tr)
        if any(event["split"]):
            split = ", ".join(tr.number(x) for x in event["split"])
            return tr._("Session over ({reason}). The pot is split: {split}. Results: {results}.",
                        reason=reason, split=split, results=res)
        return tr._("Session over ({reason}). Results: {results}.", reason=reason, results=res)
    return None




SUMMARY = N_(
    "Motz is an old French gambling game of three tricks with 32 cards, for 3 to 6 players. "
    "Everyone antes into the pot (the bête) before each deal; each player gets three cards, an extra "
    "blind hand (the muet) lies on the table and the turned card sets trump. "
    "In turn each player passes, stands with their cards, or swaps them blind for the muet; with fewer "
    "than two players in, the deal is cancelled and the pot grows. "
    "The jack of trump is highest, then the other jack of the same colour, then A K Q 10 9 8 7; you must "
    "follow suit, else trump, else discard. "
    "Three tricks take the whole pot, two tricks take it minus the one-trick player's stakes, and every "
    "player in who takes no trick pays a fine equal to the pot (at most fine_cap, if set) into the next one."
)


#: Motz's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    view_fields={
        "active": NP_("view field", "active"), "declarations": NP_("view field", "declarations"),
        "fine": NP_("view field", "fine"), "given_up": NP_("view field", "given up"),
        "muet_taken_by": NP_("view field", "muet taken by"), "tricks": NP_("view field", "tricks"),
        "turn_up": NP_("view field", "turn up"),
    },
    move_kinds={"stand": NP_("move kind", "Stand"), "take_muet": NP_("move kind", "Take muet")},
    view_values={
        "pass": NP_("view value", "passes"), "stand": NP_("view value", "stands"),
        "take_muet": NP_("view value", "took the muet"),
    },
    seat_fields=("muet_taken_by",),
    seat_list_fields=("active",),
)
