"""Michigan text: button labels, log lines and the /rules summary, in the reader's language.

Every function takes the reader's ``Text`` (English ``PLAIN`` by default).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.rules import cards
from bot.rules.base import PLAIN, Action, Event, Text
from bot.rules.michigan.tables import BOODLE
from bot.rules.vocabulary import NP_, Vocabulary

_SYM = cards.SUIT_SYMBOLS


def label(action: Action, tr: Text = PLAIN) -> str:
    """Button text for an action."""
    kind = action.get("type")
    if kind == "lead":
        suit = action.get("suit")
        return tr._("Lead {suit}", suit=tr.symbol(suit) if suit in _SYM else suit)
    if kind == "swap_spare":
        return tr._("Take the spare hand")
    if kind == "keep":
        return tr._("Keep my hand")
    if kind == "bid":
        return tr._("Bid {amount}", amount=tr.number(action.get("amount")))
    if kind == "pass":
        return tr.p_("michigan move", "Pass")
    return str(kind)


def _reason(reason: str, tr: Text) -> str:
    return {
        "closed": tr._("the table was closed"), "broke": tr._("a player cannot pay the ante"),
        "rotations": tr.p_("michigan end", "every hand is played"),
    }.get(reason, reason)


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line for a public event."""
    t = event.get("type")
    seat = name(event["seat"]) if isinstance(event.get("seat"), int) else ""
    if t == "ante":
        return tr._("Hand {n}: {dealer} deals; antes taken, pools {cards} = {pools}.", n=event["deal"] + 1,
                    dealer=name(event["dealer"]), cards=tr.cards(BOODLE),
                    pools=" / ".join(tr.number(p) for p in event["pot"]))
    if t == "deal":
        return None
    if t == "lead":
        return tr._("{who} leads {card}.", who=seat, card=tr.card(event["card"]))
    if t == "play":
        return tr._("{who} plays {card}.", who=seat, card=tr.card(event["card"]))
    if t == "boodle":
        return tr._("{who} plays {card} and collects its pool: {amount}.", who=seat,
                    card=tr.card(event["card"]), amount=tr.number(event["amount"]))
    if t == "stop":
        return tr._("{card} is a stop: {who} leads next.", card=tr.card(event["card"]), who=seat)
    if t == "lead_passes":
        return tr._("{who} holds only {suit}: the lead passes to {next}.", who=name(event["from"]),
                    suit=tr.symbol(event["blocked"]), next=name(event["to"]))
    if t == "block_lifted":
        return tr._("Nobody holds another suit: {who} may lead {suit} again.", who=seat,
                    suit=tr.symbol(event["suit"]))
    if t == "out":
        return tr._("{who} plays their last card ({card}) and goes out!", who=seat,
                    card=tr.card(event["card"]))
    if t == "hand_end":
        w = event["winner"]
        paid = ", ".join(f"{name(s)} {tr.number(-p)}" for s, p in enumerate(event["payments"]) if p < 0)
        won = tr.number(event["payments"][w])
        if paid:
            return tr._("{who} wins the hand and collects {amount} ({paid}).", who=name(w), amount=won,
                        paid=paid)
        return tr._("{who} wins the hand and collects {amount}.", who=name(w), amount=won)
    if t == "swap_spare":
        return tr._("{who} takes the spare hand.", who=seat)
    if t == "keep":
        return tr._("{who} keeps their hand; the spare hand is auctioned.", who=seat)
    if t == "bid":
        return tr._("{who} bids {amount} for the spare hand.", who=seat, amount=tr.number(event["amount"]))
    if t == "pass":
        return tr._("{who} passes.", who=seat)
    if t == "spare_taken":
        return tr._("{who} pays {amount} to {dealer} and takes the spare hand.", who=seat,
                    amount=tr.number(event["amount"]), dealer=name(event["dealer"]))
    if t == "spare_dead":
        return tr._("Nobody bids: the spare hand stays dead.")
    if t == "cannot_ante":
        return tr._("{who} cannot pay the ante.", who=", ".join(name(s) for s in event["seats"]))
    if t == "close_requested":
        return tr._("The table closes: this is the last hand.")
    if t == "void":
        return tr._("The hand is voided: its antes and payments are returned.")
    if t == "session_end":
        res = ", ".join(f"{name(s)} {'+' if r >= 0 else '-'}{tr.number(abs(r))}"
                        for s, r in enumerate(event["results"]))
        return tr._("Session over ({reason}): {results}.", reason=_reason(event["reason"], tr), results=res)
    return None


SUMMARY = (
    "Michigan is a stops game for 3 to 8 players: four pay cards (A♥ K♣ Q♦ J♠) each carry a pool "
    "fed by antes, the dealer paying double. "
    "All 52 cards are dealt among the players and a dead hand, which nobody uses unless "
    "spare_hand=dealer_option. "
    "The leader plays the lowest card of a suit of their choice; whoever holds the next card up "
    "must play it, until an ace or a card nobody can follow (a stop). "
    "Playing a card matching a pay card wins its pool; the stopper leads again in another suit. "
    "The first player out of cards collects a fixed price for every card the others still hold."
)


def _bid_field(value: object, name: Callable[[int], str], tr: Text) -> str | None:
    """The ``bid`` view field (``[seat, amount]``, the auction's highest bid) as the bidder's name and
    the amount ("Bob, 12 jetons"), as the image shows it; None for any other shape."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 \
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return tr.np_("michigan bid", "{who}, {n} jeton", "{who}, {n} jetons", value[1], who=name(value[0]))


#: Michigan's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    phases={"dealer_choice": NP_("phase", "Dealer choice"), "spare_auction": NP_("phase", "Spare auction")},
    view_fields={
        "bid": NP_("view field", "bid"), "blocked": NP_("view field", "blocked"),
        "lead_right": NP_("view field", "lead right"),
    },
    move_kinds={
        "lead": NP_("move kind", "Lead"), "bid": NP_("move kind", "Bid"), "keep": NP_("move kind", "Keep"),
        "swap_spare": NP_("move kind", "Swap spare"),
    },
    seat_fields=("lead_right",),
    seat_figure_fields=("hand_sizes",),
    pot_cards=BOODLE,
    field_texts={"bid": _bid_field},
)
