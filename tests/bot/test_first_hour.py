"""A new server's and a new player's first hour: each text a newcomer meets says what to do next."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace as NS

from bot.i18n import translator
from tests.bot.test_board_bursts import no_board_cooldown
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun


async def test_a_lobby_says_what_to_press_the_buy_in_and_how_the_ai_fills_seats(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz")
    await tapis.settle()
    motz = stub.messages(stub.channel)[-1].text
    # Motz is played by 3 to 6; this table has its default 4 seats, and 3 may start it
    assert "(1 seated, 3–4 players): press **Join** to sit down, with a buy-in of 100 jetons." in motz, motz
    assert "may fill free seats with **Add AI**, then presses **Start**." in motz
    await stub.slash("table new", players[2], stub.channel, game="motz", players=6)
    await tapis.settle()
    assert "(1 seated, 3–6 players)" in stub.messages(stub.channel)[-1].text
    await stub.slash("table new", bob, stub.channel, game="mus", language="fr")
    await tapis.settle()
    mus = stub.messages(stub.channel)[-1].text
    assert ("(1 assis, 4 joueurs) : cliquez sur **Rejoindre** pour vous asseoir, avec une mise de 100 "
            "jetons.") in mus, mus  # a game of a fixed number: "4", not "4–4"
    assert "peut compléter les places libres avec **Ajouter une IA**, puis clique sur **Commencer**." in mus


def test_a_lobby_where_no_ai_may_sit_does_not_offer_it() -> None:
    from bot.views.display import lobby_text

    table = NS(game="marias", seats=[object()], capacity=3, buy_in=2500, host_id=7, options={},
               plan=NS(ai_levels=()))
    text = lobby_text(table, translator("cs"))  # type: ignore[arg-type]
    assert "(sedí 1, 3 hráči): přisedněte tlačítkem **Přisednout**, vklad je 2\u00a0500 žetonů." in text, text
    assert "Zakladatel <@7> stiskne **Začít**, až budou všichni sedět." in text and "AI" not in text


async def test_too_few_jetons_says_where_more_come_from(stub: DiscordStub, tapis: TapisRun,
                                                       players: list[User]) -> None:
    alice, bob = players[:2]
    refused = await stub.slash("table new", alice, stub.channel, game="motz", buy_in=5000)
    assert refused.ephemeral and refused.text == (
        f"⚠️ Not enough jetons: you have 1000 jetons, the buy-in is 5000. {stub.mention('daily')} adds more "
        "each day.")
    bob.locale = "es-ES"
    refused = await stub.slash("table new", bob, stub.channel, game="motz", buy_in=5000)
    assert f"{stub.mention('daily')} añade más cada día." in refused.text, refused.text


async def test_empty_stats_history_and_boards_point_to_a_first_table(stub: DiscordStub, tapis: TapisRun,
                                                                    players: list[User]) -> None:
    alice, bob = players[:2]
    no_board_cooldown(tapis)  # card after card
    new = stub.mention("table new")  # </table new:id>: one click puts the command in the message box
    first = f"No finished session yet. Open a table with {new} to play your first."
    assert first in (await stub.slash("stats", alice, stub.channel)).text
    assert first in (await stub.slash("history", alice, stub.channel)).text
    theirs = (await stub.slash("stats", alice, stub.channel, user=bob)).text
    assert "No finished session yet." in theirs and "/table new" not in theirs  # not bob's next step
    wins = (await stub.slash("leaderboard", alice, stub.channel, by="wins")).text
    assert f"Nobody yet. Open a table with {new} to be the first." in wins, wins
    alice.locale = "fr"
    assert f"Ouvrez une table avec {new}" in (await stub.slash("stats", alice, stub.channel)).text


async def test_help_tells_jetons_and_server_managers_where_to_start(stub: DiscordStub, tapis: TapisRun,
                                                                   players: list[User]) -> None:
    alice = players[0]
    text = (await stub.slash("help", alice, stub.channel)).text
    assert "`/balance` shows yours, `/daily` adds more each day." in text, text
    assert "`/settings show` lists this server's settings" in text and "`/settings set` changes one" in text
    assert "**Mus**: 4 players" in text and "**Motz**: 3–6 players" in text
    alice.locale = "fr"
    text = (await stub.slash("help", alice, stub.channel)).text
    assert "`/solde` affiche les vôtres" in text and "**Mus** : 4 joueurs" in text, text


async def test_rules_say_a_fixed_number_of_players_once(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    text = (await stub.slash("rules", players[0], stub.channel, game="marias")).text
    assert "Players\n3\n" in text and "3–3" not in text, text


async def test_a_host_who_leaves_the_lobby_is_told_what_became_of_the_table(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol = players[:3]
    await stub.slash("table new", alice, stub.channel, game="motz")
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    joined = await stub.click(lobby, bob, "Join")
    assert joined.text == ("You joined table #1 (buy-in 100 jetons). The game begins when the host presses "
                           "**Start**."), joined.text
    handed = await stub.click(lobby, alice, "Leave")
    assert handed.ephemeral and handed.text == (
        "You left the table; your buy-in is back in your wallet. bob hosts table #1 now."), handed.text
    carol.locale = "fr"
    guest = await stub.click(lobby, carol, "Join")
    assert guest.text.endswith("La partie commence quand l'hôte clique sur **Commencer**."), guest.text
    carol.locale = "en-US"
    plain = await stub.slash("table leave", carol, stub.channel)  # not the host: nothing more to say
    assert plain.text == "You left the table; your buy-in is back in your wallet."
    bob.locale = "cs"
    closed = await stub.slash("table leave", bob, stub.channel)
    assert closed.text == ("Odešli jste a nikdo jiný u stolu neseděl, takže stůl #1 je zavřený; vklad se "
                           "vrátil do vaší peněženky."), closed.text


async def started_motz(stub: DiscordStub, tapis: TapisRun, alice: User, bob: User) -> None:
    """A short Motz table (table #1) of ``alice`` (host), ``bob`` and an AI, started."""
    await stub.slash("table new", alice, stub.channel, game="motz", players=3,
                     options="rotations=1 max_extra_deals=0")
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    await stub.click(lobby, bob, "Join")
    await stub.click(lobby, alice, "Add AI")
    await stub.click(lobby, alice, "Start")
    await tapis.settle()


async def test_the_hand_dm_points_to_the_rules_and_the_last_one_to_history(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    bob.locale = "fr"
    await started_motz(stub, tapis, alice, bob)
    # (the version is the deal's: an AI seat may have moved first)
    first = stub.dms(alice)[0].text
    assert re.search(r"table 1 · version \d+ · How to play: /rules", first), first
    assert "Comment jouer : /rules" in stub.dms(bob)[0].text
    await play_session(stub, tapis, 1, {alice.id: alice, bob.id: bob}, random.Random(3))
    await tapis.settle()
    last = stub.dms(alice)[-1].text
    history, stats = stub.mention("history"), stub.mention("stats")  # an embed field's value: mentions
    assert f"The session is over. {history} shows its deals, {stats} your record." in last, last
    assert f"{history} montre ses donnes, {stats} votre bilan." in stub.dms(bob)[-1].text


async def test_settings_show_names_the_default_pace_and_threads(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    boss = stub.add_user("boss", stub.guild, admin=True)
    threads = tapis.bot.config.table_threads  # the operator's (the stand-in's config: off)
    shown = (await stub.slash("settings show", boss, stub.channel)).text
    assert "**pace**: normal · default" in shown, shown  # was "default · default"
    assert f"**threads**: {'on' if threads else 'off'} · default" in shown, shown
    await stub.slash("settings set", boss, stub.channel, key="threads", value="off" if threads else "on")
    shown = (await stub.slash("settings show", boss, stub.channel)).text
    assert f"**threads**: {'off' if threads else 'on'}\n" in shown, shown


async def test_table_mine_with_no_table_says_how_to_sit_down(stub: DiscordStub, tapis: TapisRun,
                                                             players: list[User]) -> None:
    alice = players[0]
    assert (await stub.slash("table mine", alice, stub.channel)).text == (
        f"You are not seated at any open table in this server. Open one with {stub.mention('table new')}, "
        "or press **Join** on a lobby.")
    alice.locale = "cs"
    assert "stiskněte **Přisednout** u čekajícího stolu." in (await stub.slash("table mine", alice,
                                                                               stub.channel)).text


async def test_an_option_typo_names_the_option_meant(stub: DiscordStub, tapis: TapisRun,
                                                     players: list[User]) -> None:
    alice = players[0]
    typo = await stub.slash("table new", alice, stub.channel, game="motz", options="ant=2")
    assert typo.ephemeral and typo.text == (
        "⚠️ Motz has no option `ant`: did you mean `ante`? Options: players, ante, buy_in, rotations, "
        "max_extra_deals, fine_cap, hints, faces, pace."), typo.text
    unlike = await stub.slash("table new", alice, stub.channel, game="motz", options="zzz=2")
    assert unlike.text.startswith("⚠️ Motz has no option `zzz`. Options: players, ante,"), unlike.text
    alice.locale = "fr"
    typo = await stub.slash("table new", alice, stub.channel, game="mus", options="stak=5")
    assert "n'a pas d'option `stak` : vouliez-vous dire `stake` ? Options : " in typo.text, typo.text
