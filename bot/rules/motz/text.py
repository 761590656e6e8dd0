"""Motz text: button labels, log lines and the /rules summary, in the reader's language.

Every function takes the reader's ``Text`` (English ``PLAIN`` by default). The French follows
the seed's own wording (la bête, le muet / jeu muet, la donne, la levée, l'amende, l'atout).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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


def _jetons(n: int, tr: Text) -> str:
    """``n`` jetons in the reader's plural form ("1 jeton", "8 jetons", "5 žetonů")."""
    return tr.n_("{n} jeton", "{n} jetons", n)


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line for a public event; every amount in jetons, in the reader's plural form."""
    kind = event.get("type")
    if kind == "deal_start":
        return tr._("Deal {n}: {dealer} deals. Each player antes {ante}: the bête holds {pot}. "
                    "Turn-up {card}, trump {trump}. Fine at risk: {fine}.", n=event["deal"] + 1,
                    dealer=name(event["dealer"]), ante=_jetons(event["ante"], tr),
                    pot=_jetons(event["pot"], tr), card=_card(event["turn_up"], tr),
                    trump=tr.symbol(event["trump"]), fine=_jetons(event["fine"], tr))
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
        return _settled(event, name, tr)
    if kind == "deal_voided":
        return tr._("The deal is voided: every ante is returned.")
    if kind == "close_requested":
        return tr._("The table is closing: this deal is the last.")
    if kind == "session_end":
        return _session_end(event, name, tr)
    return None


def _settled(event: Event, name: Callable[[int], str], tr: Text) -> str:
    """A deal's end: cancelled (the bête carries over), or who takes what from it and who pays a fine."""
    if event["cancelled"]:
        return tr._("Deal cancelled: fewer than two players are in. Nothing moves; the bête ({pot}) "
                    "carries over.", pot=_jetons(event["pot"], tr))
    parts = [tr._("{who} takes {amount}", who=name(i), amount=_jetons(p, tr))
             for i, p in enumerate(event["payouts"]) if p]
    parts += [tr._("{who} pays a fine of {amount}", who=name(i), amount=_jetons(f, tr))
              for i, f in enumerate(event["fines"]) if f]
    return tr._("Deal settled (bête {bete}): {parts}. The pot now holds {pot}.",
                bete=_jetons(event["bete"], tr), parts=tr.p_("list separator", "; ").join(parts),
                pot=_jetons(event["pot"], tr))


def _session_end(event: Event, name: Callable[[int], str], tr: Text) -> str:
    """The session's end: why, who gets what of the pot's split, each player's result in jetons."""
    res = ", ".join(f"{name(i)} {signed(r, tr, plus_zero=True)}" for i, r in enumerate(event["results"]))
    reason = _reason(event["reason"], tr)
    if any(event["split"]):
        split = ", ".join(f"{name(i)} {tr.number(x)}" for i, x in enumerate(event["split"]))
        return tr._("Session over ({reason}). The pot ({pot}) is split: {split}. Results in jetons: "
                    "{results}.", reason=reason, pot=_jetons(sum(event["split"]), tr), split=split,
                    results=res)
    return tr._("Session over ({reason}). Results in jetons: {results}.", reason=reason, results=res)


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


def _tricks_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``tricks`` view field (per seat, this deal) by name: only the players who took some
    ("alice 1 · dave 2"), "—" before anyone has; None for any other shape."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                        for v in value):
        return None
    return " · ".join(f"{name(i)} {tr.number(v)}" for i, v in enumerate(value) if v) or "—"


def _declarations_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``declarations`` view field (per seat: null until it speaks) as what each player who spoke
    declared ("bob took the muet · carol stands"), "—" before anyone speaks."""
    if not isinstance(value, (list, tuple)):
        return None
    said = [(i, d) for i, d in enumerate(value) if d is not None]
    if not all(d in VOCABULARY.view_values for _, d in said):
        return None
    words = VOCABULARY.view_values
    return " · ".join(tr.p_("motz declaration", "{who}: {said}", who=name(i), said=tr.p_(*words[d]))
                      for i, d in said) or "—"


def _muet_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """``muet_taken_by`` as where the muet is: taken by a player, or face down on the table (null: the
    image shows it there, and nothing in the texts said so)."""
    if value is None:
        return tr.p_("motz muet", "face down on the table")
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return tr.p_("motz muet", "taken by {who}", who=name(value))


def _jetons_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """An amount of jetons (the fine at risk) with its unit."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return _jetons(value, tr)


def _antes_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """``k``, the antes each player has in the bête since it was last won, under the field's name
    "antes in the bête" ("2 per player", as the image's "Antes per player 2")."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return tr.p_("motz antes", "{n} per player", n=tr.number(value))


def fine_note(view: Mapping[str, Any], name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """What the seat to declare risks (``Game.seat_note``): the fine a player who stands or takes the muet
    pays if they take no trick, or, when their stack cannot cover it (the cover rule, 8.11), that they
    may only pass; None outside the declarations."""
    to_act, fine, stacks = view.get("to_act") or [], view.get("fine"), view.get("stacks") or []
    if view.get("phase") != "declare" or len(to_act) != 1 or not isinstance(fine, int):
        return None
    seat = to_act[0]
    if 0 <= seat < len(stacks) and stacks[seat] < fine:
        return tr._("⚠️ {who} has {stack} and cannot cover the fine of {fine}: {who} may only pass.",
                    who=name(seat), stack=_jetons(stacks[seat], tr), fine=_jetons(fine, tr))
    return tr._("⚠️ Fine at risk: {fine}. Whoever stands or takes the muet and takes no trick pays it into "
                "the pot.", fine=_jetons(fine, tr))


#: Motz's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    view_fields={
        "active": NP_("view field", "active"), "declarations": NP_("view field", "declarations"),
        "given_up": NP_("view field", "given up"),
        "muet_taken_by": NP_("view field", "muet"), "tricks": NP_("view field", "tricks"),
        "turn_up": NP_("view field", "turn up"), "k": NP_("view field", "antes in the bête"),
        "pot": NP_("view field", "the bête"),
        "fine": NP_("view field", "fine at risk"),
    },
    move_kinds={"stand": NP_("move kind", "Stand"), "take_muet": NP_("move kind", "Take muet")},
    view_values={
        "pass": NP_("view value", "passes"), "stand": NP_("view value", "stands"),
        "take_muet": NP_("view value", "took the muet"),
    },
    seat_fields=("muet_taken_by",),
    seat_list_fields=("active", "trick_winners"),
    seat_figure_fields=("hand_sizes",),  # every seat, 0 for one out of the deal
    field_texts={"declarations": _declarations_field, "tricks": _tricks_field,
                 "fine": _jetons_field, "k": _antes_field, "muet_taken_by": _muet_field},
    deal_fields=frozenset({"k", "declarations", "hand_sizes", "tricks", "trick_winners", "active",
                           "given_up", "muet_taken_by"}),
)
