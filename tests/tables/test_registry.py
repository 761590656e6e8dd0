"""The registry of open tables keeps its channel and server indexes through every way a dict changes."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.tables.registry import Registry


def session(guild_id: int, channel_id: int, thread: int | None = None) -> Any:
    extra = {"thread": thread} if thread else {}
    table = SimpleNamespace(guild_id=guild_id, channel_id=channel_id, extra_messages=extra)
    return SimpleNamespace(table=table)


def test_every_way_in_and_out_keeps_the_indexes() -> None:
    reg = Registry()
    reg[1] = a = session(10, 100)
    reg.update({2: (b := session(10, 101, thread=900))})
    reg.setdefault(3, c := session(20, 100))
    assert reg.setdefault(3, session(30, 300)) is c  # an existing entry is kept
    assert reg.in_place(100) == [a, c] and reg.in_place(900) == [b] and reg.in_guild(10) == [a, b]
    assert reg.popitem() == (3, c)
    assert reg.in_place(100) == [a] and reg.in_guild(20) == []
    del reg[2]
    assert reg.in_place(900) == [] and reg.in_place(101) == [] and reg.in_guild(10) == [a]
    reg.clear()
    assert reg.in_place(100) == [] and reg.in_guild(10) == []
