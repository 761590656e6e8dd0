"""What the translation lookups cost: paired, interleaved timings in one process.

For each game, views from random play are rendered (table image) and shown (table embed, DM
embed, move labels, narration) three ways in turn, view by view: the English source text with
no catalogue (``PLAIN``), the English catalogue and the Czech one. Interleaving makes the ratios
robust to the machine's load, which moves absolute figures a lot on a shared machine.

    .venv/bin/python bench/i18n.py [--views 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import translator  # noqa: E402
from bot.render import table_image  # noqa: E402
from bot.rules import GAMES  # noqa: E402
from bot.rules.base import PLAIN  # noqa: E402

ORDER = ("motz", "michigan", "mus", "marias", "maitre")


def states(name: str, count: int, seed: int = 1) -> list[tuple[Any, list[dict[str, Any]]]]:
    """``count`` (state clone, events of the move that led there) from random play."""
    game = GAMES[name]
    state = game.new_table(seats=game.default_seats, options=game.validate_options({}), seed=seed)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        if state.is_over():
            seed += 1
            state = game.new_table(seats=game.default_seats, options=game.validate_options({}), seed=seed)
        seat = state.to_act()[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        if rng.random() < 0.3:
            out.append((state.clone(), events))
    return out


def text_work(name: str, state: Any, events: list[dict[str, Any]], tr: Any) -> int:
    """What the bot writes for one change: narration, the acting seat's labels, the embeds' words."""
    from bot.views.display import public_fields

    game = GAMES[name]
    size = 0
    for event in events:
        size += len(game.narrate(event, str, tr) or "")
    seat = state.to_act()[0] if state.to_act() else 0
    for action in state.legal_actions(seat):
        size += len(game.label(action, tr))
    size += len(public_fields(state.view(None), name, tr))
    size += len(public_fields(state.view(seat), name, tr))
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"command: .venv/bin/python bench/i18n.py --views {args.views} --repeat {args.repeat}")
    variants = {"source": PLAIN, "en": translator("en"), "cs": translator("cs")}
    print(f"{'game':9} {'image p50 source / en / cs (ms)':>34}   {'text p50 source / en / cs (µs)':>34}")
    ratios: dict[str, list[float]] = {"image": [], "text": []}
    for name in ORDER:
        cases = states(name, args.views)
        names = [f"Player {i + 1}" for i in range(len(cases[0][0].stacks))]
        image: dict[str, list[float]] = {k: [] for k in variants}
        text: dict[str, list[float]] = {k: [] for k in variants}
        for state, _ in cases[:3]:  # warm sprites and caches
            for tr in variants.values():
                table_image(name, state.view(None), names, tr)
        for _ in range(args.repeat):
            for state, events in cases:
                view = state.view(None)
                for key, tr in variants.items():
                    t0 = time.perf_counter()
                    table_image(name, view, names, tr)
                    t1 = time.perf_counter()
                    text_work(name, state, events, tr)
                    t2 = time.perf_counter()
                    image[key].append((t1 - t0) * 1000)
                    text[key].append((t2 - t1) * 1e6)
        med_i = {k: statistics.median(v) for k, v in image.items()}
        med_t = {k: statistics.median(v) for k, v in text.items()}
        ratios["image"].append(med_i["cs"] / med_i["source"])
        ratios["text"].append(med_t["cs"] / med_t["source"])
        print(f"{name:9} {med_i['source']:>10.2f} / {med_i['en']:.2f} / {med_i['cs']:.2f}"
              f"   {med_t['source']:>14.1f} / {med_t['en']:.1f} / {med_t['cs']:.1f}")
    print(f"image cs / source: {', '.join(f'{r:.3f}' for r in ratios['image'])}")
    print(f"text  cs / source: {', '.join(f'{r:.2f}' for r in ratios['text'])}")
    tr = translator("cs")
    n = 200_000
    t0 = time.perf_counter()
    for _ in range(n):
        tr._("{who} plays {card}.", who="Jana", card="Q♥")
    lookup = (time.perf_counter() - t0) / n * 1e9
    t0 = time.perf_counter()
    for _ in range(n):
        tr.n_("{n} jeton", "{n} jetons", 5)
    plural = (time.perf_counter() - t0) / n * 1e9
    print(f"one lookup + format: {lookup:.0f} ns; one plural lookup with a number: {plural:.0f} ns")


if __name__ == "__main__":
    main()
