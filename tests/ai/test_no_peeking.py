"""No peeking, proven (issue 17 point 4): every AI level decides from the seat's view and its seed.

For each game, at decision points of a seeded session played by the easy policy, the real state
and a *twin* (``state.redeal(seat, ...)``: the same view for the seat to act, other hidden cards,
another table seed) are handed to every level (first, random, easy, strong, expert; the last two
are the same search, the expert with its own prior where the game has one: Mus's bet-reading
bettor, ``GameSpec.expert_prior_policy``) and to the coach (``/hint``: its whole advice, the win
rates and gains included) with the same ``rng`` seed and, when searching, a fixed iteration
count. The decisions must be identical. The twins are checked to hide
other cards (so the test could fail), and a deliberately peeking policy is caught by the same
harness (so it does fail when a policy looks at what it may not see).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.ai.coach import hint
from bot.ai.levels import LEVELS, policy_for
from bot.ai.policy import Action, decide
from bot.ai.registry import easy_policy
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES

#: game -> (seats, short-session options)
CASES = {
    "motz": (4, {}),
    "mus": (4, {"target": 30}),
    "marias": (3, {"rounds": 1}),
    "michigan": (4, {"rotations": 1}),
    "maitre": (3, {"tours": 1}),
}
#: Fixed search size for the searching levels (the time budget never ends a search here).
ITERATIONS = 40

Decider = Callable[[Any, int, random.Random], Action]


def deciders(game: str) -> dict[str, Decider]:
    """One decision function per level, each as the table service would call it."""
    out: dict[str, Decider] = {}
    for level in LEVELS:
        if level in ("strong", "expert"):
            out[level] = _searched(
                StrongPolicy(game, budget_ms=1e9, max_iterations=ITERATIONS, expert=level == "expert")
            )
        else:
            out[level] = _via_decide(policy_for(game, level))
    out["hint"] = _hinted(game)
    return out


def _hinted(game: str) -> Decider:
    """The coach (``/hint``): its whole advice must match, so it is returned as the 'action'."""

    def run(state: Any, seat: int, rng: random.Random) -> Action:
        advice = hint(game, state, seat, rng, budget_ms=1e9, max_iterations=ITERATIONS)
        return {"advice": repr(advice)}

    return run


def _searched(policy: StrongPolicy) -> Decider:
    """A searching level, checked to have searched exactly ``ITERATIONS`` times when it searched."""

    def run(state: Any, seat: int, rng: random.Random) -> Action:
        action, result = policy.choose_traced(state.view(seat), state.legal_actions(seat), rng, state)
        # an exact endgame (PIMC) and the paired root search (Michigan's leads) count leaves and
        # may pass the cap by their last determinization's
        assert result is None or result.iterations == ITERATIONS or (
            result.paired is not None and result.iterations >= ITERATIONS
        )
        return action

    return run


def _via_decide(policy: Any) -> Decider:
    def run(state: Any, seat: int, rng: random.Random) -> Action:
        return decide(policy, state.view(seat), state.legal_actions(seat), rng, state)

    return run


def hidden(game: str, state: Any, seat: int) -> str:
    """Every card ``seat`` may not see, place by place (to check the twin really differs)."""
    if game == "michigan":
        return json.dumps([o for o in state.owner])
    hands = [sorted(h) for s, h in enumerate(state.hands) if s != seat]
    extra: Any = None
    if game == "motz":
        extra = state.muet
    elif game == "mus":
        extra = state.stock
    elif game == "marias":
        extra = state.talon
    elif game == "maitre":
        extra = state.coffre
    return json.dumps([hands, extra], default=list)


def decision_points(game: str, seed: int, count: int) -> list[Any]:
    """Clones of ``count`` states of an easy-played session where the seat to act has a choice."""
    seats, options = CASES[game]
    g = GAMES[game]
    state = g.new_table(seats=seats, options=g.validate_options(options), seed=seed)
    policy = easy_policy(game)
    rng = random.Random(seed)
    out: list[Any] = []
    step = 0
    while not state.is_over() and len(out) < count:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if step % 3 == 0:
                out.append(state.clone())
            step += 1
        state.apply(seat, policy.choose(state.view(seat), legal, rng))
    return out


def twins(game: str, seed: int, count: int) -> list[tuple[Any, Any, int]]:
    """(real state, twin, seat): same view for the seat to act, other hidden cards."""
    out = []
    for i, state in enumerate(decision_points(game, seed, count)):
        seat = state.to_act()[0]
        for k in range(10):  # a twin that really hides other cards (almost always the first)
            twin = state.redeal(seat, random.Random(1_000 * seed + 17 * i + k))
            if hidden(game, twin, seat) != hidden(game, state, seat):
                break
        assert twin.view(seat) == state.view(seat)
        assert twin.legal_actions(seat) == state.legal_actions(seat)
        out.append((state, twin, seat))
    return out


def same_decisions(decider: Decider, pairs: list[tuple[Any, Any, int]]) -> bool:
    """True when ``decider`` chooses alike in each real state and its twin (same rng seed)."""
    for n, (state, twin, seat) in enumerate(pairs):
        a = decider(state.clone(), seat, random.Random(n))
        b = decider(twin.clone(), seat, random.Random(n))
        if a != b:
            return False
    return True


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_level_decides_from_the_view_and_the_seed(game: str) -> None:
    pairs = twins(game, seed=7, count=6)
    differing = sum(hidden(game, s, seat) != hidden(game, t, seat) for s, t, seat in pairs)
    assert differing >= len(pairs) - 1, "the twins should hide other cards"
    for level, decider in deciders(game).items():
        assert same_decisions(decider, pairs), f"{game}: level {level} decided on hidden cards"


def test_a_peeking_policy_is_caught() -> None:
    """The harness can fail: a policy reading the next seat's real hand is told apart."""

    def peeker(state: Any, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        other = state.hands[(seat + 1) % len(state.hands)]
        return legal[sum(map(ord, "".join(sorted(other)))) % len(legal)]

    assert not same_decisions(peeker, twins("motz", seed=7, count=6))


Keep = Callable[[Any, int, list[Action]], bool]


def easy_points(game: str, seed: int, count: int, keep: Keep) -> list[Any]:
    """Clones of the first ``count`` states of an easy-played session (``CASES``' table) that
    ``keep(state, seat to act, its legal actions)`` selects."""
    seats, options = CASES[game]
    g = GAMES[game]
    state = g.new_table(seats=seats, options=g.validate_options(options), seed=seed)
    policy, rng = easy_policy(game), random.Random(seed)
    points: list[Any] = []
    while not state.is_over() and len(points) < count:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if keep(state, seat, legal):
            points.append(state.clone())
        state.apply(seat, policy.choose(state.view(seat), legal, rng))
    return points


def twins_of(game: str, points: list[Any], seed: int) -> list[tuple[Any, Any, int]]:
    """(state, twin, seat to act) per point: the twin redealt for that seat (same view), and at
    least one twin hiding other cards."""
    pairs = []
    for i, state in enumerate(points):
        seat = state.to_act()[0]
        twin = state.redeal(seat, random.Random(seed + i))
        assert twin.view(seat) == state.view(seat)
        pairs.append((state, twin, seat))
    assert any(hidden(game, s, seat) != hidden(game, t, seat) for s, t, seat in pairs)
    return pairs


def test_motz_levels_decide_alike_after_shown_voids() -> None:
    """Motz trick play after a seat showed a void (issue 17, third pass: the played tricks and the
    voids they show shape the redeal): the searching levels still decide from the view alone."""
    def after_void(state: Any, seat: int, legal: list[Action]) -> bool:
        voids = state.shown_voids() if state.phase == 1 else {}
        return len(legal) > 1 and any(voids.get(s) for s in range(4) if s != seat)

    points = easy_points("motz", 4, 4, after_void)
    assert len(points) == 4 and any(p.played for p in points), "points after a void, in trick 2-3 too"
    pairs = twins_of("motz", points, 500)
    for level in ("strong", "expert"):
        decider = _searched(StrongPolicy("motz", budget_ms=1e9, max_iterations=ITERATIONS,
                                         expert=level == "expert"))
        assert same_decisions(decider, pairs), f"motz: level {level} decided on hidden cards"


def test_marias_reading_the_plays_decides_from_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Marias trick play after the plays showed something (a void, a card not beaten): strong with
    the determinizer that keeps it (``determinize_shown``, issue 32 item 4) decides alike on the
    real state and its twin."""
    import dataclasses

    from bot.ai.marias.determinize import determinize_shown
    from bot.ai.registry import game_ai, spec_for

    monkeypatch.setattr(game_ai("marias"), "spec", dataclasses.replace(spec_for("marias"),
                                                                         determinize=determinize_shown))
    def after_shown(state: Any, seat: int, legal: list[Action]) -> bool:
        shown = state.shown_ceilings() if state.phase == "play" else {}
        return len(legal) > 1 and any(shown.get(s) for s in range(3) if s != seat)

    points = easy_points("marias", 5, 4, after_shown)
    assert len(points) == 4, "points after the plays showed something"
    pairs = twins_of("marias", points, 700)
    decider = _searched(StrongPolicy("marias", budget_ms=1e9, max_iterations=ITERATIONS))
    assert same_decisions(decider, pairs), "marias: strong reading the plays decided on hidden cards"
