"""Michigan ablations: side A's search reads PART of the real deal (bench only, never a level).

Usage (from the project root; every option of ``bench/arena.py`` follows the part):
    python research/michigan_peek.py dead michigan --a strong --b easy --iterations 200 --budget-ms 1e9
    python research/michigan_peek.py next michigan --a strong --b easy --iterations 200 --budget-ms 1e9

Parts: ``dead`` (the dead hand is read, the live cards are redealt among the other seats),
``next`` (the next seat's hand is read, the rest redealt), ``prev`` (the previous seat's).
The shipped determinizer runs otherwise (lead facts included); the read cards are simply kept
where they really are, as the engine keeps its ``known_dead`` cards. With ``research/ceiling.py``
(everything read) this says which hidden cards the search's inference should aim at.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

import arena  # noqa: E402  (bench/arena.py)

import bot.rules.michigan.state as mstate  # noqa: E402
from bot.ai.michigan import determinize as det  # noqa: E402
from bot.ai.registry import game_ai, spec_for  # noqa: E402
from bot.rules.michigan.tables import DEAD  # noqa: E402

_plain_known_dead = mstate.known_dead
_reading: dict[str, int] = {"seat": -1, "n": 0}


def _pinned(part: str) -> Any:
    def known(owner: list[int]) -> set[int]:
        out = _plain_known_dead(owner)
        seat = _reading["seat"]
        if seat < 0:
            return out
        if part == "dead":
            keep = DEAD
        else:
            n = _reading["n"]
            keep = (seat + 1) % n if part == "next" else (seat - 1) % n
        return out | {x for x in range(52) if owner[x] == keep}
    return known


def install(part: str) -> None:
    """Make every strong search (side A: run against easy) read ``part`` of the real deal."""
    mstate.known_dead = _pinned(part)
    honest = det.determinize

    def peeking(state: Any, seat: int, rng: Any) -> Any:
        _reading["seat"], _reading["n"] = seat, state.cfg.n
        try:
            return honest(state, seat, rng)
        finally:
            _reading["seat"] = -1

    game_ai("michigan").spec = dataclasses.replace(spec_for("michigan"), determinize=peeking)


def main(argv: list[str]) -> int:
    """``PART`` then the arena's own options."""
    part = argv[0] if argv else ""
    if part not in ("dead", "next", "prev"):
        raise SystemExit("michigan_peek: PART is dead, next or prev")
    install(part)
    print(f"(michigan_peek: side A's search reads the real {part})")
    return arena.main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
