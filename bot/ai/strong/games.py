"""Per-game knobs of the search: where a deal ends, how a result is scored, action pruning.

A :class:`GameSpec` gives, for one game: ``deal_no(state)`` (a counter that changes when the
current deal ends; search and rollouts stop there), ``values(state)`` (one number per seat
whose change over the deal is that seat's reward, in units of ``scale``), and optionally
``prune(legal)``: the subset of actions the search considers (the real legal list is never
changed; pruning only narrows wide bet ladders).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.ai.mus_race import game_chance, match_chance
from bot.ai.policy import Action
from bot.ai.strong.determinize.motz import determinize_played as motz_determinize_played
from bot.ai.strong.maitre_rollout import easy_choice as maitre_easy_choice
from bot.rules.michigan.tables import PLAY as MICHIGAN_PLAY
from bot.rules.motz.tables import PLAY as MOTZ_PLAY

State = Any


@dataclass(frozen=True)
class GameSpec:
    """How ISMCTS reads one game (see the module docstring)."""

    name: str
    deal_no: Callable[[State], int]
    values: Callable[[State], list[float]]
    scale: Callable[[State], float]
    relative: bool = False  # reward = own change minus the others' mean change
    prune: Callable[[list[Action]], list[Action]] | None = None
    rollout_easy: bool = False  # rollouts played by the easy policy instead of uniformly at random
    model_opponents: bool = False  # other seats play the easy policy inside the tree (see ismcts)
    #: Easy prior: play the easy policy's move unless the searched move's mean reward beats it by
    #: this many standard errors (None: always play the search's choice).
    prior_z: float | None = None
    #: ``prior_z_of(legal)``: the prior's ``z`` for this decision, overriding ``prior_z`` (None in
    #: the result: play the search's move). None: ``prior_z`` at every decision.
    prior_z_of: Callable[[list[Action]], float | None] | None = None
    #: ``prior_policy()``: the policy whose move the prior keeps (and that plays without a state);
    #: None: the game's easy policy.
    prior_policy: Callable[[], Any] | None = None
    #: The expert level's prior policy (None: ``prior_policy``).
    expert_prior_policy: Callable[[], Any] | None = None
    #: ``search_when(view, legal)`` False: play the prior policy's move without searching (None:
    #: always search).
    search_when: Callable[[dict, list[Action]], bool] | None = None
    #: What ``values`` counts, for the coach's sentences: "jetons", "points" (Maître), or "chance"
    #: (Mus: percentage points of the chance to win the match).
    unit: str = "jetons"
    #: ``endgame(state)`` True: the rest of the deal is short enough to solve every determinization
    #: exactly (``endgame.pimc``) instead of searching with rollouts (None: never).
    endgame: Callable[[State], bool] | None = None
    #: ``endgame_key(state)``: a hashable summary of everything that decides the deal's end from a
    #: fully known state, for the exact search's transposition table (None: no table).
    endgame_key: Callable[[State], Any] | None = None
    #: In the exact endgame, every seat plays its best reply (max^n) even when the tree models the
    #: opponents; False: the modelled opponents (``model_opponents``) play the model there too.
    endgame_maxn: bool = False
    #: ``determinize(state, seat, rng)`` used by the search instead of the game's module
    #: (``bot.ai.strong.determinize``); None: the module's.
    determinize: Callable[[State, int, Any], State] | None = None
    #: The expert level's changes to this spec, as ``(field, value)`` pairs applied with
    #: ``dataclasses.replace`` (e.g. another determinizer, no prior); empty: strong's spec.
    expert_overrides: tuple[tuple[str, Any], ...] = ()
    #: ``model_policy()``: the policy that plays the rollouts (``rollout_easy``) and the other
    #: seats in the tree (``model_opponents``); None: the game's easy policy.
    model_policy: Callable[[], Any] | None = None
    #: ``rollout_fast(state, seat, legal, rng)``: the easy policy's move computed from the
    #: (determinized) state itself, used by the rollouts (tree and paired) when they are the easy
    #: policy's; it must choose exactly what the easy policy chooses from ``state.view(seat)``, or
    #: return None to leave the decision to the policy (None: always the policy on the view). Not
    #: used when a ``model_policy`` plays the rollouts.
    rollout_fast: Callable[[State, int, list[Action], Any], Action | None] | None = None
    #: ``endgame_sides(state)``: +1 or -1 per seat when the deal is a zero-sum game between two
    #: sides (Marias: the soloist against the two defenders), so the exact search may be a
    #: two-sided alpha-beta (``endgame.AlphaBeta``) instead of max^n; None: max^n.
    endgame_sides: Callable[[State], list[int]] | None = None
    #: The alpha-beta's transposition key (as ``endgame_key``; kept apart so the opponent-model
    #: search, whose leaf counts it would change, keeps none).
    alphabeta_key: Callable[[State], Any] | None = None
    #: ``paired_root(state)`` True: no tree; every root move is rolled out on the same
    #: determinizations (``paired.paired``) and the moves compared pair by pair (None: never).
    paired_root: Callable[[State], bool] | None = None


# ---------------------------------------------------------------------------- Mus


def _mus_chances(s: State) -> list[float]:
    """Team standing in matches won, plus the chance to win the current match from the score
    (``bot.ai.mus_race``: a point is worth more near the target, an órdago is weighed by the
    chances it trades), in percentage points: ``50 * (matches won − lost + 2p − 1)``, so a
    change within a match is the change of ``100 p``."""
    diff = float(s.matches_won[0] - s.matches_won[1])
    if not s.over:
        mano_team0 = ((s.d + 1) % 4) % 2 == 0
        game = game_chance(s.target, s.points[0], s.points[1], mano_team0)
        diff += 2.0 * match_chance(s.need, s.games[0], s.games[1], game) - 1.0
    v = 50.0 * diff
    return [v, -v, v, -v]


def _mus_bettor() -> Any:
    from bot.ai.strong.mus_bettor import MusBettor

    return MusBettor()


def _mus_reading_bettor() -> Any:
    from bot.ai.strong.mus_bettor import MusReadingBettor

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


# ---------------------------------------------------------------------------- Michigan


def _michigan_values(s: State) -> list[float]:
    """Stack plus the seat's own contributions still lying on the pools."""
    n = s.cfg.n
    c = s.contrib
    return [s.stacks[i] + c[i] + c[n + i] + c[2 * n + i] + c[3 * n + i] for i in range(n)]


