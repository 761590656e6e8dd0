"""/leaderboard by rating and wins, the /stats profile card, /admin season, through the stand-in."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from PIL import Image

from bot.rules import GAMES
from bot.store import tables as store
from bot.tables.deals import contracts_of
from bot.tables.replay import SessionLog
from tests.backends import BACKENDS
from tests.bot.test_board_bursts import no_board_cooldown
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def marias_session(stub: DiscordStub, tapis: TapisRun, humans: list[User]) -> int:
    """A whole one-round Marias session (3 deals) with these humans (+ an easy AI seat if two).

    The humans play their first legal move to the end: only a session of its full length is
    rated and counts on the boards (issue 26), so they may not leave it to the AI.
    """
    host = humans[0]
    t = await tapis.tables.create(stub.guild.id, stub.channel.id, host.id, host.name, "marias",
                                  {"rounds": 1})
    for u in humans[1:]:
        await tapis.tables.join(t.id, u.id, u.name)
    while len(t.seats) < t.capacity:
        await tapis.tables.add_ai(t.id, host.id)
    await tapis.tables.start(t.id, host.id)
    await play_out(tapis, t.id)
    return t.id


async def play_out(tapis: TapisRun, table_id: int) -> None:
    """Play the humans' first legal move (the AI plays its seats) until the session ends by itself."""
    for _ in range(2000):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if table.status != "playing":
            break
        for user in table.to_act_users():
            await tapis.tables.act(table_id, user, table.version,
                                   table.state.legal_actions(table.seat_of(user))[0])
            break
    table = await tapis.tables.get(table_id)
    assert table.status == "finished" and not table.closing


@pytest.mark.parametrize("backend", BACKENDS)
async def test_rating_and_wins_boards_and_seasons(stub: DiscordStub, tapis: TapisRun,
                                                  players: list[User]) -> None:
    alice, bob, carol, dave = players
    no_board_cooldown(tapis)  # dave posts board after board
    for _ in range(2):
        await marias_session(stub, tapis, [alice, bob])
    await marias_session(stub, tapis, [carol, alice, bob])
    rated = await tapis.db.fetchall(
        "SELECT user_id, score, human, player FROM ratings WHERE game = 'marias' "
        "ORDER BY score DESC, user_id")
    assert {r[3] for r in rated if not r[2]} == {"ai:easy"}  # the AI seats have their level's entry
    humans = [r for r in rated if r[2]]
    assert len(humans) == 3

    [easy] = [r for r in rated if not r[2]]

    board = await stub.slash("leaderboard", dave, stub.channel, game="marias", by="rating")
    lines = board.text.splitlines()
    assert not board.ephemeral and "rating · season 1" in lines[0]
    ranked = [line for line in lines[1:] if "<@" in line]
    for i, (uid, score, _, _) in enumerate(humans):  # equal ratings share a place, in user id order
        rank = 1 + sum(1 for r in humans if r[1] > score)
        assert ranked[i].startswith(f"`{rank:>2}.` <@{uid}> — **{score:.1f}**")
    # the AI is never ranked, but its level stands as a reference line at its place (issue 32)
    [reference] = [line for line in lines[1:] if "<@" not in line]
    assert reference == f"`  ·` ┄ *easy AI* — *{easy[1]:.1f}* ┄"
    place = 1 + sum(1 for r in humans if r[1] > easy[1])
    assert lines[place] == reference and len(lines) == 5
    [png] = board.last.attachments
    assert Image.open(io.BytesIO(png.data)).size[0] == 720

    wins = await stub.slash("leaderboard", dave, stub.channel, game="marias", by="wins")
    counted = await tapis.db.fetchall(
        "SELECT user_id, wins, sessions FROM stats WHERE game = 'marias' "
        "ORDER BY wins DESC, sessions, user_id")
    # ties: fewer sessions first, then the user id; the same wins in as many sessions share a place
    shown = [line for line in wins.text.splitlines()[1:] if "<@" in line]
    assert len(shown) == len(counted)
    for line, (uid, won, played) in zip(shown, counted, strict=True):
        rank = 1 + sum(1 for r in counted if (r[1], -r[2]) > (won, -played))
        assert line.startswith(f"`{rank:>2}.` <@{uid}> — **{won}** won of {played}")
    assert "AI" not in wins.text  # reference lines are for ratings only

    refused = await stub.slash("leaderboard", dave, stub.channel, by="rating")
    assert refused.ephemeral and "Choose a game" in refused.text

    # a new season: the board starts empty, the old one stays readable
    nope = await stub.slash("admin season", dave, stub.channel)
    assert nope.ephemeral and "server manager" in nope.text
    stub.guild.admins.add(dave.id)
    started = await stub.slash("admin season", dave, stub.channel, confirm=True)
    assert started.ephemeral and "Season 2 has started" in started.text
    fresh = await stub.slash("leaderboard", dave, stub.channel, game="marias", by="rating")
    assert "season 2" in fresh.text and "Nobody yet." in fresh.text
    old = await stub.slash("leaderboard", dave, stub.channel, game="marias", by="rating", season=1)
    assert old.text.splitlines()[1:] == lines[1:]
    ahead = await stub.slash("leaderboard", dave, stub.channel, game="marias", by="rating", season=7)
    assert ahead.ephemeral and "no season 7 yet" in ahead.text and "season 2" in ahead.text
    for by in ("jetons", "wins"):  # a season is said to apply to ratings only, not silently ignored
        ignored = await stub.slash("leaderboard", dave, stub.channel, game="marias", by=by, season=1)
        assert ignored.ephemeral and "by:rating only" in ignored.text
    await marias_session(stub, tapis, [alice, bob])
    season2 = await tapis.db.fetchall("SELECT DISTINCT season FROM rating_changes ORDER BY season")
    assert [r[0] for r in season2] == [1, 2]


