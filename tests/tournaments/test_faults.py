"""Faults and time: a round past its limit, a table that cannot start, a start time, /history and /stats."""

from __future__ import annotations

import pytest

from bot.tables.model import SeatInfo, Table
from bot.tournaments.model import DONE, FORFEIT, RUNNING
from tests.discord_stub import DiscordStub
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import create, join_all, ledger_total, people, play_round, quiet, start_event


async def test_a_round_past_its_limit_closes_its_tables_as_an_admin_close(stub: DiscordStub,
                                                                          tapis: TapisRun) -> None:
    m = people(stub, 3)
    tid, t = await start_event(stub, tapis, m, game="marias", rounds=2, options="rounds=3")
    assert t.round_deadline is not None
    table_id = t.round_tables(1)[0].table_id
    assert table_id is not None
    t.round_deadline = 0.0
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    table = await tapis.tables.get(table_id)
    assert table is not None and table.closing and table.closed_by == "admin"
    await play_round(tapis, tid)
    assert t.round_tables(1)[0].status == DONE and t.round == 2
    assert await ledger_total(tapis) == 0


async def test_a_table_that_cannot_start_is_tried_again_then_forfeited(stub: DiscordStub, tapis: TapisRun,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=2, options="rounds=1")
    await join_all(stub, tid, m)
    service = tapis.tables
    real = service.open_seated
    calls: list[int] = []

    async def failing(*args: object, **kwargs: object) -> Table:
        calls.append(1)
        if len(calls) <= 2:
            raise RuntimeError("the store is down")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "open_seated", failing)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    first = t.round_tables(1)[0]
    assert first.status == FORFEIT and first.attempts == 2
    assert t.round == 2 and t.round_tables(2)[0].table_id is not None  # the next round went on
    assert all(s.sessions == 0 and s.points == 0 for s in tapis.bot.tournaments.standings(t))  # type: ignore[union-attr]
    await play_round(tapis, tid)
    assert [s.sessions for s in tapis.bot.tournaments.standings(t)] == [1, 1, 1]  # type: ignore[union-attr]


async def test_a_start_time_is_shown_and_kept(stub: DiscordStub, tapis: TapisRun) -> None:
    m = people(stub, 3)
    inter = await stub.slash("tournament create", m[0], stub.channel, game="marias", starts_in=30)
    assert "<t:" in inter.text and not inter.ephemeral, inter.text
    tid = int(inter.text.split("#")[1].split(":")[0])
    await join_all(stub, tid, m)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    assert t.status == "lobby"
    t.starts_at = 1.0
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    await quiet(tapis)
    assert t.status == RUNNING and t.round == 1


