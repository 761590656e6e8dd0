"""Card faces per player and the Czech pack at Marias, through the real discord.py client (issue 30).

- ``/cards`` stores a person's faces and pack (migration 0007, ``card_faces``), keeps what they
  did not choose, refuses a forged value in their language and survives a restart;
- at a Marias table (the Czech pack by default) a player who chose the French suits in four
  colours gets their hand in them (image and text), another player the Czech pack; the table
  message and image follow the table's options (``pack``, ``faces``), not any player's choice.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.i18n import translator
from bot.render import hand_image, table_image
from bot.render.replay import decode_frames
from bot.rules.looks import CZECH, FOUR_COLOUR, FRENCH, LARGE, Look
from tests.backends import BACKENDS
from tests.bot.test_languages_session import open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun

CZECH_SIGNS = ("🍃", "🔔", "🌰")
FOUR_COLOUR_SIGNS = ("🔷", "☘️")


def _png(data: bytes) -> bytes:
    """The image's pixels (compare images, not their encodings)."""
    return Image.open(io.BytesIO(data)).convert("RGB").tobytes()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_cards_command_stores_the_choice(stub: DiscordStub, tapis: TapisRun,
                                               players: list[User]) -> None:
    alice, bob, *_ = players
    shown = await stub.slash("cards", alice, stub.channel)
    assert shown.ephemeral and shown.text.startswith("Your cards: faces as the table shows them; pack: as")
    chosen = await stub.slash("cards", alice, stub.channel, faces="four_colour", pack="french")
    assert chosen.text.startswith("Your cards: faces four colours (one per suit); pack: the French suits")
    row = await tapis.db.fetchone("SELECT faces, pack FROM card_faces WHERE user_id = ?", (alice.id,))
    assert tuple(row) == ("four_colour", "french")
    await stub.slash("cards", alice, stub.channel, faces="large")  # the pack stays as chosen
    assert await tapis.bot.card_faces.get(alice.id) == ("large", "french")

    bob.locale = "cs"
    forged = await stub.slash("cards", bob, stub.channel, faces="tiny")
    assert forged.ephemeral and forged.text == ("Neznámý vzhled karet: vyberte klasické, čtyřbarevné nebo "
                                                "velké indexy.")
    assert await tapis.bot.card_faces.get(bob.id) == (None, None)
    czech = await stub.slash("cards", bob, stub.channel, pack="native")
    assert czech.text.startswith("Vaše karty: vzhled podle stolu; balíček: vlastní karty každé hry")

    await tapis.settle()
    await tapis.stop()
    await tapis.restart()
    assert await tapis.bot.card_faces.get(alice.id) == ("large", "french")
    assert await tapis.bot.card_faces.get(bob.id) == (None, "native")


