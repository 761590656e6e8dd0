"""Card tables and hand reading for Mus with 8 kings (spec sections 1.1, 2 and 4.2).

Cards are handled internally as canonical indices 0…39 (``cards.DECK_ES_40`` order: suits
O C E B, ranks 1 2 3 4 5 6 7 10 11 12), so a sorted list of indices is a hand in canonical order.
"""

from __future__ import annotations

from bot.rules.cards import DECK_ES_40

CODES: tuple[str, ...] = DECK_ES_40
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}

#: Strength of each face rank: K (3, 12) = 8, C (11) = 7, S (10) = 6, 7..4 = 5..2, A (1, 2) = 1.
_RANK_STRENGTH = {"1": 1, "2": 1, "4": 2, "5": 3, "6": 4, "7": 5, "10": 6, "11": 7, "12": 8, "3": 8}
#: Count value of each face rank (juego/punto): figures and 3 = 10, 7..4 = face, 1 and 2 = 1.
_RANK_VALUE = {"1": 1, "2": 1, "4": 4, "5": 5, "6": 6, "7": 7, "10": 10, "11": 10, "12": 10, "3": 10}

STRENGTH: tuple[int, ...] = tuple(_RANK_STRENGTH[c[:-1]] for c in CODES)
VALUE: tuple[int, ...] = tuple(_RANK_VALUE[c[:-1]] for c in CODES)
#: Letter of an effective rank (by strength), for hand descriptions.
LETTER = {8: "K", 7: "C", 6: "S", 5: "7", 4: "6", 3: "5", 2: "4", 1: "A"}

#: Juego order, best first: 31, 32, 40, 37, 36, 35, 34, 33 (key: higher is better; 0 = no juego).
JUEGO_KEY = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}
PARES_NAMES = {1: "par", 2: "medias", 3: "duples"}

LANCES = ("grande", "chica", "pares", "juego", "punto")


class Reading:
    """Everything the lances need from one 4-card hand (shared: never mutate).

    ``grande``: strengths high → low; ``chica``: low → high; ``pares``: ``(category, high,
    low)`` with category 3 duples, 2 medias, 1 par, 0 none (the category is also the bonus);
    ``total``: count value; ``juego``: the juego key (0 without juego); ``text``: the
    descriptions of :func:`describe` by lance. A reading depends only on the strengths (the
    count value of a card follows from its strength), so readings are cached by strengths.
    """

    __slots__ = ("grande", "chica", "pares", "total", "juego", "text")

    def __init__(self, desc: tuple[int, ...]):
        self.grande = desc
        self.chica = tuple(reversed(desc))
        self.pares = pares_key(list(desc))
        self.total = sum(_STRENGTH_VALUE[x] for x in desc)
        self.juego = JUEGO_KEY.get(self.total, 0)
        self.text = {name: describe(name, self) for name in LANCES}


_STRENGTH_VALUE = {8: 10, 7: 10, 6: 10, 5: 7, 4: 6, 3: 5, 2: 4, 1: 1}
_READINGS: dict[tuple[int, ...], Reading] = {}


def read_hand(hand: list[int]) -> Reading:
    """The (cached) reading of a hand of card indices."""
    desc = tuple(sorted((STRENGTH[c] for c in hand), reverse=True))
    r = _READINGS.get(desc)
    if r is None:
        r = _READINGS[desc] = Reading(desc)
    return r


def pares_key(desc: list[int]) -> tuple[int, int, int]:
    """``(category, high rank, low rank)`` of strengths sorted high → low (spec section 2)."""
    a, b, c, d = desc
    if a == b and c == d:
        return (3, a, c)  # two pairs, or four of a kind (= two pairs of that rank)
    if a == b == c:
        return (2, a, 0)
    if b == c == d:
        return (2, b, 0)
    if a == b:
        return (1, a, 0)
    if b == c:
        return (1, b, 0)
    if c == d:
        return (1, c, 0)
    return (0, 0, 0)


def lance_winner(lance: str, readings: list[Reading], order: list[int]) -> int | None:
    """The seat winning ``lance`` by cards; ties go to the seat earliest in ``order``.

    None for pares/juego when nobody holds the combination.
    """
    best = None
    best_key = None
    for s in order:
        r = readings[s]
        if lance == "grande":
            key = r.grande
        elif lance == "chica":
            key = tuple(-x for x in r.chica)  # lower wins: negate to compare as "higher wins"
        elif lance == "pares":
            if not r.pares[0]:
                continue
            key = r.pares
        elif lance == "juego":
            if not r.juego:
                continue
            key = (r.juego,)
        else:
            key = (r.total,)
        if best_key is None or key > best_key:
            best, best_key = s, key
    return best


def team_bonus(lance: str, readings: list[Reading], team: int) -> int:
    """Bonus points of ``team`` in ``lance`` (spec 4.2): pares 1/2/3, juego 3 for 31 else 2, punto 1."""
    if lance == "pares":
        return readings[team].pares[0] + readings[team + 2].pares[0]
    if lance == "juego":
        return sum((3 if r.total == 31 else 2) for r in (readings[team], readings[team + 2]) if r.juego)
    if lance == "punto":
        return 1
    return 0


def describe(lance: str, r: Reading) -> str | None:
    """A short English reading of a hand for one lance ("K K K 5", "duples K-A", "juego 31")."""
    if lance == "grande":
        return " ".join(LETTER[x] for x in r.grande)
    if lance == "chica":
        return " ".join(LETTER[x] for x in r.chica)
    if lance == "pares":
        cat, hi, lo = r.pares
        if not cat:
            return None
        if cat == 3:
            return f"duples {LETTER[hi]}-{LETTER[lo]}"
        return f"{PARES_NAMES[cat]} {LETTER[hi]}"
    if lance == "juego":
        return f"juego {r.total}" if r.juego else None
    return f"punto {r.total}"
