"""Fixed-seed AI decisions of every game at the easy, strong and expert levels, to compare a
refactor of ``bot/ai`` with the code before it (issue 27.2: the same decisions after the move).

Two short sessions per game are played by random moves (seeded); at each of their first 60
decisions every level chooses from the same view with its own seeded rng, the searching levels
at a fixed iteration cap (no time budget, so the choice does not depend on the machine). The
decisions are written as JSON and summarised by a SHA-256 digest:

    python tools/ai_decisions.py [--out decisions.json] [--root CHECKOUT]

``--root`` runs another checkout's ``bot`` (e.g. ``git worktree add /tmp/before main``); the
two digests agree when no decision changed. Only entry points that exist on both sides of the
issue 27.2 move are used (``bot.ai.policy_for``, ``bot.ai.policy.decide``,
``bot.ai.strong.policy.StrongPolicy``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

SESSIONS = 2
STEPS = 60
STRONG_ITERATIONS = 40
EXPERT_ITERATIONS = 60


def decisions() -> dict[str, list[dict[str, str]]]:
    """Per game, per decision: each level's choice as canonical JSON."""
    from bot.ai import policy_for
    from bot.ai.policy import decide
    from bot.ai.strong.policy import StrongPolicy
    from bot.rules import GAMES

    out: dict[str, list[dict[str, str]]] = {}
    for name in sorted(GAMES):
        game = GAMES[name]
        n = game.default_seats or game.min_seats
        rows: list[dict[str, str]] = []
        for session in range(SESSIONS):
            state = game.new_table(seats=n, options=game.validate_options({}), seed=1000 + session)
            rng = random.Random(session)
            policies: dict[str, Any] = {
                "easy": policy_for(name),
                "strong": StrongPolicy(name, budget_ms=1e9, max_iterations=STRONG_ITERATIONS),
                "expert": StrongPolicy(name, budget_ms=1e9, max_iterations=EXPERT_ITERATIONS, expert=True),
            }
            for step in range(STEPS):
                if state.is_over():
                    break
                seat = state.to_act()[0]
                legal, view = state.legal_actions(seat), state.view(seat)
                rows.append({
                    level: json.dumps(decide(p, view, legal, random.Random(f"{session}:{step}:{level}"),
                                             state.clone()), sort_keys=True)
                    for level, p in policies.items()
                })
                state.apply(seat, legal[rng.randrange(len(legal))])
        out[name] = rows
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the decisions to this JSON file")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout whose bot/ plays (default: this one)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.root).resolve()))
    result = decisions()
    text = json.dumps(result, sort_keys=True)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    import bot

    counts = ", ".join(f"{game} {len(rows)}" for game, rows in result.items())
    print(f"bot from {Path(bot.__file__).parent}; decisions: {counts}; "
          f"sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
