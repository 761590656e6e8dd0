"""Ceiling: the arena with side A's search reading the real deal (a peeking player, bench only).

Usage (from the project root; every option of ``bench/arena.py`` is accepted):
    python research/ceiling.py michigan --a strong --b easy --iterations 1600 --budget-ms 1e9 --sessions 200
    python research/ceiling.py motz --a expert --b strong --iterations 200 --budget-ms 1e9 --seats 4

Side A's determinizer is replaced by a plain copy of the real state, so every hidden card
(the other hands, the stock, the dead hand) is known to its search; its search, rollouts,
opponent model and prior are otherwise the shipped ones. No level of the bot can do this (the
determinizers only redeal hidden cards, and ``tests/ai/test_no_peeking.py`` proves it): the
figure is an upper bound on what better inference can buy the same search, used to tell
whether a win-rate bar is within reach of an honest player. Side A must be ``strong`` against
a non-searching side (``easy``/``random``), or ``expert`` against ``strong`` (the peeking copy is
then the expert's override only, so strong still determinizes honestly).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

import arena  # noqa: E402  (bench/arena.py)

from bot.ai.registry import game_ai, spec_for  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def peeking_copy(state: Any, seat: int, rng: Any) -> Any:
    """The real state itself, copied (Michigan's copy gets its own ``hand_only`` config, as the
    honest determinizer's does, so the search stops at the end of the hand)."""
    c = state.clone()
    cfg = getattr(c, "cfg", None)
    if cfg is not None and hasattr(cfg, "hand_only"):
        c.cfg = copy.copy(cfg)
        c.cfg.hand_only = True
    return c


def install(game: str, level_a: str, level_b: str) -> None:
    """Make side A's search peek (see the module docstring for the allowed pairs)."""
    spec = spec_for(game)
    if level_a == "strong" and level_b in ("easy", "random"):
        game_ai(game).spec = dataclasses.replace(spec, determinize=peeking_copy)
    elif level_a == "expert" and level_b == "strong":
        overrides = tuple(o for o in spec.expert_overrides if o[0] != "determinize")
        game_ai(game).spec = dataclasses.replace(
            spec, expert_overrides=(*overrides, ("determinize", peeking_copy)),
        )
    else:
        raise SystemExit("ceiling: --a strong against easy/random, or --a expert against strong")


def main(argv: list[str]) -> int:
    """Parse the arena's own options, install the peeking side, run the arena."""
    game = argv[0] if argv else ""
    a = argv[argv.index("--a") + 1] if "--a" in argv else "easy"
    b = argv[argv.index("--b") + 1] if "--b" in argv else "random"
    if game not in GAMES:
        raise SystemExit(f"ceiling: no search spec for game {game!r}")
    install(game, a, b)
    print("(ceiling: side A's search reads the real deal)")
    return arena.main(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
