"""Levels, counts and bids as players read them (a read-through's findings), through the real
discord.py client against the stand-in:

- Marias's doublings: each flek / re button names the level it reaches and its multiplier (the
  defenders' second raise is tutti ×8, not "Flek"), and the narration, the Table field of the table
  message and of the DM say that same "tutti ×8" (the field said "flek: 3");
- Michigan's ``bid`` ([seat, amount]) names the bidder (it showed a seat index counted from 0);
- the Maître's ``manche`` counted from 1, as the image and the narration count it ("manche: 0"
  stood beside "Manche 1");
- the coach's "Estimates from {n} simulated deals" in the reader's plural form.
"""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

import pytest

from bot.i18n import translator
from bot.tables.model import Table
from bot.views.alt import table_alt
from tests.bot.test_languages_session import open_lobby, play_all
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import Message
from tests.discord_stub.tapis import TapisRun

#: The raises of a table with max_flek=4, in Czech: the button, then the level's text everywhere.
CZECH_RAISES = [("Flek ×2", "flek ×2"), ("Re ×4", "re ×4"), ("Tutti ×8", "tutti ×8"),
                ("Boty ×16", "boty ×16")]


async def czech_marias(stub: DiscordStub, players: list[User],
                       options: str = "") -> tuple[int, dict[int, User]]:
    """A Marias table of three Czech-speaking players (the table in Czech): its id and its users."""
    alice, bob, carol, _ = players
    for user in (alice, bob, carol):
        user.locale = "cs"
    extra = {"options": options} if options else {}
    table_id, _ = await open_lobby(stub, alice, [bob, carol], 0, "marias", language="cs", **extra)
    return table_id, {u.id: u for u in (alice, bob, carol)}


def _table_lines(message: Message, field: str) -> list[str]:
    embed = message.embeds[0]
    return str(next(f["value"] for f in embed.get("fields", []) if f["name"] == field)).splitlines()


async def _playing(tapis: TapisRun, table_id: int) -> tuple[Table, Any, int]:
    """The table, its state and its message id, once the bot has caught up."""
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and table.state is not None and table.message_id is not None
    return table, table.state, table.message_id


def _latest_dm(stub: DiscordStub, user: User, table_id: int, version: int) -> Message:
    prefix = f"tapis:{table_id}:{version}:"
    return next(m for m in reversed(stub.dms(user)) if any(c.startswith(prefix) for c in m.custom_ids()))


async def _click(stub: DiscordStub, tapis: TapisRun, table_id: int, users: dict[int, User],
                 pick: Any) -> tuple[User, list[str]]:
    """The seat to act clicks, in its latest DM, the move ``pick(legal)`` chooses (by its index);
    returns who clicked and the DM's button labels before the click."""
    table, state, _ = await _playing(tapis, table_id)
    seat = state.to_act()[0]
    user = users[table.seats[seat].user_id]
    legal = state.legal_actions(seat)
    index = pick(legal)
    dm = _latest_dm(stub, user, table_id, table.version)
    labels = [c.get("label", "") for c in dm.items() if c.get("type") == 2]
    button = f"tapis:{table_id}:{table.version}:mv:{seat}.{index}"
    if button in dm.custom_ids():
        inter = await stub.click(dm, user, custom_id=button)
    else:  # a move in a select (Michigan's many bids)
        select = next(c for c in dm.selects() if str(index) in {o["value"] for o in c["options"]})
        inter = await stub.choose(dm, user, [str(index)], custom_id=select["custom_id"])
    assert inter.callback_type in (6, 7), inter.text
    return user, labels


def _first_not_bad(legal: list[dict[str, Any]]) -> int:
    return next(i for i, a in enumerate(legal) if a["type"] != "bad")


