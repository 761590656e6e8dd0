"""A round's tables run at the event's pace from their very first move (``bot.tables.seated``): the
pace typed in ``options:``, or the server's ``/settings pace`` default, not the config's
``turn_timeout``."""

from __future__ import annotations

from tests.discord_stub import DiscordStub
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import start_event

HOUR = 3600.0


async def first_deadline(run: TapisRun, tournament_id: int) -> tuple[str, float]:
    """The pace of the event's one round-1 table and how far its first deadline is from now."""
    t = run.bot.tournaments.get(tournament_id)  # type: ignore[union-attr]
    assert t is not None
    [rt] = t.round_tables(1)
    table = await run.tables.get(rt.table_id)  # type: ignore[arg-type]
    assert table is not None and table.status == "playing" and table.version == 0
    assert table.to_act_users(), "a human is to act first"
    assert table.deadline is not None
    return table.options["pace"], table.deadline - run.tables.clock()


async def test_a_round_table_gives_its_first_player_the_events_pace(
        stub: DiscordStub, run: TapisRun, clock: Clock) -> None:
    """A slow event: 600 s for the first move, not the config's turn_timeout (3,600 s in tests)."""
    assert run.config.turn_timeout != run.config.pace_slow
    members = [stub.add_user(f"p{i}", stub.guild) for i in range(3)]
    tid, _ = await start_event(stub, run, members, game="marias", rounds=1, options="rounds=1 pace=slow")
    assert await first_deadline(run, tid) == ("slow", run.config.pace_slow)


async def test_a_round_table_gives_its_first_player_the_servers_default_pace(
        stub: DiscordStub, run: TapisRun, clock: Clock) -> None:
    """The server's ``/settings pace: correspondence``: 48 hours for the first move too."""
    boss = stub.add_user("boss", stub.guild, admin=True)
    answer = await stub.slash("settings set", boss, stub.channel, key="pace", value="correspondence")
    assert "correspondence" in answer.text, answer.text
    members = [stub.add_user(f"p{i}", stub.guild) for i in range(3)]
    tid, _ = await start_event(stub, run, members, game="marias", rounds=1, options="rounds=1")
    hours = run.config.pace_correspondence_hours
    assert await first_deadline(run, tid) == ("correspondence", hours * HOUR)
