"""Michigan determinization: the engine's redeal plus what the leads reveal (spec sections 2.4, 7).

``MichiganState.redeal`` keeps the public facts the engine tracks itself (the dead hand's known
cards, the buyer's knowledge of the spare hand, who the lead passed over). One more is public
and the engine does not keep it: a lead always plays the leader's **lowest** card of the suit
(2.4 A.3), so a seat that led ``x`` held no lower card of that suit still unplayed then, and
holds none now (hands only shrink). Redeals giving a seat such a card are drawn again (up to
``MAX_TRIES``; the one breaking the fewest of these facts is kept). A hard fact, not a guess: the
real deal always satisfies it.
"""

from __future__ import annotations

import random

from bot.rules.michigan import MichiganState

#: Redeals tried to meet the lead facts (nine in ten decisions need at most 8 in easy-played
#: sessions; the rest keep the closest deal).
MAX_TRIES = 12


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


def _broken(c: MichiganState, facts: list[tuple[int, int]]) -> int:
    owner = c.owner
    return sum(1 for p, y in facts if owner[y] == p)


def determinize(state: MichiganState, seat: int, rng: random.Random) -> MichiganState:
    """A redeal of ``state`` for ``seat`` where no seat holds a card below one it led; the copy
    ends its session after this hand (``hand_only``: a search never needs the next hand dealt)."""
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
    c.cfg.hand_only = True  # the redeal's own config, never the table's
    return c
