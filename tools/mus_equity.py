"""Compute the Mus equity tables shipped in ``bot/ai/mus/data/mus_equity.csv`` (issue 17).

Usage (from the project root; about a minute, pure Python, exact integer counts):
    python tools/mus_equity.py            # writes bot/ai/mus/data/mus_equity.csv
    python tools/mus_equity.py --check    # recomputes and fails if the shipped file differs

For every 4-card Mus hand (the 330 multisets of strengths; suits never matter, spec 1.1) and
every lance, against the 36 cards the hand leaves (exact counts, no sampling):

* ``beat1`` / ``tie1``: probability that the hand is strictly better than / level with one
  random opposing hand;
* ``beat2`` / ``tie2``: the same against the better of two random opposing hands (the other
  team's two seats, dealt disjointly from those 36 cards);
* ``none1``: probability that one opposing hand cannot play the lance (pares, juego: it lacks
  the combination; 0 in the other lances), so a caller can condition on a declared combination.

Comparisons use the engine's own hand readings (``bot.rules.mus.tables.Reading``: grande high
→ low, chica low → high with lower winning, ``pares`` (category, high, low), the juego order
31, 32, 40, 37 … 33, punto by total). Ties go to the mano in play, so a caller adds the tie
share when its seat wins ties. In pares and juego an opposing hand without the combination is
beaten, and a hand without it has no row (it cannot win the lance). Punto is only played when
nobody has juego, so its opposing hands are drawn among the hands without juego (a reading of
"random opposing hand" for punto), and hands with juego have no punto row.
"""

from __future__ import annotations

import argparse
import os
import sys
from itertools import combinations_with_replacement
from math import comb

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.rules.mus.tables import LETTER, Reading  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bot", "ai", "mus", "data",
                   "mus_equity.csv")
#: Cards of each strength in the 40-card deck (8 kings: 3s and 12s; 8 aces: 1s and 2s).
CARDS_OF = {8: 8, 7: 4, 6: 4, 5: 4, 4: 4, 3: 4, 2: 4, 1: 8}
LANCES = ("grande", "chica", "pares", "juego", "punto")
HEADER = "hand,lance,beat1,tie1,beat2,tie2,none1"

Desc = tuple[int, ...]


def all_hands() -> list[Desc]:
    """The 330 strength multisets, each sorted high → low."""
    return [tuple(c) for c in combinations_with_replacement(range(8, 0, -1), 4)]


def hand_name(desc: Desc) -> str:
    """``"KKCA"``: the hand's effective ranks, high → low (``bot.rules.mus.tables.LETTER``)."""
    return "".join(LETTER[x] for x in desc)


def key(lance: str, r: Reading) -> tuple[int, ...] | None:
    """Comparable key (higher is better) from the engine's reading; None: cannot play the lance."""
    if lance == "grande":
        return r.grande
    if lance == "chica":
        return tuple(-x for x in r.chica)
    if lance == "pares":
        return r.pares if r.pares[0] else (-1,)
    if lance == "juego":
        return (r.juego,) if r.juego else (-1,)
    return (r.total,) if not r.juego else None  # punto: only among hands without juego


def _counts(desc: Desc) -> dict[int, int]:
    out: dict[int, int] = {}
    for x in desc:
        out[x] = out.get(x, 0) + 1
    return out


def _weight(parts: list[tuple[int, int]], left: dict[int, int]) -> int:
    """Number of card sets with these strength counts among the cards ``left``."""
    w = 1
    for s, n in parts:
        w *= comb(left[s], n)
        if not w:
            return 0
    return w


def equity_row(desc: Desc, lance: str, hands: list[Desc]) -> tuple[float, ...] | None:
    """(beat1, tie1, beat2, tie2, none1) of ``desc`` in ``lance`` (None when it cannot win it)."""
    me = key(lance, Reading(desc))
    if me is None or me == (-1,):
        return None
    left = dict(CARDS_OF)
    for x in desc:
        left[x] -= 1
    opp = [(key(lance, Reading(h)), sorted(_counts(h).items())) for h in hands]
    opp = [(k, parts) for k, parts in opp if k is not None]
    below = [parts for k, parts in opp if k < me]
    level = [parts for k, parts in opp if k == me]
    above = [parts for k, parts in opp if k > me]
    # one opponent
    w_below = sum(_weight(p, left) for p in below)
    w_level = sum(_weight(p, left) for p in level)
    w_all = sum(_weight(p, left) for p in [p for _, p in opp])
    # two opponents: the first hand, then the second from what the first leaves
    n_b = n_le = n_all = 0
    for parts1, _is_level in [(p, False) for p in below] + [(p, True) for p in level]:
        w1 = _weight(parts1, left)
        if not w1:
            continue
        left2 = dict(left)
        for s, n in parts1:
            left2[s] -= n
        sl = sum(_weight(p, left2) for p in level)
        if lance != "punto" and len(above) < len(below):  # every 4 of the 32 left: C(32, 4)
            sb = comb(32, 4) - sl - sum(_weight(p, left2) for p in above)
        else:
            sb = sum(_weight(p, left2) for p in below)
        if not _is_level:
            n_b += w1 * sb
        n_le += w1 * (sb + sl)
    if lance == "punto":  # the opposing pair is drawn among hands without juego
        eligible = [p for _, p in opp]
        for parts1 in eligible:
            w1 = _weight(parts1, left)
            if not w1:
                continue
            left2 = dict(left)
            for s, n in parts1:
                left2[s] -= n
            n_all += w1 * sum(_weight(p, left2) for p in eligible)
    else:
        n_all = comb(36, 4) * comb(32, 4)
    w_none = sum(_weight(p, left) for k, p in opp if k == (-1,))
    return (w_below / w_all, w_level / w_all, n_b / n_all, (n_le - n_b) / n_all, w_none / w_all)


def table() -> list[str]:
    """The CSV lines (header first), hands in ``all_hands`` order, lances in spec order."""
    hands = all_hands()
    lines = [HEADER]
    for desc in hands:
        for lance in LANCES:
            row = equity_row(desc, lance, hands)
            if row is not None:
                lines.append(f"{hand_name(desc)},{lance}," + ",".join(f"{x:.6f}" for x in row))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args(argv)
    text = "\n".join(table()) + "\n"
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            same = f.read() == text
        print("up to date" if same else f"{args.out} differs: run python tools/mus_equity.py")
        return 0 if same else 1
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out} ({text.count(chr(10)) - 1} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
