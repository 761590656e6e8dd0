"""Same decisions? A fingerprint of the searching levels' decisions, and their CPU time, per game.

Usage (from the project root; run it in two checkouts and compare the fingerprints):
    python bench/search_identity.py                       # every game, 200 iterations
    python bench/search_identity.py marias motz --iterations 300

At the decision points of two easy-played sessions (seeds 11 and 5, ``bench/search_speed.py``'s
points), strong and the expert decide with a fixed iteration cap and ``random.Random(1)``; the
fingerprint hashes every move with its root statistics (iterations, visits, means, paired rewards).
The expert also decides at up to 12 points where its own determinizer deals otherwise than
strong's (``expert_points``: Motz), which the common points never reach.
A speed lever that must not change what the AI does keeps every fingerprint; the CPU seconds say
what it saved.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from search_speed import decision_points  # noqa: E402  (bench/search_speed.py)

from bot.ai.registry import determinizer, spec_for  # noqa: E402
from bot.ai.strong.policy import StrongPolicy  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def expert_points(game: str, count: int = 12, seeds: range = range(20, 60)) -> list:
    """Decision points where the expert's own determinizer (``GameSpec.expert_overrides``) deals
    otherwise than strong's, so that its path is searched too (Motz's standers read through the
    play: the two agree at every one of the common points); none for a game without one."""
    spec = spec_for(game)
    own = dict(spec.expert_overrides).get("determinize")
    if own is None:
        return []
    plain = spec.determinize or determinizer(game)
    out: list = []
    for seed in seeds:
        for state in decision_points(game, count=100, every=1, seed=seed):
            seat = state.to_act()[0]
            if any(plain(state, seat, random.Random(k)).hands != own(state, seat, random.Random(k)).hands
                   for k in range(3)):
                out.append(state)
                if len(out) == count:
                    return out
    return out


def fingerprint(game: str, expert: bool, iterations: int) -> tuple[str, float]:
    """(hash of the decisions and their root statistics, CPU seconds) over the game's points."""
    points = decision_points(game) + decision_points(game, seed=5) + (expert_points(game) if expert else [])
    policy = StrongPolicy(game, budget_ms=1e9, max_iterations=iterations, expert=expert)
    digest = hashlib.sha256()
    t0 = time.process_time()
    for state in points:
        seat = state.to_act()[0]
        action, r = policy.choose_traced(state.view(seat), state.legal_actions(seat), random.Random(1), state)
        stats = None if r is None else (r.iterations, sorted(r.visits.items()), sorted(r.means.items()),
                                        r.paired)
        digest.update(repr((action, stats)).encode())
    return digest.hexdigest()[:16], time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args(argv)
    print("| game | level | fingerprint | CPU s |\n|---|---|---|---|")
    for game in args.games:
        for expert in (False, True):
            digest, seconds = fingerprint(game, expert, args.iterations)
            print(f"| {GAMES[game].title} | {'expert' if expert else 'strong'} | {digest} | {seconds:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
