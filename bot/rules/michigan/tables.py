"""Michigan card tables: card integers, pay cards, the deal's shuffle and layout, per-table constants."""

from __future__ import annotations

from typing import Any

from bot.rules import cards

SUITS = cards.FRENCH_SUITS  # S H D C
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
BOODLE = ("AH", "KC", "QD", "JS")
#: pool index of a card (0..3), or -1 for an ordinary card.
POOL_OF: tuple[int, ...] = tuple(BOODLE.index(c) if c in BOODLE else -1 for c in CODES)

SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
#: DECK_52 (the order ``cards.deck_for_deal`` shuffles) as card integers.
_DECK52_INTS: tuple[int, ...] = tuple(INDEX[c] for c in cards.DECK_52)
_BITS: tuple[int, ...] = tuple((i + 1).bit_length() for i in range(52))

DEAD = -1
PLAYED = -2


def _deck_ints(decks: Any, seed: int, k: int) -> list[int]:
    """``cards.deck_for_deal(DECK_52, decks, seed, k)`` as card integers.

    The shuffle is ``random.shuffle`` of CPython 3.11+ written out inline (same draws, same
    permutation, about twice as fast); a test checks it against ``cards.deck_for_deal``.
    """
    if decks is not None and k < len(decks):
        return [INDEX[c] for c in decks[k]]
    x = list(_DECK52_INTS)
    getrandbits = cards.deal_rng(seed, k).getrandbits
    bits = _BITS
    for i in range(51, 0, -1):
        m = i + 1
        j = getrandbits(bits[i])
        while j >= m:
            j = getrandbits(bits[i])
        x[i], x[j] = x[j], x[i]
    return x


PLAY, DEALER_CHOICE, SPARE_AUCTION, OVER = 0, 1, 2, 3
PHASE_NAMES = ("play", "dealer_choice", "spare_auction", "session_end")


class _Config:
    """Per-table constants, shared by a state and its clones."""

    __slots__ = ("n", "u", "c", "buy_in", "rotations", "variant", "reveal", "decks", "seed", "hand_only")

    def __init__(self, n: int, options: dict[str, Any], seed: int):
        self.n = n
        self.u: int = options["ante_unit"]
        self.c: int = options["card_price"]
        self.buy_in: int = options["buy_in"]
        self.rotations: int = options["rotations"]
        self.variant: bool = options["spare_hand"] == "dealer_option"
        self.reveal: bool = options["reveal_dead_hand"]
        self.decks = options["decks"]
        self.seed = seed
        #: Set only on an AI search's redealt copy (never by a table): the session ends after the
        #: hand's settlement (reason "hand_only"), the next hand is not dealt (a search stops at
        #: the hand's end anyway; each seat's stack plus its pool contributions is unchanged).
        self.hand_only = False


_LAYOUTS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}


def _layout(n: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Spec 2.2 for ``n`` seats and this dealer: (owner of deck position i, its suit-count base,
    hand sizes). Positions are [DEAD, left(d), …, d]; the dead hand's base is ``4n``."""
    got = _LAYOUTS.get((n, dealer))
    if got is None:
        q = [DEAD] + [(dealer + j) % n for j in range(1, n + 1)]
        seat_at = tuple(q[i % (n + 1)] for i in range(52))
        seat_at4 = tuple(4 * n if s == DEAD else 4 * s for s in seat_at)
        sizes = tuple(seat_at.count(s) for s in range(n))
        got = _LAYOUTS[(n, dealer)] = (seat_at, seat_at4, sizes)
    return got
