"""Michigan determinization: the engine's redeal plus what the leads reveal (spec sections 2.4, 7).

``MichiganState.redeal`` keeps the public facts the engine tracks itself (the dead hand's known
cards, the buyer's knowledge of the spare hand, who the lead passed over). One more is public
and the engine does not keep it: a lead always plays the leader's **lowest** card of the suit
(2.4 A.3), so a seat that led ``x`` held no lower card of that suit still unplayed then, and
holds none now (hands only shrink). Redeals giving a seat such a card are drawn again (up to
``MAX_TRIES``; the one breaking the fewest of these facts is kept). A hard fact, not a guess: the
real deal always satisfies it.

Optionally (``READ_LEADS`` > 0, a reading, not a fact) the suit each other seat chose to lead is
read as the easy player's choice (``bot.ai.easy.michigan``): a redeal where, in the hand that
seat held then, the led suit's easy score falls more than ``LEAD_MARGIN`` below another suit's
it could lead is drawn again too (the hard facts first; the best of the tries is kept).
"""

from __future__ import annotations

import random

from bot.ai.easy.michigan import PAY_CARDS, _suit_score
from bot.rules.michigan import CODES, DEAD, SUITS, MichiganState

#: Redeals tried to meet the lead facts (nine in ten decisions need at most 8 in easy-played
#: sessions; the rest keep the closest deal).
MAX_TRIES = 12
#: Redeals tried to also meet the reading of the others' lead choices (0: no reading).
READ_LEADS = 0
#: A led suit may score this much below the best suit the leader could have led (easy's units).
LEAD_MARGIN = 0.0


def lead_facts(state: MichiganState) -> list[tuple[int, int]]:
    """(seat, card) pairs, each a card that seat cannot hold: an unplayed card of a suit below the
    card the seat led in it (card ids as the engine's: suit × 13 + rank)."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    prev = -2
    for p, x in state.played:
        if not (prev + 1 == x and prev // 13 == x // 13):  # not the run's next card: a lead
            out.extend((p, y) for y in range(13 * (x // 13), x) if y not in seen)
        seen.add(x)
        prev = x
    return out


def lead_choices(state: MichiganState, seat: int) -> list[tuple[int, int, int]]:
    """(leader, index in ``state.played`` of its lead, suit led) of every lead of this hand by a
    seat other than ``seat`` that had a choice of suit to read."""
    out = []
    prev = -2
    for t, (p, x) in enumerate(state.played):
        if not (prev + 1 == x and prev // 13 == x // 13) and p != seat:
            out.append((p, t, x // 13))
        prev = x
    return out


def _pools_at(state: MichiganState) -> list[list[int]]:
    """Per played index t, the four pools as they were before the card at t was played."""
    played = state.played
    hit_at = {}
    for code, _, amount in state.hits:
        hit_at[code] = amount
    index_of = {CODES[x]: t for t, (_, x) in enumerate(played)}
    out = []
    for t in range(len(played)):
        pools = []
        for i, code in enumerate(PAY_CARDS):
            j = index_of.get(code)
            pools.append(hit_at[code] if j is not None and j >= t else state.pot[i])
        out.append(pools)
    return out


def _reads_as_easy(c: MichiganState, state: MichiganState, choices: list[tuple[int, int, int]],
                   pools: list[list[int]]) -> bool:
    """True when, in the redeal ``c``, every read lead was (within ``LEAD_MARGIN``) the suit the
    easy player would have led from the hand it held then."""
    owner = c.owner
    played = state.played
    dead = sum(1 for o in owner if o == DEAD)
    for p, t, suit in choices:
        hand = {CODES[y] for y in range(52) if owner[y] == p}
        hand.update(CODES[x] for q, x in played[t:] if q == p)
        seen = {CODES[x] for _, x in played[:t]}
        unknown = 52 - len(hand) - t
        p_live = 1.0 - (dead / unknown if unknown else 0.0)
        pool_of = dict(zip(PAY_CARDS, pools[t], strict=True))
        blocked = played[t - 1][1] // 13 if t else -1
        suits = {SUITS.index(code[-1]) for code in hand}
        options = [s for s in range(4) if s in suits and s != blocked] or sorted(suits)
        if len(options) < 2:
            continue
        led = _suit_score(hand, seen, p_live, pool_of, SUITS[suit])
        for s in options:
            if s != suit and _suit_score(hand, seen, p_live, pool_of, SUITS[s]) > led + LEAD_MARGIN + 1e-9:
                return False
    return True


def _broken(c: MichiganState, facts: list[tuple[int, int]]) -> int:
    owner = c.owner
    return sum(1 for p, y in facts if owner[y] == p)


def determinize(
    state: MichiganState, seat: int, rng: random.Random, read_leads: int | None = None,
) -> MichiganState:
    """A redeal of ``state`` for ``seat`` where no seat holds a card below one it led (and, with
    ``read_leads`` more tries, default ``READ_LEADS``, where the others' leads read as easy's)."""
    c = state.redeal(seat, rng)
    facts = [(p, y) for p, y in lead_facts(state) if p != seat]
    if facts:
        best, fewest = c, _broken(c, facts)
        tries = 1
        while fewest and tries < MAX_TRIES:
            c = state.redeal(seat, rng)
            tries += 1
            k = _broken(c, facts)
            if k < fewest:
                best, fewest = c, k
        c = best
    reads = READ_LEADS if read_leads is None else read_leads
    if reads:
        c = _read_leads(state, seat, rng, c, facts, reads)
    c.cfg.hand_only = True  # the redeal's own config: a search never needs the next hand dealt
    return c


def _read_leads(
    state: MichiganState, seat: int, rng: random.Random, c: MichiganState, facts: list[tuple[int, int]],
    tries: int,
) -> MichiganState:
    """Up to ``tries`` more redeals for one that keeps the lead facts and reads every other
    seat's lead as easy's choice; else ``c`` (the hard facts' best)."""
    choices = lead_choices(state, seat)
    if not choices:
        return c
    pools = _pools_at(state)
    if not _broken(c, facts) and _reads_as_easy(c, state, choices, pools):
        return c
    for _ in range(tries):
        d = state.redeal(seat, rng)
        if not _broken(d, facts) and _reads_as_easy(d, state, choices, pools):
            return d
    return c
