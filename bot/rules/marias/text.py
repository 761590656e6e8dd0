"""Marias text: button labels, log lines and the /rules summary, in the reader's language.

Every function takes the reader's ``Text`` (English ``PLAIN`` by default). The Marias words
are kept in every language (hra, sedma, kilo, betl, durch, flek / re / tutti / boty, talon);
Czech names the suits as Marias players do (srdce, kule, zelené, žaludy).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from bot.rules.base import PLAIN, Action, Event, Text, describe, signed
from bot.rules.marias.state import FLEK_NAMES
from bot.rules.vocabulary import NP_, Vocabulary

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


def contract(game: str | None, tr: Text) -> str:
    """A contract's name ("Hra", "Kilo + sedma"); kept in every language."""
    return {
        "hra": tr.p_("marias contract", "Hra"), "sedma": tr.p_("marias contract", "Sedma"),
        "kilo": tr.p_("marias contract", "Kilo"), "kilo_sedma": tr.p_("marias contract", "Kilo + sedma"),
        "betl": tr.p_("marias contract", "Betl"), "durch": tr.p_("marias contract", "Durch"),
        None: tr.p_("marias contract", "no contract"),
    }.get(game, str(game))


def _component(name: str, tr: Text) -> str:
    return {
        "hra": tr.p_("marias component", "game"), "kilo": tr.p_("marias component", "kilo"),
        "sedma": tr.p_("marias component", "seven"),
        "silent_seven": tr.p_("marias component", "silent seven"),
        "betl": tr.p_("marias component", "betl"), "durch": tr.p_("marias component", "durch"),
    }.get(name, name)


def flek_name(level: int, tr: Text) -> str:
    """A doubling level's name (flek, re, tutti, boty): kept in every language."""
    return {
        1: tr.p_("marias flek", "flek"), 2: tr.p_("marias flek", "re"), 3: tr.p_("marias flek", "tutti"),
        4: tr.p_("marias flek", "boty"),
    }.get(level, FLEK_NAMES[level] if 0 <= level < len(FLEK_NAMES) else str(level))


def flek_text(level: int, tr: Text) -> str:
    """A doubling level as every Marias text shows it, its name and multiplier ("tutti ×8"); "—" for
    none. The narration, the table's fields, the image and the buttons all say it this way."""
    if level <= 0:
        return "—"
    return tr.p_("marias flek", "{flek} ×{factor}", flek=flek_name(level, tr), factor=tr.number(2 ** level))