async def test_a_marias_table_in_the_czech_pack_and_a_player_in_french_four_colours(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    await stub.slash("cards", alice, stub.channel, faces="four_colour", pack="french")
    table_id, lobby = await open_lobby(stub, carol, [alice, bob], 0, "marias")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and table.options["pack"] == "czech" and table.options["faces"] == "classic"

    def dm_text(user: User) -> str:
        first = stub.dms(user)[-1]
        return first.text + " ".join(str(e.get("description", "")) for e in first.embeds)

    # each hand's every card in its reader's look, and no sign of the other look (the deal is
    # random: a hand of spades and hearts alone shows no four-colour sign, so none is required)
    state = table.state
    assert state is not None
    four, czech = translator("en").dressed(Look(FRENCH, FOUR_COLOUR)), translator("en").dressed(Look(CZECH))
    alice_text, bob_text = dm_text(alice), dm_text(bob)
    alice_hand, bob_hand = (state.view(table.seat_of(u.id))["hand"] for u in (alice, bob))
    assert all(four.card(c) in alice_text for c in alice_hand), alice_text
    assert not any(s in alice_text for s in CZECH_SIGNS)
    assert all(czech.card(c) in bob_text for c in bob_hand), bob_text
    assert not any(s in bob_text for s in FOUR_COLOUR_SIGNS)
    own = await stub.slash("hand", alice, stub.channel, table=table_id)  # /hand: her look too
    assert own.ephemeral and all(four.card(c) in own.text for c in alice_hand), own.text
    assert not any(s in own.text for s in CZECH_SIGNS)

    # the hand images: each in its reader's look (compared with the renderer's own drawing)
    for user, look in ((alice, Look(FRENCH, FOUR_COLOUR)), (bob, Look(CZECH))):
        seat = table.seat_of(user.id)
        assert seat is not None
        dm = stub.dms(user)[-1]
        image = next(a for a in dm.attachments if a.filename == "hand.png")
        view = state.view(seat)
        playable = {a["card"] for a in state.legal_actions(seat) if "card" in a} \
            if seat in state.to_act() else set()
        expected = hand_image("marias", view, playable, translator("en").dressed(look))
        assert _png(image.data) == _png(expected), user.name

    # forehand names trumps: the trump card shows on the table message in the table's look (Czech
    # pack, classic faces), whoever chose what; the mover's answer names it in the mover's look
    mover = next(u for u in (alice, bob, carol) if table.seat_of(u.id) in state.to_act())
    answer = await play_once(stub, tapis, table_id, mover, random.Random(1))
    await tapis.settle()
    assert (mover is alice) != any(s in answer.text for s in CZECH_SIGNS + ("O♥️", "U♥️"))
    state = table.state
    assert state is not None and state.view(None).get("trump_card")
    shown = next(a for a in lobby.attachments if a.filename.startswith("table-"))
    names = [s.name for s in table.seats]
    czech_table = table_image("marias", state.view(None), names, translator("en").dressed(Look(CZECH)))
    french_table = table_image("marias", state.view(None), names,
                               translator("en").dressed(Look(FRENCH, FOUR_COLOUR)))
    assert _png(shown.data) == _png(czech_table) != _png(french_table)
    czech = translator("en").dressed(Look(CZECH))
    trump_card = state.view(None)["trump_card"]
    named = czech.card(trump_card)  # "O♥️": the Ober, as the Czech pack names it
    assert f"trumps showing {named}." in lobby.text and named != translator("en").card(trump_card)


async def test_a_marias_table_opened_with_the_french_pack(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """The host's options choose the table's look; a player without a choice follows it."""
    alice, bob, carol, _ = players
    table_id, lobby = await open_lobby(stub, carol, [alice, bob], 0, "marias",
                                       options="pack=french faces=large")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and (table.options["pack"], table.options["faces"]) == ("french", "large")
    text = " ".join(str(e.get("description", "")) for e in stub.dms(bob)[0].embeds)
    assert any(s in text for s in ("♠", "♥", "♦", "♣")) and not any(s in text for s in CZECH_SIGNS)
    # a replay of its deal shows it as the table did: its last frame is the table image in its look
    state = table.state
    assert state is not None
    mover = next(u for u in (alice, bob, carol) if table.seat_of(u.id) in state.to_act())
    await play_once(stub, tapis, table_id, mover, random.Random(3))
    await tapis.settle()
    await stub.slash("replay", alice, stub.channel, table=table_id, deal=1)
    await tapis.settle()
    replay = next(a for m in stub.store.values() for a in m.attachments if a.filename.startswith("replay-"))
    names = [s.name for s in table.seats]
    now = table.state
    assert now is not None and now.view(None).get("trump_card")  # a card the replay's frames show
    shown = table_image("marias", now.view(None), names, translator("en").dressed(Look(FRENCH, LARGE)))
    last = decode_frames(replay.data)[-1]
    assert last.tobytes() == Image.open(io.BytesIO(shown)).convert("RGB").tobytes()


async def test_history_tells_a_marias_deal_in_the_tables_pack(stub: DiscordStub, tapis: TapisRun,
                                                              players: list[User]) -> None:
    """/history's deal stories name the cards as the table message did (the Czech pack)."""
    from bot.views.history import load_session
    from tests.bot.test_boards import marias_session

    alice, bob, *_ = players
    table_id = await marias_session(stub, tapis, [alice, bob])
    loaded = await load_session(tapis.bot, stub.guild.id, table_id, translator("en"))  # type: ignore[arg-type]
    assert loaded is not None
    told = " ".join(line for deal in loaded[2] for line in deal.lines)
    assert any(s in told for s in CZECH_SIGNS) and not any(s in told for s in ("♠", "♦", "♣"))
