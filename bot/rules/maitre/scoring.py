"""Pure scoring of a manche (spec 3.5) and the session settlement (spec 4, 5.2).

Everything here works on card codes and plain lists so tests can check the spec's examples
directly on the given piles.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.maitre.tables import CODES, INDEX, RANK, SUIT, SUITS, points_of


def rh(a: int, b: int) -> int:
    """``a / b`` rounded half up, in integers: ``⌊(2a + b) / (2b)⌋`` (b > 0)."""
    return (2 * a + b) // (2 * b)


def score_manche(
    n: int,
    maitre: int,
    contract: int,
    mineure: str,
    majeure: str,
    won: Sequence[Sequence[str]],
    chute_to: int | None,
    chute: Sequence[str],
    defausse: Sequence[str],
) -> dict:
    """The manche's result, exactly the fields of the view's ``last_manche`` (spec 7).

    ``mineure``/``majeure`` are the Coffre cards, ``won`` the won piles per seat, ``chute`` the
    cards of the chute pile (given to ``chute_to``), ``defausse`` the défausse magistrale.
    """
    return score_manche_ids(
        n, maitre, contract, INDEX[mineure], INDEX[majeure], [[INDEX[c] for c in pile] for pile in won],
        chute_to, [INDEX[c] for c in chute], [INDEX[c] for c in defausse],
    )


def score_manche_ids(
    n: int,
    maitre: int,
    contract: int,
    c1: int,
    c2: int,
    won: Sequence[Sequence[int]],
    chute_to: int | None,
    chute: Sequence[int],
    defausse: Sequence[int],
) -> dict:
    """``score_manche`` on card ids (``tables.CODES`` indices), as the engine holds them: the same
    result, without turning every pile into codes and back."""
    mino, maj = SUIT[c1], SUIT[c2]
    worth = _WORTH[(maj, mino)]
    trick_points = [sum(worth[c] for c in pile) for pile in won]
    chute_points = [0] * n
    if chute_to is not None:
        chute_points[chute_to] = sum(worth[c] for c in chute)
    counted = valued = 0
    for c in won[maitre]:
        if c < 52:
            counted += 1
            if SUIT[c] == maj or SUIT[c] == mino:
                valued += 1
    contract_ok = counted > 0 and 100 * valued >= contract * counted
    t_m = abs(trick_points[maitre])
    bonus = rh(2 * (contract - 50) * t_m, 100) if contract_ok else 0
    malus = 0
    if not contract_ok and counted:
        malus = rh(2 * t_m * (contract * counted - 100 * valued), 100 * counted)
    coffre_points = RANK[c2] - RANK[c1]
    defausse_points = -sum(RANK[c] for c in defausse if c < 52 and SUIT[c] in (maj, mino))
    manche_points = [trick_points[i] + chute_points[i] + malus for i in range(n)]
    manche_points[maitre] = (trick_points[maitre] + chute_points[maitre] + coffre_points + defausse_points
                             + bonus - malus)
    ecart = manche_points[maitre] - sum(p for i, p in enumerate(manche_points) if i != maitre)
    ecart_ok = ecart > 15
    return {
        "maitre": maitre,
        "contract": contract,
        "coffre": {"mineure": CODES[c1], "majeure": CODES[c2]},
        "majeure": SUITS[maj],
        "mineure": SUITS[mino],
        "trick_points": trick_points,
        "chute_points": chute_points,
        "chute_to": chute_to,
        "counted": counted,
        "valued": valued,
        "contract_ok": contract_ok,
        "bonus": bonus,
        "malus": malus,
        "coffre_points": coffre_points,
        "defausse": [CODES[c] for c in defausse],
        "defausse_points": defausse_points,
        "manche_points": manche_points,
        "ecart": ecart,
        "ecart_ok": ecart_ok,
        "validated": contract_ok and ecart_ok,
    }


#: Point value of every card id per (Majeure, Mineure) suits (``tables.points_of``).
_WORTH: dict[tuple[int, int], tuple[int, ...]] = {
    (a, b): tuple(points_of(c, a, b) for c in range(54)) for a in range(4) for b in range(4) if a != b
}


def ranking(points: Sequence[int], eliminated: Sequence[bool], first: int) -> list[int]:
    """Seats ranked: non-eliminated by points descending, then eliminated ones (by points).

    Ties keep seat order from the first Maître clockwise (spec 5.2).
    """
    n = len(points)
    return sorted(range(n), key=lambda s: (eliminated[s], -points[s], (s - first) % n))


def split_pot(
    points: Sequence[int], eliminated: Sequence[bool], pot: int, stake: int, first: int
) -> tuple[list[int], list[int]]:
    """Payouts per seat and the winners at a normal end (spec 4).

    Winners are the non-eliminated seats with the highest points: ``⌊pot/w⌋`` each, the
    leftover one jeton each to winners in seat order from the first Maître clockwise. If every
    seat is eliminated, each gets its ``stake`` back and there is no winner.
    """
    n = len(points)
    alive = [s for s in range(n) if not eliminated[s]]
    if not alive:
        return [stake] * n, []
    best = max(points[s] for s in alive)
    winners = sorted((s for s in alive if points[s] == best), key=lambda s: (s - first) % n)
    share, left = divmod(pot, len(winners))
    pay = [0] * n
    for i, s in enumerate(winners):
        pay[s] = share + (1 if i < left else 0)
    return pay, winners
