"""What a Marias deal's plays have shown about the hands (public: section 7, cards played).

Section 2.3's duties are strict, so a card played says what its seat did not hold at that moment,
and hands only shrink in the play: a seat that did not follow holds none of the led suit; one
that followed without beating the winning card of the led suit holds nothing of it higher; one
that could not follow and did not trump holds no trump; one that trumped under a winning trump
holds no trump higher than it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.dealing import Allowed
from bot.rules.marias.tables import STR_NAT, STR_SUIT, SUIT

#: Per seat, per suit, the strongest strength (``STR_SUIT`` / ``STR_NAT``) it may still hold;
#: ``-1``: none of that suit. A suit absent from a seat's entry is unconstrained.
Ceilings = dict[int, dict[str, int]]
#: The ace's strength in both orders.
TOP = max(STR_SUIT.values())


def shown_ceilings(tricks: Sequence[Sequence[tuple[int, str]]], trump: str | None) -> Ceilings:
    """The ceilings the plays of ``tricks`` (complete, or the one on the table) put on each seat,
    under ``trump`` (None in betl and durch: natural order, no trump duty)."""
    strength = STR_SUIT if trump is not None else STR_NAT
    out: Ceilings = {}

    def cap(seat: int, suit: str, top: int) -> None:
        if top >= TOP:
            return  # nothing is higher than an ace: no news
        mine = out.setdefault(seat, {})
        mine[suit] = min(mine.get(suit, top), top)

    for trick in tricks:
        if not trick:
            continue
        win = trick[0][1]
        led = SUIT[win]
        for seat, card in trick[1:]:
            suit, win_suit = SUIT[card], SUIT[win]
            if suit == led:
                if win_suit == led and strength[card] < strength[win]:
                    cap(seat, led, strength[win])  # it had to beat the winner if it could
            else:
                cap(seat, led, -1)
                if trump is not None:
                    if suit != trump:
                        cap(seat, trump, -1)
                    elif win_suit == trump and strength[card] < strength[win]:
                        cap(seat, trump, strength[win])  # it had to overtrump if it could
            if (suit == win_suit and strength[card] > strength[win]) or (suit == trump and win_suit != trump):
                win = card
    return out


def may_hold(ceilings: Ceilings, trump: str | None) -> tuple[Allowed, dict[int, int]]:
    """``(allowed, strictness)`` for ``bot.rules.dealing.deal_under``: whether a seat may hold a
    card under ``ceilings``, and how many suits constrain each seat."""
    strength = STR_SUIT if trump is not None else STR_NAT

    def allowed(seat: int, card: str) -> bool:
        top = ceilings.get(seat, {}).get(SUIT[card])
        return top is None or strength[card] <= top

    return allowed, {s: len(c) for s, c in ceilings.items()}
