"""/history, /replay, /stats, /leaderboard (every ``by:``) and /admin in other languages, through the
real discord.py client against the stand-in.

- the pseudo-locale: every text of every message, embed, button, select and attachment description
  these commands sent, and every word they drew into an image (profile card, boards, replay
  frames), carries the catalogue's markers;
- French and Czech: one concrete reply per command, word for word. Ephemeral answers are in the
  asker's language, the public boards in the server's.
"""

from __future__ import annotations

from typing import Any

import pytest

import bot.views.history as history_views
from bot.render.canvas import Canvas
from bot.rules import GAMES
from bot.store import tables as store
from bot.tables.deals import deals_of
from bot.tables.replay import SessionLog
from tests.bot.test_board_bursts import no_board_cooldown
from tests.bot.test_boards import marias_session
from tests.bot.test_languages_session import texts_of, unmarked
from tests.bot.test_replay import no_cooldown, replay
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Interaction
from tests.discord_stub.tapis import TapisRun
from tests.i18n.test_images import _unmarked

NBSP = "\xa0"


def drawn_words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the bot draws from now on (the rendering threads included)."""
    seen: list[str] = []
    original = Canvas.text

    def text(self: Canvas, xy: Any, s: str, *args: Any, **kwargs: Any) -> None:
        seen.append(s)
        original(self, xy, s, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return seen


def attachment_descriptions(stub: DiscordStub) -> list[str]:
    """The alt text of every file the bot sent (``attachments[].description`` of the bodies)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "attachments" and isinstance(value, list):
                    out.extend(a["description"] for a in value
                               if isinstance(a, dict) and a.get("description"))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for call in stub.calls:
        walk(call.json)
    return out


def refusal(inter: Interaction) -> str:
    return inter.text.removeprefix("⚠️ ")


