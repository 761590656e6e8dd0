"""Michigan: the arena with a chosen policy for the searching seat's own leads in its rollouts.

Usage (from the project root):
    python bench/michigan_own.py --own easy --iterations 400 --sessions 200 --seed 500 --save base.json
    python bench/michigan_own.py --own lookahead --iterations 400 --sessions 200 --seed 500 \
        --against base.json

Strong (side A) against easy (side B) by default, or ``--a expert --b strong``; ``--own`` sets
``GameSpec.rollout_own`` of Michigan's spec for the run (``easy``: none, the shipped rollouts;
``lookahead``/``lookahead2``: ``michigan_rollout.lookahead_lead`` at depth 0/1); for the expert
only, with ``--a expert``.
``--save`` writes side A's jetons per session; ``--against`` reads such a file (the same seed and
sessions: the same deals) and prints the paired per-session difference with its 95% interval.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import arena  # noqa: E402  (bench/arena.py, this folder)

from bot.ai.arena import run_arena  # noqa: E402
from bot.ai.strong import games, michigan_rollout  # noqa: E402

OWN = {
    "easy": None,
    "lookahead": michigan_rollout.lookahead_lead,
    "lookahead2": michigan_rollout.lookahead2_lead,
    "honest": michigan_rollout.honest_lookahead_lead,
}


def install(own: str, expert_only: bool) -> None:
    """Set Michigan's ``rollout_own`` (for the expert's overrides only when ``expert_only``)."""
    spec = games.SPECS["michigan"]
    if expert_only:
        overrides = tuple(o for o in spec.expert_overrides if o[0] != "rollout_own")
        games.SPECS["michigan"] = dataclasses.replace(
            spec, expert_overrides=(*overrides, ("rollout_own", OWN[own])),
        )
    else:
        games.SPECS["michigan"] = dataclasses.replace(spec, rollout_own=OWN[own])


def paired_difference(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean of ``a[i] - b[i]`` and the half-width of its 95% interval."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return statistics.fmean(diffs), half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--own", choices=sorted(OWN), default="easy")
    parser.add_argument("--a", default="strong", choices=("strong", "expert"))
    parser.add_argument("--b", default="easy", choices=("easy", "strong"))
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=1e9)
    parser.add_argument("--save", default=None)
    parser.add_argument("--against", default=None)
    args = parser.parse_args(argv)
    install(args.own, expert_only=args.a == "expert")
    print("$ python bench/michigan_own.py " + " ".join(sys.argv[1:] if argv is None else argv))
    t0 = time.perf_counter()
    report = run_arena(
        "michigan", args.a, args.b, args.sessions, seats=4, seed=args.seed,
        budget_ms=args.budget_ms, max_iterations=args.iterations,
    )
    print(arena.format_report(report, "michigan", 4))
    print(f"\n({time.perf_counter() - t0:.1f} s)")
    mine = report.per_session[0]
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"seed": args.seed, "per_session": mine}, f)
    if args.against:
        with open(args.against) as f:
            other = json.load(f)
        if other["seed"] != args.seed or len(other["per_session"]) < len(mine):
            raise SystemExit("--against: another seed or fewer sessions")
        m, half = paired_difference(mine, other["per_session"][:len(mine)])  # the same first sessions
        print(f"paired difference, side A jetons/session vs {args.against}: {m:+.2f} "
              f"({m - half:+.2f} … {m + half:+.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
