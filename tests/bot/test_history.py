"""/history through the stand-in: sessions played for real, pages, a session's deals, a deal's story."""

from __future__ import annotations

import re

import pytest

from bot.rules import GAMES
from bot.store import tables as store
from bot.tables.deals import deals_of
from bot.tables.replay import SessionLog
from tests.backends import BACKENDS
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

TITLE = GAMES["marias"].title


async def finish_by_ai(stub: DiscordStub, tapis: TapisRun, humans: list[User], table_id: int) -> None:
    """Every human leaves once a deal is under way: the AI plays it out and, nobody being present,
    the session ends with that deal (issue 13; left before any move, the deal would be voided)."""
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    if table.version == 0 and table.to_act_users():
        user = table.to_act_users()[0]
        await tapis.tables.act(table_id, user, 0, table.state.legal_actions(table.seat_of(user))[0])
    for user in humans:
        await tapis.tables.leave(table_id, user.id)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.status == "finished"


async def service_session(tapis: TapisRun, stub: DiscordStub, host: User, game: str = "motz") -> int:
    """A whole session at the service level (faster than clicks): host + AI seats, played by the AI."""
    t = await tapis.tables.create(stub.guild.id, stub.channel.id, host.id, host.name, game, {})
    while len(t.seats) < t.capacity:
        await tapis.tables.add_ai(t.id, host.id)
    await tapis.tables.start(t.id, host.id)
    await finish_by_ai(stub, tapis, [host], t.id)
    return t.id


@pytest.mark.parametrize("backend", BACKENDS)
async def test_history_lists_opens_a_session_and_tells_a_deal(stub: DiscordStub, tapis: TapisRun,
                                                                 players: list[User]) -> None:
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    table = await tapis.tables.get(table_id)
    mine = table.results[table.seat_of(alice.id)]

    inter = await stub.slash("history", alice, stub.channel)
    msg = inter.last
    jetons = "jeton" if abs(mine) == 1 else "jetons"
    assert inter.ephemeral and f"**#{table_id}** {TITLE}" in msg.text
    assert f"**{mine:+d}** {jetons} · ".replace("-", "−") in msg.text  # a true minus sign
    assert not [b for b in msg.items() if b.get("type") == 2]  # one page: no page buttons

    # open the session: one line per deal, replayed from the log
    await stub.choose(msg, alice, [str(table_id)])
    actions = await tapis.db.run(store.load_actions, table_id)
    names = [s.name for s in table.seats]
    deals = deals_of(SessionLog(GAMES["marias"], 3, table.options, table.seed, actions), lambda s: names[s])
    assert deals and sum(sum(d.deltas or [0]) for d in deals) == 0
    assert f"Table #{table_id} · {TITLE}" in msg.text
    for d in deals:
        assert f"Deal {d.number}" in msg.text
    assert sum(d.deltas[table.seat_of(alice.id)] for d in deals if d.deltas) == mine

    # open deal 1: its narration and per-seat result
    deal_select = msg.selects()[0]
    assert deal_select["custom_id"] == f"tapis:{table_id}:{table.version}:hdeal:{alice.id}.any.1"
    await stub.choose(msg, alice, ["1"])
    first = deals[0]
    assert "· Deal 1" in msg.text and first.lines[-1][:200] in msg.text
    assert " · ".join(f"{n} {d:+d}".replace("-", "−") for n, d in zip(names, first.deltas, strict=True)) \
        in msg.text

    # out-of-date and forged ids are refused, nothing edited
    before = msg.text
    stale = await stub.choose(msg, alice, ["1"], custom_id=f"tapis:{table_id}:{table.version - 1}:hdeal:"
                                                          f"{alice.id}.any.1")
    assert stale.ephemeral and "out of date" in stale.text
    other = await stub.choose(msg, carol, [str(table_id)], custom_id=f"tapis:0:0:hopen:{carol.id}.any.1")
    assert "no finished session" in other.text
    bad = await stub.click(msg, alice, custom_id=f"tapis:0:0:hist:{alice.id}.poker.1")
    assert "not valid" in bad.text
    gone = await stub.click(msg, alice, custom_id=f"tapis:0:3:hist:{alice.id}.any.1")
    assert "does not exist any more" in gone.text
    assert msg.text == before

    # bob's history as seen by carol, and a game filter with nothing in it
    seen = await stub.slash("history", carol, stub.channel, user=bob)
    assert f"**#{table_id}**" in seen.text and "History — bob" in seen.text
    empty = await stub.slash("history", alice, stub.channel, game="mus")
    assert "No finished session yet." in empty.text


