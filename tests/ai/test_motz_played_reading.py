"""The Motz expert's determinizer keeps the standers' reading through the trick play (issue 17,
third pass), on the hand-checked deal of ``tests/rules/test_motz_played.py`` at trick 3:
S1 stood and played 10♠ (a trump) and Q♦, so its last card completes a standing hand only if it
is a trump (two trumps, or a trump-colour jack: J♠ and J♣ are both trumps with ♠ turned up);
S3 stood with no trump at all (it showed none), so nothing is read of it."""

from __future__ import annotations

import random

from bot.ai.motz.determinize import determinize, determinize_played
from tests.rules.test_motz_played import HEARTS, TRUMPS, at_trick


def test_a_stander_that_played_one_trump_holds_another():
    """Read: S1's last card is a trump unless the redraws run out (S2, which stood and played
    7♥ 8♦, is read the same way, so both must hold: ~90% of the time within ``MAX_TRIES``);
    unread (strong's determinizer, the plain redeal): 7 in 15."""
    st, _ = at_trick(2)
    rng = random.Random(3)
    read = [determinize_played(st, 0, rng) for _ in range(400)]
    assert sum(set(r.hands[1]) <= TRUMPS for r in read) >= 340
    assert {c for r in read for c in r.hands[3]} - TRUMPS - HEARTS, "S3 is not read (voids only)"
    assert all(r.view(0) == st.view(0) for r in read)
    plain = [determinize(st, 0, rng) for _ in range(400)]
    assert sum(set(r.hands[1]) <= TRUMPS for r in plain) <= 240, "strong's reading stops at the first card"


def test_before_the_play_it_is_the_plain_reading():
    st, _ = at_trick(0)
    a = determinize_played(st, 2, random.Random(8))
    b = determinize(st, 2, random.Random(8))
    assert a.hands == b.hands and a.muet == b.muet