def _is_level(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(FLEK_NAMES)


def _raise_label(kind: str, level: object, tr: Text) -> str:
    """A flek or re button: the level it reaches and its multiplier ("Tutti ×8") when the current
    ``level`` is known (``label_at``, from the seat's view), else the bare move ("Flek", "Re")."""
    if not _is_level(level) or level + 1 >= len(FLEK_NAMES):
        return tr.p_("marias move", "Flek") if kind == "flek" else tr.p_("marias move", "Re")
    reached = level + 1
    word = {1: tr.p_("marias move", "Flek"), 2: tr.p_("marias move", "Re"), 3: tr.p_("marias move", "Tutti"),
            4: tr.p_("marias move", "Boty")}[reached]
    return tr.p_("marias move", "{flek} ×{factor}", flek=word, factor=tr.number(2 ** reached))


def _flek_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``flek`` view field (a level) as the image shows it: "tutti ×8"."""
    return flek_text(value, tr) if _is_level(value) else None


def _points_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``points`` view field (``[P_S, P_D]``) told apart: "soloist 30 – defenders 100" (it read
    "30 · 100" beside the per-seat card points, as if two seats')."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 \
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return tr.p_("marias points", "soloist {soloist} – defenders {defenders}", soloist=tr.number(value[0]),
                 defenders=tr.number(value[1]))


def label(action: Action, tr: Text = PLAIN) -> str:
    """Short button text for an action."""
    kind = action.get("type")
    card = action.get("card")
    if kind == "trump":
        return tr._("Trump {suit} ({card})", suit=tr.symbol(card[-1]), card=tr.card(card))
    if kind == "trump_blind":
        return tr._("Trump blind")
    if kind == "declare":
        return contract(action.get("game"), tr)
    if kind == "discard":
        return tr._("Discard {cards}", cards=tr.card(card))
    if kind == "play":
        return tr.card(card)
    if kind == "good":
        return tr.p_("marias move", "Good")
    if kind == "bad":
        return tr.p_("marias move", "Bad")
    if kind in ("flek", "re"):
        return _raise_label(kind, None, tr)
    if kind == "pass":
        return tr.p_("marias move", "Pass")
    return describe(action)


def label_at(action: Action, view: Mapping[str, Any], tr: Text = PLAIN) -> str:
    """A move's button text where it is offered (``Game.label_at``): a flek or re names the level it
    reaches, read from the seat's view ("Tutti ×8"); any other move is ``label``'s."""
    kind = action.get("type")
    if kind in ("flek", "re"):
        return _raise_label(str(kind), view.get("flek"), tr)
    return label(action, tr)


def _result_line(ev: Event, name: Callable[[int], str], tr: Text) -> str:
    game = contract(ev["contract"], tr)
    soloist = name(ev["soloist"])
    if ev.get("trump"):
        head = tr._("{who}'s {game} in {suit}", who=soloist, game=game,
                    suit=tr.suit(ev["trump"], marias=True))
    else:
        head = tr._("{who}'s {game}", who=soloist, game=game)
    if ev["conceded"]:
        head = tr._("{text} (conceded)", text=head)
    if ev["flek"]:
        head = tr._("{text}, {flek}", text=head, flek=flek_text(ev["flek"], tr))
    parts = [tr._("{what} won ({value})", what=_component(n, tr), value=b) if w
             else tr._("{what} lost ({value})", what=_component(n, tr), value=b)
             for n, w, b in ev["components"]]
    details = ", ".join(parts)
    if ev["points"] != [0, 0]:
        details = tr._("{text}; points {a}–{b}", text=details, a=ev["points"][0], b=ev["points"][1])
    n = ev["units"]
    units = signed(n, tr, plus_zero=True)
    details = tr.n_("{text}; {units} unit", "{text}; {units} units", abs(n), text=details, units=units)
    pays = _payments(ev, name, tr)
    return tr._("{head}: {details}. {payments}.", head=head, details=details, payments=pays)


def _payments(ev: Event, name: Callable[[int], str], tr: Text) -> str:
    """Who pays whom at a deal's end, in jetons (the units times the stake: "pays 50 jetons")."""
    return tr.p_("list separator", "; ").join(
        tr.n_("{payer} pays {n} jeton to {payee}", "{payer} pays {n} jetons to {payee}", x, payer=name(a),
              payee=name(b))
        for a, b, x in ev["payments"] if x) or tr._("nothing moves")


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line per public event."""
    kind = event.get("type")
    who = name(event["seat"]) if "seat" in event else ""
    if kind == "deal_start":
        return tr._("Deal {n}: {dealer} deals, {forehand} is forehand.", n=event["deal"] + 1,
                    dealer=name(event["dealer"]), forehand=name(event["forehand"]))
    if kind == "trump":
        suit, card = tr.suit(event["suit"], marias=True), tr.card(event["card"])
        if event["blind"]:
            return tr._("{who} names {suit} trumps blind, turning {card}.", who=who, suit=suit, card=card)
        return tr._("{who} names {suit} trumps showing {card}.", who=who, suit=suit, card=card)
    if kind == "declare":
        if event.get("over"):
            return tr._("{who} declares {game} over {over}.", who=who, game=contract(event["game"], tr),
                        over=contract(event["over"], tr))
        return tr._("{who} declares {game}.", who=who, game=contract(event["game"], tr))
    if kind == "discard":
        if "talon_trumps" in event:
            return tr.n_("{who} discards a second card; {n} trump in the talon.",
                         "{who} discards a second card; {n} trumps in the talon.", event["talon_trumps"],
                         who=who)
        return tr._("{who} discards a card.", who=who)
    if kind == "good":
        return tr._("{who}: good.", who=who)
    if kind == "bad":
        return tr._("{who}: bad! Takes the talon over {game}.", who=who, game=contract(event["over"], tr))
    if kind in ("flek", "re"):
        return tr._("{who}: {flek}.", who=who, flek=flek_text(event["level"], tr))
    if kind == "pass":
        return tr._("{who} passes.", who=who)
    if kind == "conceded":
        return tr._("The defenders concede {who}'s hra.", who=name(event["seat"]))
    if kind == "play_start":
        game, leader = contract(event["contract"], tr), name(event["leader"])
        if event.get("trump"):
            return tr._("{game}, {suit} trumps: {who} leads.", game=game,
                        suit=tr.suit(event["trump"], marias=True), who=leader)
        return tr._("{game}: {who} leads.", game=game, who=leader)
    if kind == "play":
        return tr._("{who} plays {card}.", who=who, card=tr.card(event["card"]))
    if kind == "marriage":
        return tr._("{who} declares the {suit} marriage: {value}.", who=who,
                    suit=tr.suit(event["suit"], marias=True), value=event["value"])
    if kind == "trick":
        return tr._("Trick {n} to {who} with {card}.", n=event["trick"], who=name(event["winner"]),
                    card=tr.card(event["card"]))
    if kind == "play_stopped":
        return tr._("{game} lost at trick {n}; play stops.", game=contract(event["contract"], tr),
                    n=event["trick"])
    if kind == "deal_end":
        return _result_line(event, name, tr)
    if kind == "closing":
        return tr._("The table will close at the end of this deal.")
    if kind == "deal_void":
        return tr._("The deal is abandoned; no jetons move.")
    if kind == "session_end":
        res = ", ".join(f"{name(i)} {'+' if r >= 0 else '-'}{tr.number(abs(r))}"
                        for i, r in enumerate(event["results"]))
        return tr._("Session over: {results}.", results=res)
    return None  # not a Marias event (the table service's own): nothing to say


#: Marias's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    phases={"flek": NP_("phase", "Flek"), "answer": NP_("phase", "Answer")},
    view_fields={
        "card_points": NP_("view field", "card points"), "contract": NP_("marias view field", "contract"),
        "flek": NP_("view field", "flek"),
        "soloist": NP_("view field", "soloist"), "talon": NP_("view field", "talon"),
        "talon_trumps": NP_("view field", "talon trumps"), "trump_card": NP_("view field", "trump card"),
    },
    move_kinds={
        "bad": NP_("move kind", "Bad"), "flek": NP_("move kind", "Flek"), "good": NP_("move kind", "Good"),
        "re": NP_("move kind", "Re"), "trump_blind": NP_("move kind", "Trump blind"),
    },
    view_values={
        "hra": NP_("view value", "hra"), "sedma": NP_("view value", "sedma"),
        "kilo": NP_("view value", "kilo"), "kilo_sedma": NP_("view value", "kilo + sedma"),
        "betl": NP_("view value", "betl"), "durch": NP_("view value", "durch"),
    },
    seat_fields=("soloist", "leader"),
    seat_list_fields=("trick_winners",),
    seat_figure_fields=("hand_sizes", "card_points"),
    field_texts={"flek": _flek_field, "points": _points_field},
)