async def test_history_pages_are_frozen_at_the_first_page(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    alice = players[0]
    tables = [await service_session(tapis, stub, alice) for _ in range(6)]
    inter = await stub.slash("history", alice, stub.channel, game="motz")
    msg = inter.last
    assert "Page 1 of 2 · 6 sessions" in msg.text
    assert all(f"**#{t}**" in msg.text for t in tables[1:]) and f"**#{tables[0]}**" not in msg.text
    newer = await service_session(tapis, stub, alice)  # ends while the list is open
    await stub.click(msg, alice, "Older ▶")
    assert "Page 2 of 2" in msg.text and f"**#{tables[0]}**" in msg.text and f"**#{newer}**" not in msg.text
    await stub.click(msg, alice, "◀ Newer")
    assert f"**#{tables[-1]}**" in msg.text and f"**#{newer}**" not in msg.text


async def test_every_deal_of_a_long_session_is_two_choices_away(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    """A session of more deals than a select holds (25): a second select picks the deals 1–25, 26–50…
    and the list and the deal select show that part, so any deal is two choices away (it took one
    choice per 12 deals, each re-centring the select on the deal chosen)."""
    alice = players[0]
    t = await tapis.tables.create(stub.guild.id, stub.channel.id, alice.id, alice.name, "motz",
                                  {"rotations": 8})
    while len(t.seats) < t.capacity:
        await tapis.tables.add_ai(t.id, alice.id, "first")
    await tapis.tables.start(t.id, alice.id)
    while True:  # alice plays her first legal move each time, the AI the other seats
        await tapis.settle()
        t = await tapis.tables.get(t.id)
        if t.status != "playing":
            break
        if alice.id in t.to_act_users():
            await tapis.tables.act(t.id, alice.id, t.version, t.state.legal_actions(t.seat_of(alice.id))[0])
    assert t.status == "finished"
    actions = await tapis.db.run(store.load_actions, t.id)
    deals = deals_of(SessionLog(GAMES["motz"], len(t.seats), t.options, t.seed, actions), str)
    assert len(deals) > 26

    inter = await stub.slash("history", alice, stub.channel)
    msg = inter.last
    await stub.choose(msg, alice, [str(t.id)])
    deal_select, parts = msg.selects()
    assert [o["value"] for o in deal_select["options"]] == [str(n) for n in range(1, 26)]
    assert [o["label"] for o in parts["options"]][:2] == ["Deals 1–25", f"Deals 26–{min(50, len(deals))}"]
    assert [o.get("default") for o in parts["options"]][:2] == [True, False]
    assert parts["custom_id"] == f"tapis:{t.id}:{t.version}:hpart:{alice.id}.any.1"
    assert len(msg.items()) <= 25 and len(msg.components) <= 5
    await stub.choose(msg, alice, ["26"], custom_id=parts["custom_id"])
    deal_select, parts = msg.selects()
    assert {"26", str(len(deals))} <= {o["value"] for o in deal_select["options"]}
    assert [o["value"] for o in parts["options"] if o.get("default")] == ["26"]
    listed = set(re.findall(r"^Deal (\d+)(?: \(cancelled\))?:", msg.text, re.M))  # a cancelled deal says so
    assert {str(len(deals)), "26"} <= listed and "25" not in listed
    await stub.choose(msg, alice, [str(len(deals))], custom_id=deal_select["custom_id"])
    assert f"· Deal {len(deals)}" in msg.text
    # a part out of range or of an out-of-date id is refused, nothing edited
    before = msg.text
    beyond = await stub.choose(msg, alice, [str(len(deals) + 1)], custom_id=parts["custom_id"])
    assert beyond.ephemeral and "does not exist" in beyond.text
    old_id = f"tapis:{t.id}:{t.version - 1}:hpart:{alice.id}.any.1"
    stale = await stub.choose(msg, alice, ["1"], custom_id=old_id)
    assert stale.ephemeral and "out of date" in stale.text
    assert msg.text == before


async def test_a_sessions_deals_are_replayed_once_for_its_clicks(stub: DiscordStub, tapis: TapisRun,
                                                                  players: list[User],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every click on a session of /history, or on one of its deals, read its log and replayed the
    whole session again, at a cost that grows with the session's length, as fast as a member could
    click. A finished session never changes: it is replayed once per language, the replays kept
    bounded (``SESSIONS_KEEP``)."""
    import bot.tables.deals as deals_module
    import bot.views.history as history

    monkeypatch.setattr(history, "_sessions", history.weakref.WeakKeyDictionary())
    monkeypatch.setattr(history, "SESSIONS_KEEP", 2)
    replays: list[int] = []
    real = deals_module.deals_of

    def counting(log, name, tr):  # type: ignore[no-untyped-def]
        replays.append(log.seed)
        return real(log, name, tr)

    monkeypatch.setattr(deals_module, "deals_of", counting)
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    msg = (await stub.slash("history", alice, stub.channel)).last
    await stub.choose(msg, alice, [str(table_id)])
    assert "· Deal" not in msg.text and "Deal 1" in msg.text
    for _ in range(10):  # a member clicking the first deal again and again
        await stub.choose(msg, alice, ["1"])
    assert "· Deal 1" in msg.text
    assert len(replays) == 1
    seen = (await stub.slash("history", bob, stub.channel)).last  # bob too: the same replay
    await stub.choose(seen, bob, [str(table_id)])
    assert len(replays) == 1
    others = [await service_session(tapis, stub, carol) for _ in range(2)]
    for other in others:  # two more sessions opened: the first one's replay is let go
        page = (await stub.slash("history", carol, stub.channel)).last
        await stub.choose(page, carol, [str(other)])
    assert len(replays) == 3 and len(history._sessions[tapis.bot]) == 2


async def test_sessions_are_read_back_one_at_a_time_per_member(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a session of /history replays it whole in a thread (until it is kept): a member's clicks
    on a player's many sessions (a forged select value opens any of them) ran as many replays at once
    as they sent. One per member at a time, ``READS_AT_ONCE`` bot-wide; kept sessions open as before."""
    import asyncio
    import threading

    import bot.tables.deals as deals_module
    from bot.views.history import BUSY_READING, BUSY_READS, reads

    alice, bob = players[:2]
    first, second = [await service_session(tapis, stub, alice) for _ in range(2)]
    message = (await stub.slash("history", alice, stub.channel)).last
    select = message.selects()[0]["custom_id"]
    release, entered = threading.Event(), threading.Event()
    real = deals_module.deals_of

    def held(*args: object) -> object:
        entered.set()
        release.wait(30)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(deals_module, "deals_of", held)
    opening = asyncio.ensure_future(stub.choose(message, alice, [str(first)], custom_id=select))
    try:
        await asyncio.to_thread(entered.wait, 30)
        again = await stub.choose(message, alice, [str(second)], custom_id=select)
        assert again.ephemeral and again.text.endswith(BUSY_READING), again.text
        reads(tapis.bot).capacity = 1  # bot-wide: bob's click on alice's other session waits too
        theirs = (await stub.slash("history", bob, stub.channel, user=alice)).last
        busy = await stub.choose(theirs, bob, [str(second)], custom_id=theirs.selects()[0]["custom_id"])
        assert busy.ephemeral and busy.text.endswith(BUSY_READS), busy.text
    finally:
        release.set()
    opened = await opening
    assert opened.callback_type == 7 and f"Table #{first}" in message.text
    monkeypatch.undo()
    assert not reads(tapis.bot).running
    later = await stub.choose(message, alice, [str(second)], custom_id=select)
    assert later.callback_type == 7 and f"Table #{second}" in message.text
