"""Jeu du Maître text: button labels, log lines and the /rules summary, in the reader's language.

Every function takes the reader's ``Text`` (English ``PLAIN`` by default). The seed's French
words are kept in every language: Maître, Coffre, manche, maîtrise, Majeure / Mineure, the modes
couleur / valeur / tête, Chute, écart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.base import PLAIN, Action, Event, Text
from bot.rules.cards import display
from bot.rules.vocabulary import NP_, Vocabulary

SUMMARY = (
    "A trick game without trumps for 3 to 6 players with 54 cards (jokers play as any declared card). "
    "Each manche one player is the Maître: he hides two cards in his Coffre, secretly making one suit "
    "positive (Majeure) and one negative (Mineure), and announces a contract of 50 to 100% valued cards. "
    "The second card of a trick sets its mode (couleur, valeur or tête); a pair or a run of three wins "
    "the trick, and anyone but the leader may discard instead of playing. "
    "The Maître must meet his contract and beat the other players' total by more than 15 points; "
    "failing twice eliminates him. The best non-eliminated player wins the pot."
)


def mode_name(mode: str, tr: Text) -> str:
    """A trick mode, as the seed names it (kept in every language)."""
    return {
        "couleur": tr.p_("maitre mode", "couleur"), "valeur": tr.p_("maitre mode", "valeur"),
        "tete": tr.p_("maitre mode", "tête"),
    }.get(mode, mode)


def _combination(combo: str, tr: Text) -> str:
    return {"pair": tr.p_("maitre combination", "pair"), "run": tr.p_("maitre combination", "run")}.get(
        combo, combo)


def _symbol(suit: str) -> str:
    return display("A" + suit)[-1]


def label(action: Action, tr: Text = PLAIN) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "play":
        card = tr.card(action["card"])
        if "as" in action:
            text = tr._("Play {card} as {other}", card=card, other=tr.card(action["as"]))
        else:
            text = tr._("Play {card}", card=card)
        if "mode" in action:
            text = tr._("{move} — {mode}", move=text, mode=mode_name(action["mode"], tr))
        if "take" in action:
            text = tr._("{move}, take", move=text) if action["take"] else tr._("{move}, leave", move=text)
        return text
    if kind == "discard":
        return tr._("Discard {cards}", cards=tr.card(action["card"]))
    if kind == "take":
        return tr._("Take the trick")
    if kind == "coffre":
        return tr._("Coffre: mineure {mineure}, majeure {majeure}", mineure=tr.card(action["mineure"]),
                    majeure=tr.card(action["majeure"]))
    if kind == "contract":
        return tr._("Contract {value}", value=action["value"])
    return str(kind)


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line per public event."""
    t = event.get("type")
    s = event.get("seat")
    who = name(s) if isinstance(s, int) else ""
    if t == "deal":
        counts = ", ".join(str(c) for c in event["hand_counts"])
        return tr._("Manche {n}: {maitre} is Maître and deals (hands {counts}).", n=event["manche"] + 1,
                    maitre=name(event["maitre"]), counts=counts)
    if t == "redeal":
        return tr._("{maitre} cannot build a Coffre: the cards are dealt again.",
                    maitre=name(event["maitre"]))
    if t == "coffre":
        return tr._("{who} seals the Coffre.", who=who)
    if t == "contract":
        return tr._("{who} announces Contract {value}; {leader} leads.", who=who, value=event["value"],
                    leader=name(event["leader"]))
    if t == "play":
        card = tr.card(event["card"])
        if event["card"] != event["as"]:
            card = tr._("{card} as {other}", card=card, other=tr.card(event["as"]))
        text = tr._("{who} plays {card}", who=who, card=card)
        if "mode" in event:
            text = tr._("{text}, mode {mode}", text=text, mode=mode_name(event["mode"], tr))
        if "combination" in event:
            combo = _combination(event["combination"], tr)
            if event.get("take") is False:
                text = tr._("{text} ({combination}, left)", text=text, combination=combo)
            else:
                text = tr._("{text} ({combination})", text=text, combination=combo)
        return text + "."
    if t == "discard":
        return tr._("{who} discards.", who=who)
    if t == "take":
        if event.get("auto"):
            return tr._("{who} takes the trick (no card left).", who=who)
        return tr._("{who} takes the trick.", who=who)
    if t == "trick_won":
        return tr._("{who} wins the trick: {cards}.", who=who, cards=tr.cards(event["cards"]))
    if t == "chute":
        return tr._("Chute: {who} receives {cards}.", who=who, cards=tr.cards(event["cards"]))
    if t == "manche_end":
        return _narrate_manche(event, name, tr)
    if t == "eliminated":
        return tr._("{who} fails a second maîtrise and is eliminated.", who=who)
    if t == "close":
        if event.get("now"):
            return tr._("The table closes now.")
        return tr._("The table closes after this manche.")
    if t == "manche_void":
        return tr._("The manche is abandoned: nothing is scored.")
    if t == "session_end":
        if event["reason"] == "closed":
            return tr._("Table closed: every stake is refunded.")
        if event["reason"] == "all_eliminated":
            return tr._("Every seat is eliminated: every stake is refunded.")
        winners = [name(w) for w in event["winners"]]
        if len(winners) == 1:
            return tr._("{who} wins the pot.", who=winners[0])
        return tr._("{winners} win the pot.", winners=tr._(" and ").join(winners))
    return None


