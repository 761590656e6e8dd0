"""Cost of finding a channel's open tables (``TableService.tables_in_channel``) as the process holds
more open tables: every ``table:`` autocomplete (each keystroke) and every command naming no table
pays it once. And of a member leaving a server where they sit nowhere (``TableService.member_gone``):
one per GUILD_MEMBER_REMOVE, thousands at once when a server prunes its members.

    python bench/channel_lookup.py [--root CHECKOUT] [--tables 1000,5000,20000] [--calls 2000]

``--root``: import the bot from another checkout (e.g. ``/work/main``, for "before"). The registry
is filled with stand-in sessions (a table's id, status, channel and thread: all the lookup reads),
500 channels in 250 servers, each call looking up one of them; the figure is the mean time per call.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
ROOT = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--root"), str(HERE))
sys.path.insert(0, str(Path(ROOT).resolve()))

CHANNELS = 500
GUILDS = 250


@dataclass
class StandInPlan:
    invited: dict[int, int] = field(default_factory=dict)


@dataclass
class StandInTable:
    id: int
    channel_id: int
    guild_id: int
    status: str = "playing"
    extra_messages: dict[str, Any] = field(default_factory=dict)
    plan: StandInPlan = field(default_factory=StandInPlan)

    def seat_of(self, user_id: int | None) -> int | None:
        return None

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "playing")


@dataclass
class StandInSession:
    table: StandInTable


async def per_call(n: int, calls: int) -> tuple[float, float]:
    """Mean seconds per ``tables_in_channel`` and per ``member_gone`` call with ``n`` open tables."""
    from bot.tables.service import TableService
    from bot.tables.session import Runtime

    service = TableService.__new__(TableService)
    registry = Runtime.__dataclass_fields__["sessions"].default_factory()  # type: ignore[misc]
    service.rt = type("Rt", (), {"sessions": registry})()  # type: ignore[assignment]
    for i in range(1, n + 1):
        registry[i] = StandInSession(StandInTable(i, 10_000 + i % CHANNELS, i % GUILDS))
    start = time.perf_counter()
    for k in range(calls):
        found = await service.tables_in_channel(10_000 + k % CHANNELS)
        assert all(t.channel_id == 10_000 + k % CHANNELS for t in found) and (found or n < CHANNELS)
    lookup = (time.perf_counter() - start) / calls
    start = time.perf_counter()
    for k in range(calls):
        assert await service.member_gone(k % GUILDS, 1) == []
    return lookup, (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=str(HERE))
    parser.add_argument("--tables", default="1000,5000,20000")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    print(f"root {args.root}")
    for n in (int(x) for x in args.tables.split(",")):
        lookup, gone = asyncio.run(per_call(n, args.calls))
        print(f"{n:>6} open tables: {lookup * 1e3:8.3f} ms per lookup, {gone * 1e3:8.3f} ms per removal")


if __name__ == "__main__":
    main()