async def test_marias_doublings_named_alike_in_buttons_narration_and_fields(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    table_id, users = await czech_marias(stub, players, "max_flek=4")
    tr = translator("cs")
    field = tr._("Table")
    for _ in range(40):  # trump, contract, two discards, answers: up to the doublings
        _, state, _ = await _playing(tapis, table_id)
        if state.view(None)["phase"] == "flek":
            break
        await _click(stub, tapis, table_id, users, _first_not_bad)
    raised = 0
    for button, text in CZECH_RAISES:
        user, labels = await _click(stub, tapis, table_id, users,
                                    lambda legal: next(i for i, a in enumerate(legal) if a["type"] != "pass"))
        assert button in labels, (button, labels)
        raised += 1
        table, state, message_id = await _playing(tapis, table_id)
        who = next(s.name for s in table.seats if s.user_id == user.id)
        message = stub.message(message_id)
        assert f"{who}: {text}." in message.text, message.text
        assert f"{tr.p_('view field', 'flek')}: {text}" in _table_lines(message, field), message.text
        shown = [user, *(users[u] for u in table.to_act_users())]  # the mover's DM, the next one's
        for reader in shown:
            assert f"{tr.p_('view field', 'flek')}: {text}" in _table_lines(stub.dms(reader)[-1], field)
        names = [s.name for s in table.seats]
        assert f"flek: {text}" in table_alt("marias", table_id, state.view(None), names, tr)
        if state.view(None)["phase"] != "flek":
            break
    assert raised == 4


async def test_marias_in_czech_overcalls_and_points(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    """A Czech read-through: a "bad" overcalls a contract, a "hra" (přebíjí hru: Hra), not a marriage
    ("hláška", as it read); the points are the soloist's and the defenders' ("aktér 0 – obrana 0"),
    not two bare figures beside the per-seat card points."""
    table_id, users = await czech_marias(stub, players)
    for _ in range(12):  # trump, contract, two discards, then the first answer is "bad"
        _, state, _ = await _playing(tapis, table_id)
        if state.view(None)["phase"] == "answer":
            break
        await _click(stub, tapis, table_id, users, _first_not_bad)
    user, labels = await _click(stub, tapis, table_id, users,
                                lambda legal: next(i for i, a in enumerate(legal) if a["type"] == "bad"))
    assert "Špatný" in labels, labels
    table, state, message_id = await _playing(tapis, table_id)
    who = next(s.name for s in table.seats if s.user_id == user.id)
    text = stub.message(message_id).text
    assert f"{who}: špatný! Bere talon (přebíjí hru: Hra)." in text, text
    assert "hlášku" not in text, text
    field = translator("cs")._("Table")
    assert "body: aktér 0 – obrana 0" in _table_lines(stub.message(message_id), field)
    assert "body: aktér 0 – obrana 0" in _table_lines(stub.dms(user)[-1], field)
    cs = translator("cs")
    names = [s.name for s in table.seats]
    assert "body: aktér 30 – obrana 100" in table_alt("marias", table_id, {"points": [30, 100]}, names, cs)


async def test_michigan_bid_names_the_bidder(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The spare hand's highest bid is "bid: alice, 3 jetons" (it was "bid: 0 · 3") in the table message,
    the bidder's and the next bidder's hands and the image's alt text."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="michigan",
                                   options="spare_hand=dealer_option")
    users = {u.id: u for u in (alice, bob, carol)}
    await _click(stub, tapis, table_id, users, lambda legal: next(
        i for i, a in enumerate(legal) if a["type"] == "keep"))
    bidder, _ = await _click(stub, tapis, table_id, users, lambda legal: next(
        i for i, a in enumerate(legal) if a.get("amount") == 3))
    table, state, message_id = await _playing(tapis, table_id)
    bid = state.view(None)["bid"]
    assert bid is not None and bid[1] == 3
    expected = f"bid: {table.seats[bid[0]].name}, 3 jetons"
    message = stub.message(message_id)
    assert expected in _table_lines(message, "Table"), message.text
    for reader in (bidder, *(users[u] for u in table.to_act_users())):  # the bidder's DM, the next one's
        assert expected in _table_lines(stub.dms(reader)[-1], "Table"), stub.dms(reader)[-1].text
    names = [s.name for s in table.seats]
    assert expected in table_alt("michigan", table_id, state.view(None), names, translator("en"))


async def test_maitre_manche_counted_from_one(stub: DiscordStub, tapis: TapisRun,
                                              players: list[User]) -> None:
    """The first manche is "manche: 1" in the table message, the hands and the alt text, as the image
    ("Manche 1"), the narration and the header ("Deal 1") count it; it was "manche: 0"."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="maitre")
    table, state, message_id = await _playing(tapis, table_id)
    assert state.view(None)["manche"] == 0
    message = stub.message(message_id)
    assert "Deal 1 · Coffre" in message.text  # the header counts from 1 too
    assert "manche: 1" in _table_lines(message, "Table"), message.text
    for user in (alice, bob, carol):
        assert "manche: 1" in _table_lines(stub.dms(user)[-1], "Table"), stub.dms(user)[-1].text
    names = [s.name for s in table.seats]
    assert "manche: 1" in table_alt("maitre", table_id, state.view(None), names, translator("en"))


def test_coach_estimates_in_the_plural_form_of_the_reader() -> None:
    """One simulated deal is singular; Czech has three forms (1, 2–4, 5 and more)."""
    from bot.ai.coach import Hint, HintMove, hint_sentence

    def sentence(n: int, lang: str) -> str:
        moves = (HintMove({"type": "pass"}, 0.5, 1.0, n), HintMove({"type": "bid", "amount": 1}, 0.4, 0.0, 0))
        return hint_sentence(Hint(moves, "jetons", n), lambda a: str(a["type"]), translator(lang))

    assert sentence(1, "en").endswith("(Estimates from 1 simulated deal, to the end of this deal.)")
    assert sentence(200, "en").endswith("(Estimates from 200 simulated deals, to the end of this deal.)")
    assert "na základě 1 simulovaného rozdání" in sentence(1, "cs")
    assert "na základě 3 simulovaných rozdání" in sentence(3, "cs")
    assert "sur 1 donne simulée" in sentence(1, "fr")


async def test_marias_hand_text_in_the_image_order(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """In a suit contract the ten ranks between the ace and the king: the DM's text lists a hand as its
    image does ("A🍃 10🍃 K🍃"), not in the engine's canonical order ("A🍃 K🍃 … 10🍃")."""

    from bot.render.hand import sort_hand
    from bot.rules.looks import CZECH, Look
    from bot.views.display import cards

    monkeypatch.setattr(secrets, "randbits", lambda bits: 7)  # the table's seed: a fixed deal
    table_id, users = await czech_marias(stub, players)
    await _click(stub, tapis, table_id, users, _first_not_bad)  # trumps: forehand sees its 12 cards
    table, state, _ = await _playing(tapis, table_id)
    cs = translator("cs").dressed(Look(CZECH))  # Marias's own pack, as the DMs show it
    differs = 0
    for seat, info in enumerate(table.seats):
        assert info.user_id is not None
        view = state.view(seat)
        held = stub.dms(users[info.user_id])[-1].embeds[0]["description"].splitlines()[0]
        assert held == f"**{cards(sort_hand('marias', view, view['hand']), 'marias', cs)}**", held
        differs += held != f"**{cards(view['hand'], 'marias', cs)}**"
    assert differs, "this deal's hands read the same in both orders: no check"


def test_marias_deal_end_counts_units_and_pays_in_jetons() -> None:
    """A deal's result: its units in the reader's plural form ("+1 unit"; it read "+1 units"; Czech keeps
    "jednotky: −10", no agreement needed), and the payments in jetons, in the reader's plural form (a
    stake of 5 pays 50 for 10 units: "pays 50" beside "−10 units" left the reader to guess)."""
    from bot.rules import GAMES

    betl = {"type": "deal_end", "contract": "betl", "soloist": 0, "trump": None, "conceded": False, "flek": 1,
            "components": [["betl", False, 5]], "points": [0, 0], "units": -10,
            "payments": [[0, 1, 50], [0, 2, 50]]}
    hra = {"type": "deal_end", "contract": "hra", "soloist": 1, "trump": "H", "conceded": True, "flek": 0,
           "components": [["hra", True, 1]], "points": [0, 0], "units": 1, "payments": [[0, 1, 1], [2, 1, 1]]}
    who = ["Jana", "Petr", "Karel"].__getitem__
    marias = GAMES["marias"]
    en, cs = translator("en"), translator("cs")
    assert marias.narrate(hra, who, en) == ("Petr's Hra in hearts (conceded): game won (1); +1 unit. "
                                            "Jana pays 1 jeton to Petr; Karel pays 1 jeton to Petr.")
    assert marias.narrate(betl, who, cs) == (
        "Betl (Jana), flek ×2: betl – prohra (5); jednotky: −10. "
        "Jana platí hráči Petr 50 žetonů; Jana platí hráči Karel 50 žetonů.")
    assert "jednotky: +1. Jana platí hráči Petr 1 žeton;" in str(marias.narrate(hra, who, cs))


async def test_a_czech_marias_session_reads_alike_throughout(stub: DiscordStub, tapis: TapisRun,
                                                             players: list[User],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole session in Czech, every move clicked in the DMs: every doubling button, Table field and
    narration names its level with its multiplier, the points are the soloist's and the defenders', and
    no overcall is called a marriage."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 11)  # the table's seed: fixed deals
    table_id, users = await czech_marias(stub, players, "rounds=1 max_flek=4")
    raises: set[str] = set()

    async def each(table: Table) -> None:
        for user in users.values():
            for c in stub.dms(user)[-1].items():
                label = c.get("label", "")
                if c.get("type") == 2 and label.split(" ")[0] in ("Flek", "Re", "Tutti", "Boty"):
                    assert re.fullmatch(r"(Flek ×2|Re ×4|Tutti ×8|Boty ×16)", label), label
                    raises.add(label)

    await play_all(stub, tapis, table_id, users, random.Random(3), each)
    over = await _playing_or_over(tapis, table_id)
    assert over.status == "finished" and over.message_id is not None
    texts = [stub.message(over.message_id).text,
             *(m.text for u in users.values() for m in stub.dms(u))]
    level = r"(—|flek ×2|re ×4|tutti ×8|boty ×16)"
    for text in texts:
        for line in text.splitlines():
            if line.startswith("flek: "):
                assert re.fullmatch(f"flek: {level}", line), line
            if line.startswith("body: "):
                assert re.fullmatch(r"body: aktér \d+ – obrana \d+", line), line
        assert "hlášku:" not in text, text
    assert raises, "no doubling was offered in this session: no check"


async def _playing_or_over(tapis: TapisRun, table_id: int) -> Table:
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None
    return table
