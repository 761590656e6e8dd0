"""Rules-engine benchmark: random play through the public contract, sessions/s, clone cost.

Usage (from the project root):
    python bench/engines.py                   # every game, every seat count, ~2 s each
    python bench/engines.py --games motz --quick
    python bench/engines.py --sessions 10000  # also play 10,000 checked sessions per game
    python bench/engines.py --compare         # also time OpenSpiel's euchre (pip install open_spiel)
    python bench/engines.py --cpu --root ../tapis-main   # another checkout's engines, CPU time

``--cpu`` times with this process's CPU time instead of the wall clock: on a machine shared with
other jobs the wall clock counts their time slices too, the CPU time far less, so two checkouts
measured one after the other compare fairly. ``--root`` imports ``bot`` from another checkout
(a ``git worktree`` of main, say): the same script, the same run conditions, the other engines.

"Actions/s" counts seat actions through to_act() + legal_actions() + apply(), the way the bot
and the AI drive an engine; automatic steps inside apply (deals, continuations) are included
in the time but not counted. With --sessions, every action is followed by the jeton check
and every session must end: the run fails loudly on any invariant break.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES: dict = {}  # filled by main() once --root is known
clock = time.perf_counter


def _total(state) -> int:
    pot = state.pot
    return sum(state.stacks) + (sum(pot) if isinstance(pot, (list, tuple)) else pot)


def random_play(name: str, seats: int, budget_s: float, seed0: int = 1) -> tuple[int, int, float]:
    """Play random sessions for about ``budget_s``; return (actions, sessions, seconds)."""
    game = GAMES[name]
    opts = game.validate_options({})
    actions = sessions = 0
    seed = seed0
    t0 = clock()
    deadline = t0 + budget_s
    while clock() < deadline:
        state = game.new_table(seats=seats, options=opts, seed=seed)
        rng = random.Random(seed)
        choice = rng.choice
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, choice(state.legal_actions(seat)))
            actions += 1
        sessions += 1
        seed += 1
    return actions, sessions, clock() - t0


def checked_sessions(name: str, seats: int, count: int) -> int:
    """Play ``count`` random sessions checking conservation after every action; return actions."""
    game = GAMES[name]
    opts = game.validate_options({})
    actions = 0
    for seed in range(count):
        state = game.new_table(seats=seats, options=opts, seed=10_000 + seed)
        start = _total(state)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over():
            to_act = state.to_act()
            if not to_act:
                raise SystemExit(f"{name} seats={seats} seed={seed}: to_act() empty before the end")
            seat = to_act[0]
            legal = state.legal_actions(seat)
            if not legal:
                raise SystemExit(f"{name} seats={seats} seed={seed}: seat {seat} has no legal action")
            state.apply(seat, rng.choice(legal))
            steps += 1
            if _total(state) != start:
                raise SystemExit(f"{name} seats={seats} seed={seed}: jetons not conserved at step {steps}")
            if steps > 50_000:
                raise SystemExit(f"{name} seats={seats} seed={seed}: session never ends")
        if sum(state.stacks) != start:
            raise SystemExit(f"{name} seats={seats} seed={seed}: jetons left in the pot at the end")
        actions += steps
    return actions


def clone_cost_us(name: str, seats: int, samples: int = 20_000) -> float:
    """Median cost of ``state.clone()`` in µs, over states taken along a random session."""
    game = GAMES[name]
    state = game.new_table(seats=seats, options=game.validate_options({}), seed=42)
    rng = random.Random(42)
    states = []
    while not state.is_over() and len(states) < 40:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(state.clone())
    per_state = max(1, samples // len(states))
    timings = []
    for s in states:
        t = clock()
        for _ in range(per_state):
            s.clone()
        timings.append((clock() - t) / per_state * 1e6)
    return statistics.median(timings)


def openspiel_euchre(budget_s: float) -> tuple[int, float] | None:
    """Random play of OpenSpiel's euchre (actions, seconds), or None if not installed."""
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(1)
    actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < budget_s:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions, time.perf_counter() - t0


def loop_calibration_ms() -> float:
    t = time.perf_counter()
    for _ in range(10**7):
        pass
    return (time.perf_counter() - t) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=None, help="game names (default: all in GAMES)")
    ap.add_argument("--quick", action="store_true", help="0.5 s per measurement instead of 2 s")
    ap.add_argument("--sessions", type=int, default=0, help="also play N checked sessions per game")
    ap.add_argument("--compare", action="store_true", help="also time OpenSpiel's euchre")
    ap.add_argument("--cpu", action="store_true", help="time with CPU time, not the wall clock")
    ap.add_argument("--root", default=ROOT, help="checkout whose bot/ to measure (default: this one)")
    args = ap.parse_args()
    global clock
    if args.cpu:
        clock = time.process_time
    sys.path.insert(0, os.path.abspath(args.root))
    from bot.rules import GAMES as games

    GAMES.update(games)
    names = args.games or list(GAMES)
    budget = 0.5 if args.quick else 2.0
    origin = os.path.dirname(os.path.dirname(sys.modules["bot"].__file__ or ""))
    print(f"python {sys.version.split()[0]}; 10**7 empty loop: {loop_calibration_ms():.0f} ms; "
          f"bot from {origin}; {'CPU time' if args.cpu else 'wall clock'}")
    print(f"{'game':10} {'seats':>5} {'actions/s':>11} {'sessions/s':>11} {'clone µs':>9}")
    best: dict[str, float] = {}
    for name in names:
        if name not in GAMES:
            print(f"{name}: not in GAMES")
            continue
        game = GAMES[name]
        for seats in sorted({game.min_seats, game.default_seats or game.min_seats, game.max_seats}):
            actions, sessions, secs = random_play(name, seats, budget)
            clone = clone_cost_us(name, seats)
            rate = actions / secs
            best[name] = max(best.get(name, 0), rate)
            print(f"{name:10} {seats:>5} {rate:>11,.0f} {sessions / secs:>11,.1f} {clone:>9.2f}")
    if args.sessions:
        for name in names:
            game = GAMES.get(name)
            if game is None:
                continue
            sizes = sorted({game.min_seats, game.max_seats, (game.min_seats + game.max_seats) // 2})
            t = time.perf_counter()
            total = 0
            for i, seats in enumerate(sizes):
                share = args.sessions // len(sizes) + (1 if i < args.sessions % len(sizes) else 0)
                total += checked_sessions(name, seats, share)
            print(f"{name}: {args.sessions} checked sessions ({total:,} actions) in "
                  f"{time.perf_counter() - t:.1f} s, no invariant break")
    if args.compare:
        res = openspiel_euchre(budget)
        if res is None:
            print("OpenSpiel not installed (pip install open_spiel): no comparison")
        else:
            os_rate = res[0] / res[1]
            print(f"openspiel euchre: {os_rate:,.0f} actions/s (random play from Python)")
            for name, rate in best.items():
                print(f"  {name}: {rate / os_rate:.2f}× OpenSpiel euchre")


if __name__ == "__main__":
    main()
