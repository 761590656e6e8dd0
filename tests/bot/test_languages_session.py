"""Whole sessions in other languages through the real discord.py client against the stand-in.

- a Motz table in a French server: the table message in French, each player's DMs and answers in
  their own Discord language, one player switching to Czech with /language mid-session;
- a Mus table opened in Spanish in an English server;
- every game in the pseudo-locale: every text of every message, embed, button, select and DM
  the players saw carries the catalogue's markers, so nothing bypasses the translator.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.rules import GAMES
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Message
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun


def _click_verb(stub: DiscordStub, message: Message, user: User, verb: str) -> Any:
    control = message.button(contains=f":{verb}")
    return stub.click(message, user, custom_id=control["custom_id"])


async def open_lobby(stub: DiscordStub, host: User, guests: list[User], ai: int, game: str,
                     **options: object) -> tuple[int, Message]:
    """/table new, Join by each guest, Add AI, Start: buttons found by verb, whatever their language."""
    if "players" in {s.name for s in GAMES[game].options}:
        options.setdefault("players", 1 + len(guests) + ai)
    await stub.slash("table new", host, stub.channel, game=game, **options)
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    for guest in guests:
        await _click_verb(stub, lobby, guest, "join")
    for _ in range(ai):
        await stub.click(lobby, host, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":ai")))
    await _click_verb(stub, lobby, host, "start")
    return table_id, lobby


def labels(message: Message) -> list[str]:
    out = []
    for c in message.items():
        if c.get("type") == 2:
            out.append(c.get("label", ""))
        else:
            out += [c.get("placeholder", "")] + [o["label"] for o in c.get("options", [])]
    return out


async def play_all(stub: DiscordStub, tapis: TapisRun, table_id: int, users: dict[int, User],
                   rng: random.Random, each: Any = None, max_moves: int = 3000) -> int:
    """Play every human move by DM; ``each(table)`` after every settled step."""
    moves = 0
    while True:
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if each is not None:
            await each(table)
        if table.status != "playing":
            return moves
        await play_once(stub, tapis, table_id, users[table.to_act_users()[0]], rng)
        moves += 1
        assert moves < max_moves


async def test_motz_in_a_french_server(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    stub.guild.locale = "fr"  # type: ignore[attr-defined]
    alice.locale, bob.locale, carol.locale = "fr", "es-ES", "fr"
    table_id, lobby = await open_lobby(stub, alice, [bob, carol], 1, "motz", buy_in=200)
    assert "En attente de joueurs" in lobby.text or "Donne 1" in lobby.text
    replies = [i for i in stub.interactions.values() if i.user is bob and i.type == 3]
    assert replies and replies[0].text == (f"Te has unido a la mesa #{table_id} (entrada 200 fichas). "
                                           "La partida empieza cuando el anfitrión pulsa **Empezar**.")
    await tapis.settle()
    assert labels(lobby)[:3] == ["Ma main", "Quitter", "Réagir…"]  # then the reactions' emotes
    assert lobby.embeds[0]["title"] == f"Motz · table #{table_id}"
    assert "Donne 1 · Annonces · on attend" in lobby.text and "Places" in lobby.text
    assert stub.dms(alice)[0].embeds[0]["title"] == f"Votre main — Motz #{table_id}"
    assert stub.dms(bob)[0].embeds[0]["title"] == f"Tu mano — Motz #{table_id}"
    assert "Dónde" in stub.dms(bob)[0].text

    switched = False
    titles_after: set[str] = set()
    moves: set[str] = set()

    async def each(table: Any) -> None:
        nonlocal switched
        moves.update(lab for m in stub.dms(alice) for lab in labels(m))
        if not switched and table.version >= 4:  # mid-session, bob reads Czech from now on
            answer = await stub.slash("language", bob, stub.channel, language="cs")
            assert answer.ephemeral and answer.text == "Od teď vám Tapis bude psát v jazyce Čeština."
            switched = True
            return
        if switched:  # DMs sent or edited (in place) since: Czech
            titles_after.add(stub.dms(bob)[-1].embeds[0]["title"].split(" — ")[0])

    rng = random.Random(7)
    await play_all(stub, tapis, table_id, {u.id: u for u in (alice, bob, carol)}, rng, each)
    assert switched and "Vaše karty" in titles_after, titles_after
    assert stub.dms(bob)[-1].embeds[0]["title"] == f"Vaše karty — Motz #{table_id}"
    assert {"Passer", "Jouer"} & moves and not {"Pass", "Stand"} & moves, moves
    assert "La séance est terminée." in lobby.text
    assert "Séance terminée (" in lobby.text  # the narration of the end, in French


async def test_mus_opened_in_spanish_in_an_english_server(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User]) -> None:
    alice, bob, carol, dave = players
    for u in (alice, bob, carol, dave):
        u.locale = "es-ES"
    dave.locale = "en-GB"
    table_id, lobby = await open_lobby(stub, alice, [bob, carol, dave], 0, "mus", language="es")
    await tapis.settle()
    assert lobby.embeds[0]["title"] == f"Mus · mesa #{table_id}"
    assert "Mano 1 · Mus · esperando a" in lobby.text and "Asientos" in lobby.text
    assert labels(lobby)[:3] == ["Mi mano", "Salir", "Reaccionar…"]  # then the reactions' emotes
    first = stub.dms(alice)[0]
    assert first.embeds[0]["title"] == f"Tu mano — Mus #{table_id}"
    assert any(" de " in c for c in first.embeds[0]["description"].split(","))  # "rey de copas"
    assert stub.dms(dave)[0].embeds[0]["title"] == f"Your hand — Mus #{table_id}"
    rng = random.Random(3)
    await play_all(stub, tapis, table_id, {u.id: u for u in (alice, bob, carol, dave)}, rng)
    said = " ".join(m.text for m in stub.dms(alice))
    turn = ("Te toca", "Esperando a", "La sesión ha terminado.")
    assert "Turno" in said and any(t in said for t in turn)
    assert "La sesión ha terminado." in lobby.text


#: What may stand outside the pseudo-locale's markers in a Discord text.
_ALLOWED = [
    r"<@\d+>", r"#\d+", r"\b\w+=\S+",  # mentions, table numbers, options as typed (key=value)
    r"`[a-z_]+`",  # an unset option's name in /rules, as typed (its help says what "empty" means)
    r"\((?:[\w.]+/)+[\w.]+\)",  # an option's choices, as typed: (dead/dealer_option)
]


def unmarked(text: str, names: list[str]) -> str | None:
    """``text`` without the markers' contents, names and neutral tokens; None if no word remains."""
    rest = text
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", "", rest)
        if stripped == rest:
            break
        rest = stripped
    rest = re.sub(r"⟦[^⟧]*…$", "", rest)  # a marked text cut to Discord's length lost its closing mark
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, "")
    for pattern in _ALLOWED:
        rest = re.sub(pattern, "", rest)
    return rest if re.search(r"[^\W\d_]{2,}", rest) else None


