"""Record how many points a Mus deal gives each team: ``bot/ai/mus/data/mus_deals.csv`` (issue 17).

Usage (from the project root; about two minutes):
    python tools/mus_race.py                 # 2,000 easy-vs-easy sessions, seeds 7_000_000 +
    python tools/mus_race.py --sessions 500 --out /tmp/deals.csv

The strong AI's Mus value is the chance to win the game (``bot.ai.mus.race``), read from a
race to the target computed over this distribution: per deal, the points the mano's team and
the other team were counted, or which of them won an accepted órdago. Deals are played by the
easy policy in every seat with the default options (40 points); a deal that ended the game in
its count is recorded with the points counted up to the end (spec 4.1: the count stops there).
The seeds are far from the arena's (``bench/arena.py`` uses ``seed * 100_003 + session // 2``
with small seeds), so the table is not fitted to the evaluation sessions.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.ai.registry import easy_policy  # noqa: E402
from bot.rules import GAMES  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bot", "ai", "mus", "data",
                   "mus_deals.csv")
HEADER = "kind,mano_team,other_team,count"
SEED0 = 7_000_000


def record(sessions: int, seed0: int = SEED0) -> Counter[tuple[str, int, int]]:
    """``{("points", mano team's points, other team's points) | ("ordago", winner 0 = mano's
    team / 1 = other, 0): deals}`` over ``sessions`` easy-vs-easy sessions."""
    game = GAMES["mus"]
    options = game.validate_options({})
    easy = easy_policy("mus")
    out: Counter[tuple[str, int, int]] = Counter()
    for i in range(sessions):
        state = game.new_table(seats=4, options=options, seed=seed0 + i)
        rng = random.Random(seed0 + i)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[0] if len(legal) == 1 else easy.choose(state.view(seat), legal, rng)
            for ev in state.apply(seat, action):
                if ev["type"] != "deal_end":
                    continue
                mano_team = ev["mano"] & 1
                if ev["ordago"] is not None:
                    out[("ordago", 0 if ev["game_winner"] == mano_team else 1, 0)] += 1
                    continue
                gained = [a - b for a, b in zip(ev["points_after"], ev["points_before"], strict=True)]
                out[("points", gained[mano_team], gained[1 - mano_team])] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args(argv)
    counts = record(args.sessions)
    lines = [HEADER] + [f"{k},{x},{y},{n}" for (k, x, y), n in sorted(counts.items())]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}: {sum(counts.values())} deals, {len(counts)} outcomes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
