"""Tournaments through the stand-in: a club night of Marias, a Swiss of Motz, a Mus event of pairs,
a restart between rounds, a forfeit, the prize pool paid once and the ledger at 0."""

from __future__ import annotations

import pytest

from bot.tournaments.model import DONE, FINISHED
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub
from tests.discord_stub.model import snowflake
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import create, join_all, ledger_total, people, play_round, pool_balance, quiet


async def test_club_night_of_marias(stub: DiscordStub, tapis: TapisRun) -> None:
    """8 humans, 3 rounds of Marias at 3 seats: 3 tables a round, one AI seat; the pool paid once."""
    host, *rest = people(stub, 8)
    tid = await create(stub, host, game="marias", rounds=3, buy_in=50, options="rounds=1")
    await join_all(stub, tid, [host, *rest])
    inter = await stub.slash("tournament start", host, stub.channel, tournament=tid)
    assert "starts" in inter.text, inter.text
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round == 1
    first = t.round_tables(1)
    assert sorted(len(rt.entrants) for rt in first) == [2, 3, 3]
    ai_seats = 0
    for rt in first:
        table = await tapis.tables.get(rt.table_id)  # type: ignore[arg-type]
        assert table is not None and len(table.seats) == 3 and table.message_id is not None
        ai_seats += sum(1 for s in table.seats if s.ai)
    assert ai_seats == 1
    for _ in range(3):
        await play_round(tapis, tid)
    assert t.status == FINISHED and all(rt.status == DONE for rt in t.tables)
    assert len(t.tables) == 9
    # no pair of players met three times: the tables rotate
    rows = tapis.bot.tournaments.standings(t)  # type: ignore[union-attr]
    assert sum(r.sessions for r in rows) == 8 * 3
    assert await pool_balance(tapis, tid, stub.guild.id) == 0
    paid = await tapis.db.fetchall(
        "SELECT SUM(prize) FROM tournament_players WHERE tournament_id = ?",  # type: ignore[union-attr]
        (tid,),
    )
    assert int(paid[0][0]) == 8 * 50
    assert await ledger_total(tapis) == 0
    # the house staked the tables: members' wallets moved only by the buy-in and the prizes
    wallets = [await tapis.ledger.balance(stub.guild.id, u.id) for u in (host, *rest)]
    assert sum(wallets) == 8 * 1000
    finals = [m for m in stub.messages(stub.channel) if m.text.startswith(f"Tournament #{tid} is over.")]
    assert len(finals) == 1
    boards = [a for msg in stub.messages(stub.channel) for a in msg.attachments
              if a.filename == "standings.png"]
    assert len(boards) == 3  # after each round, the last one final
    assert boards[-1].description is not None and boards[-1].description.startswith(
        f"Tournament #{tid}: final standings. 1. ")  # the image in words, for screen readers
    # finishing again pays nothing more
    await tapis.bot.tournaments._finish(t)  # type: ignore[union-attr]
    again = await tapis.db.fetchall(
        "SELECT SUM(prize) FROM tournament_players WHERE tournament_id = ?",  # type: ignore[union-attr]
        (tid,),
    )
    assert int(again[0][0]) == 8 * 50


@pytest.mark.parametrize("backend", BACKENDS)
async def test_swiss_of_motz_with_a_restart_and_a_forfeit(stub: DiscordStub, tapis: TapisRun) -> None:
    """6 Motz players at tables of 3; restart between rounds 1 and 2; a player leaves in round 2."""
    players = people(stub, 6)
    tid = await create(
        stub,
        players[0],
        game="motz",
        format="swiss",
        rounds=3,
        buy_in=20,
        options="players=3 rotations=1 max_extra_deals=0",
    )
    await join_all(stub, tid, players)
    await stub.slash("tournament start", players[0], stub.channel, tournament=tid)
    await quiet(tapis)
    await play_round(tapis, tid)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round == 2
    await quiet(tapis)
    await tapis.stop()
    await tapis.restart()
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round == 2 and len(t.round_tables(2)) == 2
    met1 = {frozenset((a, b)) for rt in t.round_tables(1) for a in rt.entrants for b in rt.entrants if a != b}
    met2 = {frozenset((a, b)) for rt in t.round_tables(2) for a in rt.entrants for b in rt.entrants if a != b}
    assert len(met1 & met2) <= 2  # 6 players at two tables of 3: some meet again, as few as can
    quitter = players[5]
    inter = await stub.slash("tournament leave", quitter, stub.channel, tournament=tid)
    assert "forfeit" in inter.text, inter.text
    await play_round(tapis, tid)
    await play_round(tapis, tid)
    assert t.status == FINISHED
    gone = t.entrant_of(quitter.id)
    assert gone is not None
    assert all(gone.id not in rt.entrants for rt in t.round_tables(3))
    assert await ledger_total(tapis) == 0 and await pool_balance(tapis, tid, stub.guild.id) == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_mus_event_of_four_pairs(stub: DiscordStub, tapis: TapisRun) -> None:
    """4 pairs register together; each round seats two pairs a table, partners across."""
    m = people(stub, 8)
    tid = await create(stub, m[0], game="mus", rounds=1, options="best_of=1 target=30 matches=1")
    inter = await stub.slash("tournament join", m[0], stub.channel, tournament=tid)
    assert "pairs register together" in inter.text and inter.ephemeral, inter.text
    await stub.slash("tournament join", m[0], stub.channel, tournament=tid, partner=m[1])
    inter = await stub.slash("tournament join", m[2], stub.channel, tournament=tid, partner=m[0])
    assert "naming someone else" in inter.text and inter.ephemeral, inter.text
    await stub.slash("tournament join", m[1], stub.channel, tournament=tid, partner=m[0])
    for a, b in ((2, 3), (4, 5)):
        await stub.slash("tournament join", m[a], stub.channel, tournament=tid, partner=m[b])
        await stub.slash("tournament join", m[b], stub.channel, tournament=tid, partner=m[a])
    await stub.slash("tournament join", m[6], stub.channel, tournament=tid, partner=m[7])
    inter = await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    assert "odd number of pairs" in inter.text, inter.text
    await stub.slash("tournament join", m[7], stub.channel, tournament=tid, partner=m[6])
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and len(t.round_tables(1)) == 2
    for rt in t.round_tables(1):
        table = await tapis.tables.get(rt.table_id)  # type: ignore[arg-type]
        assert table is not None
        pair = t.entrant_of(table.seats[0].user_id)  # type: ignore[arg-type]
        assert pair is not None and pair is t.entrant_of(table.seats[2].user_id)  # type: ignore[arg-type]
    await play_round(tapis, tid)
    assert t.status == FINISHED and await ledger_total(tapis) == 0


