"""Michigan: the regret of the strong search's leads against the real deal's best (bench only).

Usage (from the project root):
    python research/michigan_regret.py --sessions 30 --seed 500 --iterations 200 --save base.json
    python research/michigan_regret.py --sessions 30 --seed 500 --iterations 200 --spec prior_z=2.0 \
        --against base.json        # the paired difference with a 95% interval
    python research/michigan_regret.py --sessions 30 --seed 500 --peek dead --against base.json

Decision points are the leads with a choice of suit in sessions played by easy for every seat
(4 seats, default options). At each, every legal lead is rolled out on the REAL deal (easy for
every seat after it, the rollout the search itself uses: deterministic given the deal), which
gives each lead's true value under that continuation; the strong policy (honest: it only
determinizes) chooses, and its regret is the best lead's value minus its lead's. Much less noisy
than whole sessions for comparing determinizers, priors and leaf counts; the arena decides.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

from arena import override_spec  # noqa: E402  (bench/arena.py)
from ceiling import peeking_copy  # noqa: E402  (research/ceiling.py)

from bot.ai.registry import (  # noqa: E402
    easy_policy,  # noqa: E402
    spec_for,
)
from bot.ai.strong.paired import rollout  # noqa: E402
from bot.ai.strong.policy import StrongPolicy  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def decision_points(sessions: int, seed: int, seats: int = 4) -> list[object]:
    """Copies of the states of easy-played sessions where a seat leads with a choice of suit."""
    easy = easy_policy("michigan")
    out = []
    for k in range(sessions):
        st = GAMES["michigan"].new_table(seats=seats, options={}, seed=seed * 1000 + k)
        rng = random.Random(seed * 1000 + k)
        while not st.is_over():
            seat = st.to_act()[0]
            legal = st.legal_actions(seat)
            if len(legal) > 1 and legal[0]["type"] == "lead":
                out.append(st.clone())
            st.apply(seat, easy.choose(st.view(seat), legal, rng))
    return out


def true_values(st: object) -> dict[str, float]:
    """Per suit, the real deal's reward of leading it (easy continuation for every seat)."""
    spec = spec_for("michigan")
    seat = st.to_act()[0]  # type: ignore[attr-defined]
    out = {}
    deal0, start, scale = spec.deal_no(st), spec.values(st)[seat], spec.scale(st) or 1.0
    easy = easy_policy("michigan")
    for a in st.legal_actions(seat):  # type: ignore[attr-defined]
        c = peeking_copy(st, seat, None)
        c.apply(seat, a)
        out[a["suit"]] = rollout(spec, c, seat, deal0, start, scale, easy, random.Random(0))
    return out


def regrets(points: list[object], choose: Any) -> list[float]:
    """Per point, in jetons (the spec's scale is 15 × c, c = 1 by default): the best lead's true
    value minus that of ``choose(state, view, legal, rng)``'s lead."""
    out = []
    for i, st in enumerate(points):
        seat = st.to_act()[0]  # type: ignore[attr-defined]
        legal = st.legal_actions(seat)  # type: ignore[attr-defined]
        tv = true_values(st)
        a = choose(st, st.view(seat), legal, random.Random(i))  # type: ignore[attr-defined]
        out.append(15 * (max(tv.values()) - tv[a["suit"]]))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the mean regret per lead of strong and of easy (and against a saved run)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=6)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--spec", action="append", default=[], metavar="FIELD=JSON")
    p.add_argument("--peek", choices=("dead", "next", "prev"), help="research/michigan_peek.py's part")
    p.add_argument("--save", help="write strong's regret at every lead (jetons) to this JSON file")
    p.add_argument("--against", help="a --save file of the same points: the paired difference")
    args = p.parse_args(argv)
    if args.peek:
        import michigan_peek  # research/michigan_peek.py

        michigan_peek.install(args.peek)
    if args.spec:
        override_spec("michigan", args.spec)
    points = decision_points(args.sessions, args.seed)
    strong = StrongPolicy("michigan", budget_ms=1e9, max_iterations=args.iterations)
    easy = easy_policy("michigan")
    t0 = time.process_time()
    mine = regrets(points, lambda st, view, legal, rng: strong.choose(view, legal, rng, st))
    cpu = time.process_time() - t0
    base = regrets(points, lambda st, view, legal, rng: easy.choose(view, legal, rng))
    n = len(points)
    print(f"{n} leads, {args.iterations} leaves, spec {args.spec}, peek {args.peek}: strong regret "
          f"{sum(mine) / n:.3f} jetons per lead, easy {sum(base) / n:.3f} ({cpu:.0f} s CPU)")
    if args.save:
        with open(args.save, "w") as f:
            json.dump(mine, f)
    if args.against:
        with open(args.against) as f:
            other = json.load(f)
        d = [a - b for a, b in zip(mine, other, strict=True)]
        m = sum(d) / n
        se = (sum((x - m) ** 2 for x in d) / (n - 1) / n) ** 0.5
        print(f"  minus {args.against}: {m:+.3f} ± {1.96 * se:.3f} jetons per lead (95%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
