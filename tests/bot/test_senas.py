"""Issue 30 item 4: Mus señas through the stand-in: a seña reaches the partner, and the opponents
only when the rules' deterministic draw says they caught it; an untruthful seña is refused; an AI
partner signals only what it holds."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.mus import senas
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import move_controls
from tests.discord_stub.tapis import TapisRun

OPTIONS = "target=30 senas=true"
PARTNER = "Your partner"
CAUGHT = "You caught"


def sena_select(message: Message) -> dict | None:
    return next((s for s in message.selects() if s["custom_id"].split(":")[3] == "sena"), None)


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch):
    """Pin the table's seed (``bot.tables.lobby`` draws it with ``secrets.randbits``)."""
    def pin(value: int) -> None:
        monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: value)
    return pin


async def start(stub: DiscordStub, tapis: TapisRun, host: User, guests: list[User], ai: int = 0,
                options: str = OPTIONS):
    await stub.slash("table new", host, stub.channel, game="mus", options=options)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    for guest in guests:
        await stub.click(lobby, guest, "Join")
    for _ in range(ai):
        await stub.click(lobby, host, "Add AI")
    await stub.click(lobby, host, "Start")
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    return await tapis.tables.get(table.id)


async def test_a_sena_reaches_the_partner_and_the_opponents_who_catch_it(
        stub: DiscordStub, tapis: TapisRun, players: list[User], seed) -> None:
    seed(2)  # the mano holds two aces; one opponent catches its seña, the other does not
    alice, bob, carol, dave = players
    table = await start(stub, tapis, alice, [bob, carol, dave])
    users = {u.id: u for u in players}
    seat = table.state.to_act()[0]
    signer = users[table.seats[seat].user_id]
    hand = table.state.hands[seat]
    held = senas.held(hand)
    dm = stub.dms(signer)[-1]
    select = sena_select(dm)
    assert select is not None and [o["value"] for o in select["options"]] == held
    # a seña the hand does not hold: refused (a forged value), nobody told
    lie = next(s for s in senas.IDS if s not in held)
    refused = await stub.choose(dm, signer, [lie], custom_id=select["custom_id"])
    assert refused.ephemeral and "does not hold" in refused.text, refused.text
    await tapis.settle()
    for u in players:
        assert all(PARTNER not in m.text and CAUGHT not in m.text for m in stub.dms(u))
    # a true one
    sena = held[0]
    made = await stub.choose(dm, signer, [sena], custom_id=select["custom_id"])
    assert made.ephemeral and "You signal" in made.text, made.text
    await tapis.settle()
    mate = users[table.seats[senas.partner(seat)].user_id]
    assert f"{PARTNER} {signer.name} signals" in stub.dms(mate)[-1].text
    caught = 0
    for opp in senas.opponents(seat):
        user = users[table.seats[opp].user_id]
        saw = senas.caught(table.seed or 0, table.state.k, table.state.mus_round, seat, sena, opp)
        caught += saw
        assert any(CAUGHT in m.text for m in stub.dms(user)) == saw, (opp, saw)
        assert all(PARTNER not in m.text for m in stub.dms(user))
    assert caught == 1
    assert all(CAUGHT not in m.text for m in stub.dms(mate))
    # the same seña again: refused
    again = await stub.choose(stub.dms(signer)[-1], signer, [sena], custom_id=select["custom_id"])
    assert again.ephemeral and ("already" in again.text or "not valid" in again.text.lower()), again.text


async def test_no_senas_without_the_option(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                           seed) -> None:
    seed(2)
    alice, bob, carol, dave = players
    table = await start(stub, tapis, alice, [bob, carol, dave], options="target=30")
    users = {u.id: u for u in players}
    seat = table.state.to_act()[0]
    signer = users[table.seats[seat].user_id]
    dm = stub.dms(signer)[-1]
    assert sena_select(dm) is None
    forged = f"tapis:{table.id}:{table.version}:sena:{seat}"
    refused = await stub.choose(dm, signer, [senas.IDS[0]], custom_id=forged)
    assert refused.ephemeral and "not allowed" in refused.text, refused.text


@pytest.mark.parametrize("value", [2, 9])
async def test_an_ai_partner_signals_only_what_it_holds(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User], seed, value: int) -> None:
    seed(value)  # 2: the AI partner (seat 2) holds nothing but ciego; 9: it holds no seña at all
    alice = players[0]
    table = await start(stub, tapis, alice, [], ai=3)
    seat = table.seat_of(alice.id)
    assert seat == 0
    mate = senas.partner(seat)
    book = table.senas
    mine = [m for m in book.current(table.state) if m.seat == mate]
    held = senas.held(table.state.hands[mate])
    assert [m.sena for m in mine] == held[:1]  # its first, and only what it holds
    assert bool(held) == (value == 2)
    shown = any(f"{PARTNER} " in m.text for m in stub.dms(alice))
    assert shown == bool(held)


