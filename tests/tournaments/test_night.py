"""A tournament night as its organiser and players live it: the host ending the event just as a round
ends, members removed from the server, the event's channel lost, a lone entrant left, and what the
standings say while a round is played."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.tournaments.model import FINISHED, Tournament
from tests.bot.test_lost import eventually
from tests.discord_stub import DiscordStub
from tests.discord_stub.client import ErrorLog
from tests.discord_stub.tapis import TEST_CONFIG, TapisRun
from tests.tournaments.drive import (
    create,
    join_all,
    ledger_total,
    people,
    play_round,
    pool_balance,
    quiet,
    start_event,
)


async def test_an_end_typed_as_the_round_ends_plays_no_further_round(stub: DiscordStub,
                                                                     tapis: TapisRun) -> None:
    """The host's `/tournament end` arrives while round 1's standings are being posted (the round is
    over, round 2 not seated yet): the answer says the event ends after this round, so round 2 is
    never seated and the final standings and the winners follow."""
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=3, buy_in=20, options="rounds=1")
    runner = tapis.bot.tournaments  # type: ignore[union-attr]
    answers: list[str] = []

    async def host_ends(t: Tournament, event: dict[str, Any]) -> None:
        if event.get("type") == "standings" and not event.get("final") and not answers:
            answers.append((await stub.slash("tournament end", m[0], stub.channel, tournament=tid)).text)

    runner.listeners.insert(0, host_ends)
    await play_round(tapis, tid)
    assert answers == [f"Tournament #{tid} ends after this round."], answers
    t = runner.get(tid)
    assert t is not None and t.status == FINISHED, (t.status, t.round)  # type: ignore[union-attr]
    assert t.round == 1 and len(t.tables) == 1
    finals = [msg.text for msg in stub.messages(stub.channel)
              if msg.text.startswith(f"Tournament #{tid} is over")]
    assert len(finals) == 1, finals
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_an_event_left_with_one_entrant_ends(stub: DiscordStub, tapis: TapisRun) -> None:
    """Two of three players withdraw in round 1: the one left is not seated alone against the AI for
    the two rounds to come; the event ends after round 1, its prizes paid by the standings so far."""
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=3, buy_in=20, options="rounds=1")
    for quitter in m[1:]:
        inter = await stub.slash("tournament leave", quitter, stub.channel, tournament=tid)
        assert "forfeit" in inter.text, inter.text
    await play_round(tapis, tid)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == FINISHED and t.round == 1 and len(t.tables) == 1, t.round
    assert sum(msg.text.startswith(f"Tournament #{tid} is over") for msg in stub.messages(stub.channel)) == 1
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_an_event_whose_channel_is_deleted_ends_after_the_round(stub: DiscordStub,
                                                                     tapis: TapisRun) -> None:
    """The event's channel is deleted during round 1: the round's table closes at the end of its deal
    (as any table's), and the event does not seat round 2 in a channel that no longer exists (its
    players would get hands for a table nobody can see, its standings and winners lost with errors):
    it ends on the standings after round 1, the pool paid out. A lobby there is cancelled, refunded."""
    room = stub.add_channel(stub.guild, "room")
    await stub.dispatch("CHANNEL_CREATE", room.payload())
    m = people(stub, 5)
    inter = await stub.slash("tournament create", m[0], room, game="marias", rounds=3, buy_in=20,
                             options="rounds=1")
    tid = int(inter.text.split("#")[1].split(":")[0])
    await join_all(stub, tid, m[:3])
    await stub.slash("tournament start", m[0], room, tournament=tid)
    await quiet(tapis)
    waiting = int((await stub.slash("tournament create", m[3], room, game="motz", buy_in=30)).text
                  .split("#")[1].split(":")[0])
    await stub.slash("tournament join", m[4], room, tournament=waiting)
    runner = tapis.bot.tournaments  # type: ignore[union-attr]
    t, lobby = runner.get(tid), runner.get(waiting)
    stub.lose_channel(room)
    await stub.dispatch("CHANNEL_DELETE", room.payload())
    await eventually(lambda: lobby.status == "cancelled" and t.rounds == 1,  # type: ignore[union-attr]
                     "the lobby cancelled, the running event's round made its last")
    await play_round(tapis, tid)
    assert t is not None and t.status == FINISHED and t.round == 1 and len(t.tables) == 1, t.round
    assert lobby is not None and lobby.status == "cancelled"
    assert await tapis.ledger.balance(stub.guild.id, m[4].id) == 1000
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0
    inter = await stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
    assert "final standings" in inter.text, inter.text  # still there to read, from any channel


async def test_an_event_whose_channel_is_out_of_reach_ends_after_the_round(stub: DiscordStub,
                                                                          tapis: TapisRun) -> None:
    """View Channel taken from the bot (403/50001, no gateway event): the round's standings are refused
    there, so the event ends on them (a warning, no error) instead of seating round 2 where nobody
    sees it; the pool is paid out."""
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=3, buy_in=20, options="rounds=1")
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    stub.lose_channel(stub.channel, 403)
    await play_round(tapis, tid)
    assert t.status == FINISHED and t.round == 1 and len(t.tables) == 1, t.round
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_a_member_removed_from_the_server_withdraws(stub: DiscordStub, tmp_path: Path) -> None:
    """A player kicked during round 1 (GUILD_MEMBER_REMOVE, ``member_events`` on) leaves the round's
    table to the AI, and the event too: they are not seated again in round 2 (their seat would wait
    out two deadlines each round); a member removed while registered in an event not started gets the
    buy-in back and is off its list."""
    run = TapisRun(stub, tmp_path / "members.db", config=replace(TEST_CONFIG, member_events=True))
    await run.start()
    try:
        m = people(stub, 6)
        tid = await create(stub, m[0], game="marias", rounds=2, buy_in=20, options="rounds=1")
        await join_all(stub, tid, m[:4])
        await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
        await quiet(run)
        later = await create(stub, m[4], game="motz", buy_in=30)
        await join_all(stub, later, m[4:6])
        t = run.bot.tournaments.get(tid)  # type: ignore[union-attr]
        assert t is not None
        kicked = t.entrant_of(m[3].id)
        assert kicked is not None
        for who in (m[3], m[5]):
            assert await stub.remove_member(stub.guild, who)
        await stub.idle()
        await quiet(run)
        assert kicked.left_after == 1
        lobby = run.bot.tournaments.get(later)  # type: ignore[union-attr]
        assert lobby is not None and lobby.entrant_of(m[5].id) is None
        assert await run.ledger.balance(stub.guild.id, m[5].id) == 1000
        await play_round(run, tid)
        assert t.round == 2 and all(kicked.id not in rt.entrants for rt in t.round_tables(2))
        await play_round(run, tid)
        assert t.status == FINISHED and await ledger_total(run) == 0
    finally:
        await run.stop()


async def test_a_member_removed_while_the_bot_was_down_is_refunded_at_the_restart(stub: DiscordStub,
                                                                                  tmp_path: Path) -> None:
    """No GUILD_MEMBER_REMOVE reaches a bot that is down: the restart's member look-up covers the
    members registered in an event not started (not only those seated), so one removed meanwhile gets
    the buy-in back and is off its list."""
    run = TapisRun(stub, tmp_path / "members.db", config=replace(TEST_CONFIG, member_events=True))
    await run.start()
    try:
        m = people(stub, 3)
        tid = await create(stub, m[0], game="motz", buy_in=30)
        await join_all(stub, tid, m[1:3])
        await quiet(run)
        await run.stop()
        stub.guild.members = [x for x in stub.guild.members if x.id != m[2].id]  # nobody hears it
        await run.restart()
        await quiet(run)
        event = run.bot.tournaments.get(tid)  # type: ignore[union-attr]
        assert event is not None and event.entrant_of(m[2].id) is None
        assert await run.ledger.balance(stub.guild.id, m[2].id) == 1000
        assert event.entrant_of(m[1].id) is not None  # a member still there stays registered
    finally:
        await run.stop()


async def test_the_texts_of_a_night_read_right(stub: DiscordStub, tapis: TapisRun) -> None:
    """The announcement counts its rounds and jetons in the language's plural forms (not "1 rounds",
    not the Czech "3 kol" and "20 žetonů" for 3 rounds and 20 jetons... "3 kola"); `/tournament
    standings` while round 1 is played does not call them the standings "after round 1"; a first place
    shared names its winners as such."""
    m = people(stub, 3)
    inter = await stub.slash("tournament create", m[0], stub.channel, game="marias", rounds=1, buy_in=1,
                             options="rounds=1")
    assert "club night, 1 round. Buy-in: 1 jeton into the prize pool." in inter.text, inter.text
    tid = int(inter.text.split("#")[1].split(":")[0])
    await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    boss = stub.add_user("boss", stub.guild, admin=True)
    await stub.slash("settings set", boss, stub.channel, key="language", value="cs")
    inter = await stub.slash("tournament create", m[0], stub.channel, game="marias", rounds=3, buy_in=3,
                             options="rounds=1")
    assert "3 kola" in inter.text and "3 žetony" in inter.text, inter.text
    tid = int(inter.text.split("č. ")[1].split(":")[0])
    await join_all_cs(stub, tid, m)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    for lang, after in (("en", "after round 1"), ("fr", "après le tour 1"), ("cs", "po kole 1"),
                        ("es", "tras la ronda 1"), ("eu", "1. txandaren ondoren")):
        await stub.slash("language", m[1], stub.channel, language=lang)
        inter = await stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
        assert after not in inter.text, (lang, inter.text)
        assert lang != "en" or "standings before round 1 of 3, being played" in inter.text, inter.text


async def join_all_cs(stub: DiscordStub, tid: int, members: list[Any]) -> None:
    for who in members:
        await stub.slash("tournament join", who, stub.channel, tournament=tid)


def test_a_shared_first_place_names_its_winners() -> None:
    from types import SimpleNamespace

    from bot.cogs.tournament import winners_line
    from bot.i18n import translator

    t = SimpleNamespace(id=7)
    assert winners_line(t, ["ann", "bob"], translator("en")) == "Tournament #7 is over. Winners: ann, bob."  # type: ignore[arg-type]
    assert winners_line(t, ["ann"], translator("en")) == "Tournament #7 is over. Winner: ann."  # type: ignore[arg-type]
    assert "Vítězové: ann, bob" in winners_line(t, ["ann", "bob"], translator("cs"))  # type: ignore[arg-type]


async def test_a_partner_named_in_a_game_without_pairs_is_refused(stub: DiscordStub, tapis: TapisRun) -> None:
    """Naming a partner for a Marias event (the option is offered for every game) registered the
    member alone and told them that their "pair" completes once the partner joins, or their buy-in
    comes back: neither is true. It is refused, clearly, and no jeton moves."""
    m = people(stub, 2)
    tid = await create(stub, m[0], game="marias", buy_in=10)
    inter = await stub.slash("tournament join", m[0], stub.channel, tournament=tid, partner=m[1])
    assert inter.ephemeral, inter.text
    assert "Marias is not played in pairs: join without a partner." in inter.text, inter.text
    assert "pair is complete" not in inter.text
    assert await tapis.ledger.balance(stub.guild.id, m[0].id) == 1000
    inter = await stub.slash("tournament join", m[0], stub.channel, tournament=tid)
    assert "registered" in inter.text, inter.text


async def test_an_event_cancelled_at_its_start_time_says_why(stub: DiscordStub, tapis: TapisRun) -> None:
    """Three complete Mus pairs at the start time: the event cannot start (an odd number of pairs) and
    is cancelled; the channel is told that reason, not "too few players" (six players are many)."""
    m = people(stub, 6)
    inter = await stub.slash("tournament create", m[0], stub.channel, game="mus", starts_in=30, buy_in=10)
    tid = int(inter.text.split("#")[1].split(":")[0])
    for a, b in ((0, 1), (1, 0), (2, 3), (3, 2), (4, 5), (5, 4)):
        await stub.slash("tournament join", m[a], stub.channel, tournament=tid, partner=m[b])
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    t.starts_at = 1.0
    await tapis.bot.tournaments.tick()  # type: ignore[union-attr]
    await quiet(tapis)
    assert t.status == "cancelled"
    told = [msg.text for msg in stub.messages(stub.channel) if "is cancelled" in msg.text]
    assert told == [f"Tournament #{tid} is cancelled at its start time; every buy-in is back. An odd number "
                    "of pairs (3 pairs) cannot be seated; one more pair is needed."], told
    assert await ledger_total(tapis) == 0 and await tapis.ledger.balance(stub.guild.id, m[5].id) == 1000


async def test_a_crash_between_a_round_table_and_its_link_opens_no_second_table(
        stub: DiscordStub, tapis: TapisRun, errors: ErrorLog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies after round 1's table is committed and before the event stores its id: at the
    restart the event must not open a second table for the same seats (its players would get two
    hands, the first table played for nothing and only an admin able to end it)."""
    from bot.store import tournaments as store

    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=1, buy_in=10, options="rounds=1")
    await join_all(stub, tid, m)
    assert tapis.db is not None
    real = tapis.db.transaction
    crashed: list[int] = []

    async def transaction(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn is store.save_table and args[1].table_id is not None and not crashed:
            crashed.append(args[1].table_id)
            raise RuntimeError("the process dies here")
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(tapis.db, "transaction", transaction)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    assert crashed
    errors.take()  # the "crash" was logged
    await tapis.kill()
    await tapis.restart()
    await quiet(tapis)
    rows = await tapis.db.fetchall("SELECT id FROM tables WHERE status = 'playing'")  # type: ignore[union-attr]
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and [rt.table_id for rt in t.round_tables(1)] == [int(r[0]) for r in rows], rows
    await play_round(tapis, tid)
    assert t.status == FINISHED and await ledger_total(tapis) == 0


async def test_a_player_past_the_listed_lines_sees_their_own(stub: DiscordStub, tapis: TapisRun,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """30 entrants: the standings list 25 lines (the image 24); the 30th who asks `/tournament
    standings` is shown their own line after them, not left to guess their place."""
    monkeypatch.setattr("bot.tournaments.registration.MAX_ENTRANTS", 40)
    m = people(stub, 30)
    tid = await create(stub, m[0], game="marias", rounds=1, options="rounds=1")
    await join_all(stub, tid, m)
    inter = await stub.slash("tournament standings", m[29], stub.channel, tournament=tid)
    assert "p29" in inter.text and "p28" not in inter.text, inter.text
    inter = await stub.slash("tournament standings", m[3], stub.channel, tournament=tid)
    assert inter.text.count("p3") == 1, inter.text  # listed already: not twice


async def test_standings_slow_to_draw_are_deferred_in_time(stub: DiscordStub, tapis: TapisRun,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`/tournament standings` draws an image (128 entrants, a loaded machine): past ``DEFER_AFTER``
    the interaction is deferred, so the answer comes even when the drawing outlasts Discord's window
    (scaled down here: a 0.5 s window, a 0.8 s drawing)."""
    import time

    from bot.cogs import tournament as cog
    from tests.discord_stub import server

    monkeypatch.setattr(server, "INTERACTION_WINDOW", 0.5)
    monkeypatch.setattr("bot.outbox.respond.DEFER_AFTER", 0.1)
    real = cog.standings_image

    def slow(*args: Any, **kwargs: Any) -> bytes:
        time.sleep(0.8)
        return real(*args, **kwargs)

    monkeypatch.setattr(cog, "standings_image", slow)
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias")
    await join_all(stub, tid, m)
    inter = await stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
    await stub.wait_for(lambda: "p1" in inter.text, what="the standings after the defer")
    assert inter.ephemeral


async def test_commands_without_a_number_pick_the_members_own_event(stub: DiscordStub,
                                                                    tapis: TapisRun) -> None:
    """Two events open in the server: without `tournament:`, the host of the older one starting it
    was refused as not its host (the newest was picked), and a member joining from the announcement
    of the older one paid into the newest. Now the host's, the entrant's event is picked, and a join
    that could mean either is refused with their numbers, no jeton moved."""
    m = people(stub, 6)
    first = await create(stub, m[0], game="marias", buy_in=10, options="rounds=1")
    second = await create(stub, m[1], game="marias", buy_in=50, options="rounds=1")
    inter = await stub.slash("tournament join", m[2], stub.channel)
    assert inter.ephemeral and f"#{second}" in inter.text and f"#{first}" in inter.text, inter.text
    assert "registered" not in inter.text and await tapis.ledger.balance(stub.guild.id, m[2].id) == 1000
    await join_all(stub, first, m[2:5])
    inter = await stub.slash("tournament standings", m[2], stub.channel)
    assert f"Tournament #{first}" in inter.text, inter.text
    inter = await stub.slash("tournament start", m[0], stub.channel)
    assert f"Tournament #{first} starts" in inter.text, inter.text
    await quiet(tapis)
    inter = await stub.slash("tournament leave", m[3], stub.channel)
    assert f"You left tournament #{first}" in inter.text, inter.text
    inter = await stub.slash("tournament end", m[1], stub.channel)
    assert f"Tournament #{second} is cancelled" in inter.text, inter.text
    assert await ledger_total(tapis) == 0


async def test_leaving_says_what_happened_to_the_pair_and_the_buy_in(stub: DiscordStub,
                                                                    tapis: TapisRun) -> None:
    """A Mus pair member leaving before the start takes the pair out (both refunded): the answer says
    so, not only "your buy-in is back"; leaving a free event mentions no buy-in."""
    m = people(stub, 3)
    tid = await create(stub, m[0], game="mus", buy_in=10, options="best_of=1 target=30 matches=1")
    for a, b in ((0, 1), (1, 0)):
        await stub.slash("tournament join", m[a], stub.channel, tournament=tid, partner=m[b])
    inter = await stub.slash("tournament leave", m[1], stub.channel, tournament=tid)
    assert inter.text == f"You and your partner left tournament #{tid}; both buy-ins are back.", inter.text
    assert [await tapis.ledger.balance(stub.guild.id, u.id) for u in m[:2]] == [1000, 1000]
    await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    free = await create(stub, m[2], game="marias")
    await join_all(stub, free, m[2:])
    inter = await stub.slash("tournament leave", m[2], stub.channel, tournament=free)
    assert inter.text == f"You left tournament #{free}.", inter.text


async def test_a_free_event_cancelled_mentions_no_buy_in(stub: DiscordStub, tapis: TapisRun) -> None:
    """Nobody paid to enter a free event: its cancellation does not say that every buy-in is back."""
    m = people(stub, 2)
    tid = await create(stub, m[0], game="marias")
    await join_all(stub, tid, m)
    inter = await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    assert inter.text == f"Tournament #{tid} is cancelled.", inter.text
    told = [msg.text for msg in stub.messages(stub.channel) if "is cancelled" in msg.text]
    assert told == [f"Tournament #{tid} is cancelled (the host cancelled it)."], told


async def test_a_player_who_withdrew_may_join_another_event(stub: DiscordStub, tapis: TapisRun) -> None:
    """p2 withdraws from a running 12-round event: they play no more there, so the one-event cap no
    longer keeps them out of another event of the server for the hours the first one lasts."""
    m = people(stub, 5)
    tid = await create(stub, m[0], game="marias", rounds=12, options="rounds=1")
    await join_all(stub, tid, m[:4])
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    other = await create(stub, m[4], game="motz")
    inter = await stub.slash("tournament join", m[2], stub.channel, tournament=other)
    assert "already take part" in inter.text, inter.text  # still playing the first: refused
    inter = await stub.slash("tournament leave", m[2], stub.channel, tournament=tid)
    assert "forfeit" in inter.text, inter.text
    inter = await stub.slash("tournament join", m[2], stub.channel, tournament=other)
    assert "registered" in inter.text, inter.text


async def test_creating_and_ending_events_in_a_loop_is_limited(stub: DiscordStub, tapis: TapisRun) -> None:
    """The server's cap counts open events only: one member creating and ending an event in a loop
    posted two public messages a turn, without end. At most 3 creations an hour per member, cancelled
    ones included; the refusal says when the next is possible; another member is not held back."""
    m = people(stub, 2)
    for _ in range(3):
        tid = await create(stub, m[0], game="marias")
        await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    refused = await stub.slash("tournament create", m[0], stub.channel, game="marias")
    assert refused.ephemeral and "at most 3 tournaments in 60 minutes" in refused.text, refused.text
    assert "<t:" in refused.text, refused.text
    assert not [t for t in tapis.bot.tournaments.events.values() if t.is_open]  # nothing was created
    assert await create(stub, m[1], game="marias")