async def test_history_replay_stats_boards_and_admin_in_the_pseudo_locale(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, carol, dave = players
    no_board_cooldown(tapis)  # board after board
    stub.guild.locale = "pseudo"  # type: ignore[attr-defined]
    for u in players:
        u.locale = "pseudo"
    monkeypatch.setattr(history_views, "PAGE", 1)  # two sessions: two pages, both page buttons
    no_cooldown(tapis)
    first = await marias_session(stub, tapis, [alice, bob])
    second = await marias_session(stub, tapis, [alice, bob])
    lobby = await tapis.tables.create(stub.guild.id, stub.channel.id, carol.id, carol.name, "motz", {})
    await tapis.settle()
    drawn = drawn_words(monkeypatch)

    # /history: a page, the next and back, a session, a deal, and every refusal of a click
    listed = await stub.slash("history", alice, stub.channel)
    page = listed.last
    older = next(c for c in page.custom_ids() if ":hist:" in c)
    await stub.click(page, alice, custom_id=older)
    assert f"**#{first}**" in page.text and len(page.items()) == 2  # the select and "newer"
    await stub.click(page, alice, custom_id=next(c for c in page.custom_ids() if ":hist:" in c))
    assert f"**#{second}**" in page.text
    await stub.choose(page, alice, [str(second)])
    table = await tapis.tables.get(second)
    await stub.choose(page, alice, ["1"])
    assert "⟦Result⟧" in page.text
    arg = f"{alice.id}.any.{second}"
    refusals = [
        await stub.choose(page, alice, ["1"], custom_id=f"tapis:{second}:{table.version - 1}:hdeal:{arg}"),
        await stub.choose(page, alice, ["99"], custom_id=f"tapis:{second}:{table.version}:hdeal:{arg}"),
        await stub.choose(page, carol, [str(first)], custom_id=f"tapis:0:0:hopen:{carol.id}.any.{second}"),
        await stub.click(page, alice, custom_id=f"tapis:0:0:hist:{alice.id}.poker.1"),
        await stub.click(page, alice, custom_id=f"tapis:0:7:hist:{arg}"),
    ]
    assert all(r.ephemeral and r.text.startswith("⚠️ ⟦") for r in refusals), [r.text for r in refusals]
    await stub.slash("history", carol, stub.channel, user=alice, game="marias")
    await stub.slash("history", alice, stub.channel, game="mus")  # nothing yet

    # /replay: revealed for a player, spectators' for someone else, and its refusals
    for user, options in ((alice, {"table": first, "deal": 1}), (carol, {"table": first, "deal": 1}),
                          (alice, {"table": first, "deal": 99}), (alice, {"table": 999, "deal": 1}),
                          (alice, {"table": lobby.id, "deal": 1})):
        answer = await replay(stub, user, stub.channel, **options)
        assert answer.text and answer.ephemeral
    assert any("⟦Every hand of this deal⟧" in w for w in drawn)

    # /stats, /leaderboard by every value (and its refusal), /admin
    await stub.slash("stats", bob, stub.channel, user=alice)
    await stub.slash("stats", alice, stub.channel, user=carol)  # no session yet
    for options in ({}, {"game": "marias"}, {"game": "marias", "by": "rating"}, {"by": "wins"},
                    {"game": "marias", "by": "wins"}, {"by": "rating"}):
        await stub.slash("leaderboard", dave, stub.channel, **options)
    await stub.slash("admin tables", dave, stub.channel)  # refused: not a manager
    stub.guild.admins.add(dave.id)
    await stub.slash("admin tables", dave, stub.channel)
    await stub.slash("admin audit", dave, stub.channel)
    await stub.slash("admin season", dave, stub.channel)  # what it would do
    await stub.slash("admin season", dave, stub.channel, confirm=True)

    messages = [m for m in stub.store.values() if m.interaction_id is not None]  # the commands' answers
    seen = {t for m in messages for t in texts_of(m)} | set(attachment_descriptions(stub))
    assert len(seen) > 40, seen
    ai_names = {s.name for t in (first, second) for s in (await tapis.tables.get(t)).seats}
    names = [u.name for u in players] + sorted(ai_names)
    leaks = sorted({t for t in seen if unmarked(t, names) is not None})
    assert leaks == [], "\n".join(leaks[:40])
    pictures = _unmarked(drawn, names + ["▲", "▼"])
    assert drawn and pictures == [], pictures[:20]


async def test_one_reply_per_command_in_french_and_czech(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """A French server; alice and dave read Czech, bob French: each answer in its reader's language."""
    alice, bob, carol, dave = players
    no_board_cooldown(tapis)  # board after board
    stub.guild.locale = "fr"  # type: ignore[attr-defined]
    alice.locale, bob.locale, carol.locale, dave.locale = "cs", "fr", "en-GB", "cs"
    table_id = await marias_session(stub, tapis, [alice, bob])
    table = await tapis.tables.get(table_id)
    seat_a, seat_b = table.seat_of(alice.id), table.seat_of(bob.id)

    # /stats (Czech): one session, the singular of its three forms
    wins = await tapis.db.fetchone("SELECT wins FROM stats WHERE user_id = ?", (alice.id,))
    net = table.results[seat_a]
    card = await stub.slash("stats", alice, stub.channel)
    [field] = card.last.embeds[0]["fields"]
    won = "1 vyhraná (100" if wins[0] == 1 else "0 vyhraných (0"
    jetons = {1: "žeton", 2: "žetony", 3: "žetony", 4: "žetony"}.get(abs(net), "žetonů")
    sign = "+" if net >= 0 else "−"  # a true minus sign
    assert card.last.embeds[0]["title"] == "Statistiky — alice" and field["name"] == "Mariáš"
    assert field["value"].split("\n")[0] == f"1 odehraná partie · {won}{NBSP}%) · {sign}{abs(net)} {jetons}"

    # /history (French): bob's only session, its place out of three
    listed = await stub.slash("history", bob, stub.channel)
    page = listed.last
    place = sorted(table.results, reverse=True).index(table.results[seat_b]) + 1
    where = {1: "1er", 2: "2e", 3: "3e"}[place]
    result = table.results[seat_b]
    amount = f"**{'+' if result >= 0 else '−'}{abs(result)}** {'jeton' if abs(result) <= 1 else 'jetons'}"
    assert page.embeds[0]["title"] == "Historique — bob"
    assert page.embeds[0]["description"].endswith(f" · {amount} · {where} sur 3")
    assert page.embeds[0]["footer"]["text"] == "Page 1 sur 1 · 1 partie"
    assert page.selects()[0]["placeholder"] == "Ouvrir une partie…"

    # /replay (Czech): a deal the table does not have
    actions = await tapis.db.run(store.load_actions, table_id)
    count = len(deals_of(SessionLog(GAMES["marias"], 3, table.options, table.seed, actions), str))
    answer = await replay(stub, alice, stub.channel, table=table_id, deal=count + 5)
    choose = "vyberte rozdání 1." if count == 1 else f"vyberte rozdání od 1 do {count}."
    assert refusal(answer) == f"Stůl #{table_id} má zatím {count} rozdání: {choose}"

    # /leaderboard by:wins and by:rating (public: the server's language, French, whoever asks)
    board = await stub.slash("leaderboard", alice, stub.channel, game="marias", by="wins")
    lines = board.text.splitlines()
    assert not board.ephemeral and lines[0] == "Classement — victoires Marias"
    won_b = await tapis.db.fetchone("SELECT wins FROM stats WHERE user_id = ?", (bob.id,))
    assert f"<@{bob.id}> — **{won_b[0]}** {'gagnée' if won_b[0] <= 1 else 'gagnées'} sur 1" in board.text
    rated = await stub.slash("leaderboard", alice, stub.channel, game="marias", by="rating")
    assert rated.text.splitlines()[0] == "Classement — cote Marias · saison 1"
    ranked = [line for line in rated.text.splitlines()[1:] if "<@" in line]
    assert "," in ranked[0].split("**")[1]  # 23,4: a decimal comma
    ai = await tapis.db.fetchall("SELECT player FROM ratings WHERE human = 0 AND game = 'marias'")
    references = [line for line in rated.text.splitlines()[1:] if "<@" not in line]
    assert references and len(references) == len(ai)  # the AI levels' reference lines (issue 32), in French
    assert all(line.startswith("`  ·` ┄ *IA ") for line in references)
    refused = await stub.slash("leaderboard", dave, stub.channel, by="rating")
    assert refusal(refused) == "Pro řazení podle hodnocení vyberte hru: hodnocení je pro každou hru zvlášť."

    # /admin (Czech for dave, French for bob, English for carol): managers only, whatever Discord shows
    nope = await stub.slash("admin audit", dave, stub.channel)
    assert refusal(nope) == "Příkaz `/admin` může použít jen správce serveru (oprávnění Spravovat server)."
    stub.guild.admins.update({dave.id, bob.id})
    audit = await stub.slash("admin audit", dave, stub.channel)
    accounts = await tapis.db.fetchone("SELECT COUNT(*) FROM accounts WHERE guild_id = ?", (stub.guild.id,))
    assert accounts[0] == 4  # the house, the two players' wallets, the table's escrow
    assert audit.ephemeral and audit.text == (
        f"✅ vyrovnáno: součet účtů tohoto serveru je 0 a každý z jeho {accounts[0]} účtů odpovídá svým "
        "řádkům v účetní knize.\nŽádný neotevřený stůl nedrží vklady.")
    lobby = await tapis.tables.create(stub.guild.id, stub.channel.id, carol.id, carol.name, "motz", {})
    listed_tables = await stub.slash("admin tables", bob, stub.channel)
    expected = f"#{lobby.id} Motz — en attente, 1 assis dans <#{stub.channel.id}> · version 0"
    assert listed_tables.text == expected
    nope = await stub.slash("admin season", carol, stub.channel)
    # /admin is a group, which Discord cannot mention: the plain form
    assert refusal(nope) == "Only a server manager (Manage Server permission) can use `/admin`."
    stub.guild.admins.add(carol.id)
    started = await stub.slash("admin season", carol, stub.channel, confirm=True)
    assert started.text.startswith("Season 2 has started: every rating starts afresh.")
