"""Marias endgame duels: the last tricks of many deals played by two searching levels, mirrored.

Usage (from the project root):
    python bench/marias_duel.py --positions 200 --cards 5 --seed 500 \
        --a-iterations 200 --a-endgame 4 --b-iterations 40

Positions are the states of easy-played sessions (seed ``--seed`` onwards, default options) where
a suit contract, betl or durch is being played and every hand holds ``--cards`` cards at most,
one per deal. From each, the rest of the deal is played twice: A on the soloist's seat against B
on both defenders', then B against A. A's gain on a position is the soloist's jetons in the first
play-out minus those in the second (the same cards, so the luck of the deal cancels): positive
when A got more out of the same ending, whichever side it sat on. Far less noisy than whole
sessions for a lever that only changes the trick play (most of a session's spread is the bidding).

Each side is ``StrongPolicy("marias", budget_ms=1e9, max_iterations=N)``; ``--x-endgame K``
makes its exact search start at K cards each (strong: 3; the expert: 4) and ``--x-maxn`` has it
solve the other seats' best replies (``endgame.AlphaBeta``) instead of the easy opponent model.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.ai.easy import easy_policy  # noqa: E402
from bot.ai.strong.policy import StrongPolicy  # noqa: E402
from bot.rules import GAMES  # noqa: E402

GAME = "marias"


def positions(count: int, cards: int, seed: int) -> list:
    """Clones of one state per deal, where play has reached ``cards`` cards per hand at most."""
    g = GAMES[GAME]
    easy = easy_policy(GAME)
    out: list = []
    table = seed
    while len(out) < count:
        st = g.new_table(seats=3, options=g.validate_options({}), seed=table)
        rng = random.Random(table)
        taken = -1
        while not st.is_over() and len(out) < count:
            if st.phase == "play" and not st.trick and st.deals_played != taken and max(
                len(h) for h in st.hands
            ) <= cards:
                out.append(st.clone())
                taken = st.deals_played
            s = st.to_act()[0]
            st.apply(s, easy.choose(st.view(s), st.legal_actions(s), rng))
        table += 1
    return out


def side(iterations: int, endgame: int | None, maxn: bool) -> StrongPolicy:
    """A searching side with ``iterations`` per decision and, optionally, its own exact endgame."""
    p = StrongPolicy(GAME, budget_ms=1e9, max_iterations=iterations)
    spec = p.spec
    if endgame is not None:

        def short(s: object, k: int = endgame) -> bool:
            return s.phase == "play" and max(len(h) for h in s.hands) <= k  # type: ignore[attr-defined]

        spec = dataclasses.replace(spec, endgame=short)
    p.spec = dataclasses.replace(spec, endgame_maxn=maxn)
    return p


def play_out(state: object, solo: StrongPolicy, defence: StrongPolicy, rng_seed: int) -> int:
    """The soloist's jetons from ``state`` to the deal's end, ``solo`` against ``defence``."""
    st = state.clone()  # type: ignore[attr-defined]
    s0, deal = st.soloist, st.deals_played
    before = st.stacks[s0]
    rng = random.Random(rng_seed)
    while not st.is_over() and st.deals_played == deal:
        seat = st.to_act()[0]
        policy = solo if seat == s0 else defence
        st.apply(seat, policy.choose(st.view(seat), st.legal_actions(seat), rng, st))
    return st.stacks[s0] - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--cards", type=int, default=5)
    parser.add_argument("--seed", type=int, default=500)
    for x in ("a", "b"):
        parser.add_argument(f"--{x}-iterations", type=int, default=40)
        parser.add_argument(f"--{x}-endgame", type=int, default=None)
        parser.add_argument(f"--{x}-maxn", action="store_true")
    args = parser.parse_args(argv)
    a = side(args.a_iterations, args.a_endgame, args.a_maxn)
    b = side(args.b_iterations, args.b_endgame, args.b_maxn)
    t0 = time.perf_counter()
    gains = []
    for i, st in enumerate(positions(args.positions, args.cards, args.seed)):
        seed = args.seed * 7_919 + i
        gains.append(play_out(st, a, b, seed) - play_out(st, b, a, seed))
    n = len(gains)
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else math.inf
    better, worse = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    print(f"$ python bench/marias_duel.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    print(f"{n} positions: A's gain {mean:+.3f} jetons per position (95% CI {mean - half:+.3f} … "
          f"{mean + half:+.3f}); A better on {better}, worse on {worse}, level on {n - better - worse}")
    print(f"({time.perf_counter() - t0:.1f} s, load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
