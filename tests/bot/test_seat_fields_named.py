"""A view field that names a seat (``Vocabulary.seat_fields``: Mus's mano, Marias's soloist) is shown
by the player's name in the table message and the hand DM, never as a bare seat index."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.rules import GAMES
from bot.tables.model import SeatInfo, Table
from bot.views.display import hand_embed, table_embed
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

NAMES = ["Ane", "Bixen", "Koldo", "Dani"]


def _table(game: str, seats: int, seed: int) -> Table:
    rules = GAMES[game]
    options = rules.validate_options({})
    state = rules.new_table(seats=seats, options=options, seed=seed)
    infos = [SeatInfo(user_id=i + 1, name=NAMES[i]) for i in range(seats)]
    return Table(id=7, guild_id=1, channel_id=2, message_id=3, host_id=1, game=game, rules=rules,
                 options=options, seed=seed, seats=infos, status="playing", state=state)


def _field(embed: dict, name: str) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


def test_mus_mano_is_named_in_the_table_message_and_the_hand() -> None:
    table = _table("mus", 4, 5)
    assert table.state is not None
    mano = table.state.view(None)["mano"]
    for lang in ("es", "eu", "en"):
        tr = translator(lang)
        word = tr.p_("view field", "mano")
        for embed in (table_embed(table, [], [], tr).to_dict(),
                      hand_embed(table, 0, "Club", "mus", tr=tr).to_dict()):
            fields = _field(embed, tr._("Table")).splitlines()
            assert f"{word}: {NAMES[mano]}" in fields, fields


def test_marias_soloist_is_named_in_the_table_message_and_the_hand() -> None:
    table = _table("marias", 3, 3)
    state = table.state
    assert state is not None
    while state.view(None).get("soloist") is None:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
        table.version += 1
    soloist = state.view(None)["soloist"]
    tr = translator("cs")
    word = tr.p_("view field", "soloist")
    for embed in (table_embed(table, [], [], tr).to_dict(),
                  hand_embed(table, 1, "Klub", "marias", tr=tr).to_dict()):
        fields = _field(embed, tr._("Table")).splitlines()
        assert f"{word}: {NAMES[soloist]}" in fields, fields


async def test_michigan_hand_sizes_are_named_for_a_spectator(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User]) -> None:
    """A member who does not play reads the table message: each hand size after its player's name
    (it was "hand sizes: 10 · 12 · 3", which left them counting seats in another field)."""
    alice, bob, _, _ = players
    table_id, message = await open_table(stub, alice, [bob], ai=1, game="michigan")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    sizes = table.state.view(None)["hand_sizes"]
    line = next(x for x in message.text.splitlines() if x.startswith("hand sizes:"))
    assert line == f"hand sizes: alice {sizes[0]} · bob {sizes[1]} · AI 1 {sizes[2]}", line


@pytest.mark.parametrize(("game", "keys"), [("marias", ("hand_sizes", "card_points")),
                                            ("maitre", ("hand_counts", "discard_counts", "tricks_won",
                                                        "points", "strikes"))])
def test_a_figure_per_seat_is_named(game: str, keys: tuple[str, ...]) -> None:
    table = _table(game, 3, 4)
    assert table.state is not None
    view = table.state.view(None)
    tr = translator("fr")
    fields = _field(table_embed(table, [], [], tr).to_dict(), tr._("Table")).splitlines()
    for key in keys:
        figures = " · ".join(f"{NAMES[s]} {tr.number(v)}" for s, v in enumerate(view[key]))
        assert any(line.endswith(": " + figures) for line in fields), (key, fields)


def test_the_eliminated_are_named_and_none_is_a_dash() -> None:
    from bot.views.vocab import seat_figures_text
    tr = translator("en")
    assert seat_figures_text("eliminated", [False, True, True], "maitre", NAMES[:3], tr) == "Bixen · Koldo"
    assert seat_figures_text("eliminated", [False] * 3, "maitre", NAMES[:3], tr) == "—"
    assert seat_figures_text("strikes", [1, 2], "maitre", NAMES[:3], tr) is None  # not one per seat
