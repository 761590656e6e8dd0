"""How the search reads Marias (``GameSpec``): stacks; the end of the play solved exactly by a
two-sided alpha-beta (the soloist against the defenders); the expert models doubling defenders."""

from __future__ import annotations

from bot.ai.marias.model import FlekkingDefence
from bot.ai.marias.rollout import easy_play
from bot.ai.policy import Policy
from bot.ai.strong.spec import GameSpec
from bot.rules.marias import MariasState

#: The play is solved exactly once every hand holds at most this many cards.
MARIAS_ENDGAME_CARDS = 3
#: The expert level: from this many cards (issue 17, measured in ``strong/README.md``).
MARIAS_EXPERT_ENDGAME_CARDS = 4


def _stacks(s: MariasState) -> list[float]:
    return list(s.stacks)


def _marias_endgame(s: MariasState) -> bool:
    return s.phase == "play" and max(len(h) for h in s.hands) <= MARIAS_ENDGAME_CARDS


def _marias_expert_endgame(s: MariasState) -> bool:
    return s.phase == "play" and max(len(h) for h in s.hands) <= MARIAS_EXPERT_ENDGAME_CARDS


def _marias_model() -> Policy:
    return FlekkingDefence()


def _marias_key(s: MariasState) -> tuple:
    """What decides the rest of a Marias deal: the hands, the trick, who acts, the points so far
    (card points, marriages, the soloist's trump marriage for the hundred)."""
    return (tuple(map(tuple, s.hands)), tuple(s.trick), s.actor, tuple(s.card_points), tuple(s.marr_pts),
            s.trump_marriage_s)


def _marias_sides(s: MariasState) -> list[int]:
    """The soloist (+1) against the two defenders (-1), who are paid or pay the same."""
    return [1 if i == s.soloist else -1 for i in range(3)]


SPEC: GameSpec[MariasState] = GameSpec(
    "marias", lambda s: s.deals_played, _stacks, lambda s: 4.0 * s.stake, rollout_easy=True,
    model_opponents=True, endgame=_marias_endgame,
    expert_overrides=(("endgame", _marias_expert_endgame), ("model_policy", _marias_model)),
    endgame_sides=_marias_sides, alphabeta_key=_marias_key, rollout_fast=easy_play, fast_fits_model=True,
)