def _michigan_easy_lead(s: State, seat: int, legal: list[Action], rng: Any) -> Action | None:
    from bot.ai.strong.michigan_rollout import easy_lead

    return easy_lead(s, seat, legal)


def _michigan_paired(s: State) -> bool:
    """A lead (at most four suits, issue 17): every suit rolled out on the same deals (``paired``);
    the variant's spare-hand choice and bids keep the tree."""
    return s.phase == MICHIGAN_PLAY


# ---------------------------------------------------------------------------- Marias, Maître, Motz


def _stacks(s: State) -> list[float]:
    return list(s.stacks)


def _maitre_values(s: State) -> list[float]:
    """Session points, a strike counting as 40 points lost when a second one can eliminate
    (``tours`` ≥ 2; with one tour each seat is Maître once, so a strike costs nothing)."""
    if s.tours < 2:
        return list(s.points)
    return [p - 40 * k for p, k in zip(s.points, s.strikes, strict=True)]


def _motz_endgame(s: State) -> bool:
    """The trick play: three cards each at most, the whole play is solved exactly."""
    return s.phase == MOTZ_PLAY and not s.is_over()


def _motz_key(s: State) -> tuple:
    return (tuple(map(tuple, s.hands)), tuple(s.trick), tuple(s.trick_winners), s.actor)


#: Marias: the play is solved exactly once every hand holds at most this many cards.
MARIAS_ENDGAME_CARDS = 3
#: Marias, the expert level: from this many cards (issue 17, measured in ``strong/README.md``).
MARIAS_EXPERT_ENDGAME_CARDS = 4
#: Jeu du Maître: the play is solved exactly once the hands hold this many cards in all.
MAITRE_ENDGAME_CARDS = 5


