"""Mus betting from the equity tables: the strong level's default move in the lances (issue 17).

``MusBettor`` plays the mus and the discards like the easy policy, and bets from the hand's
equity (``bot.ai.mus.equity``: exact chances against the unseen cards, by lance, against one or
both opposing hands) instead of the easy policy's percentile guess, and answers an órdago by
comparing that chance with the chance to win the game after refusing it (``bot.ai.mus.race``).
It sees only the seat's view (its own hand, the declarations, the score, the bet).
``MusReadingBettor`` (the expert level's) also reads a big bet as a strong hand.
The strong policy plays this move unless its search measured another better (the easy prior,
``GameSpec.prior_policy``).
"""

from __future__ import annotations

import random

from bot.ai.mus.easy import Desc, EasyPolicy, _envido, _find, _has, _target
from bot.ai.mus.equity import equity
from bot.ai.mus.race import game_chance
from bot.ai.policy import Action, View

#: Open with an envido of 2 from this team chance, of 5 from ``BIG``, of the whole game's
#: points (the target) from ``HUGE``; raise by ``RAISE_BY`` from ``RAISE``. Tuned in
#: ``MusBettor`` vs easy arenas on seeds 500 and 600 (not the evaluation seeds); see
#: ``bot/ai/strong/README.md``.
OPEN = 0.55
BIG = 0.75
HUGE = 0.85
RAISE = 0.85
RAISE_BY = 5
#: Open with an órdago from this chance when the other team is within 10 points of the game.
ORDAGO = 0.95
#: Added to the break-even chance when answering a bet.
MARGIN = 0.0


def team_chance(view: View, lance: str, desc: Desc, seat: int) -> float:
    """Chance that ``seat``'s team wins ``lance``: its own hand from the equity tables (ties
    won when it speaks before both opponents), the partner's as one random hand among those in
    play (the easy policy's reading); 0 when the seat cannot play the lance."""
    eq = equity(lance, desc)
    if eq is None:
        return 0.0
    held = None
    if lance in ("pares", "juego"):
        held = (view.get("declared") or {}).get(lance)
    opponents = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if held is None or held[s]]
    if not opponents:
        return 1.0
    mano = view.get("mano", 0)
    rank = {(mano + i) % 4: i for i in range(4)}
    wins_ties = all(rank[o] > rank[seat] for o in opponents)
    if held is None:
        me = eq.two(wins_ties) if len(opponents) == 2 else eq.one(wins_ties)
    else:  # opponents known to hold the combination
        me = eq.against_holder(wins_ties) ** len(opponents)
    partner_in = held is None or bool(held[(seat + 2) % 4])
    mate = 1.0 / (len(opponents) + 1) if partner_in else 0.0
    return 1.0 - (1.0 - me) * (1.0 - mate)


class MusBettor(EasyPolicy):
    """The easy policy with betting from the equity tables (see the module docstring)."""

    #: Read a big bet (a total of ``READ_FROM`` or more, or an órdago) as coming from a hand of
    #: at least ``READ_STRENGTH`` (None: take the bet at face value; ``MusReadingBettor``).
    READ_STRENGTH: float | None = None
    READ_FROM = 10

    def _answer_chance(self, odds: float, total_bet: int | str) -> float:
        """The team chance against a bet; a big bet read as a strong hand (``READ_STRENGTH``):
        the other team's hand is then a uniform draw among the hands above that share, so the
        chance falls to ``(odds − T) / (1 − T)``."""
        t = self.READ_STRENGTH
        if t is None or (total_bet != "ordago" and int(total_bet) < self.READ_FROM):
            return odds
        return max(0.0, (odds - t) / (1.0 - t))

    def _bet(self, view: View, legal: list[Action], desc: Desc, rng: random.Random) -> Action:
        seat = view["to_act"][0]
        lance = view["phase"]
        odds = team_chance(view, lance, desc, seat)
        bet = view.get("bet")
        points = view.get("points") or [0, 0]
        target = _target(legal, bet)
        team = seat % 2
        mine, theirs = points[team], points[1 - team]
        if bet is None:  # open
            if odds >= ORDAGO and theirs >= target - 10 and _has(legal, "ordago"):
                return _find(legal, "ordago")
            if odds >= OPEN:
                amount = target if odds >= HUGE else 5 if odds >= BIG else 2
                return _envido(legal, amount) or _find(legal, "paso")
            return _find(legal, "paso")
        total_bet, held = bet["total"], bet["held"]
        odds = self._answer_chance(odds, total_bet)
        if total_bet == "ordago":
            mano_us = view.get("mano", 0) % 2 == team
            refuse = game_chance(target, mine, min(theirs + held, target), mano_us)
            return _find(legal, "quiero" if odds > refuse else "no_quiero")
        if odds >= RAISE and total_bet < 10 and _envido(legal, RAISE_BY):
            return _envido(legal, RAISE_BY)  # type: ignore[return-value]
        need = (1.0 - held / max(total_bet, 1)) / 2.0 + MARGIN
        if mine + total_bet < target and theirs + total_bet >= target:
            need += 0.1  # losing this lance would lose the game
        return _find(legal, "quiero" if odds >= need else "no_quiero")


class MusReadingBettor(MusBettor):
    """The expert level's bettor: a bet of 10 or more (or an órdago) is read as coming from a
    team with at least the chance that bets the game (``HUGE``), so it is answered with the
    chance left against such a hand. Against the strong level's bettor: 80.2% of 3,000 sessions
    (tuning seed 600); against easy: 78.7% (the bettor: 78.3%)."""

    READ_STRENGTH = HUGE