def _narrate_manche(e: dict[str, Any], name: Callable[[int], str], tr: Text) -> str:
    m = e["maitre"]
    pts = ", ".join(f"{name(i)} {'+' if p >= 0 else '-'}{tr.number(abs(p))}"
                    for i, p in enumerate(e["manche_points"]))
    why = []
    if not e["contract_ok"]:
        why.append(tr._("contract {contract} missed ({valued}/{counted} valued)", contract=e["contract"],
                        valued=e["valued"], counted=e["counted"]))
    if not e["ecart_ok"]:
        why.append(tr._("écart {ecart} not above 15", ecart=e["ecart"]))
    maj, mino = _symbol(e["majeure"]), _symbol(e["mineure"])
    if e["validated"]:
        head = tr._("{who}'s maîtrise is validated", who=name(m))
    else:
        head = tr._("{who}'s maîtrise is failed", who=name(m))
    if why:
        head = tr._("{text} ({why})", text=head, why=tr.p_("list separator", "; ").join(why))
    return tr._("{text}. Majeure {majeure}, Mineure {mineure}. Points: {points}.", text=head,
                majeure=maj, mineure=mino, points=pts)


def _manche_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``manche`` view field, a 0-based index in the engine, counted from 1 as the image and the
    narration count it ("Manche 1")."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return tr.number(value + 1)


#: The Maître's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    phases={"coffre": NP_("phase", "Coffre")},
    view_fields={
        "eliminated": NP_("view field", "eliminated"), "hand_counts": NP_("view field", "hand counts"),
        "last_player": NP_("view field", "last player"), "maitre": NP_("view field", "maître"),
        "manche": NP_("view field", "manche"), "mode": NP_("view field", "mode"),
        "ranking": NP_("view field", "ranking"), "strikes": NP_("view field", "strikes"),
        "tricks_won": NP_("view field", "tricks won"),
    },
    move_kinds={"coffre": NP_("move kind", "Coffre"), "take": NP_("move kind", "Take")},
    view_values={
        "couleur": NP_("view value", "couleur"), "valeur": NP_("view value", "valeur"),
        "tete": NP_("view value", "tête"),
    },
    seat_fields=("maitre", "leader", "last_player"),
    seat_list_fields=("ranking",),
    seat_figure_fields=("hand_counts", "discard_counts", "tricks_won", "points", "strikes", "eliminated"),
    field_texts={"manche": _manche_field},
)


def contract_name(contract: str, tr: Text = PLAIN) -> str:
    """A deal's contract as its deal-end event gives it: the points bid ("Contract 85")."""
    if contract.isdigit():
        return tr._("Contract {value}", value=tr.number(int(contract)))
    return contract
