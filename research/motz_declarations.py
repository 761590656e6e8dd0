"""Fit the Motz declaration model (``research/motz_decl.csv``) to strong's declarations.

Usage (from the project root):
    python research/motz_declarations.py collect --sessions 300 --seed 700 --out decl_raw.csv
    python research/motz_declarations.py fit decl_raw.csv [more.csv …] > research/motz_decl.csv

``collect`` plays sessions where every seat is strong at ``--iterations`` (200) iterations per
decision (``--budget-ms`` unlimited, so the data do not depend on the machine's load), 4 seats
in three sessions of four and 3, 5 or 6 in the fourth, and writes one row per declaration with
a choice (stand legal): the hand class and context (``motz_decl``, this folder), the legal
declarations and strong's. ``fit`` counts them per cell and smooths each cell towards coarser
ones (hand class × muet × seats active before, then hand class × muet, then trumps held × muet,
then muet alone) with
``ALPHA`` pseudo-counts per level.

It lives in ``research/``: it runs the search for minutes, offline, and its table is read by the
research drivers only (``motz_decl``: the expert's uses of it did not measure better).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from motz_decl import (  # noqa: E402  (research/motz_decl.py, this folder)
    DECLARATIONS,
    HEADER,
    all_contexts,
    all_hand_classes,
    declaration_context,
    hand_class,
)

from bot.rules import GAMES  # noqa: E402

#: Pseudo-counts pulling a cell towards the next coarser one.
ALPHA = 4.0


def collect(sessions: int, seed: int, iterations: int, out: str) -> None:
    """Play strong-vs-strong sessions and write strong's declarations (see the docstring)."""
    from bot.ai.strong.policy import StrongPolicy

    policy = StrongPolicy("motz", budget_ms=1e9, max_iterations=iterations)
    game = GAMES["motz"]
    t0 = time.perf_counter()
    rows = 0
    with open(out, "w", encoding="utf-8") as f:
        f.write("hand,context,legal,action\n")
        for i in range(sessions):
            seats = 4 if i % 4 else (3, 5, 6)[(i // 4) % 3]
            opts = game.validate_options({})
            state = game.new_table(seats=seats, options=opts, seed=seed * 100_003 + i)
            rng = random.Random(seed * 7_919 + i)
            while not state.is_over():
                seat = state.to_act()[0]
                view = state.view(seat)
                legal = state.legal_actions(seat)
                action = policy.choose(view, legal, rng, state)
                kinds = [a["type"] for a in legal]
                if "stand" in kinds:
                    h = hand_class(state.hands[seat], state.trump)
                    ctx = declaration_context(state.decl, seat, state.dealer, state.muet_by, state.pot,
                                              state.ante)
                    f.write(f"{h},{ctx},{'|'.join(kinds)},{action['type']}\n")
                    rows += 1
                state.apply(seat, action)
            f.flush()
            print(f"session {i + 1}/{sessions}: {rows} declarations, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr)


def fit(paths: list[str]) -> str:
    """The smoothed table's CSV text from the collected rows."""
    counts: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            next(f)
            for line in f:
                h, ctx, _, action = line.strip().split(",")
                m, a = ctx[:2], ctx[2:4]
                for key in ((m,), (h[0], m), (h, m), (h, m, a), (h, ctx)):
                    counts[key][action] += 1

    def smooth(c: Counter[str], prior: dict[str, float]) -> dict[str, float]:
        n = sum(c.values())
        return {k: (c[k] + ALPHA * prior[k]) / (n + ALPHA) for k in DECLARATIONS}

    flat = {k: 1.0 / 3 for k in DECLARATIONS}
    lines = [HEADER]
    for h in all_hand_classes():
        for ctx in all_contexts():
            m, a = ctx[:2], ctx[2:4]
            p = smooth(counts[(m,)], flat)
            if m == "m0":
                p = {"pass": p["pass"], "stand": p["stand"], "take_muet": 0.0}
            p = smooth(counts[(h[0], m)], p)
            p = smooth(counts[(h, m)], p)
            p = smooth(counts[(h, m, a)], p)
            p = smooth(counts[(h, ctx)], p)
            if m == "m0":
                p["take_muet"] = 0.0
            tot = sum(p.values())
            n = sum(counts[(h, ctx)].values())
            lines.append(f"{h},{ctx},{p['pass'] / tot:.4f},{p['stand'] / tot:.4f},"
                         f"{p['take_muet'] / tot:.4f},{n}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``collect`` or ``fit`` (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--sessions", type=int, default=300)
    c.add_argument("--seed", type=int, default=700)
    c.add_argument("--iterations", type=int, default=200)
    c.add_argument("--out", default="decl_raw.csv")
    f = sub.add_parser("fit")
    f.add_argument("paths", nargs="+")
    args = p.parse_args(argv)
    if args.cmd == "collect":
        collect(args.sessions, args.seed, args.iterations, args.out)
    else:
        sys.stdout.write(fit(args.paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
