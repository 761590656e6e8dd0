"""How the search reads Mus (``GameSpec``): the value is the chance to win the match, the bets
are made from the equity tables (the bettor) and only the mus and the discards are searched."""

from __future__ import annotations

from bot.ai.mus.race import game_chance, match_chance
from bot.ai.policy import Action, Policy
from bot.ai.strong.spec import GameSpec
from bot.rules.mus.state import MusState


def _mus_chances(s: MusState) -> list[float]:
    """Team standing in matches won, plus the chance to win the current match from the score
    (``bot.ai.mus.race``: a point is worth more near the target, an órdago is weighed by the
    chances it trades), in percentage points: ``50 * (matches won − lost + 2p − 1)``, so a
    change within a match is the change of ``100 p``."""
    diff = float(s.matches_won[0] - s.matches_won[1])
    if not s.over:
        mano_team0 = ((s.d + 1) % 4) % 2 == 0
        game = game_chance(s.target, s.points[0], s.points[1], mano_team0)
        diff += 2.0 * match_chance(s.need, s.games[0], s.games[1], game) - 1.0
    v = 50.0 * diff
    return [v, -v, v, -v]


def _mus_bettor() -> Policy:
    from bot.ai.mus.bettor import MusBettor

    return MusBettor()


def _mus_reading_bettor() -> Policy:
    from bot.ai.mus.bettor import MusReadingBettor

    return MusReadingBettor()


def _mus_search_when(view: dict, legal: list[Action]) -> bool:
    """Search the mus and the discards; bet from the equity tables (the prior policy) unsearched."""
    return legal[0]["type"] in ("mus", "no_mus", "discard")


_MUS_ENVIDOS = frozenset((2, 3, 5, 10))


def _mus_prune(legal: list[Action]) -> list[Action]:
    """Keep paso/quiero/no_quiero/ordago and envidos of 2, 3, 5, 10 and the largest one (the
    whole game's points, the equity bettor's big bet; the rest rarely differ)."""
    if not legal or legal[0]["type"] not in ("paso", "quiero"):
        return legal
    top = max((a["amount"] for a in legal if a["type"] == "envido"), default=0)
    out = [a for a in legal if a["type"] != "envido" or a["amount"] in _MUS_ENVIDOS or a["amount"] == top]
    return out or legal


SPEC: GameSpec[MusState] = GameSpec(
    "mus", lambda s: s.k, _mus_chances, lambda s: 10.0, prune=_mus_prune, rollout_easy=True,
    model_opponents=True, prior_z=1.0, prior_policy=_mus_bettor,
    expert_prior_policy=_mus_reading_bettor, search_when=_mus_search_when,
    unit="chance",
)
