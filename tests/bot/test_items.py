"""Issue 19 point 1: the dynamic items live with the handlers and parse their own id; the
components are plain buttons and selects with the same ids.

End to end (forged ids refused with "not valid", foreign ids "no longer in use") is covered by
``test_hostile.py`` and ``test_hostile_input.py``; here, the pieces themselves.
"""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import discord

from bot.views import ids
from bot.views.components import lobby_view
from bot.views.handlers import FOREIGN_TEMPLATE, TEMPLATE, ForeignItem, TableItem


def _item(custom_id: str) -> TableItem:
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(label="x", custom_id=custom_id)
    match = re.fullmatch(TEMPLATE, custom_id)
    assert match is not None
    return asyncio.run(TableItem.from_custom_id(None, button, match))  # type: ignore[arg-type]


def test_the_item_parses_its_id() -> None:
    item = _item("tapis:7:3:mv:1.4")
    assert item.cid == ids.ComponentId(7, 3, "mv", "1.4")
    assert item.cid.seat_and_number() == (1, 4)


def test_a_forged_id_is_refused_by_the_check_and_a_good_one_passes_it() -> None:
    assert _item("tapis:not-an-id").cid is None
    assert _item("tapis:7:3:fold").cid is None  # no such verb
    # a parsed id passes the check without any reply (the interaction is never touched)
    assert asyncio.run(_item("tapis:7:3:join").interaction_check(None)) is True  # type: ignore[arg-type]


def test_the_templates_split_every_id_between_the_two_items() -> None:
    for custom_id in ("tapis:7:3:join", "tapis:\nweird", "other:1", "", "tapi"):
        ours = re.fullmatch(TEMPLATE, custom_id) is not None
        foreign = re.fullmatch(FOREIGN_TEMPLATE, custom_id) is not None
        assert ours != foreign, custom_id
    assert issubclass(ForeignItem, discord.ui.DynamicItem)


def test_components_are_plain_items_with_ids_the_item_parses() -> None:
    from bot.tables.model import SeatInfo
    from bot.tables.seats import LobbyPlan

    table: Any = SimpleNamespace(id=12, version=5, plan=LobbyPlan([0]), capacity=4, seats=[SeatInfo(1, "a")],
                                 host_id=1)
    view = lobby_view(table)
    children = view.children
    assert children and not any(isinstance(c, discord.ui.DynamicItem) for c in children)
    parsed = [ids.parse(c.custom_id) for c in children
              if isinstance(c, discord.ui.Button | discord.ui.Select) and c.custom_id]
    assert len(parsed) == len(children)
    assert {(p.table_id, p.version) for p in parsed if p is not None} == {(12, 5)}
    assert [p.verb for p in parsed if p is not None] == ["join", "leave", "ai", "ai", "ai", "start", "seat",
                                                         "host"]
