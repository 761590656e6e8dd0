"""A Motz table as a French club reads it on Discord (a read-through's findings), through the real
discord.py client against the stand-in:

- the Table field (of the table message, of each hand DM, and the image's alt text) names each player
  beside what is theirs: what each declared, who won each trick, how many tricks and cards each holds
  (it read "annonces: — · a pris le muet · joue · —", "gagnants des levées: 0 · 3" with seats counted
  from 0, "levées: 1 · 0 · 0 · 1"); ``k`` is the antes each player has in the bête ("k: 1"); the fine
  at risk and the pot are in jetons, and the pot is called the bête, as the image and narration call it;
- the player to declare reads the fine they risk, and a player whose stack cannot cover it reads why
  Pass is their only button (the cover rule, docs/rules/motz.md 8.11);
- once the session is over, the Table field tells no deal (it read "mises dans la bête: 4 par joueur"
  beside a bête the end's split had emptied);
- /history marks a cancelled deal (it read "Donne 2: alice −2 · bob −2 · …" and nothing more).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import translator
from bot.views.alt import table_alt
from tests.bot.test_languages_session import open_lobby
from tests.bot.test_mus_bet_shown import act
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Message
from tests.discord_stub.tapis import TapisRun

FR = translator("fr")


def field_lines(message: Message, name: str) -> list[str]:
    embed = message.embeds[0]
    return str(next(f["value"] for f in embed.get("fields", []) if f["name"] == name)).splitlines()


async def french_motz(stub: DiscordStub, tapis: TapisRun, players: list[User],
                      options: str = "") -> tuple[int, dict[int, User]]:
    stub.guild.locale = "fr"  # type: ignore[attr-defined]
    for user in players:
        user.locale = "fr"
    extra = {"options": options} if options else {}
    table_id, _ = await open_lobby(stub, players[0], players[1:], 0, "motz", **extra)
    await tapis.settle()
    return table_id, {u.id: u for u in players}


async def to_act(tapis: TapisRun, table_id: int, users: dict[int, User]) -> tuple[Any, int, User]:
    table = await tapis.tables.get(table_id)
    seat = table.state.to_act()[0]
    return table, seat, users[table.seats[seat].user_id]


async def test_the_table_field_names_each_player_beside_what_is_theirs(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    table_id, users = await french_motz(stub, tapis, players, "ante=2")
    said: dict[int, str] = {}
    declared = (("take_muet", "a pris le muet"), ("stand", "joue"), ("pass", "passe"), ("pass", "passe"))
    for move, word in declared:
        table, seat, user = await to_act(tapis, table_id, users)  # the dealer speaks last
        await act(stub, tapis, table_id, user, {"type": move})
        said[seat] = word
    while True:  # the first trick
        table, seat, user = await to_act(tapis, table_id, users)
        if table.state.view(None)["trick_winners"]:
            break
        await act(stub, tapis, table_id, user, table.state.legal_actions(seat)[0])
    view = table.state.view(None)
    names = [s.name for s in table.seats]
    winner = names[view["trick_winners"][0]]
    spoken = " · ".join(f"{names[s]} : {w}" for s, w in sorted(said.items()))
    expected = [
        "mises dans la bête: 1 par joueur",
        f"amende en jeu: {view['fine']} jetons",
        f"annonces: {spoken}",
        f"gagnants des levées: {winner}",
        f"levées: {winner} 1",
        "cartes en main: " + " · ".join(f"{names[s]} {n}" for s, n in enumerate(view["hand_sizes"])),
    ]
    message = stub.message(table.message_id)
    lines = field_lines(message, "Table")
    dm = stub.dms(users[table.seats[seat].user_id])[-1]
    for line in expected:
        assert line in lines, (line, lines)
        assert line in field_lines(dm, "Table"), (line, dm.text)
    pot = f"{view['pot']} jetons"
    assert field_lines(message, "La bête") == [pot] and field_lines(dm, "La bête") == [pot]
    alt = table_alt("motz", table_id, view, names, FR)
    assert message.attachments[0].description == alt
    for line in expected[:-1]:  # the alt text tells the cards in hand with each seat's stack
        assert line.replace(": ", " : ", 1) in alt, (line, alt)
    assert f"la bête : {pot}." in alt


async def test_the_player_to_declare_reads_the_fine_they_risk_and_why_they_may_only_pass(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    table_id, users = await french_motz(stub, tapis, players, "ante=1 buy_in=20 rotations=2")
    table, seat, user = await to_act(tapis, table_id, users)
    assert "⚠️ Amende en jeu : 4 jetons. Qui joue ou prend le muet et ne fait aucune levée la verse dans " \
           "la corbeille." in stub.dms(user)[-1].text
    while True:  # everyone passes: the bête grows past a stack of 20 jetons less the antes
        table, seat, user = await to_act(tapis, table_id, users)
        view = table.state.view(seat)
        if view["stacks"][seat] < view["fine"]:
            break
        await act(stub, tapis, table_id, user, {"type": "pass"})
    assert table.state.legal_actions(seat) == [{"type": "pass"}]
    dm = stub.dms(user)[-1]
    name = table.seats[seat].name
    assert (f"⚠️ {name} a {view['stacks'][seat]} jetons et ne peut pas couvrir l'amende de {view['fine']} "
            f"jetons : {name} ne peut que passer.") in dm.text, dm.text
    while (await tapis.tables.get(table_id)).status == "playing":  # all pass to the session's end
        table, seat, user = await to_act(tapis, table_id, users)
        await act(stub, tapis, table_id, user, {"type": "pass"})
    table = await tapis.tables.get(table_id)
    over = field_lines(stub.message(table.message_id), "Table")  # the end's split emptied the bête
    assert table.state.view(None)["k"] > 0 and not any(line.startswith("mises dans la bête") for line in over)
    assert not any(line.startswith(("annonces", "levées", "cartes en main")) for line in over), over
    answer = await stub.slash("history", players[0], stub.channel)
    listing = answer.responses[-1]
    select = listing.selects()[0]
    await stub.choose(listing, players[0], [select["options"][0]["value"]], custom_id=select["custom_id"])
    await tapis.settle()
    assert "Donne 1 (annulée): " in listing.text, listing.text
