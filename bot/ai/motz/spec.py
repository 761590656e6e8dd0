"""How the search reads Motz (``GameSpec``): stacks plus a share of the pot; the trick play (three
cards each) solved exactly; the declarations searched without the easy prior."""

from __future__ import annotations

from bot.ai.motz.determinize import determinize_played
from bot.ai.policy import Action
from bot.ai.strong.spec import GameSpec
from bot.rules.motz import MotzState
from bot.rules.motz.tables import PLAY

_MOTZ_DECLARATIONS = frozenset(("pass", "stand", "take_muet"))


def _motz_endgame(s: MotzState) -> bool:
    """The trick play: three cards each at most, the whole play is solved exactly."""
    return s.phase == PLAY and not s.is_over()


def _motz_key(s: MotzState) -> tuple:
    return (tuple(map(tuple, s.hands)), tuple(s.trick), tuple(s.trick_winners), s.actor)


def _motz_prior_z(legal: list[Action]) -> float | None:
    """Motz: the search's declaration is played as it is (no easy prior: the declarations are
    where strong gains on easy, issue 17); the trick play keeps the prior at one standard error."""
    return None if legal[0]["type"] in _MOTZ_DECLARATIONS else 1.0


def _motz_values(s: MotzState) -> list[float]:
    """Stack plus an equal share of the pot."""
    share = s.pot / len(s.stacks)
    return [x + share for x in s.stacks]


SPEC: GameSpec[MotzState] = GameSpec(
    "motz", lambda s: s.deals_played, _motz_values, lambda s: 10.0 * s.ante, rollout_easy=True,
    model_opponents=True, prior_z=1.0, prior_z_of=_motz_prior_z, endgame=_motz_endgame,
    endgame_key=_motz_key,
    # issue 17, third pass: the standers' reading kept through the trick play (strong/README)
    expert_overrides=(("determinize", determinize_played),),
)
