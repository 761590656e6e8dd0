"""Render benchmark: ms per table image and per hand image (p50, p95) and PNG bytes, per game.

Views come from the real engines (``GAMES[name].new_table`` plus random moves); a game whose
engine is missing falls back to the fixed sample view of ``tests/render/samples.py``.
Sprites are warmed first (they are drawn once per process). Targets: table p50 ≤ 15 ms,
hand p50 ≤ 8 ms, PNG ≤ 100 kB.

Replays (issue 16): the longest deal of ``--replays`` random sessions of Marias and the Jeu du
Maître, rendered whole (one frame per move) as animated WebP (spectator and revealed) and GIF.
Targets: ≤ 1.5 s and ≤ 2 MB per replay.

    .venv/bin/python bench/render.py [--views 40] [--repeat 3] [--replays 5] [--lang cs]
                                     [--cpu] [--root ../other-checkout]

``--lang`` draws the table and hand words in a language of the catalogues (default: the English
source text, no catalogue), to measure what the translation lookups cost. ``--cpu`` times the
images with this process's CPU time instead of the wall clock (a shared machine's load moves
wall-clock figures 2–3×, CPU time far less), and ``--root`` renders with another checkout's
``bot`` (as ``bench/engines.py --root``), so two versions compare under the same conditions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

#: The checkout whose ``bot`` is measured: ``--root`` is read before ``bot`` is imported.
ROOT = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--root"),
            str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(ROOT).resolve()))

from bot.render import hand_image, table_image  # noqa: E402
from bot.render.hand import playable_cards  # noqa: E402
from bot.rules import GAMES  # noqa: E402

ORDER = ("motz", "michigan", "mus", "marias", "maitre")
clock = time.perf_counter  # time.process_time with --cpu


def real_views(name: str, count: int, seed: int = 1) -> list[tuple[dict[str, Any], dict[str, Any], set[str]]]:
    """``count`` (spectator view, acting seat's view, its playable cards) from random play."""
    game = GAMES[name]
    seats = game.default_seats
    out = []
    state = game.new_table(seats=seats, options=game.validate_options({}), seed=seed)
    rng = random.Random(seed)
    while len(out) < count:
        if state.is_over():
            seed += 1
            state = game.new_table(seats=seats, options=game.validate_options({}), seed=seed)
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        out.append((state.view(None), state.view(seat), playable_cards(legal)))
        state.apply(seat, rng.choice(legal))
    return out


def sample_views(name: str) -> list[tuple[dict[str, Any], dict[str, Any], set[str]]]:
    from tests.render.samples import HANDS, SAMPLES

    hand, playable = HANDS[name]
    return [(SAMPLES[name], {**SAMPLES[name], "hand": hand}, playable or set())]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def bench(name: str, views: int, repeat: int, lang: str | None = None,
          look: str | None = None) -> dict[str, Any]:
    source = "engine" if name in GAMES else "sample"
    cases = real_views(name, views) if name in GAMES else sample_views(name)
    n = len(cases[0][0].get("stacks") or [])
    names = [f"Player {i + 1}" for i in range(n)]
    words: tuple[Any, ...] = ()
    if lang or look:
        from bot.i18n import translator

        tr = translator(lang or "en")
        if look:  # "pack:faces", e.g. "french:four_colour" (issue 30): the cards as a reader chose them
            from bot.rules.looks import resolve

            pack, _, faces = look.partition(":")
            tr = tr.dressed(resolve(GAMES[name].pack_choices, pack or None, faces or None))
        words = (tr,)
    for spectator, own, playable in cases:  # warm the sprite cache
        table_image(name, spectator, names, *words)
        hand_image(name, own, playable, *words)
    table_ms, hand_ms, table_bytes, hand_bytes = [], [], [], []
    for _ in range(repeat):
        for spectator, own, playable in cases:
            t0 = clock()
            png = table_image(name, spectator, names, *words)
            t1 = clock()
            hpng = hand_image(name, own, playable, *words)
            t2 = clock()
            table_ms.append((t1 - t0) * 1000)
            hand_ms.append((t2 - t1) * 1000)
            table_bytes.append(len(png))
            hand_bytes.append(len(hpng))
    return {
        "game": name, "source": source, "samples": len(table_ms),
        "table_p50": statistics.median(table_ms), "table_p95": pct(table_ms, 0.95),
        "hand_p50": statistics.median(hand_ms), "hand_p95": pct(hand_ms, 0.95),
        "table_kb_mean": statistics.mean(table_bytes) / 1000, "table_kb_max": max(table_bytes) / 1000,
        "hand_kb_max": max(hand_bytes) / 1000,
    }


def replay_cases(name: str, sessions: int) -> list[tuple[Any, list[str]]]:
    """The longest deal (frames with hands) of each of ``sessions`` random sessions of ``name``."""
    from bot.store.tables import ActionRow
    from bot.tables.deals import deal_frames, deals_of
    from bot.tables.replay import SessionLog

    game = GAMES[name]
    n = game.default_seats or game.min_seats
    options = game.validate_options({})
    out = []
    for seed in range(1, sessions + 1):
        state = game.new_table(n, options, seed)
        rng = random.Random(seed)
        log = []
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            log.append(ActionRow(len(log), seat, action, "ai", 0.0))
        deals = deals_of(SessionLog(game, n, options, seed, log), str)
        longest = max(deals, key=lambda d: d.last - d.first)
        out.append((deal_frames(SessionLog(game, n, options, seed, log), longest.number, reveal=True),
                    [f"Player {i + 1}" for i in range(n)]))
    return out


def bench_replays(name: str, sessions: int, lang: str | None = None) -> dict[str, Any]:
    from bot.i18n import translator
    from bot.render.replay import replay_image
    from bot.rules.base import PLAIN

    tr = translator(lang) if lang else PLAIN
    cases = replay_cases(name, sessions)
    replay_image(name, cases[0][0].views[:2], cases[0][1])  # warm the sprites
    out: dict[str, Any] = {"game": name, "frames": max(len(df.views) for df, _ in cases)}
    for kind in ("webp", "revealed", "gif"):
        ms, cpu, kb = [], [], []
        for df, names in cases:
            t0, c0 = time.perf_counter(), time.process_time()
            data = replay_image(name, df.views, names, df.hands if kind == "revealed" else None,
                                "gif" if kind == "gif" else "webp", tr)
            ms.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            kb.append(len(data) / 1000)
        out[kind] = (statistics.median(ms), max(ms), max(kb), statistics.median(cpu))
    return out


def loop_ms() -> float:
    """The machine-speed yardstick of notes/performance-facts.md."""
    t0 = time.perf_counter()
    for _ in range(10**7):
        pass
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=40, help="views per game from random play")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the views")
    parser.add_argument("--replays", type=int, default=5, help="sessions per game for the replay figures")
    parser.add_argument("--lang", default=None, help="words in this catalogue language (en, fr, es, cs)")
    parser.add_argument("--look", default=None,
                        help="cards in this pack:faces, e.g. french:four_colour or :large (issue 30)")
    parser.add_argument("--cpu", action="store_true", help="time with CPU time, not the wall clock")
    parser.add_argument("--root", default=ROOT, help="checkout whose bot/ to measure (default: this one)")
    args = parser.parse_args()
    global clock
    if args.cpu:
        clock = time.process_time
    lang = (f" --lang {args.lang}" if args.lang else "") + (f" --look {args.look}" if args.look else "")
    extra = (" --cpu" if args.cpu else "") + (f" --root {args.root}" if "--root" in sys.argv else "")
    print(f"command: .venv/bin/python bench/render.py --views {args.views} --repeat {args.repeat} "
          f"--replays {args.replays}{lang}{extra}")
    import bot

    print(f"yardstick: range(10**7) loop {loop_ms():.0f} ms; bot from {Path(bot.__file__).parent.parent}; "
          f"{'CPU time' if args.cpu else 'wall clock'}")
    head = f"{'game':9} {'src':6} {'n':>4}  {'table p50':>9} {'p95':>6}  {'hand p50':>8} {'p95':>6}  " \
           f"{'table kB mean':>13} {'max':>6}  {'hand kB max':>11}"
    print(head)
    for name in ORDER:
        r = bench(name, args.views, args.repeat, args.lang, args.look)
        print(f"{r['game']:9} {r['source']:6} {r['samples']:>4}  {r['table_p50']:>7.2f}ms "
              f"{r['table_p95']:>4.1f}ms  {r['hand_p50']:>6.2f}ms {r['hand_p95']:>4.1f}ms  "
              f"{r['table_kb_mean']:>13.1f} "
              f"{r['table_kb_max']:>6.1f}  {r['hand_kb_max']:>11.1f}")
    if args.replays:
        print(f"replays: longest deal of {args.replays} sessions; wall ms p50 / max (CPU ms p50), kB max "
              "(targets 1500 ms, 2000 kB)")
        for name in ("marias", "maitre"):
            r = bench_replays(name, args.replays, args.lang)
            cells = "  ".join(f"{k} {r[k][0]:.0f}/{r[k][1]:.0f} ({r[k][3]:.0f}) ms {r[k][2]:.0f} kB"
                              for k in ("webp", "revealed", "gif"))
            print(f"{name:9} {r['frames']:>3} frames  {cells}")


if __name__ == "__main__":
    main()