def texts_of(message: Message) -> list[str]:
    return [t for t in [message.content, *message.text.splitlines(), *labels(message)] if t]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_text_of_a_session_goes_through_the_catalogue(
        game: str, stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    stub.guild.locale = "pseudo"  # type: ignore[attr-defined]
    humans = players[: 3 if GAMES[game].min_seats <= 3 else 4]
    for u in humans:
        u.locale = "pseudo"
    seats = GAMES[game].min_seats
    ai = max(0, seats - len(humans))
    short = {"maitre": "tours=1", "marias": "rounds=1", "motz": "rotations=1", "michigan": "rotations=1"}
    extra = {"options": short[game]} if game in short else {}
    table_id, lobby = await open_lobby(stub, humans[0], humans[1:seats], ai, game, **extra)
    names = [u.name for u in players] + ["Casino", "general", "AI", "AI 1", "AI 2"]
    seen: set[str] = set()

    async def each(table: Any) -> None:
        for t in texts_of(lobby):
            seen.add(t)

    await play_all(stub, tapis, table_id, {u.id: u for u in humans}, random.Random(1), each)
    await stub.slash("rules", humans[0], stub.channel, game=game)
    await stub.slash("balance", humans[0], stub.channel)
    # /stats, /history, /replay, /leaderboard and /admin: tests/bot/test_languages_boards.py
    for message in list(stub.store.values()):
        seen.update(texts_of(message))
    ai_names = {s.name for s in (await tapis.tables.get(table_id)).seats}
    leaks = sorted({t for t in seen if unmarked(t, names + sorted(ai_names)) is not None})
    assert leaks == [], "\n".join(leaks[:40])
