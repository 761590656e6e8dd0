"""Easy Michigan: lead the suit whose run sheds most of its own cards, reaches its pay cards
and ends on its own stop (ace or a card above a known gap), so it keeps the lead.

Each lead is scored by walking the run up from the lowest card held: a card in hand keeps it
going, a card already played stops it, an unknown card keeps it going with the chance that it
is not in the dead hand. The score adds the cards it sheds, the pool of any pay card it would
play and a bonus for ending the run itself; a pay card given to another seat counts against.
"""

from __future__ import annotations

import random

from bot.ai.policy import Action, View

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
VALUE = {r: i for i, r in enumerate(RANKS)}
PAY_CARDS = ("AH", "KC", "QD", "JS")  # order of the view's pot pools


def lead_score(view: View, suit: str) -> float:
    """Expected gain of leading ``suit`` (higher is better)."""
    return _suit_score(*_reading(view), suit)


def _reading(view: View) -> tuple[set[str], set[str], float, dict[str, int]]:
    """(hand, cards played, chance an unseen card is live, pay card -> its pool): shared by the
    scores of every suit of one decision, so they are read once (the rollouts' hot path)."""
    hand = set(view["hand"])
    played = {c for cards in view["played"] for c in cards}
    unknown = 52 - len(hand) - len(played)
    dead = max(0, 52 - sum(view["hand_sizes"]) - len(played))
    p_live = 1.0 - (dead / unknown if unknown else 0.0)
    pools = view["pot"] if isinstance(view["pot"], list) else [0, 0, 0, 0]
    return hand, played, p_live, dict(zip(PAY_CARDS, pools, strict=False))


def _suit_score(hand: set[str], played: set[str], p_live: float, pool_of: dict[str, int], suit: str) -> float:
    mine = sorted(VALUE[c[:-1]] for c in hand if c[-1] == suit)
    reach = 1.0  # chance the run gets to the current rank
    score = 0.0
    ends_mine = 0.0
    for v in range(mine[0], len(RANKS)):
        code = RANKS[v] + suit
        if code in hand:
            score += reach * (1.0 + pool_of.get(code, 0) * 0.5)
            nxt = RANKS[v + 1] + suit if v + 1 < len(RANKS) else None
            if nxt is None or nxt in played:
                ends_mine += reach
                break
            if nxt not in hand:
                ends_mine += reach * (1.0 - p_live)
        elif code in played:
            break
        else:
            score -= reach * p_live * pool_of.get(code, 0) * 0.3
            reach *= p_live
            if reach < 0.02:
                break
    return score + 2.0 * ends_mine + 0.1 * len(mine)


class EasyPolicy:
    """Rule-based Michigan player (level "easy")."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        kind = legal[0]["type"]
        if kind == "lead":
            if len(legal) == 1:
                return legal[0]
            reading = _reading(view)
            return max(legal, key=lambda a: _suit_score(*reading, a["suit"]))
        if kind in ("keep", "swap_spare"):
            return next(a for a in legal if a["type"] == "keep")
        return next((a for a in legal if a["type"] == "pass"), legal[-1])
