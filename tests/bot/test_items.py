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
                                 host_id=1, game="motz")
    view = lobby_view(table)
    children = view.children
    assert children and not any(isinstance(c, discord.ui.DynamicItem) for c in children)
    parsed = [ids.parse(c.custom_id) for c in children
              if isinstance(c, discord.ui.Button | discord.ui.Select) and c.custom_id]
    assert len(parsed) == len(children)
    assert {(p.table_id, p.version) for p in parsed if p is not None} == {(12, 5)}
    assert [p.verb for p in parsed if p is not None] == ["join", "leave", "ai", "ai", "ai", "start", "seat",
                                                         "host"]


def _rows_fit(view: discord.ui.View) -> None:
    """Discord's layout: at most 5 rows, a select alone on its row with at most 25 options."""
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for child in view.children:
        rows.setdefault(child.row or 0, []).append(child)
    assert len(rows) <= 5 and all(0 <= r < 5 for r in rows)
    for items in rows.values():
        selects = [c for c in items if isinstance(c, discord.ui.Select)]
        assert not selects or len(items) == 1
        assert all(1 <= len(c.options) <= 25 for c in selects)


def test_every_host_choice_of_a_full_michigan_lobby_is_reachable() -> None:
    """8 seats (7 people and an AI): 7 removes, 6 hand-overs and 56 moves, all offered within
    Discord's limits: the lobby's select, then the seats of the player picked (``move_view``)."""
    from bot.rules import GAMES
    from bot.tables.model import SeatInfo
    from bot.tables.seats import LobbyPlan

    for seated in (8, 6):  # full, and with two free seats (moves to them too)
        seats = [SeatInfo(100 + n, f"p{n}") for n in range(seated - 1)] + [SeatInfo(None, "AI 1", ai=True)]
        table: Any = SimpleNamespace(id=12, version=5, plan=LobbyPlan(list(range(seated))), capacity=8,
                                     seats=seats, host_id=100, game="michigan", rules=GAMES["michigan"])
        who = ["ai" if s.ai else str(s.user_id) for s in seats]
        expected = {f"r.{p}.{who[p]}" for p in range(1, seated)}
        expected |= {f"h.{p}.{who[p]}" for p in range(1, seated - 1)}
        expected |= {f"m.{p}.{who[p]}.{to}" for p in range(seated) for to in range(8) if to != p}
        assert len(expected) == {8: 7 + 6 + 56, 6: 5 + 4 + 42}[seated]
        lobby = lobby_view(table)
        _rows_fit(lobby)
        [host] = [c for c in lobby.children
                  if isinstance(c, discord.ui.Select) and c.custom_id.endswith(":host")]
        reached = set()
        for option in host.options:
            if option.value.startswith("p."):  # a player picked: the seats they may move to
                from bot.views.components import move_view

                picker = move_view(table, int(option.value.split(".")[1]))
                _rows_fit(picker)
                [select] = picker.children
                assert isinstance(select, discord.ui.Select) and select.custom_id == host.custom_id
                reached |= {o.value for o in select.options}
            else:
                reached.add(option.value)
        assert not expected - reached, f"{len(expected - reached)} host choices out of reach"
        assert reached == expected