def _bold(text: str) -> list[str]:
    return [line.split("**")[1] for line in text.splitlines()[1:]]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_stats_is_a_profile_card(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    no_board_cooldown(tapis)  # card after card
    tables = [await marias_session(stub, tapis, [alice, bob]) for _ in range(2)]
    inter = await stub.slash("stats", bob, stub.channel, user=alice)
    assert inter.ephemeral
    [card] = inter.last.attachments
    assert card.filename == "profile.png" and Image.open(io.BytesIO(card.data)).size[0] == 720
    [field] = inter.last.embeds[0]["fields"]
    assert field["name"] == GAMES["marias"].title
    stat = await tapis.db.fetchone("SELECT sessions, wins, net FROM stats WHERE user_id = ?", (alice.id,))
    assert field["value"].startswith(f"{stat[0]} sessions played · {stat[1]} won (")
    rating = await tapis.db.fetchone("SELECT score FROM ratings WHERE player = ?", (f"user:{alice.id}",))
    assert f"rating {rating[0]:.1f}" in field["value"]
    # where the rating stands against the AI level rated in the same game (issue 32)
    easy = await tapis.db.fetchone("SELECT score FROM ratings WHERE player = 'ai:easy' AND game = 'marias'")
    side = "above" if rating[0] > easy[0] else "below"
    assert f"alice rates {side} the easy AI ({easy[0]:.1f})" in field["value"]  # bob reads alice's card
    assert "You rate" not in field["value"]
    own = await stub.slash("stats", alice, stub.channel)
    assert f"You rate {side} the easy AI ({easy[0]:.1f})" in own.last.embeds[0]["fields"][0]["value"]
    best = await tapis.db.fetchone(
        "SELECT MAX(result) FROM session_seats WHERE user_id = ?", (alice.id,))
    assert f"best {best[0]:+d}".replace("-", "−") in field["value"]  # a true minus sign
    tally: Counter[str] = Counter()
    for table_id in tables:
        row = await tapis.db.run(store.load_table, table_id)
        actions = await tapis.db.run(store.load_actions, table_id)
        seat = next(i for i, s in enumerate(row.seats) if s["user_id"] == alice.id)
        tally.update(contracts_of(SessionLog(GAMES["marias"], 3, row.options, row.seed, actions), seat))
    if tally:
        top = max(tally.values())
        named = {"hra": "Hra", "kilo_sedma": "Kilo + sedma", "sedma": "Sedma", "kilo": "Kilo", "betl": "Betl",
                 "durch": "Durch"}  # the contracts as Tapis names them (bot.rules.marias.text.contract)
        assert any(f"favourite: {named[c]}" in field["value"] for c, n in tally.items() if n == top)
    else:
        assert "favourite" not in field["value"]


async def test_stats_replays_a_players_sessions_once(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every /stats replayed up to 20 whole sessions per game of the player (their logs read too), as
    often as any member asked for anyone's card. A player's favourite is now counted once per new
    finished session; the favourites kept stay bounded."""
    no_board_cooldown(tapis)  # card after card
    import bot.views.boards as boards

    monkeypatch.setattr(boards, "_favourites", boards.weakref.WeakKeyDictionary())
    monkeypatch.setattr(boards, "FAVOURITES_KEEP", 2)
    replayed: list[int] = []

    def counting(log: SessionLog, seat: int) -> list[str]:
        replayed.append(log.seed)
        return contracts_of(log, seat)

    monkeypatch.setattr("bot.tables.deals.contracts_of", counting)
    alice, bob, carol = players[:3]
    await marias_session(stub, tapis, [alice, bob])
    cards = [(await stub.slash("stats", bob, stub.channel, user=alice)).last.embeds[0]["fields"]
             for _ in range(5)]
    assert len(replayed) == 1  # once, not five times
    assert all(c == cards[0] for c in cards)  # the same card every time
    await marias_session(stub, tapis, [alice, bob])
    await stub.slash("stats", carol, stub.channel, user=alice)
    await stub.slash("stats", alice, stub.channel)
    assert len(replayed) == 3  # a new session: alice's two counted again, once (her own /stats: none)
    await stub.slash("stats", bob, stub.channel)  # bob's (two sessions), then carol's (none)
    await stub.slash("stats", carol, stub.channel)
    assert len(replayed) == 5 and len(boards._favourites[tapis.bot]) <= 2
