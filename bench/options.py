"""What reading a hostile ``options:`` text costs on the event loop (issue 26, item 8).

``/table new options:`` and its autocomplete (every keystroke) read the text with one regex. The
old pattern backtracked from every starting position of a long run of letters: quadratic. This
times, per text, the old reading (the old pattern, as ``parse_options`` used it: ``sub`` then
``findall``), the new pattern alone on the same text (no length cap, to show it is linear) and
the real ``parse_options`` now (which refuses anything over ``MAX_OPTIONS_TEXT`` before reading).

    python bench/options.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cogs.errors import UserError  # noqa: E402
from bot.cogs.options import _PAIR, MAX_OPTIONS_TEXT, parse_options  # noqa: E402
from bot.rules import GAMES  # noqa: E402

OLD_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^\s,;]+)")

TEXTS = {
    "ante=2 rotations=3 (legitimate)": "ante=2 rotations=3",
    "1,500 letters": "x" * 1500,
    "3,000 letters": "x" * 3000,
    "6,000 letters": "x" * 6000,
    "6,000: 'a' + spaces": "a" + " " * 5999,
}


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def read(pattern: re.Pattern[str], text: str) -> object:
    return pattern.sub("", text), pattern.findall(text)


def parse_now(text: str) -> object:
    try:
        return parse_options(text, GAMES["motz"])
    except UserError as exc:
        return exc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"MAX_OPTIONS_TEXT = {MAX_OPTIONS_TEXT}")
    print("| text | old pattern (before) ms | new pattern, uncapped ms | parse_options now ms |")
    print("|---|---:|---:|---:|")
    for name, text in TEXTS.items():
        old = best_ms(lambda t=text: read(OLD_PAIR, t), args.repeat)
        new = best_ms(lambda t=text: read(_PAIR, t), args.repeat)
        now = best_ms(lambda t=text: parse_now(t), args.repeat)
        print(f"| {name} | {old:.3f} | {new:.3f} | {now:.4f} |")


if __name__ == "__main__":
    main()