async def test_an_ai_partner_is_given_the_senas_it_saw_for_its_search(
        stub: DiscordStub, tapis: TapisRun, players: list[User], seed) -> None:
    from bot.tables.senas import known_to  # what bot.tables.autoplay.ai_job gives the search

    seed(2)  # alice (seat 0) holds 31
    alice = players[0]
    table = await start(stub, tapis, alice, [], ai=3)
    assert table.seat_of(alice.id) == 0 and senas.held(table.state.hands[0]) == ["31"]
    dm = next(m for m in reversed(stub.dms(alice)) if sena_select(m) is not None)
    made = await stub.choose(dm, alice, ["31"], custom_id=sena_select(dm)["custom_id"])
    assert "You signal" in made.text, made.text
    table = await tapis.tables.get(table.id)
    known = known_to(table, 2)
    assert known is not None and known[0] == ["31"]  # the partner's search redeals alice's hand with 31
    assert all(signer == 0 or senas.caught(table.seed, table.state.k, table.state.mus_round, signer, x, 2)
               for signer, said in known.items() for x in said)  # and opponents' it caught, only
    for opp in senas.opponents(0):
        saw = senas.caught(table.seed, table.state.k, table.state.mus_round, 0, "31", opp)
        assert (0 in (known_to(table, opp) or {})) == saw


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_sena_survives_a_restart(stub: DiscordStub, tapis: TapisRun, players: list[User], seed,
                                         backend: str) -> None:
    """A seña is stored before it is shown: after a restart the partner's My hand still shows it, the
    AI's search is still given it, and the signer cannot make it again with the same hand."""
    from bot.tables.senas import known_to

    seed(2)  # the mano holds two aces (its only seña)
    alice, bob, carol, dave = players
    table = await start(stub, tapis, alice, [bob, carol, dave])
    users = {u.id: u for u in players}
    seat = table.state.to_act()[0]
    signer = users[table.seats[seat].user_id]
    mate = users[table.seats[senas.partner(seat)].user_id]
    [sena] = senas.held(table.state.hands[seat])
    dm = stub.dms(signer)[-1]
    made = await stub.choose(dm, signer, [sena], custom_id=sena_select(dm)["custom_id"])
    assert "You signal" in made.text, made.text
    await tapis.settle()
    await tapis.stop()
    await tapis.restart()
    await tapis.settle()
    table = await tapis.tables.get(table.id)
    assert table.state.to_act() == (seat,)  # the same hand, the same turn
    hand = await stub.click(stub.message(table.message_id), mate, "My hand")
    assert f"{PARTNER} {signer.name} signals" in hand.last.text, hand.last.text
    assert known_to(table, senas.partner(seat)) == {seat: [sena]}  # what an AI partner's search reads
    mine = await stub.click(stub.message(table.message_id), signer, "My hand")
    assert sena_select(mine.last) is None  # nothing left to offer: its one seña is made
    forged = f"tapis:{table.id}:{table.version}:sena:{seat}"
    again = await stub.choose(mine.last, signer, [sena], custom_id=forged)
    assert again.ephemeral and "already made that seña" in again.text, again.text
    await tapis.settle()
    assert sum(PARTNER in m.text for m in stub.dms(mate)) == 1  # told once, before the restart


async def _first_signer(stub: DiscordStub, tapis: TapisRun,
                        players: list[User]) -> tuple[Any, int, User, str, Any]:
    """A Mus table of four humans just started: the table, the seat to act, its player, the one seña
    its hand holds, and the player's latest DM."""
    alice, bob, carol, dave = players
    table = await start(stub, tapis, alice, [bob, carol, dave])
    users = {u.id: u for u in players}
    seat = table.state.to_act()[0]
    signer = users[table.seats[seat].user_id]
    [sena] = senas.held(table.state.hands[seat])
    return table, seat, signer, sena, stub.dms(signer)[-1]


async def test_a_sena_off_turn_is_refused(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                          seed) -> None:
    """Only the seat to act may signal (docs/rules/mus.md §10): a seña from an earlier DM's select
    once the signer has moved is refused as out of date, and one at the table's version off turn is
    refused as not its turn; neither is shown to anybody nor counted."""
    from bot.tables.senas import known_to

    seed(2)
    table, seat, signer, sena, dm = await _first_signer(stub, tapis, players)
    select = sena_select(dm)
    # the signer moves through My hand, not through that DM
    hand = await stub.click(stub.message(table.message_id), signer, "My hand")
    ctl = next(c for c in move_controls(hand.last, table.id, table.version) if c["type"] == 2)
    await stub.click(hand.last, signer, custom_id=ctl["custom_id"])
    await tapis.settle()
    assert seat not in table.state.to_act() and senas.open_now(table.state.phase)
    stale = await stub.choose(dm, signer, [sena], custom_id=select["custom_id"])
    assert stale.ephemeral and "out of date" in stale.text, stale.text
    forged = f"tapis:{table.id}:{table.version}:sena:{seat}"
    off_turn = await stub.choose(dm, signer, [sena], custom_id=forged)
    assert off_turn.ephemeral and "not your turn" in off_turn.text, off_turn.text
    await tapis.settle()
    for u in players:
        assert all(PARTNER not in m.text and CAUGHT not in m.text for m in stub.dms(u))
    assert all(known_to(table, s) is None for s in range(4))
    mine = await stub.click(stub.message(table.message_id), signer, "My hand")
    assert sena_select(mine.last) is None  # not offered off turn either


async def test_a_sena_at_a_finished_table_creates_no_record(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User], seed) -> None:
    """A seña click at a table that ended (its presenter record already let go) is refused and
    brings no record back (nothing would ever drop it)."""
    seed(2)
    table, seat, signer, sena, dm = await _first_signer(stub, tapis, players)
    await tapis.tables.end(table.id, 1, is_admin=True, now=True)  # an admin not seated: at once
    await tapis.settle()
    table = await tapis.tables.get(table.id)
    presenter = tapis.bot.presenter
    assert table.status == "finished" and table.id not in presenter.records
    forged = f"tapis:{table.id}:{table.version}:sena:{seat}"
    refused = await stub.choose(dm, signer, [sena], custom_id=forged)
    assert refused.ephemeral and "You signal" not in refused.text, refused.text
    await tapis.settle()
    assert table.id not in presenter.records