def _marias_endgame(s: State) -> bool:
    return s.phase == "play" and max(len(h) for h in s.hands) <= MARIAS_ENDGAME_CARDS


def _marias_expert_endgame(s: State) -> bool:
    return s.phase == "play" and max(len(h) for h in s.hands) <= MARIAS_EXPERT_ENDGAME_CARDS


def _marias_model() -> Any:
    from bot.ai.strong.marias_model import FlekkingDefence

    return FlekkingDefence()


def _marias_key(s: State) -> tuple:
    """What decides the rest of a Marias deal: the hands, the trick, who acts, the points so far
    (card points, marriages, the soloist's trump marriage for the hundred)."""
    return (tuple(map(tuple, s.hands)), tuple(s.trick), s.actor, tuple(s.card_points), tuple(s.marr_pts),
            s.trump_marriage_s)


def _marias_sides(s: State) -> list[int]:
    """The soloist (+1) against the two defenders (-1), who are paid or pay the same."""
    return [1 if i == s.soloist else -1 for i in range(3)]


def _maitre_endgame(s: State) -> bool:
    return s.phase == "play" and sum(len(h) for h in s.hands) <= MAITRE_ENDGAME_CARDS


_MOTZ_DECLARATIONS = frozenset(("pass", "stand", "take_muet"))


def _motz_prior_z(legal: list[Action]) -> float | None:
    """Motz: the search's declaration is played as it is (no easy prior: the declarations are
    where strong gains on easy, issue 17); the trick play keeps the prior at one standard error."""
    return None if legal[0]["type"] in _MOTZ_DECLARATIONS else 1.0


def _motz_values(s: State) -> list[float]:
    """Stack plus an equal share of the pot."""
    share = s.pot / len(s.stacks)
    return [x + share for x in s.stacks]


SPECS: dict[str, GameSpec] = {
    "mus": GameSpec(
        "mus", lambda s: s.k, _mus_chances, lambda s: 10.0, prune=_mus_prune, rollout_easy=True,
        model_opponents=True, prior_z=1.0, prior_policy=_mus_bettor,
        expert_prior_policy=_mus_reading_bettor, search_when=_mus_search_when,
        unit="chance",
    ),
    "michigan": GameSpec(
        "michigan", lambda s: s.deals_played, _michigan_values, lambda s: 15.0 * s.cfg.c, rollout_easy=True,
        model_opponents=True, prior_z=1.0, paired_root=_michigan_paired,
        rollout_fast=_michigan_easy_lead,
    ),
    "marias": GameSpec(
        "marias", lambda s: s.deals_played, _stacks, lambda s: 4.0 * s.stake, rollout_easy=True,
        model_opponents=True, endgame=_marias_endgame,
        expert_overrides=(("endgame", _marias_expert_endgame), ("model_policy", _marias_model)),
        endgame_sides=_marias_sides, alphabeta_key=_marias_key,
    ),
    "maitre": GameSpec(
        "maitre", lambda s: s.manche, _maitre_values, lambda s: 40.0, relative=True, prior_z=1.0,
        rollout_easy=True, unit="points", endgame=_maitre_endgame, rollout_fast=maitre_easy_choice,
    ),
    "motz": GameSpec(
        "motz", lambda s: s.deals_played, _motz_values, lambda s: 10.0 * s.ante, rollout_easy=True,
        model_opponents=True, prior_z=1.0, prior_z_of=_motz_prior_z, endgame=_motz_endgame,
        endgame_key=_motz_key,
        # issue 17, third pass: the standers' reading kept through the trick play (strong/README)
        expert_overrides=(("determinize", motz_determinize_played),),
    ),
}


def spec_for(game_name: str) -> GameSpec:
    """The search spec of ``game_name`` (``ValueError`` for a game without one)."""
    spec = SPECS.get(game_name)
    if spec is None:
        raise ValueError(f"no strong AI for game {game_name!r}")
    return spec
