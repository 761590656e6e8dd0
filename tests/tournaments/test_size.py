"""An event's size: the cap on entrants, and a round that cannot be seated (the recursive seating
overflowed the stack at about 1,000 entrants and left the event running with no table, for ever)."""

from __future__ import annotations

import pytest

from bot.tournaments.model import CANCELLED, FINISHED
from tests.discord_stub import DiscordStub
from tests.discord_stub.client import ErrorLog
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import create, join_all, ledger_total, people, play_round, pool_balance, quiet


async def test_an_event_takes_at_most_max_entrants(stub: DiscordStub, tapis: TapisRun,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The entrant past the cap is refused (ephemeral, no jeton moved); a Mus partner completing a
    pair is not a new entrant and still joins."""
    monkeypatch.setattr("bot.tournaments.registration.MAX_ENTRANTS", 3)
    m = people(stub, 11)
    tid = await create(stub, m[0], game="marias", buy_in=10)
    await join_all(stub, tid, m[:3])
    inter = await stub.slash("tournament join", m[3], stub.channel, tournament=tid)
    assert inter.ephemeral, inter.text
    assert "This tournament is full: it takes 3 entrants at most." in inter.text, inter.text
    assert await tapis.ledger.balance(stub.guild.id, m[3].id) == 1000
    mus = await create(stub, m[4], game="mus", buy_in=10)
    for a, b in ((4, 5), (6, 7), (8, 9)):
        await stub.slash("tournament join", m[a], stub.channel, tournament=mus, partner=m[b])
    inter = await stub.slash("tournament join", m[10], stub.channel, tournament=mus, partner=m[3])
    assert "is full" in inter.text, inter.text
    inter = await stub.slash("tournament join", m[5], stub.channel, tournament=mus, partner=m[4])
    assert "registered" in inter.text, inter.text  # completes the first pair: no new entrant
    t = tapis.bot.tournaments.get(mus)  # type: ignore[union-attr]
    assert t is not None and [len(e.members) for e in t.entrants] == [2, 1, 1]
    assert await ledger_total(tapis) == 0


async def test_a_server_holds_at_most_max_open_per_server_events(stub: DiscordStub, tapis: TapisRun,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each member may host one open event, and a round's tables are opened outside the open-table
    caps: a server's members (or one member's accounts) opened events without bound, so a server
    capped at 50 tables ran hundreds of round tables. The event past ``MAX_OPEN_PER_SERVER`` is
    refused (ephemeral, in the member's language); another server is not counted; one ended frees a
    place."""
    monkeypatch.setattr("bot.tournaments.registration.MAX_OPEN_PER_SERVER", 2)
    m = people(stub, 4)
    first = await create(stub, m[0], game="marias", buy_in=10)
    await create(stub, m[1], game="marias")
    refused = await stub.slash("tournament create", m[2], stub.channel, game="marias")
    assert refused.ephemeral, refused.text
    assert "This server already has 2 open tournaments (the limit is 2): #2 Marias" in refused.text, \
        refused.text
    await stub.slash("language", m[3], stub.channel, language="fr")
    refused = await stub.slash("tournament create", m[3], stub.channel, game="marias")
    assert "Ce serveur a déjà 2 tournois ouverts" in refused.text, refused.text
    elsewhere = stub.add_guild("elsewhere")
    host = stub.add_user("host", elsewhere)
    inter = await stub.slash("tournament create", host, elsewhere.channels[0], game="marias")
    assert "Tournament #" in inter.text, inter.text  # another server has its own places
    assert "is cancelled" in (await stub.slash("tournament end", m[0], stub.channel, tournament=first)).text
    assert await create(stub, m[2], game="marias") > first
    assert len(tapis.bot.tournaments.open_in(stub.guild.id)) == 2  # type: ignore[union-attr]
    assert await ledger_total(tapis) == 0


def failing_seating(*args: object) -> list[list[int]]:
    raise RecursionError("maximum recursion depth exceeded")  # what 1,200 entrants did


async def test_a_first_round_that_cannot_be_seated_cancels_the_event(stub: DiscordStub, tapis: TapisRun,
                                                                    errors: ErrorLog,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The event is cancelled with every buy-in back (not left running with no table), the channel
    is told, and the host may open another event."""
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=2, buy_in=40, options="rounds=1")
    await join_all(stub, tid, m)
    monkeypatch.setattr("bot.tournaments.pairing.club_round", failing_seating)
    inter = await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    assert "could not seat its first round: it is cancelled" in inter.text, inter.text
    assert any("round 1 could not be seated" in e for e in errors.take())  # logged with its traceback
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == CANCELLED and t.settled and not t.tables
    assert [await tapis.ledger.balance(stub.guild.id, u.id) for u in m] == [1000] * 3
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0
    told = [msg.text for msg in stub.messages(stub.channel) if "is cancelled" in msg.text]
    assert told == [f"Tournament #{tid} is cancelled (its first round could not be seated); every buy-in is "
                    "back."], told
    assert await create(stub, m[0], game="marias") > tid  # the host is free to open another


async def test_a_later_round_that_cannot_be_seated_ends_the_event(stub: DiscordStub, tapis: TapisRun,
                                                                 errors: ErrorLog,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 2 cannot be seated: the event ends on the standings after round 1, the pool paid out."""
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=3, buy_in=40, options="rounds=1")
    await join_all(stub, tid, m)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    monkeypatch.setattr("bot.tournaments.pairing.club_round", failing_seating)
    await play_round(tapis, tid)
    assert any("round 2 could not be seated" in e for e in errors.take())
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == FINISHED and t.round == 1 and t.rounds == 1
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0
    paid = await tapis.db.fetchone(  # type: ignore[union-attr]
        "SELECT SUM(prize) FROM tournament_players WHERE tournament_id = ?", (tid,))
    assert paid is not None and int(paid[0]) == 3 * 40
    texts = [msg.text for msg in stub.messages(stub.channel)]
    assert any("round 2 could not be seated, so the tournament ends here" in x for x in texts), texts
    assert sum(x.startswith(f"Tournament #{tid} is over.") for x in texts) == 1


async def test_a_final_shared_by_every_entrant_still_names_its_winners(stub: DiscordStub, tapis: TapisRun,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table of the one round forfeited: all 40 entrants share first place and the pool. The
    final message naming them and their prizes (over 4,000 characters with 32-character names) is cut
    to Discord's 2,000, not refused (HTTP 400: no winner shown at all)."""
    m = [stub.add_user(f"p{i:02d}_{'x' * 28}", stub.guild) for i in range(40)]
    tid = await create(stub, m[0], game="marias", rounds=1, buy_in=10, options="rounds=1")
    await join_all(stub, tid, m)

    async def failing(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the store is down")

    monkeypatch.setattr(tapis.tables, "open_seated", failing)
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == FINISHED
    assert {s.rank for s in tapis.bot.tournaments.standings(t)} == {1}  # type: ignore[union-attr]
    finals = [msg.text for msg in stub.messages(stub.channel)
              if msg.text.startswith(f"Tournament #{tid} is over.")]
    assert len(finals) == 1, [msg.text[:80] for msg in stub.messages(stub.channel)]
    text = finals[0]
    assert len(text) <= 2000 and "Winners: p00" in text and "Prizes: p00" in text and text.endswith(", ….")
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


def test_the_standings_write_the_net_in_the_readers_digits() -> None:
    from types import SimpleNamespace

    from bot.cogs.tournament import standings_text
    from bot.i18n import translator
    from bot.tournaments.standings import Standing

    rows = [Standing(1, "ann", points=4, net=1500, sessions=2, wins=2, rank=1),
            Standing(2, "bob", points=0, net=-1500, sessions=2, rank=2)]
    club = SimpleNamespace(format="club")
    french = standings_text(club, rows, translator("fr"))  # type: ignore[arg-type]
    assert "+1\u202f500" in french and "−1\u202f500" in french  # a true minus sign
    assert "+1500" in standings_text(club, rows, translator("en"))  # type: ignore[arg-type]


async def test_the_refusal_at_the_server_cap_names_the_events_holding_the_places(
        stub: DiscordStub, tapis: TapisRun, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event announced a week ahead holds its place until it starts: the member refused at the cap
    is told which events hold the places and when each starts (or, not scheduled, until when it waits
    for its host; or which round it plays), so an admin knows which one to end, and how."""
    monkeypatch.setattr("bot.tournaments.registration.MAX_OPEN_PER_SERVER", 3)
    m = people(stub, 6)
    week = await create(stub, m[0], game="marias", starts_in=7 * 24 * 60)
    later = await create(stub, m[1], game="motz")
    running = await create(stub, m[2], game="marias", rounds=2, options="rounds=1")
    await join_all(stub, running, m[3:6])
    await stub.slash("tournament start", m[2], stub.channel, tournament=running)
    runner = tapis.bot.tournaments  # type: ignore[union-attr]
    starts = runner.get(week).starts_at  # type: ignore[union-attr]
    expires = runner.get(later).created_at + tapis.bot.config.lobby_expiry_hours * 3600  # type: ignore[union-attr]
    refused = await stub.slash("tournament create", m[3], stub.channel, game="marias")
    assert refused.ephemeral, refused.text
    held = (f"#{running} Marias (round 1 of 2), "
            f"#{later} Motz (registration open until <t:{int(expires)}:f>), "
            f"#{week} Marias (starts <t:{int(starts)}:R>)")
    assert (f"This server already has 3 open tournaments (the limit is 3): {held}. Its host or an admin can "
            "end one with ") in refused.text, refused.text
    assert "tournament end" in refused.text, refused.text
    await stub.slash("language", m[4], stub.channel, language="fr")
    refused = await stub.slash("tournament create", m[4], stub.channel, game="marias")
    assert f"n°{week} Marias (commence <t:{int(starts)}:R>)" in refused.text, refused.text
