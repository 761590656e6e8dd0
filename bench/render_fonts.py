"""What image text's fallback faces cost (bot/render/fonts.py): RSS and time, in one fresh process.

Renders one image of each kind (table, hand, leaderboard, standings, decision review, replay,
profile) with Latin names first (DejaVu only: the warm baseline), then the same images with
names DejaVu lacks (emoji, CJK, Hangul, a ZWJ sequence, a flag), and prints the process's RSS
after each step and the time of the second pass (character maps read, fallback faces opened on
this thread at each size used), then the same images on a second thread (which opens its own
faces, as each worker of ``asyncio.to_thread`` does). ``--root`` renders with another checkout's
``bot``, e.g. the commit before the chain, where the same names are drawn as boxes.

    python bench/render_fonts.py [--root ../other-checkout]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--root"),
            str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(ROOT).resolve()))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests.render.samples, from this checkout

LATIN = ["Alice", "Bruno", "Chloé", "Dmitri", "Eve", "Finn"]
OTHER = ["🎲 Marie", "雪", "김민수", "👨\u200d👩\u200d👧 Dad", "🇫🇷 Jean", "さくら🌸"]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def font_pages_mb() -> float:
    """The part of RSS that is the font files' pages (mapped by FreeType: clean, shared, reclaimable)."""
    total, in_font = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if line[:1].isdigit() or line[:1] in "abcdef" and "-" in line.split()[0]:
            in_font = line.rstrip().endswith(".ttf")
        elif in_font and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total / 1024


def every_kind(names: list[str]) -> None:
    """One image of each kind with ``names``."""
    from bot.render import hand_image, leaderboard_image, table_image
    from bot.render.profile import profile_image
    from bot.render.replay import replay_image
    from bot.render.review import decision_image
    from bot.render.standings import standings_image
    from bot.tournaments.standings import Standing
    from tests.render.samples import HANDS, SAMPLES

    for game, view in SAMPLES.items():
        seats = names[: len(view["stacks"])]
        table_image(game, view, seats)
        hand, playable = HANDS[game]
        own: dict[str, Any] = {**view, "hand": hand}
        hand_image(game, own, playable)
        decision_image(game, own, seats, "the ace", "the king", "blunder", (None, None))
        replay_image(game, [view, view], seats)
    leaderboard_image([{"name": n, "jetons": 100 * i, "games": i} for i, n in enumerate(names)])
    standings_image([Standing(entrant=i, name=n, rank=i + 1) for i, n in enumerate(names)], "Cup", True)
    profile_image(names[0], 1, [])


def main() -> None:
    import bot

    print(f"bot from {Path(bot.__file__).parent.parent}")
    start = rss_mb()
    t0 = time.perf_counter()
    every_kind(LATIN)
    t1 = time.perf_counter()
    latin = rss_mb()
    every_kind(OTHER)
    t2 = time.perf_counter()
    other = rss_mb()
    every_kind(OTHER)
    t3 = time.perf_counter()
    import threading

    worker = threading.Thread(target=every_kind, args=(OTHER,))
    worker.start()
    worker.join()
    thread = rss_mb()
    print(f"RSS after import {start:.1f} MB; after every kind, Latin names {latin:.1f} MB ({t1 - t0:.2f} s); "
          f"then with emoji/CJK/Hangul names {other:.1f} MB (+{other - latin:.1f} MB, {t2 - t1:.2f} s); "
          f"again, warm: {t3 - t2:.2f} s; on a second thread (its own faces) {thread:.1f} MB "
          f"(+{thread - other:.1f} MB); font files' pages in RSS {font_pages_mb():.1f} MB")


if __name__ == "__main__":
    main()