async def test_the_event_is_in_history_and_stats(stub: DiscordStub, tapis: TapisRun,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The ended event is in /history and /stats, and out of memory its standings are read back."""
    monkeypatch.setattr("bot.tournaments.base.KEEP_ENDED", 0)
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=1, buy_in=10, options="rounds=1")
    await join_all(stub, tid, m)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await play_round(tapis, tid)
    for command in ("history", "stats"):
        inter = await stub.slash(command, m[1], stub.channel)
        fields = [f for e in inter.last.embeds for f in e.get("fields", [])]
        assert any(f["name"] == "Tournaments" and f"#{tid}" in f["value"] and "finished" in f["value"]
                   for f in fields), (command, inter.last.embeds)
    assert tapis.bot.tournaments.get(tid) is None  # type: ignore[union-attr]
    inter = await stub.slash("tournament standings", m[2], stub.channel, tournament=tid)
    assert "final standings" in inter.text and "p2" in inter.text, inter.text


def test_seats_of_a_pair_game_sit_partners_across() -> None:
    """Mus: pair A at seats 0 and 2, pair B at 1 and 3; a missing pair is an AI pair."""
    from bot.tournaments.model import Entrant, Member, RoundTable, Tournament
    from bot.tournaments.runner import TournamentService

    t = Tournament(1, 1, 1, 1, "mus", {}, "club", 1, 0, 60, None, RUNNING, 0.0, 1,
                   entrants=[Entrant(1, [Member(10, "a"), Member(11, "b")])])
    seats: list[SeatInfo] = TournamentService.seats_of(_Fake(), t, RoundTable(1, 0, [1]))  # type: ignore[arg-type]
    assert [s.user_id for s in seats] == [10, None, 11, None] and seats[1].ai and seats[3].ai


class _Fake:
    from bot.rules import GAMES as games


async def test_a_table_that_ended_while_the_runner_did_not_hear_is_scored_at_restart(stub: DiscordStub,
                                                                                   tapis: TapisRun) -> None:
    """The crash between a table's end (committed) and the runner's record: the restart scores the
    table from its history row and the event goes on to the next round."""
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=2, buy_in=10, options="rounds=1")
    runner = tapis.bot.tournaments  # type: ignore[union-attr]
    tapis.tables.listeners.remove(runner.on_table)  # the runner never hears the end
    await play_round(tapis, tid)
    t = runner.get(tid)
    assert t is not None and t.round == 1 and t.round_tables(1)[0].status == "open"
    table = await tapis.tables.get(t.round_tables(1)[0].table_id)  # type: ignore[arg-type]
    assert table is not None and table.status == "finished" and table.results is not None
    await tapis.kill()
    await tapis.restart()
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round == 2
    first = t.round_tables(1)[0]
    assert first.status == DONE and first.results is not None
    assert sum(first.results) == sum(table.results)  # three humans: every seat's result is theirs
    await play_round(tapis, tid)
    assert t.status == "finished" and await ledger_total(tapis) == 0


async def test_a_late_joiner_waits_for_the_next_round(stub: DiscordStub, tapis: TapisRun) -> None:
    m = people(stub, 4)
    tid, _ = await start_event(stub, tapis, m[:3], game="marias", rounds=2, buy_in=10, options="rounds=1")
    inter = await stub.slash("tournament join", m[3], stub.channel, tournament=tid)
    assert "next round" in inter.text and inter.ephemeral, inter.text
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    late = t.entrant_of(m[3].id)
    assert late is not None and all(late.id not in rt.entrants for rt in t.round_tables(1))
    await play_round(tapis, tid)
    assert any(late.id in rt.entrants for rt in t.round_tables(2))
    await play_round(tapis, tid)
    inter = await stub.slash("tournament standings", m[3], stub.channel, tournament=tid)
    assert "final standings" in inter.text and inter.ephemeral, inter.text
    assert "p3" in inter.text
    assert await ledger_total(tapis) == 0


async def test_the_host_ends_a_running_event_after_this_round(stub: DiscordStub, tapis: TapisRun) -> None:
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=3, buy_in=10, options="rounds=1")
    inter = await stub.slash("tournament end", m[1], stub.channel, tournament=tid)
    assert "host or an admin" in inter.text and inter.ephemeral, inter.text
    inter = await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    assert "ends after this round" in inter.text, inter.text
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    table = await tapis.tables.get(t.round_tables(1)[0].table_id)  # type: ignore[arg-type]
    assert table is not None and table.closing
    await play_round(tapis, tid)
    assert t.status == "finished" and t.round == 1 and len(t.tables) == 1
    assert await pool_balance_zero(tapis, tid, stub.guild.id)


async def pool_balance_zero(run: TapisRun, tid: int, guild_id: int) -> bool:
    from tests.tournaments.drive import pool_balance

    return await pool_balance(run, tid, guild_id) == 0 and await ledger_total(run) == 0


async def test_a_table_voided_at_restart_is_a_forfeit(stub: DiscordStub, tapis: TapisRun) -> None:
    """A round table whose log no longer replays is voided by the table service at restart (every
    stake back to the house); the event scores it as a forfeit and goes on."""
    m = people(stub, 3)
    tid, t = await start_event(stub, tapis, m, game="marias", rounds=2, options="rounds=1")
    table_id = t.round_tables(1)[0].table_id
    table = await tapis.tables.get(table_id)  # type: ignore[arg-type]
    assert table is not None
    version = table.version
    db = tapis.db
    await tapis.kill()
    await db.transaction(lambda conn: conn.execute(  # type: ignore[union-attr]
        "INSERT INTO actions (table_id, version, seat, action, actor, at) VALUES (?, ?, 0, ?, 'player', 1.0)",
        (table_id, version, '{"type": "no such move"}')))
    await tapis.restart()
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round_tables(1)[0].status == FORFEIT and t.round == 2
    await play_round(tapis, tid)
    assert t.status == "finished" and await ledger_total(tapis) == 0


async def test_nobody_but_an_admin_ends_a_round_table(stub: DiscordStub, tapis: TapisRun) -> None:
    """A round table has no human host: the event's host, who plays at it, may not `/table end` it
    (after a deal they won, or a rival's table before any move, which would score 0 for all), nor may
    another player; a server admin may, at the end of the deal; the round's time limit still closes it."""
    m = people(stub, 6)
    tid, t = await start_event(stub, tapis, m, game="marias", rounds=1, options="rounds=3")
    own = next(rt for rt in t.round_tables(1) if t.entrant_of(m[0].id).id in rt.entrants)  # type: ignore[union-attr]
    other = next(rt for rt in t.round_tables(1) if rt is not own)
    for table_id, who in ((own.table_id, m[0]), (other.table_id, m[0]), (other.table_id, m[1])):
        inter = await stub.slash("table end", who, stub.channel, table=table_id)
        assert inter.ephemeral and inter.text.endswith(
            "This table belongs to a tournament: only a server admin can end it."), inter.text
        table = await tapis.tables.get(table_id)  # type: ignore[arg-type]
        assert table is not None and table.status == "playing" and not table.closing
    boss = stub.add_user("boss", stub.guild, admin=True)
    inter = await stub.slash("table end", boss, stub.channel, table=own.table_id)
    assert not inter.text.startswith("⚠️"), inter.text  # closed (at once if no deal is under way)
    table = await tapis.tables.get(own.table_id)  # type: ignore[arg-type]
    assert table is not None and table.closed_by == "admin" and (table.closing or not table.is_open)
    t.round_deadline = 0.0
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    table = await tapis.tables.get(other.table_id)  # type: ignore[arg-type]
    assert table is not None and table.closed_by == "admin" and (table.closing or not table.is_open)
    await play_round(tapis, tid)
    assert t.status == "finished" and all(rt.status == DONE for rt in t.tables)
    assert await ledger_total(tapis) == 0
