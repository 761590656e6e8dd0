"""Single-observer Information-Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012).

One tree for the searching seat. Each iteration draws a determinization (a clone of the real
state with every card hidden from the seat redealt, ``determinize``), walks the tree with UCB1
using only the actions legal in that determinization (each child counts how often it was
*available*, and UCB1 uses that count), expands one new action, plays the deal out with
the rollout policy (random, or a game's easy policy), and backs up the reward of every seat.
A node's statistics hold the reward of the seat that chose its action, so every seat in the
tree plays for itself (Mus: its team).
The reward is the change of the game's value (``games.GameSpec``) from the root to the end of
the current deal, divided by the game's scale; the UCB1 exploration term is scaled by the range
of the rewards seen so far, so no game needs its scale tuned. Search stops at ``budget_ms`` or
``max_iterations``; the answer is the most visited legal action at the root.
Where the game's spec says the rest of the deal is short (``GameSpec.endgame``), the search is
PIMC instead: every root move solved exactly on each determinization (``endgame``); where it asks
for a paired root (``GameSpec.paired_root``: Michigan's leads), every root move is rolled out on
each determinization (``paired``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from bot.ai.policy import Action
from bot.ai.registry import determinizer
from bot.ai.strong.endgame import pimc
from bot.ai.strong.keys import action_key
from bot.ai.strong.paired import paired
from bot.ai.strong.spec import GameSpec

#: UCB1 exploration constant, relative to the range of the rewards seen.
EXPLORATION = 0.7
#: Rollouts give up after this many actions (no deal of these games is that long).
MAX_ROLLOUT = 2_000


class Node:
    """Statistics of one action edge: visits, total reward, times available; its children."""

    __slots__ = ("children", "visits", "total", "sq", "wins", "avail")

    def __init__(self) -> None:
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.sq = 0.0  # sum of squared rewards (root statistics: the easy-prior test in policy)
        self.wins = 0  # simulations where the chooser's reward was positive (the coach's win chance)
        self.avail = 1


@dataclass
class SearchResult:
    """The chosen action and what the search did."""

    action: Action
    iterations: int
    seconds: float
    visits: dict[tuple, int]
    means: dict[tuple, float]
    variances: dict[tuple, float] | None = None
    #: Per root action: the share of its simulations where the seat came out ahead in the deal.
    win_rates: dict[tuple, float] | None = None
    #: True when the endgame was solved exactly (PIMC): ``iterations`` then counts the leaves
    #: searched, which may pass the cap by the last determinization's.
    exact: bool = False
    #: PIMC and the paired root search: per root action, its reward on each determinization (the
    #: same deals for every action, in order), so moves can be compared pair by pair.
    paired: dict[tuple, list[float]] | None = None


def search(
    game_name: str,
    spec: GameSpec,
    state: Any,
    seat: int,
    rng: random.Random,
    budget_ms: float = 200.0,
    max_iterations: int | None = None,
    exploration: float = EXPLORATION,
    rollout_policy: Any = None,
    opponent_policy: Any = None,
) -> SearchResult:
    """Run ISMCTS for ``seat`` from the real ``state``; return the most visited legal action.

    ``rollout_policy`` (a ``Policy``, e.g. the easy one) plays the rollouts from each seat's view
    of the determinization; without it rollouts are uniformly random. With ``opponent_policy``,
    the other seats' moves inside the tree are that policy's choice from their own view of the
    determinization (so they answer with their cards in mind) instead of UCB1 over nodes that
    cannot tell their cards apart; the tree then searches ``seat``'s own decisions.
    """
    det = spec.determinize or determinizer(game_name)
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no action to search")
    root_keys = {action_key(a): a for a in legal}
    deal0 = spec.deal_no(state)
    start = spec.values(state)
    scale = spec.scale(state) or 1.0
    prune = spec.prune
    relative = spec.relative
    n_seats = len(start)
    root = Node()
    clock = time.perf_counter
    t0 = clock()
    deadline = t0 + budget_ms / 1000.0
    cap = max_iterations if max_iterations is not None else 1_000_000
    log, sqrt = math.log, math.sqrt
    rand = rng.random
    if spec.endgame is not None and spec.endgame(state):
        model = None if spec.endgame_maxn else opponent_policy
        return _exact(spec, state, seat, legal, det, rng, t0, deadline, cap, model)
    if spec.paired_root is not None and spec.paired_root(state):
        rewards, _, leaves = paired(spec, state, seat, legal, det, rng, deadline, cap, rollout_policy)
        return _from_paired(rewards, legal, leaves, t0, exact=False)
    fast = spec.fast_move()  # the rollouts' and modelled opponents' move read from the state
    lo, hi = 0.0, 0.0  # range of the rewards seen: exploration scales with it
    explore = exploration
    it = 0
    while it < cap:
        if it and clock() >= deadline:
            break
        it += 1
        d = det(state, seat, rng)
        node = root
        path: list[tuple[Node, int]] = []
        # selection and expansion
        while not d.is_over() and spec.deal_no(d) == deal0:
            actor = d.to_act()[0]
            legal_d = d.legal_actions(actor)
            if opponent_policy is not None and actor != seat:
                a = legal_d[0] if len(legal_d) == 1 else (fast and fast(d, actor, legal_d, rng)) \
                    or opponent_policy.choose(d.view(actor), legal_d, rng)
                k = action_key(a)
                ch = node.children.get(k)
                if ch is None:
                    ch = node.children[k] = Node()
                d.apply(actor, a)
                node = ch
                continue
            if prune is not None:
                legal_d = prune(legal_d)
            children = node.children
            untried = None
            best = None
            best_a = None
            best_u = -1e300
            for a in legal_d:
                k = action_key(a)
                ch = children.get(k)
                if ch is None or not ch.visits:  # (a node first reached by a modelled opponent)
                    if untried is None:
                        untried = [(k, a)]
                    else:
                        untried.append((k, a))
                    continue
                ch.avail += 1
                if untried is None:
                    u = ch.total / ch.visits + explore * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best_u, best, best_a = u, ch, a
            if untried is not None:
                k, a = untried[int(rand() * len(untried))]
                ch = children.get(k)
                if ch is None:
                    ch = children[k] = Node()
                d.apply(actor, a)
                path.append((ch, actor))
                break
            d.apply(actor, best_a)
            path.append((best, actor))
            node = best
        # rollout
        steps = 0
        while not d.is_over() and spec.deal_no(d) == deal0 and steps < MAX_ROLLOUT:
            actor = d.to_act()[0]
            legal_d = d.legal_actions(actor)
            if len(legal_d) == 1:
                a = legal_d[0]
            elif rollout_policy is None:
                a = legal_d[int(rand() * len(legal_d))]
            else:
                a = fast(d, actor, legal_d, rng) if fast is not None else None
                if a is None:
                    a = rollout_policy.choose(d.view(actor), legal_d, rng)
            d.apply(actor, a)
            steps += 1
        # backpropagation
        end = spec.values(d)
        gain = [(end[i] - start[i]) / scale for i in range(n_seats)]
        if relative and n_seats > 1:
            tot = sum(gain)
            gain = [g - (tot - g) / (n_seats - 1) for g in gain]
        glo, ghi = min(gain), max(gain)
        if glo < lo or ghi > hi:
            lo, hi = min(lo, glo), max(hi, ghi)
            explore = exploration * max(hi - lo, 1e-3)
        for ch, actor in path:
            ch.visits += 1
            g = gain[actor]
            ch.total += g
            ch.sq += g * g
            if g > 0:
                ch.wins += 1
    visits = {k: ch.visits for k, ch in root.children.items() if k in root_keys}
    means = {k: ch.total / ch.visits for k, ch in root.children.items() if k in root_keys and ch.visits}
    variances = {
        k: max(0.0, ch.sq / ch.visits - means[k] ** 2) for k, ch in root.children.items() if k in means
    }
    win_rates = {k: ch.wins / ch.visits for k, ch in root.children.items() if k in means}
    if visits:
        best_key = max(visits, key=lambda k: (visits[k], means.get(k, 0.0)))
        action = root_keys[best_key]
    else:
        action = legal[0]
    return SearchResult(action, it, clock() - t0, visits, means, variances, win_rates)


def _exact(
    spec: GameSpec, state: Any, seat: int, legal: list[Action], det: Any, rng: random.Random,
    t0: float, deadline: float, cap: int, opponent: Any = None,
) -> SearchResult:
    """PIMC (``endgame.pimc``): every root move solved exactly over determinizations; the best
    mean wins (ties: the first legal). ``iterations`` counts the leaves searched; ``visits`` the
    determinizations; ``paired`` the rewards per determinization (the policy's easy prior
    compares two moves on the same deals)."""
    rewards, samples, leaves = pimc(spec, state, seat, legal, det, rng, deadline, cap, opponent)
    return _from_paired(rewards, legal, leaves, t0, exact=True)


def _from_paired(
    rewards: dict[tuple, list[float]], legal: list[Action], leaves: int, t0: float, exact: bool,
) -> SearchResult:
    """The result of a search that scored every root move on the same determinizations (PIMC,
    ``paired``): the best mean wins (ties: the first legal); ``visits`` counts determinizations."""
    means = {k: sum(v) / len(v) for k, v in rewards.items()}
    visits = {k: len(v) for k, v in rewards.items()}
    win_rates = {k: sum(1 for x in v if x > 0) / len(v) for k, v in rewards.items()}
    best = max(means, key=lambda k: means[k])  # the first of equal means (legal order)
    action = next(a for a in legal if action_key(a) == best)
    return SearchResult(
        action, leaves, time.perf_counter() - t0, visits, means, None, win_rates, exact=exact, paired=rewards,
    )