@pytest.mark.parametrize("case", ["twice", "started", "too_few", "jetons", "cap"])
async def test_bad_input(stub: DiscordStub, tapis: TapisRun, case: str) -> None:
    """Each refusal is a clear ephemeral answer and moves no jeton."""
    m = people(stub, 4)
    tid = await create(stub, m[0], game="marias", buy_in=10)
    await join_all(stub, tid, [m[0]])
    if case == "twice":
        inter = await stub.slash("tournament join", m[0], stub.channel, tournament=tid)
        assert "already registered" in inter.text
    elif case == "started":
        await join_all(stub, tid, m[1:3])
        await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
        inter = await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
        assert "already started" in inter.text
        t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
        t.rounds = 1  # type: ignore[union-attr]
        inter = await stub.slash("tournament join", m[3], stub.channel, tournament=tid)
        assert "too late" in inter.text
    elif case == "too_few":
        inter = await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
        assert "Too few players" in inter.text
    elif case == "jetons":
        big = await create(stub, m[1], game="marias", buy_in=5000)
        inter = await stub.slash("tournament join", m[2], stub.channel, tournament=big)
        assert "Not enough jetons" in inter.text
    elif case == "cap":
        inter = await stub.slash("tournament create", m[0], stub.channel, game="motz")
        assert "already run" in inter.text
        other = await create(stub, m[1], game="motz")
        inter = await stub.slash("tournament join", m[0], stub.channel, tournament=other)
        assert "already take part" in inter.text
    assert inter.ephemeral, inter.text
    assert await ledger_total(tapis) == 0


async def test_an_event_nobody_starts_is_cancelled_and_refunded(stub: DiscordStub, tapis: TapisRun) -> None:
    m = people(stub, 2)
    tid = await create(stub, m[0], game="marias", buy_in=30)
    await join_all(stub, tid, m)
    assert await tapis.ledger.balance(stub.guild.id, m[1].id) == 970
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    t.created_at -= tapis.config.lobby_expiry_hours * 3600 + 1  # type: ignore[union-attr]
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    await quiet(tapis)
    assert t.status == "cancelled"  # type: ignore[union-attr]
    assert await tapis.ledger.balance(stub.guild.id, m[1].id) == 1000
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0
    assert any("cancelled" in msg.text for msg in stub.messages(stub.channel))


async def test_only_members_the_server_allows_may_create_an_event(stub: DiscordStub, tapis: TapisRun) -> None:
    """Issue 33: a tournament is opened by a member the server allows (/settings opener_role, channels)."""
    boss = stub.add_user("boss", stub.guild, admin=True)
    dealer_role, [dealer, other] = snowflake(), people(stub, 2)
    stub.guild.roles[dealer_role] = "Dealer"
    stub.guild.member_roles[dealer.id] = [dealer_role]
    role = stub.guild.payload()["roles"][-1]
    await stub.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(stub.guild.id), "role": role})
    await stub.idle()
    role_id = f"<@&{dealer_role}>"
    answer = await stub.slash("settings set", boss, stub.channel, key="opener_role", value=role_id)
    assert f"<@&{dealer_role}>" in answer.text, answer.text
    refused = await stub.slash("tournament create", other, stub.channel, game="motz")
    assert refused.ephemeral and "Only members with the role" in refused.text, refused.text
    assert await create(stub, dealer, game="motz") > 0
