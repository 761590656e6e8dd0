"""Card tables and the registry of action dicts for the Jeu du Maître.

Cards are small ints in the spec's **canonical order** (section 1.1): suits S, H, D, C; inside a
suit A, 2 … 10, J, Q, K; then X1 (52), X2 (53). A sorted hand is therefore a sorted list of ints.

Every action dict the engine hands out is built once here and registered in :data:`INFO`
(``id(action) -> decoded tuple``). ``legal_actions`` returns lists of these shared dicts, and
the per-context tables of follow/return plays are computed lazily and cached, so a legal-action
list is a handful of list concatenations. Callers must treat action dicts as read-only.
"""

from __future__ import annotations

from bot.rules.cards import FRENCH_SUITS

SUITS = FRENCH_SUITS
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANK_CODES) + ("X1", "X2")
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
#: Rank value r (A=1 … K=13) of an identity; 0 for a joker.
RANK: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52)) + (0, 0)
#: Suit index (0..3) of an identity; -1 for a joker.
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52)) + (-1, -1)
JOKER_MIN = 52
IDENTS: tuple[tuple[int, ...], ...] = tuple((c,) if c < 52 else tuple(range(52)) for c in range(54))
MODES = ("couleur", "valeur", "tete")
CONTRACTS = tuple(range(50, 101, 5))

# decoded action kinds
K_PLAY, K_DISCARD, K_TAKE, K_COFFRE, K_CONTRACT = range(5)

#: id(action dict) -> (kind, card, ident_or_second, mode, take)
INFO: dict[int, tuple] = {}


def _reg(action: dict, info: tuple) -> dict:
    INFO[id(action)] = info
    return action


def _build_plays() -> dict[tuple, dict]:
    out: dict[tuple, dict] = {}
    for card in range(54):
        for ident in IDENTS[card]:
            for mode in (None, *MODES):
                for take in (None, True, False):
                    a: dict = {"type": "play", "card": CODES[card]}
                    if card >= JOKER_MIN:
                        a["as"] = CODES[ident]
                    if mode is not None:
                        a["mode"] = mode
                    if take is not None:
                        a["take"] = take
                    out[(card, ident, mode, take)] = _reg(a, (K_PLAY, card, ident, mode, take))
    return out


#: (card, ident, mode, take) -> play action
PLAY = _build_plays()
DISCARD: tuple[dict, ...] = tuple(
    _reg({"type": "discard", "card": CODES[c]}, (K_DISCARD, c, None, None, None)) for c in range(54)
)
TAKE: dict = _reg({"type": "take"}, (K_TAKE, None, None, None, None))
CONTRACT: dict[int, dict] = {
    v: _reg({"type": "contract", "value": v}, (K_CONTRACT, v, None, None, None)) for v in CONTRACTS
}
COFFRE: dict[tuple[int, int], dict] = {
    (a, b): _reg({"type": "coffre", "mineure": CODES[a], "majeure": CODES[b]}, (K_COFFRE, a, b, None, None))
    for a in range(52) for b in range(52)
    if RANK[a] <= 10 and RANK[b] <= 10 and SUIT[a] != SUIT[b]
}
#: Lead plays of a card: one per identity (52 for a joker).
LEAD: tuple[tuple[dict, ...], ...] = tuple(
    tuple(PLAY[(c, g, None, None)] for g in IDENTS[c]) for c in range(54)
)


def combination(r: int, top: int, prev: int) -> str | None:
    """The combination a card of rank ``r`` makes on a trick whose last ranks are ``prev, top``.

    ``top`` is the rank of the card just before it, ``prev`` the one before that (0 if none).
    Pair: same rank as ``top``. Run: three distinct consecutive ranks in any order, no wrap.
    """
    if r == top:
        return "pair"
    if prev and r != prev and top != prev and max(r, top, prev) - min(r, top, prev) == 2:
        return "run"
    return None


def second_modes(first: int, second: int) -> tuple[str, ...]:
    """Modes the imposeur may choose with identity ``second`` on ``first`` (spec 2.1 table).

    Empty when no mode is available: then the card is playable only if it pairs the first.
    """
    r1, s1, r2, s2 = RANK[first], SUIT[first], RANK[second], SUIT[second]
    heads = r1 >= 11 and r2 >= 11
    if s1 == s2:
        if not heads:
            return ("couleur",)
        return ("couleur", "valeur", "tete") if r2 > r1 else ("couleur", "tete")
    if heads:
        return ("valeur", "tete") if r2 > r1 else ("tete",)
    return ("valeur",) if r2 > r1 else ()


def _second_table(first: int) -> tuple[tuple[dict, ...], ...]:
    rows = []
    for card in range(54):
        acts: list[dict] = []
        for g in IDENTS[card]:
            modes = second_modes(first, g)
            pair = RANK[g] == RANK[first]
            if not modes:
                if pair:
                    acts.append(PLAY[(card, g, None, None)])
                continue
            for mode in modes:
                if mode == "tete" and pair:
                    acts.append(PLAY[(card, g, mode, True)])
                    acts.append(PLAY[(card, g, mode, False)])
                else:
                    acts.append(PLAY[(card, g, mode, None)])
        rows.append(tuple(acts))
    return tuple(rows)


#: SECOND[first identity][card] -> the second-card plays of that card.
SECOND: tuple[tuple[tuple[dict, ...], ...], ...] = tuple(_second_table(f) for f in range(52))


def obeys(mode: str | None, s1: int, top: int, g: int) -> bool:
    """Whether identity ``g`` obeys ``mode`` (couleur/valeur/tete) on a trick; None = any card."""
    if mode == "couleur":
        return SUIT[g] == s1
    if mode == "valeur":
        return SUIT[g] != s1 and RANK[g] > top
    if mode == "tete":
        return RANK[g] >= 11
    return True


_FOLLOW: dict[tuple, tuple] = {}
_RETURN: dict[tuple, tuple] = {}


def follow_table(mode: str, s1: int, top: int, prev: int) -> tuple[tuple[dict, ...], ...]:
    """Per-card plays of a follower (third card on), cached by (mode, s1, top rank, prev rank)."""
    key = (mode, s1, top, prev)
    t = _FOLLOW.get(key)
    if t is None:
        rows = []
        for card in range(54):
            acts: list[dict] = []
            for g in IDENTS[card]:
                if not obeys(mode, s1, top, g):
                    continue
                if mode == "tete" and combination(RANK[g], top, prev):
                    acts.append(PLAY[(card, g, None, True)])
                    acts.append(PLAY[(card, g, None, False)])
                else:
                    acts.append(PLAY[(card, g, None, None)])
            rows.append(tuple(acts))
        t = _FOLLOW[key] = tuple(rows)
    return t


def return_table(mode: str | None, s1: int, top: int, prev: int) -> tuple[tuple[dict, ...], ...]:
    """Per-card combining plays on a return (mode None: one-card trick, any suit)."""
    key = (mode, s1, top, prev)
    t = _RETURN.get(key)
    if t is None:
        t = _RETURN[key] = tuple(
            tuple(
                PLAY[(card, g, None, None)]
                for g in IDENTS[card]
                if obeys(mode, s1, top, g) and combination(RANK[g], top, prev)
            )
            for card in range(54)
        )
    return t


def points_of(card: int, majeure: int, mineure: int) -> int:
    """Point value of a physical card: r for the Majeure suit, −r for the Mineure, else 0."""
    s = SUIT[card]
    if s == majeure:
        return RANK[card]
    if s == mineure:
        return -RANK[card]
    return 0
